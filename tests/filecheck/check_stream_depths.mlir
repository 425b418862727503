// RUN: not vichls-opt -p check-stream-depths %s 2>&1 | filecheck %s
// Eight puts into a local FIFO of two before anything reads it would wait forever in a
// sequential design: refused, naming the stream and the depth it would need.

builtin.module attributes {vichls.top = "f"} {
  func.func @f(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}) attributes {vichls.kernel} {
    %q = stream.create {vichls.name = "q", depth = 2 : i64} : !stream.stream<i32>
    affine.for %i = 0 to 8 {
      %x = affine.load %a[%i] : memref<8xi32>
      stream.put %x, %q : i32, !stream.stream<i32>
    }
    affine.for %i = 0 to 8 {
      %y = stream.get %q : !stream.stream<i32> -> i32
      affine.store %y, %a[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK: error: affine.for: the local stream 'q' (depth 2) receives 8 elements here
// CHECK-SAME: a depth of at least 8
