// RUN: vichls-opt -p forward-array-stores %s | filecheck %s
// A load of the element just stored at the same index value is the stored value.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %i: index {vichls.name = "i", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    memref.store %p, %a[%i] : memref<8xi32>
    %x = memref.load %a[%i] : memref<8xi32>
    %y = arith.addi %x, %x : i32
    func.return %y : i32
  }
}

// CHECK:      memref.store %p, %a[%i] : memref<8xi32>
// CHECK-NEXT: %y = arith.addi %p, %p : i32
// CHECK-NOT:  memref.load
