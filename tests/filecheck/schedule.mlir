// RUN: vichls-opt -p 'schedule{clock_period_ns=10.0 device=xc7}' %s | filecheck %s
// RUN: vichls-opt -p 'schedule{clock_period_ns=3.0 device=xc7}' %s | filecheck %s --check-prefix=FAST
// One memory port: the second load waits a cycle; the multiply starts when its operand
// is read; the add chains after it in the same cycle at 10 ns, and waits for the
// multiplier's pipeline at 3 ns.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %i = arith.constant 0 : index
    %j = arith.constant 1 : index
    %x = memref.load %a[%i] : memref<8xi32>
    %y = memref.load %a[%j] : memref<8xi32>
    %m = arith.muli %x, %p : i32
    %s = arith.addi %m, %y : i32
    func.return %s : i32
  }
}

// CHECK: %x = memref.load %a[%i] {vichls.cycle = 0 : i64, vichls.ready = 1 : i64}
// CHECK: %y = memref.load %a[%j] {vichls.cycle = 1 : i64, vichls.ready = 2 : i64}
// CHECK: %m = arith.muli %x, %p {vichls.cycle = 1 : i64, vichls.ready = 2 : i64}
// CHECK: %s = arith.addi %m, %y {vichls.cycle = 2 : i64, vichls.ready = 2 : i64}

// FAST: %s = arith.addi %m, %y {vichls.cycle = 4 : i64, vichls.ready = 4 : i64}
