// RUN: vichls-opt -p 'shift-add-products{device=ecp5}' %s | filecheck %s --check-prefix=ECP5
// RUN: vichls-opt -p 'shift-add-products{device=xc7}' %s | filecheck %s --check-prefix=XC7
// A product by 10 (two signed digits) is two shifts and an add on the ECP5; the xc7 keeps
// its DSP multiplier (the device is the pass's option).

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%p: i32 {vichls.name = "p", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %c = arith.constant 10 : i32
    %q = arith.muli %p, %c : i32
    func.return %q : i32
  }
}

// ECP5-NOT:  arith.muli
// ECP5:      %[[A:.*]] = arith.shli %p, %{{.*}} : i32
// ECP5:      %[[B:.*]] = arith.shli %p, %{{.*}} : i32
// ECP5-NEXT: %q = arith.addi %[[A]], %[[B]] : i32

// XC7:       %q = arith.muli %p, %c : i32
