// RUN: vichls-opt --split-input-file -p hoist-loop-invariants %s | filecheck %s
// A is never stored in the loop: its load and the products move out; B is stored in it:
// both of its loads stay, even the invariant one, and so does what depends on them.

builtin.module {
  func.func @f(%A: memref<8x8xi32>, %B: memref<8xi32>, %alpha: i32, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %row = arith.muli %i, %c8 : index
      %k = arith.addi %row, %c1 : index
      %ld = memref.load %A[%i, %c1] : memref<8x8xi32>
      %p = arith.muli %alpha, %ld : i32
      %b = memref.load %B[%j] : memref<8xi32>
      %bb = memref.load %B[%c0] : memref<8xi32>
      %s = arith.addi %p, %b : i32
      %s2 = arith.addi %s, %bb : i32
      memref.store %s2, %B[%j] : memref<8xi32>
      scf.yield
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%A: memref<8x8xi32>
// CHECK:         %row = arith.muli %i, %c8 : index
// CHECK-NEXT:    %k = arith.addi %row, %c1 : index
// CHECK-NEXT:    %ld = memref.load %A[%i, %c1] : memref<8x8xi32>
// CHECK-NEXT:    %p = arith.muli %alpha, %ld : i32
// CHECK-NEXT:    scf.for %j
// CHECK-NEXT:      %b = memref.load %B[%j] : memref<8xi32>
// CHECK-NEXT:      %bb = memref.load %B[%c0] : memref<8xi32>

// -----

// A load hoisted out of a loop that may not run reads an index that is in range whether
// or not it runs (a select on the trip test); a loop that stores to A keeps its load.

builtin.module {
  func.func @f(%A: memref<8xi32>, %n: index, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %n step %c1 {
      %a = memref.load %A[%i] : memref<8xi32>
      memref.store %a, %A[%j] : memref<8xi32>
      scf.yield
    }
    scf.for %j = %c0 to %n step %c1 {
      %a = memref.load %A[%i] : memref<8xi32>
      %r = memref.alloca() : memref<i32>
      memref.store %a, %r[] : memref<i32>
      scf.yield
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%A: memref<8xi32>, %n: index, %i: index)
// CHECK:         scf.for %j
// CHECK-NEXT:      %a = memref.load %A[%i] : memref<8xi32>
// CHECK-NEXT:      memref.store %a, %A[%j] : memref<8xi32>
// CHECK:         %[[RUNS:.*]] = arith.cmpi slt, %c0, %n : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[AT:.*]] = arith.select %[[RUNS]], %i, %[[ZERO]] : index
// CHECK-NEXT:    %[[A:.*]] = memref.load %A[%[[AT]]] : memref<8xi32>
// CHECK-NEXT:    scf.for
// CHECK-NOT:       memref.load
// CHECK:           memref.store %[[A]]
