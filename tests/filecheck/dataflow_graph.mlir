// RUN: vichls-opt -p extract-tasks %s | filecheck %s --check-prefix=GRAPH
// RUN: vichls-opt -p infer-streams %s | filecheck %s --check-prefix=NOGRAPH
// RUN: vichls-opt -p dataflow-graph %s | filecheck %s --check-prefix=STREAMS
// A dataflow top calling a producer and a consumer of a local array: extract-tasks makes
// two tasks joined by a buffer channel (the zero fill the producer overwrites in order is
// dropped); infer-streams, which needs the graph, makes the channel a FIFO (the producer
// writes b and the consumer reads it once each, in order), the accesses stream puts and
// gets.

builtin.module attributes {vichls.top = "pipe"} {
  func.func @scale(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %b: memref<8xi32> {vichls.name = "b", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 8 {
      %0 = affine.load %a[%i] : memref<8xi32>
      %1 = arith.constant 3 : i32
      %2 = arith.muli %0, %1 : i32
      affine.store %2, %b[%i] : memref<8xi32>
    }
    func.return
  }
  func.func @offset(%b: memref<8xi32> {vichls.name = "b", vichls.type = "int32"}, %c: memref<8xi32> {vichls.name = "c", vichls.type = "int32"}) attributes {vichls.kernel} {
    affine.for %i = 0 to 8 {
      %0 = affine.load %b[%i] : memref<8xi32>
      %1 = arith.constant 1 : i32
      %2 = arith.addi %0, %1 : i32
      affine.store %2, %c[%i] : memref<8xi32>
    }
    func.return
  }
  func.func @pipe(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"}, %c: memref<8xi32> {vichls.name = "c", vichls.type = "int32"}) attributes {vichls.kernel, vichls.dataflow = "ap_ctrl_hs"} {
    %0 = memref.alloca() {vichls.name = "b"} : memref<8xi32>
    %1 = arith.constant 0 : i32
    affine.for %2 = 0 to 8 {
      affine.store %1, %0[%2] : memref<8xi32>
    }
    func.call @scale(%a, %0) : (memref<8xi32>, memref<8xi32>) -> ()
    func.call @offset(%0, %c) : (memref<8xi32>, memref<8xi32>) -> ()
    func.return
  }
}

// GRAPH:        func.func @pipe({{.*}}vichls.dataflow = "ap_ctrl_hs"
// GRAPH-NEXT:     %b = graph.channel "b" "buffer" {producer = "scale", consumer = "offset"} : memref<8xi32>
// GRAPH-NEXT:     graph.task "scale" @scale(%{{.*}}, %b)
// GRAPH-NEXT:     graph.task "offset" @offset(%b, %{{.*}})
// GRAPH-NEXT:     func.return

// NOGRAPH-NOT:  graph.
// NOGRAPH:      func.call @scale

// STREAMS:      func.func @scale({{.*}}%b: !stream.stream<i32> {{{.*}}vichls.stream = "out"}
// STREAMS:        stream.put %{{.*}}, %b : i32, !stream.stream<i32>
// STREAMS:      func.func @offset(%b: !stream.stream<i32> {{{.*}}vichls.stream = "in"}
// STREAMS:        stream.get %b : !stream.stream<i32> -> i32
// STREAMS:      %b = graph.channel "b" "fifo" {producer = "scale", consumer = "offset", depth = 2 : i64} : !stream.stream<i32>
