// RUN: vichls-opt --allow-unregistered-dialect -p narrow %s | filecheck %s
// Merge-sort-like loops (a stage counter, a width 1 << stage, an inner i64 loop up to it):
// compares, sums, differences and products are computed in the bits their value ranges
// need, never where a value may wrap or is unknown, nor an unsigned compare of values that
// may be negative.

builtin.module {
  func.func @f(%n: i32, %m: memref<64xi32>) {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %big = arith.constant 2147483647 : i32
    %s1 = arith.constant 1 : i64
    %z = arith.constant 0 : i64
    scf.for %stage = %c0 to %c6 step %c1 {
      %st = arith.index_cast %stage : index to i32
      %w = arith.shli %one, %st : i32
      %hi = arith.extsi %w : i32 to i64
      scf.for %k = %z to %hi step %s1 : i64 {
        %k1 = arith.addi %k, %s1 : i64
        %t = arith.cmpi slt, %k1, %hi : i64
        %u = arith.cmpi ult, %k1, %hi : i64
        %ki = arith.trunci %k : i64 to i32
        %d = arith.cmpi slt, %ki, %n : i32
        %p = arith.muli %ki, %big : i32
        %q = arith.cmpi slt, %p, %one : i32
        %neg = arith.subi %ki, %c32 : i32
        %r = arith.cmpi ult, %neg, %one : i32
        %s = arith.cmpi sgt, %neg, %ki : i32
        %sh = arith.shrsi %w, %st : i32
        %e = arith.cmpi eq, %sh, %one : i32
        %keep = arith.select %t, %ki, %n : i32
        %x = arith.cmpi sle, %keep, %one : i32
        %area = arith.muli %ki, %w : i32
        %wrapping = arith.addi %p, %one : i32
        "test.use"(%u, %d, %q, %r, %s, %e, %x) : (i1, i1, i1, i1, i1, i1, i1) -> ()
        "test.keep"(%area, %wrapping, %neg) : (i32, i32, i32) -> ()
      }
    }
    func.return
  }
}

// k + 1 (1..32) and both compares with the width: 7 bits, unsigned safe on 1..32
// CHECK:       %k1 = arith.addi %{{.*}}, %{{.*}} : i7
// CHECK:       %t = arith.cmpi slt, %k1, %{{.*}} : i7
// CHECK:       %u = arith.cmpi ult, %k1, %{{.*}} : i7
// %n is unknown; the product may wrap: 32 bits
// CHECK:       %d = arith.cmpi slt, %ki, %n : i32
// CHECK:       %q = arith.cmpi slt, %p, %one : i32
// ki - 32 is -32..-1: 6 bits; but under an unsigned predicate it stays 32 bits
// CHECK:       %neg = arith.subi %{{.*}}, %{{.*}} : i6
// CHECK:       %r = arith.cmpi ult, %{{.*}}, %one : i32
// -32..-1 > 0..31 never holds: the ranges decide it
// CHECK:       %s = arith.constant false
// CHECK:       %e = arith.cmpi eq, %{{.*}}, %{{.*}} : i7
// a select with %n on one side: 32 bits
// CHECK:       %x = arith.cmpi sle, %keep, %one : i32
// 0..31 * 1..32 (at most 992) fits 11 signed bits; p + 1 may wrap
// CHECK:       %area = arith.muli %{{.*}}, %{{.*}} : i11
// CHECK:       %wrapping = arith.addi %p, %one : i32
