// RUN: vichls-opt -p apply-partitions %s | filecheck %s
// A partitioned local array's initialisation (the front end's nest storing one constant
// into every element) fills the banks in one nest over the bank's shape, every bank at
// each iteration: not a store per element that finds its bank by division and remainder
// and is guarded once per bank (an iteration of many cycles). Here 5x8 split cyclic by 3
// on dimension 2 and by 2 on dimension 1: six banks of 3x3, nine iterations.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%x: memref<5x8xi16> {vichls.name = "x", vichls.type = "int16"}, %y: memref<5x8xi16> {vichls.name = "y", vichls.type = "int16"}) attributes {vichls.kernel, vichls.partition_requests = [{array = "t", kind = "cyclic", dim = 1 : i64, factor = 2 : i64}, {array = "t", kind = "cyclic", dim = 2 : i64, factor = 3 : i64}]} {
    %t = memref.alloca() {vichls.name = "t"} : memref<5x8xi16>
    %zero = arith.constant 7 : i16
    affine.for %i = 0 to 5 {
      affine.for %j = 0 to 8 {
        affine.store %zero, %t[%i, %j] : memref<5x8xi16>
      }
    }
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        %v = affine.load %x[%i, %j] : memref<5x8xi16>
        affine.store %v, %t[%i, %j] : memref<5x8xi16>
      }
    }
    affine.for %i = 0 to 5 {
      affine.for %j = 0 to 8 {
        %v = affine.load %t[%i, %j] : memref<5x8xi16>
        affine.store %v, %y[%i, %j] : memref<5x8xi16>
      }
    }
    func.return
  }
}

// CHECK-COUNT-6: memref.alloca() {vichls.name = "t_{{[0-5]}}", vichls.bank_of = "t"} : memref<3x3xi16>
// CHECK:         %zero = arith.constant 7 : i16
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i16
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 3 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 3 {
// CHECK-COUNT-6:     affine.store %[[C]], %{{.*}}[%[[I]], %[[J]]] : memref<3x3xi16>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     affine.store %[[C]]
// CHECK:         affine.for %{{.*}} = 0 to 4 {
