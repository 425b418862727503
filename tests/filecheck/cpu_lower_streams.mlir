// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds %s | filecheck %s --check-prefix=BOUNDS
// RUN: vichls-opt -p vichls-cpu-c-entry-point,vichls-cpu-stream-put-bounds,vichls-cpu-lower-affine,vichls-cpu-scf-to-cf,vichls-cpu-lower-streams %s | filecheck %s --check-prefix=STREAMS
// A loop that gets four elements from one stream and puts four to another. The put bounds
// (at most 4 puts to `out` per call, none to `inp`) are read while the loop is still affine;
// lower-streams then makes each stream a ring buffer of i64 (head, tail, mask, elements) and
// adds the status word that a failing get or put sets.

builtin.module attributes {vichls.top = "scopy"} {
  func.func @scopy(%inp: !stream.stream<i32> {vichls.name = "inp", vichls.type = "int32", vichls.stream = "in", vichls.depth = 2 : i64}, %out: !stream.stream<i32> {vichls.name = "out", vichls.type = "int32", vichls.stream = "out", vichls.depth = 2 : i64}) attributes {vichls.kernel} {
    affine.for %i = 0 to 4 {
      %0 = stream.get %inp : !stream.stream<i32> -> i32
      %1 = arith.constant 1 : i32
      %2 = arith.addi %0, %1 : i32
      stream.put %2, %out : i32, !stream.stream<i32>
    }
    func.return
  }
}

// BOUNDS:      func.func private @__vichls_scopy({{.*}} attributes {vichls.kernel, vichls.stream_put_bounds = [0 : i64, 4 : i64]}

// STREAMS-NOT: stream.
// STREAMS:     builtin.module attributes {{{.*}}vichls.stream_entry_put_bounds = [0 : i64, 4 : i64]
// STREAMS:     func.func private @__vichls_scopy(%inp: memref<-1xi64> {{.*}}, %out: memref<-1xi64> {{.*}}, %{{.*}}: memref<1xi64>
// STREAMS:       %[[HEAD:.*]] = memref.load %inp[%{{.*}}] : memref<-1xi64>
// STREAMS-NEXT:  %[[TAIL:.*]] = memref.load %inp[%{{.*}}] : memref<-1xi64>
// STREAMS-NEXT:  %{{.*}} = arith.cmpi ne, %[[HEAD]], %[[TAIL]] : i64
