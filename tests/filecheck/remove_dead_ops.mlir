// RUN: vichls-opt -p remove-dead-ops %s | filecheck %s
// Arith ops and loads nothing uses go, and so does a local only ever stored to.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<4xi32> {vichls.name = "a", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %i = arith.constant 0 : index
    %unused = memref.load %a[%i] : memref<4xi32>
    %dead = arith.muli %p, %p : i32
    %never_read = memref.alloca() : memref<i32>
    memref.store %p, %never_read[] : memref<i32>
    %r = arith.addi %p, %p : i32
    func.return %r : i32
  }
}

// CHECK:      func.func @f
// CHECK-NEXT:   %[[R:.*]] = arith.addi %p, %p : i32
// CHECK-NEXT:   func.return %[[R]] : i32
