// RUN: vichls-opt -p fuse-pipelines %s | filecheck %s
// Two sweeps of a stencil: the second reads b[j+1], which the first writes one iteration
// later, and writes a[j], which the first read the iteration before (a[i+1]): fused with
// the second body one iteration behind, each body behind its guard. One access of each
// array per body: two ports serve the fused body at II=1.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<30xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<30xi32> {vichls.name = "b", vichls.type = "int32"}) attributes {vichls.kernel} {
    %c1 = arith.constant 1 : index
    %c29 = arith.constant 29 : index
    %m1 = arith.constant -1 : index
    scf.for %i = %c1 to %c29 step %c1 {
      %n = arith.addi %i, %c1 : index
      %y = memref.load %a[%n] : memref<30xi32>
      %s = arith.addi %y, %y : i32
      memref.store %s, %b[%i] : memref<30xi32>
    } {vichls.pipeline = 1 : i64}
    %d1 = arith.constant 1 : index
    scf.for %j = %c1 to %c29 step %d1 {
      %q = arith.addi %j, %d1 : index
      %u = memref.load %b[%q] : memref<30xi32>
      memref.store %u, %a[%j] : memref<30xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK:      %d1 = arith.constant 1 : index
// CHECK-NEXT: %[[UB:.*]] = arith.constant 30 : index
// CHECK-NEXT: scf.for %i = %c1 to %[[UB]] step %c1 {
// CHECK-NEXT:   %[[END1:.*]] = arith.constant 29 : index
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi slt, %i, %[[END1]] : index
// CHECK-NEXT:   scf.if %[[FIRST]] {
// CHECK:          memref.store %s, %b[%i] : memref<30xi32>
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[OFF:.*]] = arith.constant -1 : index
// CHECK-NEXT:   %j = arith.addi %i, %[[OFF]] : index
// CHECK-NEXT:   %[[START2:.*]] = arith.constant 2 : index
// CHECK-NEXT:   %[[SECOND:.*]] = arith.cmpi sge, %i, %[[START2]] : index
// CHECK-NEXT:   scf.if %[[SECOND]] {
// CHECK-NEXT:     %q = arith.addi %j, %d1 : index
// CHECK-NEXT:     %u = memref.load %b[%q] : memref<30xi32>
// CHECK-NEXT:     memref.store %u, %a[%j] : memref<30xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: } {vichls.pipeline = 1 : i64, vichls.fused = "i, j (+1)"}
// CHECK-NOT:  scf.for
