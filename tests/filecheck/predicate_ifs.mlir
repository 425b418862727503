// RUN: vichls-opt -p predicate-ifs %s | filecheck %s
// A short if (register and memory writes, adds) is predicated; one holding a multiplier
// stays branched.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<4xi32> {vichls.name = "a", vichls.type = "int32"}, %p: i32 {vichls.name = "p", vichls.type = "int32"}, %c: i1 {vichls.name = "c", vichls.type = "bool_"}) attributes {vichls.kernel} {
    %i = arith.constant 0 : index
    scf.if %c {
      %s = arith.addi %p, %p : i32
      memref.store %s, %a[%i] : memref<4xi32>
    }
    scf.if %c {
      %m = arith.muli %p, %p : i32
      memref.store %m, %a[%i] : memref<4xi32>
    }
    func.return
  }
}

// CHECK:      scf.if %c {
// CHECK:      }{vichls.predicated}
// CHECK:      scf.if %c {
// CHECK:        arith.muli
// CHECK:      }
// CHECK-NOT:  vichls.predicated
