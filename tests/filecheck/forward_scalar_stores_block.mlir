// RUN: vichls-opt -p forward-scalar-stores %s | filecheck %s
// Within a block only: %v reads the store of %x (forwarded); %w follows an scf.if that may
// store, so it stays a load; the first store, overwritten before any read, is removed.

builtin.module {
  func.func @f(%a: i32, %c: i1) -> i32 {
    %r = memref.alloca() : memref<i32>
    memref.store %a, %r[] : memref<i32>
    %x = arith.addi %a, %a : i32
    memref.store %x, %r[] : memref<i32>
    %v = memref.load %r[] : memref<i32>
    scf.if %c {
      memref.store %a, %r[] : memref<i32>
      scf.yield
    }
    %w = memref.load %r[] : memref<i32>
    %s = arith.addi %v, %w : i32
    func.return %s : i32
  }
}

// CHECK:       %r = memref.alloca() : memref<i32>
// CHECK-NEXT:  %x = arith.addi %a, %a : i32
// CHECK-NEXT:  memref.store %x, %r[] : memref<i32>
// CHECK-NEXT:  scf.if %c {
// CHECK-NEXT:    memref.store %a, %r[] : memref<i32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %w = memref.load %r[] : memref<i32>
// CHECK-NEXT:  %s = arith.addi %x, %w : i32
