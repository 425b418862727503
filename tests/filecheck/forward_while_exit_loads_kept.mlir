// RUN: vichls-opt --split-input-file -p forward-while-exit-loads %s | filecheck %s
// The array elements a while condition read, reused after the loop, are read back from
// registers the condition writes (p[k] and t[i]); kept as loads: q[k] (the condition
// writes q), p[2k] (another index), p[k] after k changed, t[i] after t changed. End to
// end, the KMP kernels of tests/test_pass_if_convert_scalars.py run through this pass.

builtin.module {
  func.func @f(%p: memref<4xi8>, %t: memref<8xi8>, %i: index, %q: memref<4xi8>) -> i8 {
    %k = memref.alloca() : memref<i32>
    %c1 = arith.constant 1 : i32
    scf.while () : () -> () {
      %v = memref.load %k[] : memref<i32>
      %a = arith.index_cast %v : i32 to index
      %x = memref.load %p[%a] : memref<4xi8>
      %y = memref.load %t[%i] : memref<8xi8>
      %z = memref.load %q[%a] : memref<4xi8>
      memref.store %y, %q[%a] : memref<4xi8>
      %ne = arith.cmpi ne, %x, %y : i8
      scf.condition(%ne)
    } do {
      %v = memref.load %k[] : memref<i32>
      %w = arith.subi %v, %c1 : i32
      memref.store %w, %k[] : memref<i32>
      scf.yield
    }
    %v = memref.load %k[] : memref<i32>
    %a = arith.index_cast %v : i32 to index
    %x = memref.load %p[%a] : memref<4xi8>
    %y = memref.load %t[%i] : memref<8xi8>
    %z = memref.load %q[%a] : memref<4xi8>
    %b = arith.addi %a, %a : index
    %u = memref.load %p[%b] : memref<4xi8>
    %w = arith.addi %v, %c1 : i32
    memref.store %w, %k[] : memref<i32>
    %v2 = memref.load %k[] : memref<i32>
    %a2 = arith.index_cast %v2 : i32 to index
    %x2 = memref.load %p[%a2] : memref<4xi8>
    memref.store %x, %t[%i] : memref<8xi8>
    %y2 = memref.load %t[%i] : memref<8xi8>
    %s1 = arith.addi %x, %y : i8
    %s2 = arith.addi %z, %u : i8
    %s3 = arith.addi %x2, %y2 : i8
    %s4 = arith.addi %s1, %s2 : i8
    %s5 = arith.addi %s3, %s4 : i8
    func.return %s5 : i8
  }
}

// CHECK:      %t_at_exit = memref.alloca() : memref<i8>
// CHECK-NEXT: %p_at_exit = memref.alloca() : memref<i8>
// CHECK-NEXT: %k = memref.alloca() : memref<i32>
// CHECK:      scf.while
// CHECK:        %x = memref.load %p[%a] : memref<4xi8>
// CHECK-NEXT:   memref.store %x, %p_at_exit[] : memref<i8>
// CHECK-NEXT:   %y = memref.load %t[%i] : memref<8xi8>
// CHECK-NEXT:   memref.store %y, %t_at_exit[] : memref<i8>
// CHECK:      } do {
// CHECK:      }
// CHECK-NEXT: %{{.*}} = memref.load %k[] : memref<i32>
// CHECK-NEXT: %[[A:.*]] = arith.index_cast
// CHECK-NEXT: %[[X:.*]] = memref.load %p_at_exit[] : memref<i8>
// CHECK-NEXT: %[[Y:.*]] = memref.load %t_at_exit[] : memref<i8>
// CHECK-NEXT: %{{.*}} = memref.load %q[%[[A]]] : memref<4xi8>
// CHECK:      %{{.*}} = memref.load %p[%b] : memref<4xi8>
// CHECK:      %{{.*}} = memref.load %p[%a2] : memref<4xi8>
// CHECK-NEXT: memref.store %[[X]], %t[%i] : memref<8xi8>
// CHECK-NEXT: %{{.*}} = memref.load %t[%i] : memref<8xi8>

// -----

// A condition index that is the loop's own block argument is not a value the code after
// the loop can name: nothing is forwarded.

builtin.module {
  func.func @f(%p: memref<4xi8>, %n: index) -> i8 {
    %c0 = arith.constant 0 : index
    %r = scf.while (%j = %c0) : (index) -> index {
      %x = memref.load %p[%j] : memref<4xi8>
      %c0_i8 = arith.constant 0 : i8
      %go = arith.cmpi ne, %x, %c0_i8 : i8
      scf.condition(%go) %j : index
    } do {
    ^bb0(%j2: index):
      %c1 = arith.constant 1 : index
      %n2 = arith.addi %j2, %c1 : index
      scf.yield %n2 : index
    }
    %y = memref.load %p[%r] : memref<4xi8>
    func.return %y : i8
  }
}

// CHECK-LABEL: func.func @f(%p: memref<4xi8>, %n: index) -> i8
// CHECK-NOT:  memref.alloca
// CHECK:      memref.load %p[%r] : memref<4xi8>
