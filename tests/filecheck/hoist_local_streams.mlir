// RUN: vichls-opt -p hoist-local-streams %s | filecheck %s
// A local stream made in a loop (a callee with one, inlined there) gets one FIFO: its
// create moves to the entry block and a clear empties it where the create was.

builtin.module attributes {vichls.top = "top"} {
  func.func @top(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 4 {
      %q = stream.create {depth = 2 : i64} : !stream.stream<i32>
      %v = affine.load %a[%i] : memref<8xi32>
      stream.put %v, %q : i32, !stream.stream<i32>
      %w = stream.get %q : !stream.stream<i32> -> i32
      affine.store %w, %a[%i] : memref<8xi32>
    }
    func.return
  }
}

// CHECK:      func.func @top
// CHECK-NEXT:   %[[Q:.*]] = stream.create {depth = 2 : i64} : !stream.stream<i32>
// CHECK-NEXT:   affine.for
// CHECK-NEXT:     stream.clear %[[Q]] : !stream.stream<i32>
// CHECK-NEXT:     affine.load
// CHECK-NEXT:     stream.put %{{.*}}, %[[Q]]
