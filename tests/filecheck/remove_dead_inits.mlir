// RUN: vichls-opt --split-input-file -p remove-dead-inits %s | filecheck %s
// `t: int32[8] = 0` then `for i: t[i] = x[i]`: every element is written, in order, before
// anything reads t, so the front end's zero fill goes. u's fill stays: the statement after
// it writes only half of u (and w's: the next statement reads w as it writes it).

builtin.module {
  func.func @f(%x: memref<8xi32>, %y: memref<8xi32>) {
    %t = memref.alloca() {vichls.name = "t"} : memref<8xi32>
    %u = memref.alloca() {vichls.name = "u"} : memref<8xi32>
    %w = memref.alloca() {vichls.name = "w"} : memref<8xi32>
    %zero = arith.constant 0 : i32
    affine.for %a = 0 to 8 {
      affine.store %zero, %t[%a] : memref<8xi32>
    }
    affine.for %b = 0 to 8 {
      affine.store %zero, %u[%b] : memref<8xi32>
    }
    affine.for %c = 0 to 8 {
      affine.store %zero, %w[%c] : memref<8xi32>
    }
    affine.for %i = 0 to 8 {
      %v = affine.load %x[%i] : memref<8xi32>
      affine.store %v, %t[%i] : memref<8xi32>
    }
    affine.for %j = 0 to 4 {
      %v = affine.load %x[%j] : memref<8xi32>
      affine.store %v, %u[%j] : memref<8xi32>
    }
    affine.for %k = 0 to 8 {
      %old = affine.load %w[%k] : memref<8xi32>
      %v = affine.load %x[%k] : memref<8xi32>
      %s = arith.addi %old, %v : i32
      affine.store %s, %w[%k] : memref<8xi32>
    }
    affine.for %m = 0 to 8 {
      %p = affine.load %t[%m] : memref<8xi32>
      %q = affine.load %u[%m] : memref<8xi32>
      %r = affine.load %w[%m] : memref<8xi32>
      %pq = arith.addi %p, %q : i32
      %s = arith.addi %pq, %r : i32
      affine.store %s, %y[%m] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      %zero = arith.constant 0 : i32
// CHECK-NOT:  affine.store %zero, %t
// CHECK:      affine.store %zero, %u[%b]
// CHECK:      affine.store %zero, %w[%c]
// CHECK:      affine.store %v, %t[%i]
