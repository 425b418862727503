// RUN: vichls-opt -p 'schedule{clock_period_ns=10.0}' %s | filecheck %s
// RUN: vichls-opt -p 'schedule{clock_period_ns=3.0}' %s | filecheck %s --check-prefix=SHORT
// Loads of three memories start in one cycle; at 10 ns the three adds chain in the next,
// with the store of C after its load; at 3 ns (2 ns of logic a cycle) one add a cycle.

builtin.module {
  func.func @f(%A: memref<8xi32>, %B: memref<8xi32>, %C: memref<8xi32>, %k: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %a = memref.load %A[%i] : memref<8xi32>
      %b = memref.load %B[%i] : memref<8xi32>
      %c = memref.load %C[%i] : memref<8xi32>
      %s = arith.addi %a, %b : i32
      %t = arith.addi %s, %k : i32
      %u = arith.addi %t, %c : i32
      memref.store %u, %C[%i] : memref<8xi32>
      scf.yield
    }
    func.return
  }
}

// CHECK:       %a = memref.load %A[%i] {vichls.cycle = 0 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  %b = memref.load %B[%i] {vichls.cycle = 0 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  %c = memref.load %C[%i] {vichls.cycle = 0 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  %s = arith.addi %a, %b {vichls.cycle = 1 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  %t = arith.addi %s, %k {vichls.cycle = 1 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  %u = arith.addi %t, %c {vichls.cycle = 1 : i64, vichls.ready = 1 : i64}
// CHECK-NEXT:  memref.store %u, %C[%i] {vichls.cycle = 1 : i64, vichls.ready = 1 : i64}

// SHORT:       %s = arith.addi %a, %b {vichls.cycle = [[S:[0-9]+]] : i64
// SHORT-NOT:   %t = arith.addi %s, %k {vichls.cycle = [[S]] : i64
// SHORT:       %t = arith.addi %s, %k {vichls.cycle = [[T:[0-9]+]] : i64
// SHORT-NOT:   %u = arith.addi %t, %c {vichls.cycle = [[T]] : i64
// SHORT:       %u = arith.addi %t, %c {vichls.cycle =
