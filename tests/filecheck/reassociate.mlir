// RUN: vichls-opt -p reassociate %s | filecheck %s
// A chain of three additions becomes a balanced tree of depth two.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: i32 {vichls.name = "a", vichls.type = "int32"}, %b: i32 {vichls.name = "b", vichls.type = "int32"}, %c: i32 {vichls.name = "c", vichls.type = "int32"}, %d: i32 {vichls.name = "d", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %s1, %c : i32
    %s3 = arith.addi %s2, %d : i32
    func.return %s3 : i32
  }
}

// CHECK:      %[[L:.*]] = arith.addi %{{[a-d]}}, %{{[a-d]}} : i32
// CHECK-NEXT: %[[R:.*]] = arith.addi %{{[a-d]}}, %{{[a-d]}} : i32
// CHECK-NEXT: %s3 = arith.addi %[[L]], %[[R]] : i32
// CHECK-NEXT: func.return %s3 : i32
