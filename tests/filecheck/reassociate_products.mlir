// RUN: vichls-opt -p reassociate-products %s | filecheck %s
// In a[i] * p * q the invariant factors are multiplied first, and that product is then
// hoisted out of the loop: one multiplier in the loop instead of two.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<8xi32> {vichls.name = "b", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}, %q: i32 {vichls.name = "q", vichls.type = "int32"}) attributes {vichls.kernel} {
    %0 = arith.constant 0 : index
    %1 = arith.constant 8 : index
    %2 = arith.constant 1 : index
    scf.for %i = %0 to %1 step %2 {
      %3 = memref.load %a[%i] : memref<8xi32>
      %4 = arith.muli %3, %p : i32
      %5 = arith.muli %4, %q : i32
      memref.store %5, %b[%i] : memref<8xi32>
    }
    func.return
  }
}


// CHECK:      %[[PQ:.*]] = arith.muli %q, %p : i32
// CHECK-NEXT: scf.for %i
// CHECK-NEXT:   %[[X:.*]] = memref.load %a[%i]
// CHECK-NEXT:   %[[Y:.*]] = arith.muli %[[PQ]], %[[X]] : i32
// CHECK-NEXT:   memref.store %[[Y]], %b[%i]
