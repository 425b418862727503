// RUN: vichls-opt -p value-numbering %s | filecheck %s
// Equal arith expressions and loads of an element no store changed in between are one
// value; a store forgets what was known of its memref; an if that stores forgets too.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %i: index {vichls.name = "i", vichls.type = "int32"}, %c: i1 {vichls.name = "c", vichls.type = "bool_"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %x = memref.load %a[%i] : memref<8xi32>
    %y = memref.load %a[%i] : memref<8xi32>
    %s1 = arith.addi %x, %y : i32
    %s2 = arith.addi %x, %y : i32
    memref.store %s1, %a[%i] : memref<8xi32>
    %z = memref.load %a[%i] : memref<8xi32>
    scf.if %c {
      memref.store %s2, %a[%i] : memref<8xi32>
    }
    %w = memref.load %a[%i] : memref<8xi32>
    %t = arith.addi %z, %w : i32
    func.return %t : i32
  }
}

// CHECK:      %[[X:.*]] = memref.load %a[%i]
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT: memref.store %[[S]], %a[%i]
// CHECK-NEXT: scf.if %c {
// CHECK-NEXT:   memref.store %[[S]], %a[%i]
// CHECK-NEXT: }
// CHECK-NEXT: %[[W:.*]] = memref.load %a[%i]
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[S]], %[[W]] : i32
// CHECK-NEXT: func.return %[[T]] : i32
