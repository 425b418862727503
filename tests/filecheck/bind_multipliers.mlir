// RUN: vichls-opt -p bind-multipliers %s | filecheck %s
// Two loops that run one after another each multiply: both multiplies are bound to one
// unit (vichls.unit 0), shared by two (vichls.sharers), so the design needs one DSP cell.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<8xi32> {vichls.name = "b", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) attributes {vichls.kernel} {
    %0 = arith.constant 0 : index
    %1 = arith.constant 8 : index
    %2 = arith.constant 1 : index
    scf.for %i = %0 to %1 step %2 {
      %3 = memref.load %a[%i] : memref<8xi32>
      %4 = arith.muli %3, %p : i32
      memref.store %4, %a[%i] : memref<8xi32>
    }
    scf.for %i_1 = %0 to %1 step %2 {
      %5 = memref.load %b[%i_1] : memref<8xi32>
      %6 = memref.load %a[%i_1] : memref<8xi32>
      %7 = arith.muli %5, %6 : i32
      memref.store %7, %b[%i_1] : memref<8xi32>
    }
    func.return
  }
}


// CHECK: arith.muli %{{.*}}, %p {vichls.unit = 0 : i64, vichls.sharers = 2 : i64} : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} {vichls.unit = 0 : i64, vichls.sharers = 2 : i64} : i32
