// RUN: vichls-opt -p reassociate-products,hoist-loop-invariants %s | filecheck %s
// RUN: vichls-opt -p reassociate-products,hoist-loop-invariants,reassociate-products %s | filecheck %s
// In (a[j] * alpha) * b[3] the two invariant factors multiply first and their product
// leaves the loop: one multiplier before it, three in it (a[j] times that product, and
// a[j] * a[j] * a[j] as it was). A second run finds nothing more to do.

builtin.module {
  func.func @f(%a: memref<8xi32>, %b: memref<8xi32>, %out: memref<8xi32>, %alpha: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c3 = arith.constant 3 : index
    %bk = memref.load %b[%c3] : memref<8xi32>
    scf.for %j = %c0 to %c8 step %c1 {
      %aj = memref.load %a[%j] : memref<8xi32>
      %t = arith.muli %aj, %alpha : i32
      %u = arith.muli %t, %bk : i32
      %v = arith.muli %aj, %aj : i32
      %w = arith.muli %v, %aj : i32
      %x = arith.addi %u, %w : i32
      memref.store %x, %out[%j] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:       %bk = memref.load %b[%c3] : memref<8xi32>
// CHECK-NEXT:  %[[P:.*]] = arith.muli %bk, %alpha : i32
// CHECK-NEXT:  scf.for %j
// CHECK-NEXT:    %aj = memref.load %a[%j] : memref<8xi32>
// CHECK-NEXT:    %u = arith.muli %[[P]], %aj : i32
// CHECK-NEXT:    %v = arith.muli %aj, %aj : i32
// CHECK-NEXT:    %w = arith.muli %v, %aj : i32
// CHECK-NOT:     arith.muli
