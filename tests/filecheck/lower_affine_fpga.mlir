// RUN: vichls-opt -p lower-affine-fpga %s | filecheck %s
// affine.for becomes scf.for with its bounds evaluated, affine accesses become memref
// accesses with their address computed by arith (a sum nested to the left, as its text
// parses), and loop attributes (vichls.pipeline) go over to the scf.for.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<16xi32> {vichls.name = "a", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 4 {
        %x = affine.load %a[%i * 4 + %j] : memref<16xi32>
        affine.store %x, %a[%j * 4 + %i] : memref<16xi32>
      } {vichls.pipeline = 1 : i64}
    }
    func.return
  }
}

// CHECK-NOT:  affine.
// CHECK:      scf.for %i = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:        scf.for %j = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          %[[MUL:.*]] = arith.muli %i, %{{.*}} : index
// CHECK-NEXT:     %[[ADDR:.*]] = arith.addi %[[MUL]], %j : index
// CHECK-NEXT:     %x = memref.load %a[%[[ADDR]]] : memref<16xi32>
// CHECK:          memref.store %x, %a[%{{.*}}] : memref<16xi32>
// CHECK:        } {vichls.pipeline = 1 : i64}
