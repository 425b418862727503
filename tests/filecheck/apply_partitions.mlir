// RUN: vichls-opt -p apply-partitions %s | filecheck %s
// s.partition("a", dim=1, factor=2, kind="cyclic"), recorded on the function, is applied:
// one argument per bank, each a memref of its share, and an access reads both banks and
// selects by the index modulo 2.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<4xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<4xi32> {vichls.name = "b", vichls.type = "int32"}) attributes {vichls.kernel, vichls.partition_requests = [{array = "a", kind = "cyclic", dim = 1 : i64, factor = 2 : i64}]} {
    affine.for %i = 0 to 4 {
      %0 = affine.load %a[%i] : memref<4xi32>
      %1 = arith.constant 1 : i32
      %2 = arith.addi %0, %1 : i32
      affine.store %2, %b[%i] : memref<4xi32>
    }
    func.return
  }
}

// CHECK:      func.func @f(%a: memref<2xi32> {vichls.name = "a_0", vichls.type = "int32", vichls.bank_of = "a"}, %a_1: memref<2xi32> {vichls.name = "a_1", vichls.type = "int32", vichls.bank_of = "a"}, %b: memref<4xi32>
// CHECK-SAME: vichls.partitions = {a = {kind = "cyclic", factor = 2 : i64, dim = 1 : i64, banks = 2 : i64, shape = [4 : i64]}}
// CHECK-NOT:  vichls.partition_requests
// CHECK:      %[[ROW:.*]] = arith.shrui %{{.*}}, %{{.*}} : index
// CHECK:      memref.load %a_1[%[[ROW]]] : memref<2xi32>
// CHECK:      memref.load %a[%[[ROW]]] : memref<2xi32>
// CHECK:      arith.select
