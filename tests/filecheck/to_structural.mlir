// RUN: vichls-opt -p 'fpga-prepare,fpga-schedule,to-structural' %s | filecheck %s
// A scheduled summing loop becomes one structural component: the ports of the ap_ctrl_hs
// interface and of the array A, a register per value that lives across cycles, a static
// group per schedule segment with its assignments guarded by the group's cycles, and a
// control tree that enables the groups (the loop over the counter register i).

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

// CHECK:      builtin.module
// CHECK-NOT:  func.func
// CHECK:      structural.component "sum" {
// CHECK:        %ap_start = structural.port "ap_start" "in" : i1
// CHECK:        %A_address0 = structural.port "A_address0" "out" : i3
// CHECK:        %A_q0 = structural.port "A_q0" "in" : i32
// CHECK:        structural.cell "acc_{{[0-9]+}}" "vichls_reg" {WIDTH = 32 : i32}
// CHECK:        structural.static_group "grp_{{[0-9]+}}" latency 2 : i32 {
// CHECK:        structural.static_group "[[BODY:grp_[0-9]+]]" latency 2 : i32 {
// CHECK-NEXT:     structural.assign %acc_{{[0-9]+}}_in = %t if %[[BODY]]_c0 : i32
// CHECK:          structural.assign %A_next_0_in = %A_q0 if %[[BODY]]_c1 : i32
// CHECK:        %t = comb.add %acc_{{[0-9]+}}_out, %A_next_0_out : i32
// CHECK:        structural.control {
// CHECK:          structural.for %{{.*}} attributes {loop_name = "i", source = 0 : i32} : i5 {
// CHECK-NEXT:       structural.enable "[[BODY]]"
