// RUN: vichls-opt -p if-convert-scalars %s | filecheck %s
// Outside pipelines, an if holding only a cheap update of a register that the code after it
// reads back becomes a select: the branch costs no state of its own.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %m = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %m[] : memref<i32>
    %lb = arith.constant 0 : index
    %ub = arith.constant 8 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %x = memref.load %a[%i] : memref<8xi32>
      %c = arith.cmpi sgt, %x, %p : i32
      scf.if %c {
        %v = memref.load %m[] : memref<i32>
        %one = arith.constant 1 : i32
        %w = arith.addi %v, %one : i32
        memref.store %w, %m[] : memref<i32>
      }
      %r = memref.load %m[] : memref<i32>
      memref.store %r, %a[%i] : memref<8xi32>
    }
    %out = memref.load %m[] : memref<i32>
    func.return %out : i32
  }
}

// CHECK:      %c = arith.cmpi sgt, %x, %p : i32
// CHECK-NOT:  scf.if
// CHECK:      %w = arith.addi %v, %one : i32
// CHECK-NEXT: %[[OLD:.*]] = memref.load %m[] : memref<i32>
// CHECK-NEXT: %[[NEW:.*]] = arith.select %c, %w, %[[OLD]] : i32
// CHECK-NEXT: memref.store %[[NEW]], %m[] : memref<i32>
