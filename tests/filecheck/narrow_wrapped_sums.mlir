// RUN: vichls-opt -p narrow-wrapped-sums,reassociate %s | filecheck %s
// A fixed-point accumulation acc += p (the sum one bit wider, wrapped back to acc's
// type at every step) becomes one chain of i35 adders, which reassociate balances.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%b: i16 {vichls.name = "b", vichls.type = "int16"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}, %q: i32 {vichls.name = "q", vichls.type = "int32"}, %r: i32 {vichls.name = "r", vichls.type = "int32"}) -> i35 attributes {vichls.kernel, vichls.ret_type = "int_(35)"} {
    %acc0 = arith.extsi %b : i16 to i35
    %a0 = arith.extsi %acc0 : i35 to i36
    %p0 = arith.extsi %p : i32 to i36
    %s0 = arith.addi %a0, %p0 : i36
    %acc1 = arith.trunci %s0 : i36 to i35
    %a1 = arith.extsi %acc1 : i35 to i36
    %q1 = arith.extsi %q : i32 to i36
    %s1 = arith.addi %a1, %q1 : i36
    %acc2 = arith.trunci %s1 : i36 to i35
    %a2 = arith.extsi %acc2 : i35 to i36
    %r2 = arith.extsi %r : i32 to i36
    %s2 = arith.addi %a2, %r2 : i36
    %acc3 = arith.trunci %s2 : i36 to i35
    func.return %acc3 : i35
  }
}

// CHECK-NOT:  i36
// CHECK:      %[[L:.*]] = arith.addi %{{.*}}, %{{.*}} : i35
// CHECK-NEXT: %[[R:.*]] = arith.addi %{{.*}}, %{{.*}} : i35
// CHECK-NEXT: %acc3 = arith.addi %[[L]], %[[R]] : i35
// CHECK-NEXT: func.return %acc3 : i35
