// RUN: vichls-opt -p insert-stall %s | filecheck %s
// A loop that gets from one stream and puts to another, after control-to-fsm: while the
// design is stalled (a get from an empty FIFO, a put to a full one) every register enable,
// FIFO strobe, FSM transition and the done/ready outputs are gated by advance = !stalled.

builtin.module attributes {vichls.top = "scopy"} {
  structural.component "scopy" {
    %ap_clk = structural.port "ap_clk" "in" : i1
    %ap_rst = structural.port "ap_rst" "in" : i1
    %ap_start = structural.port "ap_start" "in" : i1
    %ap_done = structural.port "ap_done" "out" : i1
    %ap_idle = structural.port "ap_idle" "out" : i1
    %ap_ready = structural.port "ap_ready" "out" : i1
    %inp_dout = structural.port "inp_dout" "in" : i32
    %inp_empty_n = structural.port "inp_empty_n" "in" : i1
    %inp_read = structural.port "inp_read" "out" : i1
    %out_din = structural.port "out_din" "out" : i32
    %out_full_n = structural.port "out_full_n" "in" : i1
    %out_write = structural.port "out_write" "out" : i1
    %i_1_in, %i_1_en, %i_1_out = structural.cell "i_1" "vichls_reg" {WIDTH = 4 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i4, i1, i4
    %0 = hw.constant 0 : i4
    %1 = hw.constant 4 : i4
    %2 = hw.constant 1 : i32
    %3 = hw.constant 1 : i4
    %4 = hw.constant true
    %addi = comb.add %inp_dout, %2 : i32
    %not_ready = comb.xor %inp_empty_n, %4 : i1
    %waits = comb.and %in_state, %not_ready : i1
    %not_ready_1 = comb.xor %out_full_n, %4 : i1
    %waits_1 = comb.and %in_state, %not_ready_1 : i1
    %waits_2 = comb.or %waits, %waits_1 : i1
    %running = comb.xor %ap_rst, %4 : i1
    %stall = comb.and %waits_2, %running : i1
    %vichls_stalled = structural.wire "vichls_stalled" : i1
    structural.assign %vichls_stalled = %stall : i1
    %fsm_state = structural.fsm states 2 : i32 : i1
    %in_state = structural.in_state %fsm_state 1 : i32 : i1
    %in_state_1 = structural.in_state %fsm_state 0 : i32 : i1
    %path = comb.and %in_state_1, %ap_start : i1
    structural.assign %i_1_in = %0 if %path : i4
    %5 = hw.constant true
    structural.assign %i_1_en = %5 if %path : i1
    structural.transition %fsm_state from 0 : i32 to 1 : i32 if %ap_start : i1
    %loop_next = comb.add %i_1_out, %3 : i4
    %loop_test = comb.icmp slt %loop_next, %1 : i4
    %path_1 = comb.and %in_state, %loop_test : i1
    structural.assign %i_1_in = %loop_next if %path_1 : i4
    structural.assign %i_1_en = %5 if %path_1 : i1
    structural.transition %fsm_state from 1 : i32 to 1 : i32 if %loop_test : i1
    %inv = comb.xor %loop_test, %5 : i1
    structural.transition %fsm_state from 1 : i32 to 0 : i32 : i1
    %path_2 = comb.and %in_state, %inv : i1
    structural.assign %inp_read = %4 if %in_state : i1
    structural.assign %out_din = %addi if %in_state : i32
    structural.assign %out_write = %4 if %in_state : i1
    structural.assign %ap_done = %5 if %path_2 : i1
    structural.assign %ap_ready = %5 if %path_2 : i1
    structural.assign %ap_idle = %in_state_1 : i1
  }
}

// CHECK:      structural.assign %i_1_en = %{{.*}} if %[[GO:go]] : i1
// CHECK:      structural.transition %fsm_state from 0 : i32 to 1 : i32 if %[[GO1:go_1]] : i1
// CHECK:      structural.transition %fsm_state from 1 : i32 to 0 : i32 if %advance : i1
// CHECK:      structural.assign %inp_read = %{{.*}} if %[[GOS:go_[0-9]+]] : i1
// CHECK:      structural.assign %out_write = %{{.*}} if %[[GOS]] : i1
// CHECK:      structural.assign %ap_done = %{{.*}} if %[[GOD:go_[0-9]+]] : i1
// CHECK:      %advance = comb.xor %vichls_stalled, %{{.*}} : i1
// CHECK:      %[[GO]] = comb.and %path, %advance : i1
// CHECK:      %[[GO1]] = comb.and %ap_start, %advance : i1
// CHECK:      %[[GOS]] = comb.and %in_state, %advance : i1
// CHECK:      %[[GOD]] = comb.and %path_2, %advance : i1
