// RUN: vichls-opt --split-input-file -p div-by-constant %s | filecheck %s
// j // 25 and j % 25 for j in 0..24 are 0 and j: no arithmetic at all.

builtin.module {
  func.func @f(%out: memref<25xindex>, %rem: memref<25xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c25 = arith.constant 25 : index
    scf.for %j = %c0 to %c25 step %c1 {
      %q = arith.divui %j, %c25 : index
      %r = arith.remui %j, %c25 : index
      memref.store %q, %out[%j] : memref<25xindex>
      memref.store %r, %rem[%j] : memref<25xindex>
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%out: memref<25xindex>, %rem: memref<25xindex>)
// CHECK:         scf.for %j
// CHECK-NEXT:      %q = arith.constant 0 : index
// CHECK-NEXT:      memref.store %q, %out[%j] : memref<25xindex>
// CHECK-NEXT:      memref.store %j, %rem[%j] : memref<25xindex>

// -----

// arith.floordivsi of a non-negative index (the row of an unrolled loop's access to a
// partitioned array, j floordiv 21 for j in 0, 21) needs no 33-cycle divider: here one
// compare (the quotient is 0 or 1), marked for the dependence analysis; by a power of two
// it stays (a shift), and a dividend that may be negative (j - 5) keeps its floor division.

builtin.module {
  func.func @f(%out: memref<2xindex>, %n: index) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c21 = arith.constant 21 : index
    %c42 = arith.constant 42 : index
    %cm5 = arith.constant -5 : index
    scf.for %j = %c0 to %c42 step %c21 {
      %q = arith.floordivsi %j, %c21 : index
      %p = arith.floordivsi %j, %c4 : index
      %m = arith.addi %j, %cm5 : index
      %r = arith.floordivsi %m, %c21 : index
      %s = arith.addi %q, %p : index
      %t = arith.addi %s, %r : index
      memref.store %t, %out[%q] : memref<2xindex>
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%out: memref<2xindex>, %n: index)
// CHECK:         scf.for %j
// CHECK:           %[[GE:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : i32
// CHECK:           %q = arith.index_cast %{{.*}} {vichls.floor_quotient = [21 : i64, 0 : i64]} : i32 to index
// CHECK-NEXT:      %p = arith.floordivsi %j, %c4 : index
// CHECK-NEXT:      %m = arith.addi %j, %cm5 : index
// CHECK-NEXT:      %r = arith.floordivsi %m, %c21 : index
