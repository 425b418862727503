// RUN: vichls-opt --split-input-file -p if-convert-scalars,forward-scalar-stores %s | filecheck %s
// The condition of a while `k > 0 and p[k] != t and q[k] != t`, as the front end builds it:
// a flag register per operand written under `if k > 0`. p has 4 words, so any 2-bit address
// names one of them and its load runs unconditionally: that if becomes a select the
// condition reads at once. q has 5 words (an index past the end would leave the memory):
// that if stays, and its flag is read back after it.

builtin.module {
  func.func @f(%p: memref<4xi8>, %q: memref<5xi8>, %t: i8) {
    %k = memref.alloca() : memref<i32>
    %flag0 = memref.alloca() : memref<i1>
    %flag1 = memref.alloca() : memref<i1>
    %c0 = arith.constant 0 : i32
    scf.while () : () -> () {
      %v = memref.load %k[] : memref<i32>
      %pos = arith.cmpi sgt, %v, %c0 : i32
      memref.store %pos, %flag0[] : memref<i1>
      scf.if %pos {
        %i = arith.index_cast %v : i32 to index
        %x = memref.load %p[%i] : memref<4xi8>
        %ne = arith.cmpi ne, %x, %t : i8
        memref.store %ne, %flag0[] : memref<i1>
      }
      memref.store %pos, %flag1[] : memref<i1>
      scf.if %pos {
        %i_1 = arith.index_cast %v : i32 to index
        %y = memref.load %q[%i_1] : memref<5xi8>
        %ne_1 = arith.cmpi ne, %y, %t : i8
        memref.store %ne_1, %flag1[] : memref<i1>
      }
      %f0 = memref.load %flag0[] : memref<i1>
      %f1 = memref.load %flag1[] : memref<i1>
      %both1 = arith.andi %f0, %f1 : i1
      scf.condition(%both1)
    } do {
      %v_1 = memref.load %k[] : memref<i32>
      %c1 = arith.constant 1 : i32
      %w = arith.subi %v_1, %c1 : i32
      memref.store %w, %k[] : memref<i32>
      scf.yield
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%p: memref<4xi8>, %q: memref<5xi8>, %t: i8)
// CHECK:       scf.while
// CHECK:         %pos = arith.cmpi sgt, %v, %c0 : i32
// CHECK-NEXT:    %i = arith.index_cast %v : i32 to index
// CHECK-NEXT:    %x = memref.load %p[%i] : memref<4xi8>
// CHECK-NEXT:    %ne = arith.cmpi ne, %x, %t : i8
// CHECK-NEXT:    %[[F0:.*]] = arith.select %pos, %ne, %pos : i1
// CHECK:         scf.if %pos {
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      memref.load %q[%{{.*}}] : memref<5xi8>
// CHECK:         %[[F1:.*]] = memref.load %flag1[] : memref<i1>
// CHECK-NEXT:    %{{.*}} = arith.andi %[[F0]], %[[F1]] : i1
// CHECK-NEXT:    scf.condition

// -----

// A 1-word memory still has a 1-bit address (index 1 would leave it), and a divider would
// run on every test of the condition: both ifs stay.

builtin.module {
  func.func @f(%one: memref<1xi8>, %p: memref<4xi32>, %t: i8, %d: i32) {
    %k = memref.alloca() : memref<i32>
    %flag0 = memref.alloca() : memref<i1>
    %flag1 = memref.alloca() : memref<i1>
    %c0 = arith.constant 0 : i32
    scf.while () : () -> () {
      %v = memref.load %k[] : memref<i32>
      %pos = arith.cmpi sgt, %v, %c0 : i32
      memref.store %pos, %flag0[] : memref<i1>
      scf.if %pos {
        %i = arith.index_cast %v : i32 to index
        %x = memref.load %one[%i] : memref<1xi8>
        %ne = arith.cmpi ne, %x, %t : i8
        memref.store %ne, %flag0[] : memref<i1>
      }
      memref.store %pos, %flag1[] : memref<i1>
      scf.if %pos {
        %i_1 = arith.index_cast %v : i32 to index
        %y = memref.load %p[%i_1] : memref<4xi32>
        %q = arith.divsi %y, %d : i32
        %ne_1 = arith.cmpi ne, %q, %v : i32
        memref.store %ne_1, %flag1[] : memref<i1>
      }
      %f0 = memref.load %flag0[] : memref<i1>
      %f1 = memref.load %flag1[] : memref<i1>
      %both1 = arith.andi %f0, %f1 : i1
      scf.condition(%both1)
    } do {
      %v_1 = memref.load %k[] : memref<i32>
      %c1 = arith.constant 1 : i32
      %w = arith.subi %v_1, %c1 : i32
      memref.store %w, %k[] : memref<i32>
      scf.yield
    }
    func.return
  }
}

// CHECK-LABEL: func.func @f(%one: memref<1xi8>
// CHECK-NOT:     arith.select
// CHECK:         scf.if %pos {
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      memref.load %one
// CHECK:         scf.if %pos {
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      memref.load %p
// CHECK-NEXT:      arith.divsi
// CHECK-NOT:     arith.select
