// RUN: vichls-opt -p hoist-loop-invariants %s | filecheck %s
// Arithmetic on values from outside the loop moves before it; what depends on the
// induction variable stays.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) attributes {vichls.kernel} {
    %lb = arith.constant 0 : index
    %ub = arith.constant 8 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %sq = arith.muli %p, %p : i32
      %x = memref.load %a[%i] : memref<8xi32>
      %y = arith.addi %x, %sq : i32
      memref.store %y, %a[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      %[[SQ:.*]] = arith.muli %p, %p : i32
// CHECK-NEXT: scf.for %i
// CHECK-NEXT:   %[[X:.*]] = memref.load %a[%i]
// CHECK-NEXT:   arith.addi %[[X]], %[[SQ]] : i32
