// RUN: vichls-opt --split-input-file -p if-convert-scalars,forward-scalar-stores %s | filecheck %s
// A flattened reduction `acc = bias[m]; for k: acc += x[k]` in a pipeline: the front end's
// initialisation sits under `if k == 0` and reads the array bias. bias[m] is in range
// whatever the condition (m < 4 from the counter's range), so the load runs in every
// iteration and the initialisation becomes a select the accumulation reads at once
// (a recurrence of one cycle, not a register written and read back a cycle later).

builtin.module {
  func.func @f(%x: memref<64xi32>, %bias: memref<4xi32>, %y: memref<4xi32>) {
    %acc = memref.alloca() : memref<i32>
    %lb = arith.constant 0 : index
    %ub = arith.constant 256 : index
    %st = arith.constant 1 : index
    %six = arith.constant 6 : index
    %mask = arith.constant 63 : index
    scf.for %mk = %lb to %ub step %st {
      %m = arith.shrui %mk, %six : index
      %k = arith.andi %mk, %mask : index
      %first = arith.cmpi eq, %k, %lb : index
      scf.if %first {
        %b = memref.load %bias[%m] : memref<4xi32>
        memref.store %b, %acc[] : memref<i32>
      }
      %a = memref.load %acc[] : memref<i32>
      %v = memref.load %x[%k] : memref<64xi32>
      %s = arith.addi %a, %v : i32
      memref.store %s, %acc[] : memref<i32>
      %last = arith.cmpi eq, %k, %mask : index
      scf.if %last {
        memref.store %s, %y[%m] : memref<4xi32>
      }
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK:      %first = arith.cmpi eq, %k, %lb : index
// CHECK-NEXT: %b = memref.load %bias[%m] : memref<4xi32>
// CHECK-NEXT: %[[OLD:.*]] = memref.load %acc[] : memref<i32>
// CHECK-NEXT: %a = arith.select %first, %b, %[[OLD]] : i32
// CHECK-NOT:  memref.load %acc
// CHECK:      %s = arith.addi %a, %v : i32
// CHECK:      scf.if %last {
// CHECK-NEXT:   memref.store %s, %y[%m] : memref<4xi32>

// -----

// An index the range analysis cannot bound (read from memory) keeps its load guarded, and
// so does a load after a store to its own array in the same branch (moved in front of the
// if, it would read the element before the store).

builtin.module {
  func.func @g(%x: memref<6xi32>, %idx: memref<6xindex>) {
    %acc = memref.alloca() : memref<i32>
    %lb = arith.constant 0 : index
    %ub = arith.constant 6 : index
    %st = arith.constant 1 : index
    %c1 = arith.constant 1 : i32
    scf.for %i = %lb to %ub step %st {
      %first = arith.cmpi eq, %i, %lb : index
      %j = memref.load %idx[%i] : memref<6xindex>
      scf.if %first {
        %b = memref.load %x[%j] : memref<6xi32>
        memref.store %b, %acc[] : memref<i32>
      }
      scf.if %first {
        memref.store %c1, %x[%i] : memref<6xi32>
        %c = memref.load %x[%i] : memref<6xi32>
        memref.store %c, %acc[] : memref<i32>
      }
      %a = memref.load %acc[] : memref<i32>
      memref.store %a, %x[%i] : memref<6xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK:      scf.if %first {
// CHECK-NEXT:   %b = memref.load %x[%j] : memref<6xi32>
// CHECK-NEXT:   memref.store %b, %acc[] : memref<i32>
// CHECK:      scf.if %first {
// CHECK-NEXT:   memref.store %c1, %x[%i] : memref<6xi32>
// CHECK-NEXT:   %c = memref.load %x[%i] : memref<6xi32>
