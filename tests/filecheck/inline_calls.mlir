// RUN: vichls-opt -p inline-calls %s | filecheck %s
// Calls are inlined bottom-up into the top kernel, however long the chain; the other
// functions are dropped.

builtin.module attributes {vichls.top = "top"} {
  func.func @inc(%x: i32 {vichls.name = "x", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %one = arith.constant 1 : i32
    %y = arith.addi %x, %one : i32
    func.return %y : i32
  }
  func.func @twice(%x: i32 {vichls.name = "x", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %a = func.call @inc(%x) : (i32) -> i32
    %b = func.call @inc(%a) : (i32) -> i32
    func.return %b : i32
  }
  func.func @top(%x: i32 {vichls.name = "x", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %r = func.call @twice(%x) : (i32) -> i32
    func.return %r : i32
  }
}

// CHECK-NOT:  func.func @inc
// CHECK-NOT:  func.func @twice
// CHECK:      func.func @top
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[A:.*]] = arith.addi %x, %[[ONE]] : i32
// CHECK-NEXT:   %[[ONE2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[B:.*]] = arith.addi %[[A]], %[[ONE2]] : i32
// CHECK-NEXT:   func.return %[[B]] : i32
// CHECK-NOT:  func.call
