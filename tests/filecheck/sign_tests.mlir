// RUN: vichls-opt --allow-unregistered-dialect -p sign-tests %s | filecheck %s
// Compares with zero that need only the sign bit: a ReLU (acc > 0 ? acc : 0, the zero a
// shifted constant as fixed point writes it) reads the sign bit with its arms exchanged;
// x < 0 is the sign bit; x >= 0 feeding a store is its complement; x > 0 choosing between
// values that differ at x == 0, or used outside a select, is left alone.

builtin.module {
  func.func @f(%a: i28, %b: i28, %c: i16, %m: memref<8xi1>, %o: memref<8xi37>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %z16 = arith.constant 0 : i37
    %k = arith.constant 20 : i37
    %zero = arith.shli %z16, %k : i37
    %zero28 = arith.trunci %zero : i37 to i28
    %wide = arith.extsi %a : i28 to i37
    %pos = arith.cmpi sgt, %a, %zero28 : i28
    %relu = arith.select %pos, %wide, %zero : i37
    memref.store %relu, %o[%c0] : memref<8xi37>
    %z28 = arith.constant 0 : i28
    %neg = arith.cmpi slt, %b, %z28 : i28
    memref.store %neg, %m[%c0] : memref<8xi1>
    %nonneg = arith.cmpi sle, %z28, %b : i28
    memref.store %nonneg, %m[%c1] : memref<8xi1>
    %one = arith.constant 1 : i37
    %gt = arith.cmpi sgt, %a, %z28 : i28
    %kept = arith.select %gt, %wide, %one : i37
    memref.store %kept, %o[%c1] : memref<8xi37>
    %gt2 = arith.cmpi sgt, %b, %z28 : i28
    memref.store %gt2, %m[%c2] : memref<8xi1>
    func.return
  }
}

// CHECK:      %[[W:.*]] = arith.extsi %a : i28 to i37
// CHECK:      %[[S:.*]] = arith.shrui %a, %{{.*}} : i28
// CHECK-NEXT: %[[SA:.*]] = arith.trunci %[[S]] : i28 to i1
// CHECK-NEXT: %[[R:.*]] = arith.select %[[SA]], %zero, %[[W]] : i37
// CHECK-NEXT: memref.store %[[R]], %o[%c0]
// CHECK:      %[[T:.*]] = arith.shrui %b, %{{.*}} : i28
// CHECK-NEXT: %[[SB:.*]] = arith.trunci %[[T]] : i28 to i1
// CHECK-NEXT: memref.store %[[SB]], %m[%c0]
// CHECK:      %[[U:.*]] = arith.shrui %b, %{{.*}} : i28
// CHECK-NEXT: %[[SB2:.*]] = arith.trunci %[[U]] : i28 to i1
// CHECK:      %[[NOT:.*]] = arith.xori %[[SB2]], %{{.*}} : i1
// CHECK-NEXT: memref.store %[[NOT]], %m[%c1]
// CHECK:      %[[GT:.*]] = arith.cmpi sgt, %a, %z28 : i28
// CHECK-NEXT: %[[K:.*]] = arith.select %[[GT]], %[[W]], %one : i37
// CHECK:      %[[GT2:.*]] = arith.cmpi sgt, %b, %z28 : i28
// CHECK-NEXT: memref.store %[[GT2]], %m[%c2]
