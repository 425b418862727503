// RUN: vichls-opt -p narrow %s | filecheck %s
// A product of the loop counter (0 to 7) by 3 fits 6 signed bits: it is computed in 6 bits
// and extended, not in 32.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}) attributes {vichls.kernel} {
    %lb = arith.constant 0 : index
    %ub = arith.constant 8 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %k = arith.index_cast %i : index to i32
      %t = arith.constant 3 : i32
      %m = arith.muli %k, %t : i32
      memref.store %m, %a[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      %[[M:.*]] = arith.muli %{{.*}}, %{{.*}} : i6
// CHECK-NEXT: %[[W:.*]] = arith.extsi %[[M]] : i6 to i32
// CHECK-NEXT: memref.store %[[W]], %a[%i]
