// vichls primitive: fully pipelined IEEE-754 binary32 division r = a / b, rounded to nearest
// even, bit for bit what numpy float32 computes: subnormal operands and results (no flush to
// zero), signed zeros, x/0 = +-inf for a finite nonzero x, 0/0 = inf/inf = NaN, x/inf = +-0,
// overflow to +-inf; a NaN result is the quiet NaN 32'h7FC00000. LATENCY = 32: operands
// presented in cycle N give their quotient in cycle N+32, counting only cycles with the clock
// enable `ce` high (every stage keeps its value while `ce` is low); a new division may enter
// every cycle. No parameters. `r` is a register output.
//
// Stages (each holds at most a carry chain or about three LUT levels, for 200 MHz on an
// ECP5):
//   1      unpack: exponent flags, for each 4-bit group of the fractions whether it holds a
//          one and its leading zeros, the difference of the exponent fields
//   2      the class of each operand; the leading zeros of a subnormal's significand; the
//          significands move left by the multiple of 8 of them
//   3      ... and by the rest (both in [1, 2)); the class of the result
//   4-29   26 non-restoring radix-2 steps on the significands A / D, one quotient bit each
//          (one 25-bit add or subtract); the quotient lies in (1/2, 2), so 26 bits give 24
//          significant bits and a guard bit whichever its leading bit is. Beside them the
//          quotient's exponent rides along, and stages 26-29 plan the result from it (the
//          packed exponent field for either leading bit, overflow, the right shift of a
//          subnormal result and the mask of the bits it drops, the special cases); stage 29
//          starts the exactness check
//   30     the shift of the quotient by the multiple of 8 of its right shift, the special
//          cases, the sticky bit (bits shifted out, a nonzero final remainder) in parts
//   31     the rest of the shift; the guard and sticky bits
//   32     round to nearest even: an increment of the packed exponent and fraction at the
//          guard bit (its carry moves to the next binade, from the largest subnormal to the
//          smallest normal number or to infinity), then a tie clears the last bit
module vichls_fdiv (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    input wire [31:0] b,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 32;  // documents the unit's latency for its users
    // verilator lint_on UNUSEDPARAM
    localparam STEPS = 26;  // quotient bits
    // the class of the result, decided in stage 3 and carried to the end
    localparam [1:0] KIND_FINITE = 2'd0;  // the quotient of finite nonzero operands
    localparam [1:0] KIND_ZERO = 2'd1;
    localparam [1:0] KIND_INF = 2'd2;
    localparam [1:0] KIND_NAN = 2'd3;

    // Leading zeros of a significand {hidden bit, 23-bit fraction}, over two stages:
    // group_summary gives, for each 4-bit group of {0, fraction} from the top, whether it
    // holds a one and the leading zeros inside it; leading_zeros (a subnormal's count, 0
    // for a normal number; 24 for zero is never used) picks the first 8-bit block with a
    // one (bits 23-16 hold the hidden bit), then the first group with a one in it.
    function [17:0] group_summary;  // {leading zeros inside the groups, nonzero flags}
        input [22:0] frac;
        integer i;
        reg [23:0] v;
        reg [3:0] group;
        begin
            v = {1'b0, frac};
            for (i = 0; i < 6; i = i + 1) begin
                group = v[23-4*i -: 4];
                group_summary[i] = |group;
                group_summary[6+2*i +: 2] = group[3] ? 2'd0 : group[2] ? 2'd1
                                            : group[1] ? 2'd2 : 2'd3;
            end
        end
    endfunction
    function [4:0] leading_zeros;
        input [17:0] summary;
        input exp_zero;  // a subnormal (or zero) significand: no hidden bit
        reg [5:0] nonzero;
        reg top_block, mid_block;
        reg [1:0] top_inner, mid_inner, low_inner;
        begin
            nonzero = summary[5:0];
            top_block = !exp_zero || nonzero[0] || nonzero[1];
            mid_block = nonzero[2] || nonzero[3];
            top_inner = !exp_zero ? 2'd0 : nonzero[0] ? summary[7:6] : summary[9:8];
            mid_inner = nonzero[2] ? summary[11:10] : summary[13:12];
            low_inner = nonzero[4] ? summary[15:14] : summary[17:16];
            leading_zeros = top_block ? {2'd0, exp_zero && !nonzero[0], top_inner}
                            : mid_block ? {2'd1, !nonzero[2], mid_inner}
                            : {nonzero[4] || nonzero[5] ? 2'd2 : 2'd3, !nonzero[4], low_inner};
        end
    endfunction

    // ---- stage 1: unpack ----------------------------------------------------------------
    reg sign_1;
    reg a_exp_zero_1, a_exp_ones_1;
    reg b_exp_zero_1, b_exp_ones_1;
    reg [22:0] a_frac_1;
    reg [22:0] b_frac_1;
    reg [17:0] a_groups_1;  // the group summaries of the fractions (a 0 on top)
    reg [17:0] b_groups_1;
    reg [9:0] exp_diff_1;   // a's exponent field minus b's (two's complement)
    always @(posedge clk) begin
        if (ce) begin
            sign_1 <= a[31] ^ b[31];
            a_exp_zero_1 <= (a[30:23] == 8'd0);
            b_exp_zero_1 <= (b[30:23] == 8'd0);
            a_exp_ones_1 <= (a[30:23] == 8'hFF);
            b_exp_ones_1 <= (b[30:23] == 8'hFF);
            a_frac_1 <= a[22:0];
            b_frac_1 <= b[22:0];
            a_groups_1 <= group_summary(a[22:0]);
            b_groups_1 <= group_summary(b[22:0]);
            exp_diff_1 <= {2'b00, a[30:23]} - {2'b00, b[30:23]};
        end
    end

    // ---- stage 2: classify; the leading zeros; normalize by their multiple of 8 ----------
    wire a_frac_zero = (a_groups_1[5:0] == 6'd0);
    wire b_frac_zero = (b_groups_1[5:0] == 6'd0);
    // the leading zeros of the significands (a normal one has none)
    wire [4:0] a_lz = leading_zeros(a_groups_1, a_exp_zero_1);
    wire [4:0] b_lz = leading_zeros(b_groups_1, b_exp_zero_1);
    // their multiple of 8, straight from the group flags: the first 8-bit block with a one
    // (bits 23-16 hold the hidden bit of a normal number)
    wire a_top_block = !a_exp_zero_1 || a_groups_1[0] || a_groups_1[1];
    wire a_mid_block = a_groups_1[2] || a_groups_1[3];
    wire b_top_block = !b_exp_zero_1 || b_groups_1[0] || b_groups_1[1];
    wire b_mid_block = b_groups_1[2] || b_groups_1[3];
    wire [23:0] a_sig = {!a_exp_zero_1, a_frac_1};
    wire [23:0] a_sig_coarse = a_top_block ? a_sig : a_mid_block ? {a_sig[15:0], 8'd0}
                               : {a_sig[7:0], 16'd0};
    wire [22:0] b_frac_coarse = b_top_block ? b_frac_1 : b_mid_block ? {b_frac_1[14:0], 8'd0}
                                : {b_frac_1[6:0], 16'd0};
    reg a_is_nan_2, a_is_inf_2, a_is_zero_2;
    reg b_is_nan_2, b_is_inf_2, b_is_zero_2;
    reg sign_2;
    reg [23:0] a_sig_2;
    reg [22:0] b_frac_2;
    reg [4:0] a_lz_2;
    reg [4:0] b_lz_2;
    reg [9:0] exp_diff_2;  // the difference of the exponents (a subnormal's is 1, not 0)
    always @(posedge clk) begin
        if (ce) begin
            a_is_nan_2 <= a_exp_ones_1 && !a_frac_zero;
            b_is_nan_2 <= b_exp_ones_1 && !b_frac_zero;
            a_is_inf_2 <= a_exp_ones_1 && a_frac_zero;
            b_is_inf_2 <= b_exp_ones_1 && b_frac_zero;
            a_is_zero_2 <= a_exp_zero_1 && a_frac_zero;
            b_is_zero_2 <= b_exp_zero_1 && b_frac_zero;
            sign_2 <= sign_1;
            a_sig_2 <= a_sig_coarse;
            b_frac_2 <= b_frac_coarse;
            a_lz_2 <= a_lz;
            b_lz_2 <= b_lz;
            exp_diff_2 <= exp_diff_1 + {{9{b_exp_zero_1 && !a_exp_zero_1}},
                                        a_exp_zero_1 != b_exp_zero_1};
        end
    end

    // ---- stage 3: finish the normalization into [1, 2); the class of the result ----------
    wire [1:0] kind =
        (a_is_nan_2 || b_is_nan_2 || (a_is_inf_2 && b_is_inf_2) || (a_is_zero_2 && b_is_zero_2))
            ? KIND_NAN
        : (a_is_inf_2 || b_is_zero_2) ? KIND_INF
        : (a_is_zero_2 || b_is_inf_2) ? KIND_ZERO
        : KIND_FINITE;
    reg [1:0] kind_3;
    reg sign_3;
    reg [23:0] a_sig_3;
    reg [22:0] b_frac_3;  // the divisor's hidden bit is 1 (a zero divisor is a special case)
    // the biased exponent of a quotient in [1, 2) is exp_part_3 + b_lz_bias_3, summed in
    // stage 4 (one adder per stage)
    reg [9:0] exp_part_3;
    reg [7:0] b_lz_bias_3;
    always @(posedge clk) begin
        if (ce) begin
            kind_3 <= kind;
            sign_3 <= sign_2;
            a_sig_3 <= a_sig_2 << a_lz_2[2:0];
            b_frac_3 <= b_frac_2 << b_lz_2[2:0];  // the hidden bit moves to bit 23
            exp_part_3 <= exp_diff_2 - {5'd0, a_lz_2};
            b_lz_bias_3 <= {3'd0, b_lz_2} + 8'd127;
        end
    end

    // ---- stages 4-29: the quotient bits ---------------------------------------------------
    // Non-restoring division of the significands A / D (24-bit integers in [2^23, 2^24)).
    // Step k computes the partial remainder P_k = A * 2^k - D * (Q_k + 1) (Q_k: the quotient
    // bits before it); its quotient bit is P_k >= 0. P_0 = A - D, then P_{k+1} = 2 P_k - D
    // when P_k >= 0, else 2 P_k + D. P_k stays in [-D, D): 25-bit two's complement (the
    // doubling may wrap, the sum never does). The negated divisor N = -D (bit 24 always 1)
    // is formed in step 0 and carried: each later step adds N or ~N with a carry-in, one
    // adder with no multiplexer after it. Step k's registers (stage k+4) sit at slice k of
    // the buses. A step appends the quotient bit of the partial remainder it reads (the
    // quotient's upper bits start as constant zeros, which synthesis removes). The
    // exponent, sign and class ride along to stage 25.
    localparam META = 13;  // {exponent, sign, kind}
    localparam META_STEPS = STEPS - 4;  // the steps that carry META
    wire [STEPS*25-1:0] part_bus;
    wire [(STEPS-1)*24-1:0] neg_bus;
    // verilator lint_off UNUSEDSIGNAL
    wire [STEPS*(STEPS-1)-1:0] quo_bus;  // a step reads the low STEPS-2 bits of its input
    // verilator lint_on UNUSEDSIGNAL
    wire [(META_STEPS+1)*META-1:0] meta_bus;
    // the quotient's biased exponent (that of a quotient in [1, 2)): the second adder
    assign meta_bus[META-1:0] = {exp_part_3 + {2'd0, b_lz_bias_3}, sign_3, kind_3};
    genvar k;
    generate
        for (k = 0; k < STEPS; k = k + 1) begin : step
            wire [24:0] part;  // P_k
            // verilator lint_off UNUSEDSIGNAL
            wire [23:0] neg;   // N without its bit 24 (unused by the last step)
            // verilator lint_on UNUSEDSIGNAL
            wire [STEPS-2:0] quo_in;
            if (k == 0) begin : first
                wire [24:0] divisor = {2'b01, b_frac_3};
                assign part = {1'b0, a_sig_3} - divisor;
                assign neg = 24'd0 - divisor[23:0];  // -D = 2^25 - D, low 24 bits
                assign quo_in = {(STEPS-1){1'b0}};
            end else begin : later
                wire [24:0] part_in = part_bus[(k-1)*25 +: 25];
                wire [23:0] neg_in = neg_bus[(k-1)*24 +: 24];
                wire add_back = part_in[24];  // P_{k-1} < 0: add D = ~N + 1
                wire [24:0] operand = {1'b1, neg_in} ^ {25{add_back}};
                // the carry-in rides on an extra low bit (1 + add_back carries add_back)
                // verilator lint_off UNUSEDSIGNAL
                wire [25:0] sum = {part_in[23:0], 1'b0, 1'b1} + {operand, add_back};
                // verilator lint_on UNUSEDSIGNAL
                assign part = sum[25:1];
                assign neg = neg_in;
                // the quotient bit of P_{k-1}, from its register
                assign quo_in = {quo_bus[(k-1)*(STEPS-1) +: STEPS-2], !add_back};
            end
            reg [24:0] part_r;
            reg [STEPS-2:0] quo;  // the quotient bits before step k
            always @(posedge clk) begin
                if (ce) begin
                    part_r <= part;
                    quo <= quo_in;
                end
            end
            assign part_bus[k*25 +: 25] = part_r;
            assign quo_bus[k*(STEPS-1) +: STEPS-1] = quo;
            if (k + 1 < STEPS) begin : carry_divisor
                reg [23:0] neg_r;
                always @(posedge clk) if (ce) neg_r <= neg;
                assign neg_bus[k*24 +: 24] = neg_r;
            end
            if (k < META_STEPS) begin : carry_meta
                reg [META-1:0] meta;
                always @(posedge clk) if (ce) meta <= meta_bus[k*META +: META];
                assign meta_bus[(k+1)*META +: META] = meta;
            end
        end
    endgenerate
    wire [24:0] part_24 = part_bus[(STEPS-2)*25 +: 25];     // P_24 (stage 28)
    wire [23:0] neg_24 = neg_bus[(STEPS-2)*24 +: 24];
    wire [24:0] part_25 = part_bus[(STEPS-1)*25 +: 25];     // P_25 (stage 29)
    // the whole quotient (stage 29): the last bit is P_25's
    wire [STEPS-1:0] quo_29 = {quo_bus[(STEPS-1)*(STEPS-1) +: STEPS-1], !part_25[24]};

    // ---- stages 26-29 (beside the last four steps): plan the result ----------------------
    // The quotient Q (26 bits, a leading one or zero) is worth Q * 2^(E - 152) for the biased
    // exponent E of stage 4 (that of a quotient in [1, 2)). Its significand and guard bit are
    // Q >> 1 (leading one) or Q (leading zero, exponent E - 1) when that exponent stays
    // >= 1; below, the result is subnormal and in both cases Q moves right by 2 - E bits (the
    // lost bits join the sticky bit; 26 or more leave none). What depends on E alone is
    // planned here, for either leading bit, while the last quotient bits are computed.
    wire [META-1:0] meta_25 = meta_bus[META_STEPS*META +: META];
    wire [9:0] exp_25 = meta_25[12:3];  // two's complement, within [-149, 403]
    // stage 26: comparisons and differences
    reg exp_ge1_26;          // E >= 1
    reg exp_ge2_26;          // E >= 2
    reg exp_far_below_26;    // 2 - E > 31: E < -29
    reg [4:0] sub_distance_26;  // 2 - E, modulo 32
    reg [7:0] exp_26;        // E and E - 1, modulo 256
    reg [7:0] exp_minus1_26;
    reg overflow_one_26;     // the exponent is 255 or more with a leading one
    reg overflow_zero_26;    // with a leading zero
    reg sign_26;
    reg [1:0] kind_26;
    always @(posedge clk) begin
        if (ce) begin
            exp_ge1_26 <= !exp_25[9] && (exp_25 != 10'd0);
            exp_ge2_26 <= !exp_25[9] && (exp_25[8:1] != 8'd0);
            exp_far_below_26 <= exp_25[9] && (exp_25 < 10'h3E3);
            sub_distance_26 <= 5'd2 - exp_25[4:0];
            exp_26 <= exp_25[7:0];
            exp_minus1_26 <= exp_25[7:0] - 8'd1;
            overflow_one_26 <= !exp_25[9] && (exp_25[8] || exp_25[7:0] == 8'hFF);
            overflow_zero_26 <= !exp_25[9] && exp_25[8];
            sign_26 <= meta_25[2];
            kind_26 <= meta_25[1:0];
        end
    end
    // stage 27: the choices
    reg [4:0] sub_shift_27;  // the right shift of a subnormal quotient, 0 for a normal one
    reg normal_27;           // E >= 2: normalize by the leading bit
    reg [7:0] field_one_27;  // the packed exponent before rounding with a leading one
    reg [7:0] field_zero_27; // with a leading zero
    reg overflow_one_27;
    reg overflow_zero_27;
    reg sign_27;
    reg [1:0] kind_27;
    always @(posedge clk) begin
        if (ce) begin
            sub_shift_27 <= exp_ge2_26 ? 5'd0 : exp_far_below_26 ? 5'd31 : sub_distance_26;
            normal_27 <= exp_ge2_26;
            field_one_27 <= exp_ge1_26 ? exp_26 : 8'd0;
            field_zero_27 <= exp_ge2_26 ? exp_minus1_26 : 8'd0;
            overflow_one_27 <= overflow_one_26;
            overflow_zero_27 <= overflow_zero_26;
            sign_27 <= sign_26;
            kind_27 <= kind_26;
        end
    end
    // stage 28: the special cases folded in (NaN, infinity and zero replace the exponent
    // field; an overflow is an infinity) and the mask of the bits the subnormal shift drops
    wire finite_27 = (kind_27 == KIND_FINITE);
    wire nan_27 = (kind_27 == KIND_NAN);
    wire zero_27 = (kind_27 == KIND_ZERO);
    wire all_ones_one = nan_27 || (kind_27 == KIND_INF) || (finite_27 && overflow_one_27);
    wire all_ones_zero = nan_27 || (kind_27 == KIND_INF) || (finite_27 && overflow_zero_27);
    localparam PLAN = 52;
    // {lost mask, subnormal shift, normal, NaN, special with a leading one, with a leading
    //  zero, exponent field with a leading one, with a leading zero, sign}
    reg [PLAN-1:0] plan_28;
    always @(posedge clk) begin
        if (ce) begin
            plan_28 <= {~({STEPS{1'b1}} << sub_shift_27), sub_shift_27, normal_27, nan_27,
                        !finite_27 || overflow_one_27, !finite_27 || overflow_zero_27,
                        all_ones_one ? 8'hFF : zero_27 ? 8'd0 : field_one_27,
                        all_ones_zero ? 8'hFF : zero_27 ? 8'd0 : field_zero_27,
                        sign_27 && !nan_27};
        end
    end
    reg [PLAN-1:0] plan_29;
    always @(posedge clk) if (ce) plan_29 <= plan_28;
    wire [STEPS-1:0] lost_mask_29 = plan_29[51:26];  // the bits of Q the subnormal shift drops
    wire [4:0] sub_shift_29 = plan_29[25:21];
    wire normal_29 = plan_29[20];
    wire nan_29 = plan_29[19];
    wire special_one_29 = plan_29[18];
    wire special_zero_29 = plan_29[17];
    wire [7:0] field_one_29 = plan_29[16:9];
    wire [7:0] field_zero_29 = plan_29[8:1];
    wire sign_29 = plan_29[0];

    // Stage 29 also starts the exactness check. The final remainder is zero when P_25 is 0
    // or -D, and P_25 = -D when the remainder after step 24 was zero, P_24 being 0 or -D:
    // so the division is exact when P_24 is 0 or -D, or P_25 is 0.
    reg [3:0] part_24_zero_29;  // P_24 = 0, in groups of 8 bits (the last has 1)
    reg [3:0] part_24_neg_29;   // P_24 = -D, likewise
    integer g;
    always @(posedge clk) begin
        if (ce) begin
            for (g = 0; g < 3; g = g + 1) begin
                part_24_zero_29[g] <= (part_24[8*g +: 8] == 8'd0);
                part_24_neg_29[g] <= (part_24[8*g +: 8] == neg_24[8*g +: 8]);
            end
            part_24_zero_29[3] <= !part_24[24];
            part_24_neg_29[3] <= part_24[24];  // -D is negative
        end
    end

    // ---- stage 30: the coarse shift (by a multiple of 8), the specials, sticky parts -----
    // The quotient Q moves right by T = 2 - E (subnormal, sub_shift) or by its leading bit
    // (normal): by the multiple of 8 of T here, by the rest in stage 31. A special case
    // replaces the shifted quotient with its fraction (0, or the quiet NaN's) and no shift.
    wire lead = quo_29[STEPS-1];
    wire special = lead ? special_one_29 : special_zero_29;
    wire [STEPS-1:0] quo_coarse = quo_29 >> {sub_shift_29[4:3], 3'd0};
    // the sticky bit's sources: the bits the subnormal shift drops, the bit a normal
    // quotient with a leading one drops, a nonzero final remainder
    wire [STEPS-1:0] lost = (quo_29 & lost_mask_29)
                            | {{(STEPS-1){1'b0}}, normal_29 && lead && quo_29[0]};
    reg [STEPS-1:0] quo_30;
    reg [2:0] fine_shift_30;
    reg [7:0] field_30;      // the packed exponent before rounding
    reg [3:0] lost_30;       // ORs of the lost bits in groups of 8 (the last has 2)
    reg [1:0] part_25_zero_30;  // P_25 = 0 in two halves
    reg exact_24_30;            // P_24 = 0 or -D
    reg sign_30;
    always @(posedge clk) begin
        if (ce) begin
            // a special's fraction: bits 23..1 (bit 0 is the guard bit, 0)
            quo_30 <= special ? {2'd0, nan_29, 23'd0} : quo_coarse;
            fine_shift_30 <= special ? 3'd0 : normal_29 ? {2'd0, lead} : sub_shift_29[2:0];
            field_30 <= lead ? field_one_29 : field_zero_29;
            for (g = 0; g < 3; g = g + 1) lost_30[g] <= |lost[8*g +: 8];
            lost_30[3] <= |lost[25:24];
            part_25_zero_30[0] <= (part_25[12:0] == 13'd0);
            part_25_zero_30[1] <= (part_25[24:13] == 12'd0);
            exact_24_30 <= (&part_24_zero_29) || (&part_24_neg_29);
            sign_30 <= sign_29;
        end
    end

    // ---- stage 31: the fine shift; the guard and sticky bits ----------------------------
    // verilator lint_off UNUSEDSIGNAL
    wire [STEPS-1:0] sig_guard = quo_30 >> fine_shift_30;  // bits 23..1 fraction, 0 guard
    // verilator lint_on UNUSEDSIGNAL
    wire exact = (&part_25_zero_30) || exact_24_30;
    reg [30:0] packed_31;  // exponent field and fraction, before rounding
    reg guard_31;
    reg sticky_31;
    reg sign_31;
    always @(posedge clk) begin
        if (ce) begin
            packed_31 <= {field_30, sig_guard[23:1]};
            guard_31 <= sig_guard[0];
            sticky_31 <= (|lost_30) || !exact;
            sign_31 <= sign_30;
        end
    end

    // ---- stage 32: round to nearest even ---------------------------------------------------
    // Adding the guard bit at the last place rounds half up; on a tie (guard without sticky)
    // the sum is odd exactly when the packed value was even, and clearing its last bit
    // gives the even neighbour. The carry moves to the next binade, from the largest
    // subnormal to the smallest normal number, or from the largest finite one to infinity.
    wire [30:0] rounded = packed_31 + {30'd0, guard_31};
    reg [31:0] result;
    always @(posedge clk) begin
        if (ce) result <= {sign_31, rounded[30:1], rounded[0] && !(guard_31 && !sticky_31)};
    end
    assign r = result;
endmodule
