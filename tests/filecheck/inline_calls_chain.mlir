// RUN: vichls-opt -p inline-calls %s | filecheck %s
// A kernel that calls another twice: both calls inlined, the callee gone, the second copy
// reading the first, the return reading the second.

builtin.module attributes {vichls.top = "top"} {
  func.func @twice(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i32
    func.return %y : i32
  }
  func.func @top(%a: i32) -> i32 {
    %b = func.call @twice(%a) : (i32) -> i32
    %c = func.call @twice(%b) : (i32) -> i32
    func.return %c : i32
  }
}

// CHECK-NOT:   func.func @twice
// CHECK:       func.func @top(%a: i32) -> i32 {
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %a, %a : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.addi %[[Y]], %[[Y]] : i32
// CHECK-NEXT:    func.return %[[Z]] : i32
// CHECK-NOT:   func.call
