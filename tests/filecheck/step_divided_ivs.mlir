// RUN: vichls-opt --split-input-file -p step-divided-ivs %s | filecheck %s
// A pipelined loop over t in 0..60 reads x[t // 12, (t % 12) // 3, t % 3]: the quotient and
// remainder by 12, and those of the remainder by 3, become registers that step (the
// remainder by 12 wraps at 11 and carries into the quotient, which wraps at 4 back to 0; the
// remainder by 3 wraps at 2 and carries into (t % 12) // 3, which wraps at 3). The bounds are
// multiples of 12: every counter ends a run of the loop at its first value, so they are set
// once at the function's entry. (t % 12) // 5 stays a division: 5 does not divide 12, so it
// does not step by one. A loop that is not pipelined keeps its division.

builtin.module {
  func.func @f(%x: memref<5x4x3xi32>, %y: memref<60xi32>, %z: memref<60xi32>) {
    %lo = arith.constant 0 : index
    %hi = arith.constant 60 : index
    %one = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    scf.for %t = %lo to %hi step %one {
      %i = arith.divui %t, %c12 : index
      %jk = arith.remui %t, %c12 : index
      %j = arith.divui %jk, %c3 : index
      %k = arith.remui %t, %c3 : index
      %odd = arith.divui %jk, %c5 : index
      %v = memref.load %x[%i, %j, %k] : memref<5x4x3xi32>
      memref.store %v, %y[%odd] : memref<60xi32>
    } {vichls.pipeline = 1 : i64}
    scf.for %u = %lo to %hi step %one {
      %q = arith.divui %u, %c12 : index
      %w = memref.load %y[%q] : memref<60xi32>
      memref.store %w, %z[%u] : memref<60xi32>
    }
    func.return
  }
}

// The registers, and their first values (t = 2): a helper for (t % 12) // 3's steps is
// named after what it divides.
// t % 12 wraps after 11 ...
// ... and t // 12 steps then
// (t % 12) // 3 steps when (t % 12) % 3 wraps, and wraps after 3 itself
// the values, marked for the dependence and range analyses: [kind, d, id, parent, largest]

// The registers, named after the divisions (a helper for (t % 12) // 3's steps after what
// it divides), set once before anything else
// CHECK:      %j = memref.alloca() : memref<i4>
// CHECK-NEXT: %jk_mod3 = memref.alloca() : memref<i3>
// CHECK-NEXT: %i = memref.alloca() : memref<i5>
// CHECK-NEXT: %jk = memref.alloca() : memref<i5>
// CHECK-NEXT: %k = memref.alloca() : memref<i3>
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i3
// CHECK-NEXT: memref.store %{{.*}}, %k[] : memref<i3>
// CHECK:      memref.store %{{.*}}, %j[] : memref<i4>
// CHECK-NEXT: %lo = arith.constant 0 : index
// CHECK:      scf.for %t = %lo to %hi step %one {
// CHECK-NEXT:   %[[K:.*]] = memref.load %k[] : memref<i3>
// CHECK-NEXT:   %[[JK:.*]] = memref.load %jk[] : memref<i5>
// CHECK-NEXT:   %[[I:.*]] = memref.load %i[] : memref<i5>
// CHECK-NEXT:   %[[M3:.*]] = memref.load %jk_mod3[] : memref<i3>
// CHECK-NEXT:   %[[J:.*]] = memref.load %j[] : memref<i4>
// t % 12 wraps after 11 ...
// CHECK:        %[[JKLAST:.*]] = arith.cmpi eq, %[[JK]], %{{.*}} : i5
// CHECK:        %[[JKNEXT:.*]] = arith.select %[[JKLAST]], %{{.*}}, %{{.*}} : i5
// CHECK-NEXT:   memref.store %[[JKNEXT]], %jk[] : memref<i5>
// ... and t // 12 steps then, from 4 back to 0
// CHECK-NEXT:   %{{.*}} = arith.constant 1 : i5
// CHECK-NEXT:   %[[IUP:.*]] = arith.addi %[[I]], %{{.*}} : i5
// CHECK-NEXT:   %{{.*}} = arith.constant 4 : i5
// CHECK-NEXT:   %[[ILAST:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : i5
// CHECK-NEXT:   %[[IZERO:.*]] = arith.constant 0 : i5
// CHECK-NEXT:   %[[IWRAP:.*]] = arith.select %[[ILAST]], %[[IZERO]], %[[IUP]] : i5
// CHECK-NEXT:   %[[INEXT:.*]] = arith.select %[[JKLAST]], %[[IWRAP]], %[[I]] : i5
// CHECK-NEXT:   memref.store %[[INEXT]], %i[] : memref<i5>
// (t % 12) // 3 steps when (t % 12) % 3 wraps, and wraps after 3 itself
// CHECK:        %[[M3LAST:.*]] = arith.cmpi eq, %[[M3]], %{{.*}} : i3
// CHECK:        %[[JLAST:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : i4
// CHECK-NEXT:   %{{.*}} = arith.constant 0 : i4
// CHECK-NEXT:   %[[JWRAP:.*]] = arith.select %[[JLAST]], %{{.*}}, %{{.*}} : i4
// CHECK-NEXT:   %[[JNEXT:.*]] = arith.select %[[M3LAST]], %[[JWRAP]], %[[J]] : i4
// CHECK-NEXT:   memref.store %[[JNEXT]], %j[] : memref<i4>
// the values, marked for the dependence and range analyses: [kind, d, id, parent, largest]
// CHECK-NEXT:   %k_1 = arith.index_cast %[[K]] {vichls.stepped = [1 : i64, 3 : i64, 0 : i64, -1 : i64, 2 : i64]} : i3 to index
// CHECK-NEXT:   %jk_1 = arith.index_cast %[[JK]] {vichls.stepped = [1 : i64, 12 : i64, 1 : i64, -1 : i64, 11 : i64]} : i5 to index
// CHECK-NEXT:   %i_1 = arith.index_cast %[[I]] {vichls.stepped = [0 : i64, 12 : i64, 2 : i64, -1 : i64, 4 : i64]} : i5 to index
// CHECK-NEXT:   %j_1 = arith.index_cast %[[J]] {vichls.stepped = [0 : i64, 3 : i64, 4 : i64, 1 : i64, 3 : i64]} : i4 to index
// CHECK-NEXT:   %odd = arith.divui %jk_1, %c5 : index
// CHECK-NEXT:   %v = memref.load %x[%i_1, %j_1, %k_1] : memref<5x4x3xi32>
// CHECK:      scf.for %u = %lo to %hi step %one {
// CHECK-NEXT:   %q = arith.divui %u, %c12 : index

