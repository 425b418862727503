// RUN: vichls-opt -p 'fpga{device=ecp5 clock_period_ns=6.666666666666667}' -t verilog %s > %t.opt.v
// RUN: vichls compile %s --device ecp5 --clock-period 6.666666666666667 --emit verilog > %t.cli.v
// RUN: diff %t.opt.v %t.cli.v
// RUN: filecheck %s < %t.opt.v
// The device is an option of every pass that reads the operator library: the fpga pipeline
// for the ECP5 on IR text makes what vichls compile --device ecp5 makes (here its one-hot
// FSM and registered loop test), not the xc7's design.

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

// CHECK:      module sum (
// CHECK:      wire in_state{{.*}} = fsm_state[{{[0-9]+}}];
// CHECK:      vichls_reg #(.WIDTH({{[0-9]+}})) i_more
