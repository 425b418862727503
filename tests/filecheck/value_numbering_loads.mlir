// RUN: vichls-opt -p value-numbering %s | filecheck %s
// b merges into a and y into x; c is forwarded from the store of y; d follows a store to
// another index of A (which may alias) and stays; truncations to different types are
// different expressions.

builtin.module {
  func.func @f(%A: memref<8xi32>, %i: index) -> i32 {
    %a = memref.load %A[%i] : memref<8xi32>
    %b = memref.load %A[%i] : memref<8xi32>
    %x = arith.addi %a, %b : i32
    %y = arith.addi %a, %b : i32
    %t = arith.trunci %x : i32 to i8
    %u = arith.trunci %x : i32 to i16
    memref.store %y, %A[%i] : memref<8xi32>
    %c = memref.load %A[%i] : memref<8xi32>
    %c0 = arith.constant 0 : index
    memref.store %x, %A[%c0] : memref<8xi32>
    %d = memref.load %A[%i] : memref<8xi32>
    %z = arith.addi %c, %d : i32
    func.return %z : i32
  }
}

// CHECK:       %a = memref.load %A[%i] : memref<8xi32>
// CHECK-NEXT:  %x = arith.addi %a, %a : i32
// CHECK-NEXT:  %t = arith.trunci %x : i32 to i8
// CHECK-NEXT:  %u = arith.trunci %x : i32 to i16
// CHECK-NEXT:  memref.store %x, %A[%i] : memref<8xi32>
// CHECK:       memref.store %x, %A[%c0] : memref<8xi32>
// CHECK-NEXT:  %d = memref.load %A[%i] : memref<8xi32>
// CHECK-NEXT:  %z = arith.addi %x, %d : i32
