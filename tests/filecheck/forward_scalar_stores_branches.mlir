// RUN: vichls-opt -p forward-scalar-stores %s | filecheck %s
// Forwarding into a branch keeps what the branch may change: r is read in the branch and
// after it, both times a; t may be stored in the branch, so it is read back after it, and
// its store before the if stays.

builtin.module {
  func.func @f(%a: i32, %c: i1) -> i32 {
    %r = memref.alloca() : memref<i32>
    %t = memref.alloca() : memref<i32>
    memref.store %a, %r[] : memref<i32>
    memref.store %a, %t[] : memref<i32>
    scf.if %c {
      %v = memref.load %r[] : memref<i32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %t[] : memref<i32>
    }
    %x = memref.load %r[] : memref<i32>
    %y = memref.load %t[] : memref<i32>
    %s = arith.addi %x, %y : i32
    func.return %s : i32
  }
}

// CHECK-LABEL: func.func @f(%a: i32, %c: i1) -> i32
// CHECK:         memref.store %a, %r[] : memref<i32>
// CHECK-NEXT:    memref.store %a, %t[] : memref<i32>
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      %w = arith.addi %a, %a : i32
// CHECK-NEXT:      memref.store %w, %t[] : memref<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %y = memref.load %t[] : memref<i32>
// CHECK-NEXT:    %s = arith.addi %a, %y : i32
