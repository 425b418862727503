// RUN: vichls-opt -p merge-constant-reads %s | filecheck %s
// Two reads of one constant array (a callee inlined twice, one call in a loop) become one,
// at the start of the function; a read of another array stays its own.

builtin.module attributes {vichls.top = "f"} {
  "memref.global"() <{sym_name = "T", type = memref<4xi8>, initial_value = dense<[1, 2, 3, 4]> : tensor<4xi8>, sym_visibility = "private", constant}> {vichls.name = "T", vichls.type = "int8"} : () -> ()
  "memref.global"() <{sym_name = "U", type = memref<4xi8>, initial_value = dense<[5, 6, 7, 8]> : tensor<4xi8>, sym_visibility = "private", constant}> {vichls.name = "U", vichls.type = "int8"} : () -> ()
  func.func @f(%k: index, %o: memref<4xi8> {vichls.name = "o", vichls.type = "int8"}) attributes {vichls.kernel} {
    %c0 = arith.constant 0 : index
    %t1 = memref.get_global @T : memref<4xi8> {vichls.name = "T"}
    %a = memref.load %t1[%k] : memref<4xi8>
    affine.for %i = 0 to 4 {
      %t2 = memref.get_global @T : memref<4xi8> {vichls.name = "T"}
      %u = memref.get_global @U : memref<4xi8> {vichls.name = "U"}
      %b = memref.load %t2[%i] : memref<4xi8>
      %c = memref.load %u[%i] : memref<4xi8>
      %s = arith.addi %b, %c : i8
      memref.store %s, %o[%i] : memref<4xi8>
    }
    memref.store %a, %o[%c0] : memref<4xi8>
    func.return
  }
}

// CHECK:      func.func @f
// CHECK-NEXT:   %[[T:.*]] = memref.get_global @T
// CHECK-NEXT:   %[[U:.*]] = memref.get_global @U
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   memref.load %[[T]][%k]
// CHECK:        memref.load %[[T]][%i]
// CHECK-NEXT:   memref.load %[[U]][%i]
// CHECK-NOT:    memref.get_global
