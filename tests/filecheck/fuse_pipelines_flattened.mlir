// RUN: vichls-opt -p fuse-pipelines %s | filecheck %s
// Two flattened 4x4 sweeps (t // 4 and t % 4 are a nest's i and j, both from 1): the
// second reads B[i + 1][j + 1], which the first writes a row and a column later, 5
// iterations; the shift is rounded up to a whole row, 8, so that the second body's row
// and column are the fused loop's own, the row less 2 (t // 4 and t % 4 once: counters
// step-divided-ivs steps, forms the dependence analysis reads).

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%A: memref<6x6xi32> {vichls.name = "A", vichls.type = "int32"}, %B: memref<6x6xi32> {vichls.name = "B", vichls.type = "int32"}) attributes {vichls.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %q = arith.divui %t, %c4 : index
      %i = arith.addi %q, %c1 : index
      %r = arith.remui %t, %c4 : index
      %j = arith.addi %r, %c1 : index
      %x = memref.load %A[%i, %j] : memref<6x6xi32>
      %s = arith.addi %x, %x : i32
      memref.store %s, %B[%i, %j] : memref<6x6xi32>
    } {vichls.pipeline = 1 : i64}
    scf.for %u = %c0 to %c16 step %c1 {
      %q2 = arith.divui %u, %c4 : index
      %i2 = arith.addi %q2, %c1 : index
      %r2 = arith.remui %u, %c4 : index
      %j2 = arith.addi %r2, %c1 : index
      %ib = arith.addi %i2, %c1 : index
      %jb = arith.addi %j2, %c1 : index
      %v = memref.load %B[%ib, %jb] : memref<6x6xi32>
      memref.store %v, %A[%i2, %j2] : memref<6x6xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK:      %[[UB:.*]] = arith.constant 24 : index
// CHECK-NEXT: scf.for %t = %c0 to %[[UB]] step %c1 {
// CHECK-NEXT:   %[[END1:.*]] = arith.constant 16 : index
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi slt, %t, %[[END1]] : index
// CHECK-NEXT:   scf.if %[[FIRST]] {
// CHECK-NEXT:     %q = arith.divui %t, %c4 : index
// CHECK:          memref.store %s, %B[%i, %j] : memref<6x6xi32>
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[START2:.*]] = arith.constant 8 : index
// CHECK-NEXT:   %[[SECOND:.*]] = arith.cmpi sge, %t, %[[START2]] : index
// CHECK-NEXT:   scf.if %[[SECOND]] {
// CHECK-NEXT:     %[[ROW:.*]] = arith.divui %t, %c4 : index
// CHECK-NEXT:     %[[BACK:.*]] = arith.constant -2 : index
// CHECK-NEXT:     %q2 = arith.addi %[[ROW]], %[[BACK]] : index
// CHECK-NEXT:     %i2 = arith.addi %q2, %c1 : index
// CHECK-NEXT:     %r2 = arith.remui %t, %c4 : index
// CHECK:          memref.store %v, %A[%i2, %j2] : memref<6x6xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: } {vichls.pipeline = 1 : i64, vichls.fused = "t, u (+8)"}
// CHECK-NOT:  scf.for
