// RUN: vichls-opt -p fuse-pipelines %s | filecheck %s
// Flattened 4x4 sweeps left apart: the second reads B[4][4] in every iteration, which the
// first writes in its last (the shift would be a whole loop: nothing to overlap), and a
// sweep whose index mixes the row and the column in one dimension (C[4 i + j], beyond the
// analysis: it may meet the first at any iterations), and a flattened sweep after a loop
// counting from 1 (its row and column would not be the fused loop's: the fused body's
// forms, and the schedule's exact distances, would be lost).

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%A: memref<6x6xi32> {vichls.name = "A", vichls.type = "int32"}, %B: memref<6x6xi32> {vichls.name = "B", vichls.type = "int32"}, %C: memref<36xi32> {vichls.name = "C", vichls.type = "int32"}) attributes {vichls.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    // CHECK: scf.for %t =
    scf.for %t = %c0 to %c16 step %c1 {
      %q = arith.divui %t, %c4 : index
      %i = arith.addi %q, %c1 : index
      %r = arith.remui %t, %c4 : index
      %j = arith.addi %r, %c1 : index
      %x = memref.load %A[%i, %j] : memref<6x6xi32>
      memref.store %x, %B[%i, %j] : memref<6x6xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %u =
    scf.for %u = %c0 to %c16 step %c1 {
      %q2 = arith.divui %u, %c4 : index
      %r2 = arith.remui %u, %c4 : index
      %v = memref.load %B[%c4, %c4] : memref<6x6xi32>
      memref.store %v, %C[%u] : memref<36xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %w =
    scf.for %w = %c0 to %c16 step %c1 {
      %q3 = arith.divui %w, %c4 : index
      %r3 = arith.remui %w, %c4 : index
      %k = arith.muli %q3, %c4 : index
      %l = arith.addi %k, %r3 : index
      %y = memref.load %C[%l] : memref<36xi32>
      memref.store %y, %A[%q3, %r3] : memref<6x6xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %p =
    scf.for %p = %c1 to %c16 step %c1 {
      %z = arith.index_cast %p : index to i32
      memref.store %z, %C[%p] : memref<36xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %s =
    scf.for %s = %c0 to %c16 step %c1 {
      %q4 = arith.divui %s, %c4 : index
      %r4 = arith.remui %s, %c4 : index
      %e = memref.load %C[%q4] : memref<36xi32>
      memref.store %e, %B[%q4, %r4] : memref<6x6xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK-NOT: vichls.fused
