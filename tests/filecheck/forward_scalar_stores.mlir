// RUN: vichls-opt -p forward-scalar-stores %s | filecheck %s
// A load of a local scalar after a store of it uses the stored value; a store that a later
// one overwrites with no load between is dead; an if keeps what its branches do not store.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%p: i32 {vichls.name = "p", vichls.type = "int32"}, %c: i1 {vichls.name = "c", vichls.type = "bool_"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %s = memref.alloca() : memref<i32>
    %t = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %s[] : memref<i32>
    memref.store %p, %s[] : memref<i32>
    memref.store %p, %t[] : memref<i32>
    scf.if %c {
      memref.store %zero, %t[] : memref<i32>
    }
    %a = memref.load %s[] : memref<i32>
    %b = memref.load %t[] : memref<i32>
    %r = arith.addi %a, %b : i32
    func.return %r : i32
  }
}

// CHECK:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: memref.store %p, %s[] : memref<i32>
// CHECK-NEXT: memref.store %p, %t[] : memref<i32>
// CHECK-NEXT: scf.if %c {
// CHECK-NEXT:   memref.store %[[ZERO]], %t[] : memref<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[B:.*]] = memref.load %t[] : memref<i32>
// CHECK-NEXT: %[[R:.*]] = arith.addi %p, %[[B]] : i32
