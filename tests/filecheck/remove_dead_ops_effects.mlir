// RUN: vichls-opt -p remove-dead-ops %s | filecheck %s
// A local only ever written goes with its store and the add that fed it; the load feeds
// the store to A and stays.

builtin.module {
  func.func @f(%A: memref<8xi32>, %i: index) {
    %r = memref.alloca() : memref<i32>
    %a = memref.load %A[%i] : memref<8xi32>
    %x = arith.addi %a, %a : i32
    memref.store %x, %r[] : memref<i32>
    memref.store %a, %A[%i] : memref<8xi32>
    func.return
  }
}

// CHECK:       func.func @f(%A: memref<8xi32>, %i: index) {
// CHECK-NEXT:    %a = memref.load %A[%i] : memref<8xi32>
// CHECK-NEXT:    memref.store %a, %A[%i] : memref<8xi32>
// CHECK-NEXT:    func.return
