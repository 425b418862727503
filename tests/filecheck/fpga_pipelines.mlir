// RUN: vichls-opt -p 'fpga-prepare,fpga-schedule{clock_period_ns=10.0 device=xc7}' %s | filecheck %s
// The whole loop level made ready for hardware and scheduled: affine lowered to scf, the
// reads of A one iteration ahead (rotate-loads), every time-taking op with its cycle.

builtin.module attributes {vichls.top = "sum"} {
  func.func @sum(%A: memref<8xi32> {vichls.name = "A", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %acc = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %acc[] : memref<i32>
    affine.for %i = 0 to 8 {
      %s = memref.load %acc[] : memref<i32>
      %x = affine.load %A[%i] : memref<8xi32>
      %t = arith.addi %s, %x : i32
      memref.store %t, %acc[] : memref<i32>
    }
    %r = memref.load %acc[] : memref<i32>
    func.return %r : i32
  }
}

// CHECK:      %[[NEXT:A_next]] = memref.alloca() : memref<i32>
// CHECK:      memref.load %A[%{{.*}}] {vichls.cycle = 0 : i64, vichls.ready = 1 : i64}
// CHECK:      scf.for %i = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:  affine.
// CHECK:        memref.load %[[NEXT]][] {vichls.cycle = 0 : i64
// CHECK:        arith.addi {{.*}}vichls.cycle =
