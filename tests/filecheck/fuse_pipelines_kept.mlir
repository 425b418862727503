// RUN: vichls-opt -p fuse-pipelines %s | filecheck %s
// Pairs left apart: an index loaded from memory (the loops may meet at any iterations), two
// IIs, a store between the loops, a pair whose fused body would need more ports of one
// array per iteration than either loop alone, and two bodies that both multiply variables.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<16xi32> {vichls.name = "a", vichls.type = "int32"}, %idx: memref<16xindex> {vichls.name = "idx", vichls.type = "int32"}, %s: memref<i32> {vichls.name = "s", vichls.type = "int32"}) attributes {vichls.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %k = arith.constant 7 : i32
    // CHECK: scf.for %i = 
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %k, %a[%i] : memref<16xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %j = 
    scf.for %j = %c0 to %c16 step %c1 {
      %t = memref.load %idx[%j] : memref<16xindex>
      %v = memref.load %a[%t] : memref<16xi32>
      memref.store %v, %s[] : memref<i32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %l = 
    scf.for %l = %c0 to %c16 step %c1 {
      %w = memref.load %a[%l] : memref<16xi32>
      memref.store %w, %a[%l] : memref<16xi32>
    } {vichls.pipeline = 2 : i64}
    // CHECK: memref.store %k, %s[]
    memref.store %k, %s[] : memref<i32>
    // CHECK: scf.for %m = 
    scf.for %m = %c0 to %c16 step %c1 {
      %x = memref.load %a[%m] : memref<16xi32>
      %y = memref.load %a[%m] : memref<16xi32>
      %z = arith.addi %x, %y : i32
      memref.store %z, %a[%m] : memref<16xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %o = 
    scf.for %o = %c0 to %c16 step %c1 {
      %x2 = memref.load %a[%o] : memref<16xi32>
      memref.store %x2, %a[%o] : memref<16xi32>
    } {vichls.pipeline = 1 : i64}
    // two bodies that multiply variables: apart, so that they share one set of multipliers
    // CHECK: scf.for %p = 
    scf.for %p = %c0 to %c16 step %c1 {
      %e = memref.load %idx[%p] : memref<16xindex>
      %g = arith.index_cast %e : index to i32
      %h = arith.muli %g, %g : i32
      memref.store %h, %a[%p] : memref<16xi32>
    } {vichls.pipeline = 1 : i64}
    // CHECK: scf.for %q = 
    scf.for %q = %c0 to %c16 step %c1 {
      %e2 = memref.load %idx[%q] : memref<16xindex>
      %g2 = arith.index_cast %e2 : index to i32
      %h2 = arith.muli %g2, %g2 : i32
      memref.store %h2, %s[] : memref<i32>
    } {vichls.pipeline = 1 : i64}
    func.return
  }
}

// CHECK-NOT: vichls.fused
