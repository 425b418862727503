// RUN: vichls-opt -p fpga %s -t verilog > %t.whole.v
// RUN: vichls-opt -p fpga-prepare,fpga-schedule %s > %t.scheduled.mlir
// RUN: filecheck %s < %t.scheduled.mlir
// RUN: vichls-opt -p to-structural,compile-control -t verilog %t.scheduled.mlir > %t.steps.v
// RUN: diff %t.whole.v %t.steps.v
// The FPGA flow in two steps through IR text gives the Verilog of the flow in one: the
// scheduled IR prints everything the later steps read. A scheduled compare keeps its cycle
// (printed in the generic form, as the custom form of arith.cmpi has no attributes).

builtin.module attributes {vichls.top = "sum"} {
  func.func @sum(%A: memref<8xi32> {vichls.name = "A", vichls.type = "int32"}) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %acc = memref.alloca() : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %acc[] : memref<i32>
    affine.for %i = 0 to 8 {
      %s = memref.load %acc[] : memref<i32>
      %x = affine.load %A[%i] : memref<8xi32>
      %t = arith.addi %s, %x : i32
      memref.store %t, %acc[] : memref<i32>
    }
    %r = memref.load %acc[] : memref<i32>
    func.return %r : i32
  }
}

// CHECK: "arith.cmpi"({{.*}}) <{predicate = {{[0-9]+}} : i64}> {vichls.cycle = {{[0-9]+}} : i64, vichls.ready = {{[0-9]+}} : i64}
