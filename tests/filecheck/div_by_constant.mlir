// RUN: vichls-opt -p div-by-constant %s | filecheck %s
// An unsigned division by 7 becomes a multiplication by a magic number and shifts: no
// divider is left.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%p: i32 {vichls.name = "p", vichls.type = "uint32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "uint32"} {
    %seven = arith.constant 7 : i32
    %q = arith.divui %p, %seven : i32
    func.return %q : i32
  }
}

// CHECK-NOT:  arith.divui
// CHECK:      arith.muli
// CHECK:      %q = arith.shrui
// CHECK-NEXT: func.return %q : i32
