// RUN: vichls-opt -p 'scalar-replacement{profitable_only=false}' %s | filecheck %s
// q[i] += A[i, j] * p[j] over j: the element q[i] lives in a register during the loop,
// read from q before it and written back after it.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%A: memref<8x8xi32> {vichls.name = "A", vichls.type = "int32"}, %p: memref<8xi32> {vichls.name = "p", vichls.type = "int32"}, %q: memref<8xi32> {vichls.name = "q", vichls.type = "int32"}, %i: index {vichls.name = "i", vichls.type = "int32"}) attributes {vichls.kernel} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %A[%i, %j] : memref<8x8xi32>
      %x = memref.load %p[%j] : memref<8xi32>
      %m = arith.muli %a, %x : i32
      %old = memref.load %q[%i] : memref<8xi32>
      %new = arith.addi %old, %m : i32
      memref.store %new, %q[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      %[[R:.*]] = memref.alloca() : memref<i32>
// CHECK:      %[[START:.*]] = memref.load %q[%i] : memref<8xi32>
// CHECK-NEXT: memref.store %[[START]], %[[R]][] : memref<i32>
// CHECK-NEXT: scf.for %j
// CHECK-NOT:    memref.load %q
// CHECK:        memref.load %[[R]][] : memref<i32>
// CHECK-NOT:    memref.store %{{.*}}, %q
// CHECK:        memref.store %{{.*}}, %[[R]][] : memref<i32>
// CHECK:      }
// CHECK-NEXT: %[[END:.*]] = memref.load %[[R]][] : memref<i32>
// CHECK-NEXT: memref.store %[[END]], %q[%i] : memref<8xi32>
