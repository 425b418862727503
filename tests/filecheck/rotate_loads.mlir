// RUN: vichls-opt -p rotate-loads %s | filecheck %s
// An array the loop only reads is read one iteration ahead into a register: the first
// element before the loop, the next one at the end of each iteration.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<8xi32> {vichls.name = "b", vichls.type = "int32"}) attributes {vichls.kernel} {
    %lb = arith.constant 0 : index
    %ub = arith.constant 8 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %x = memref.load %a[%i] : memref<8xi32>
      %y = arith.addi %x, %x : i32
      memref.store %y, %b[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      %a_next = memref.alloca() : memref<i32>
// CHECK:      %[[FIRST:.*]] = memref.load %a[%lb]
// CHECK-NEXT: memref.store %[[FIRST]], %a_next[]
// CHECK-NEXT: scf.for %i
// CHECK-NEXT:   %x = memref.load %a_next[] : memref<i32>
// CHECK:        %[[NEXT:.*]] = memref.load %a[%{{.*}}] : memref<8xi32>
// CHECK-NEXT:   memref.store %[[NEXT]], %a_next[] : memref<i32>
// CHECK-NEXT: }
