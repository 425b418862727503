// RUN: not vichls-opt %s 2>&1 | filecheck %s
// The structural ops verify what they name: an enable of a group the component does not
// have is refused (tests/test_structural_dialect.py has the other verifiers).

builtin.module attributes {vichls.top = "sum"} {
  structural.component "sum" {
    %ap_clk = structural.port "ap_clk" "in" : i1
    %ap_rst = structural.port "ap_rst" "in" : i1
    %ap_start = structural.port "ap_start" "in" : i1
    %ap_done = structural.port "ap_done" "out" : i1
    %ap_idle = structural.port "ap_idle" "out" : i1
    %ap_ready = structural.port "ap_ready" "out" : i1
    %ap_return = structural.port "ap_return" "out" : i32
    %A_address0 = structural.port "A_address0" "out" : i3
    %A_ce0 = structural.port "A_ce0" "out" : i1
    %A_we0 = structural.port "A_we0" "out" : i1
    %A_d0 = structural.port "A_d0" "out" : i32
    %A_q0 = structural.port "A_q0" "in" : i32
    %A_next_0_in, %A_next_0_en, %A_next_0_out = structural.cell "A_next_0" "vichls_reg" {WIDTH = 32 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i32, i1, i32
    %acc_1_in, %acc_1_en, %acc_1_out = structural.cell "acc_1" "vichls_reg" {WIDTH = 32 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i32, i1, i32
    structural.static_group "grp_2" latency 2 : i32 {
      structural.assign %acc_1_in = %0 if %grp_2_c0 : i32
      structural.assign %acc_1_en = %1 if %grp_2_c0 : i1
      structural.assign %A_address0 = %2 if %grp_2_c0 : i3
      structural.assign %A_ce0 = %1 if %grp_2_c0 : i1
      structural.assign %A_next_0_in = %A_q0 if %grp_2_c1 : i32
      structural.assign %A_next_0_en = %1 if %grp_2_c1 : i1
    }
    %0 = hw.constant 0 : i32
    %grp_2_c0 = structural.group_cycle "grp_2" 0 : i32
    %1 = hw.constant true
    %2 = hw.constant 0 : i3
    %grp_2_c1 = structural.group_cycle "grp_2" 1 : i32
    %i_5_in, %i_5_en, %i_5_out = structural.cell "i_5" "vichls_reg" {WIDTH = 5 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i5, i1, i5
    %i_5_next = comb.mux %i_5_en, %i_5_in, %i_5_out : i5
    %3 = hw.constant 0 : i27
    %i = comb.concat %3, %i_5_out : i27, i5
    %i_1 = comb.concat %3, %i_5_next : i27, i5
    %4 = hw.constant 0 : i5
    %5 = hw.constant 8 : i32
    %6 = hw.constant 8 : i5
    %7 = hw.constant 1 : i32
    %8 = hw.constant 1 : i5
    structural.static_group "grp_3" latency 2 : i32 {
      structural.assign %acc_1_in = %t if %grp_3_c0 : i32
      structural.assign %acc_1_en = %1 if %grp_3_c0 : i1
      structural.assign %A_address0 = %addr if %grp_3_c0 : i3
      structural.assign %A_ce0 = %1 if %grp_3_c0 : i1
      structural.assign %A_next_0_in = %A_q0 if %grp_3_c1 : i32
      structural.assign %A_next_0_en = %1 if %grp_3_c1 : i1
    }
    %t = comb.add %acc_1_out, %A_next_0_out : i32
    %grp_3_c0 = structural.group_cycle "grp_3" 0 : i32
    %addi = comb.add %i, %7 : i32
    %cmpi = comb.icmp slt %addi, %5 : i32
    %select = comb.mux %cmpi, %addi, %0 : i32
    %addr = comb.extract %select from 0 :  (i32) -> i3
    %grp_3_c1 = structural.group_cycle "grp_3" 1 : i32
    structural.static_group "grp_4" latency 1 : i32 {
      structural.assign %r_13_in = %acc_1_out if %grp_4_c0 : i32
      structural.assign %r_13_en = %1 if %grp_4_c0 : i1
    }
    %r_13_in, %r_13_en, %r_13_out = structural.cell "r_13" "vichls_reg" {WIDTH = 32 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i32, i1, i32
    %r_13_next = comb.mux %r_13_en, %r_13_in, %r_13_out : i32
    %grp_4_c0 = structural.group_cycle "grp_4" 0 : i32
    structural.control {
      structural.enable "grp_2"
      structural.for %i_5_in, %i_5_en, %i_5_out = %4 to %6 step %8 attributes {loop_name = "i", source = 0 : i32} : i5 {
        structural.enable "grp_9"
      }
      structural.enable "grp_4"
    }
    structural.assign %ap_return = %r_13_next : i32
  }
}


// CHECK: error: structural.enable names the group 'grp_9', which component 'sum' does not have
