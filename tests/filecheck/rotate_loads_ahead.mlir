// RUN: vichls-opt --split-input-file -p rotate-loads %s | filecheck %s
// Every array the loop only reads is read one iteration ahead: from a register in the body,
// refilled at the end of the body for the next iteration (index 0 once the loop is over),
// the first iteration's elements read before the loop. B, which the loop writes, is left.

builtin.module {
  func.func @f(%A: memref<8x8xi32>, %B: memref<8xi32>, %alpha: i32, %C: memref<8xi32>, %i: index) {
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
      memref.store %s2, %C[%j] : memref<8xi32>
      scf.yield
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%A: memref<8x8xi32>, %B: memref<8xi32>, %alpha: i32, %C
// CHECK-COUNT-3: memref.alloca() : memref<i32>
// CHECK:         memref.load %A[%i, %c1] : memref<8x8xi32>
// CHECK:         memref.load %B[%c0] : memref<8xi32>
// CHECK:         memref.load %B[%c0] : memref<8xi32>
// CHECK:         scf.for %j
// CHECK:           %ld = memref.load %A_next[] : memref<i32>
// CHECK:           %b = memref.load %B_next{{.*}}[] : memref<i32>
// CHECK:           %bb = memref.load %B_next{{.*}}[] : memref<i32>
// CHECK:           memref.store %s2, %C[%j] : memref<8xi32>
// CHECK:           %[[AI:.*]] = arith.select %{{.*}}, %i, %{{.*}} : index
// CHECK:           memref.load %A[%[[AI]], %{{.*}}] : memref<8x8xi32>
// CHECK:           %[[BJ:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      memref.load %B[%[[BJ]]] : memref<8xi32>
// CHECK:           %[[B0:.*]] = arith.select %{{.*}}, %c0, %{{.*}} : index
// CHECK-NEXT:      memref.load %B[%[[B0]]] : memref<8xi32>

// -----

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

// CHECK-LABEL: func.func @f(%A: memref<8x8xi32>, %B: memref<8xi32>, %alpha: i32, %i
// CHECK:         scf.for %j
// CHECK:           %ld = memref.load %A_next[] : memref<i32>
// CHECK:           %b = memref.load %B[%j] : memref<8xi32>
// CHECK-NEXT:      %bb = memref.load %B[%c0] : memref<8xi32>
// CHECK-NOT:       B_next