// -----
// From t = 2 (not a multiple of 3): the counters would not come round, so nothing is set
// before the loop; the first iteration takes the first values (2 // 3 = 0, 2 % 3 = 2), later
// ones the registers', and t // 3 only counts up. An integer division of the variable (as
// the kernel writes i // 3 on an int32) is taken too.

builtin.module {
  func.func @g(%x: memref<20xi32>) {
    %lo = arith.constant 2 : index
    %hi = arith.constant 60 : index
    %one = arith.constant 1 : index
    %c3 = arith.constant 3 : i32
    scf.for %t = %lo to %hi step %one {
      %ti = arith.index_cast %t : index to i32
      %q = arith.divsi %ti, %c3 : i32
      %r = arith.remsi %ti, %c3 : i32
      %s = arith.addi %q, %r : i32
      %qi = arith.index_cast %q : i32 to index
      memref.store %s, %x[%qi] : memref<20xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK:      func.func @g
// CHECK-NEXT:   %q = memref.alloca() : memref<i6>
// CHECK-NEXT:   %r = memref.alloca() : memref<i3>
// CHECK-NOT:    memref.store
// CHECK:        scf.for %t = %lo to %hi step %one {
// CHECK:          %[[T:.*]] = arith.index_cast %t : index to i7
// CHECK-NEXT:     %[[LO:.*]] = arith.constant 2 : i7
// CHECK-NEXT:     %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %[[LO]] : i7
// CHECK-NEXT:     %[[RHELD:.*]] = memref.load %r[] : memref<i3>
// CHECK-NEXT:     %[[R0:.*]] = arith.constant 2 : i3
// CHECK-NEXT:     %[[R:.*]] = arith.select %[[FIRST]], %[[R0]], %[[RHELD]] : i3
// CHECK-NEXT:     %[[QHELD:.*]] = memref.load %q[] : memref<i6>
// CHECK-NEXT:     %[[Q0:.*]] = arith.constant 0 : i6
// CHECK-NEXT:     %[[Q:.*]] = arith.select %[[FIRST]], %[[Q0]], %[[QHELD]] : i6
// CHECK:          %[[RLAST:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : i3
// CHECK:          memref.store %{{.*}}, %r[] : memref<i3>
// CHECK-NEXT:     %{{.*}} = arith.constant 1 : i6
// CHECK-NEXT:     %[[QUP:.*]] = arith.addi %[[Q]], %{{.*}} : i6
// CHECK-NEXT:     %[[QNEXT:.*]] = arith.select %[[RLAST]], %[[QUP]], %[[Q]] : i6
// CHECK-NEXT:     memref.store %[[QNEXT]], %q[] : memref<i6>
// CHECK-NEXT:     %r_1 = arith.extui %[[R]] {vichls.stepped = [1 : i64, 3 : i64, 0 : i64, -1 : i64, 2 : i64]} : i3 to i32
// CHECK-NEXT:     %q_1 = arith.extui %[[Q]] {vichls.stepped = [0 : i64, 3 : i64, 1 : i64, -1 : i64, 19 : i64]} : i6 to i32
// CHECK:          %s = arith.addi %q_1, %r_1 : i32
