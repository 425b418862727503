// RUN: vichls-opt --split-input-file -p 'predicate-ifs,schedule{clock_period_ns=10.0 device=xc7}' %s | filecheck %s
// RUN: vichls-opt --split-input-file -p 'predicate-ifs,schedule{clock_period_ns=6.666 device=ecp5}' %s | filecheck %s --check-prefix=ECP5
// Short store branches outside pipelined loops are predicated and join the schedule around
// them: the stores to two banks go side by side in one cycle. A branch with a multiply stays
// branched; an if in a pipelined loop is left to the pipeline.

builtin.module {
  func.func @f(%y0: memref<4xi32>, %y1: memref<4xi32>, %z: memref<4xi32>, %v: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %bank = arith.andi %i, %c1 : index
      %row = arith.shrui %i, %c1 : index
      %is0 = arith.cmpi eq, %bank, %c0 : index
      scf.if %is0 {
        memref.store %v, %y0[%row] : memref<4xi32>
      }
      %is1 = arith.cmpi eq, %bank, %c1 : index
      scf.if %is1 {
        memref.store %v, %y1[%row] : memref<4xi32>
      }
      scf.if %is1 {
        %p = arith.muli %v, %v : i32
        memref.store %p, %z[%row] : memref<4xi32>
      }
      scf.for %j = %c0 to %c2 step %c1 {
        scf.if %is0 {
          memref.store %v, %z[%j] : memref<4xi32>
        }
      } {vichls.pipeline = 1 : i64}
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%y0
// CHECK:         %is0 = "arith.cmpi"(%bank, %c0) <{predicate = 0 : i64}> {vichls.cycle
// CHECK:         scf.if %is0 {
// CHECK-NEXT:      memref.store %v, %y0[%row] {vichls.cycle = [[C:[0-9]+]] : i64
// CHECK-NEXT:    }{vichls.predicated}
// CHECK:         scf.if %is1 {
// CHECK-NEXT:      memref.store %v, %y1[%row] {vichls.cycle = [[C]] : i64
// CHECK-NEXT:    }{vichls.predicated}
// CHECK:         scf.if %is1 {
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NOT:     vichls.predicated
// CHECK:         scf.for %j
// CHECK-NEXT:      scf.if %is0 {
// CHECK-NEXT:        memref.store
// CHECK-NEXT:      }
// CHECK-NEXT:    } {vichls.pipeline = 1 : i64

// ECP5-LABEL: func.func @f(%y0

// -----

// The store's guard (its condition, decoded with the state into the port's enable and
// address multiplexers) is a decision: on the xc7 at 10 ns it is made in the cycle the
// compare is; on the ECP5 at 150 MHz a compare of a value read in the same cycle leaves no
// room for it, and the store waits a cycle.

builtin.module {
  func.func @f(%a: memref<8xi32>, %b: memref<8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    scf.for %i = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i] : memref<8xi32>
      %positive = arith.cmpi sgt, %x, %zero : i32
      scf.if %positive {
        memref.store %x, %b[%i] : memref<8xi32>
      }
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%a
// CHECK:         "arith.cmpi"(%x, %zero) <{predicate = 4 : i64}> {vichls.cycle = 1 : i64
// CHECK:           memref.store %x, %b[%i] {vichls.cycle = 1 : i64

// ECP5-LABEL: func.func @f(%a
// ECP5:         "arith.cmpi"(%x, %zero) <{predicate = 4 : i64}> {vichls.cycle = 1 : i64
// ECP5:           memref.store %x, %b[%i] {vichls.cycle = 2 : i64
