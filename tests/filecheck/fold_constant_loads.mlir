// RUN: vichls-opt -p fold-constant-loads %s | filecheck %s
// A read of a constant array at constant indices is its element; a read at a computed
// index, or at an index out of range, stays a read.

builtin.module attributes {vichls.top = "f"} {
  "memref.global"() <{sym_name = "W", type = memref<2x3xi8>, initial_value = dense<[[1, -2, 3], [4, 127, -128]]> : tensor<2x3xi8>, sym_visibility = "private", constant}> {vichls.name = "W", vichls.type = "int8"} : () -> ()
  func.func @f(%k: index) -> i8 attributes {vichls.kernel, vichls.ret_type = "int8"} {
    %w = memref.get_global @W : memref<2x3xi8> {vichls.name = "W"}
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %a = memref.load %w[%c1, %c2] : memref<2x3xi8>
    %b = memref.load %w[%c1, %c1] : memref<2x3xi8>
    %c = memref.load %w[%c1, %k] : memref<2x3xi8>
    %d = memref.load %w[%c1, %c7] : memref<2x3xi8>
    %s = arith.addi %a, %b : i8
    %t = arith.addi %s, %c : i8
    %u = arith.addi %t, %d : i8
    func.return %u : i8
  }
}

// CHECK:      %[[A:.*]] = arith.constant -128 : i8
// CHECK-NEXT: %[[B:.*]] = arith.constant 127 : i8
// CHECK-NEXT: %[[C:.*]] = memref.load %w[%c1, %k] : memref<2x3xi8>
// CHECK-NEXT: %[[D:.*]] = memref.load %w[%c1, %c7] : memref<2x3xi8>
// CHECK-NEXT: arith.addi %[[A]], %[[B]] : i8
