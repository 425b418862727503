// RUN: vichls-opt -p unroll-in-pipelines %s | filecheck %s
// A loop a call brought into a pipelined loop (dot2's loop over j, inlined) is unrolled, as
// the pipeline directive unrolls the loop's own inner loops: two reads of a, no inner loop.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<4xi32> {vichls.name = "b", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 4 {
      %0 = arith.index_cast %i : index to i32
      %1 = memref.alloca() : memref<i32>
      %2 = memref.alloca() : memref<i32>
      %3 = arith.constant 0 : i32
      memref.store %3, %1[] : memref<i32>
      memref.store %3, %1[] : memref<i32>
      affine.for %j = 0 to 2 {
        %4 = arith.index_cast %j : index to i32
        %5 = memref.load %1[] : memref<i32>
        %6 = arith.constant 2 : i32
        %7 = arith.muli %0, %6 : i32
        %8 = arith.addi %7, %4 : i32
        %9 = arith.index_cast %8 : i32 to index
        %10 = memref.load %a[%9] : memref<8xi32>
        %11 = arith.addi %5, %10 : i32
        memref.store %11, %1[] : memref<i32>
      }
      %12 = memref.load %1[] : memref<i32>
      memref.store %12, %2[] : memref<i32>
      %13 = memref.load %2[] : memref<i32>
      affine.store %13, %b[%i] : memref<4xi32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}


// CHECK:      affine.for %i = 0 to 4 {
// CHECK-NOT:    affine.for
// CHECK:        memref.load %a[
// CHECK-NOT:    affine.for
// CHECK:        memref.load %a[
// CHECK-NOT:    affine.for
// CHECK:      } {vichls.pipeline = 1 : i64}
