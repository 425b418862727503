// vichls primitive: IEEE-754 binary32 addition r = a + b (SUB = 1: r = a - b, b's sign
// flipped at the input), rounded to nearest even, fully pipelined. LATENCY = 5: operands
// presented in a cycle with the clock enable `ce` high give r 5 enabled cycles later (r is
// the last pipeline register, no logic after it). Subnormal operands and results are exact
// (no flush to zero); an exact cancellation gives +0 (-0 only for (-0) + (-0)); overflow
// gives an infinity; inf - inf and any NaN operand give the quiet NaN 32'h7FC00000.
//
// Two paths (the usual "near/far" split, so that no cycle holds both a long normalization
// shift and a rounding carry). L is the operand with the larger exponent, S the other, d
// the difference of their exponents (a subnormal counts at exponent 1).
//   far (an addition, or a subtraction with d >= 2, or one that loses at most one bit):
//     1: d; 2: S's significand shifted by d mod 4, the gap between d and S's trailing
//     zeros (the sticky bit: no OR of the shifted-out bits); 3: the shift by the rest of
//     d, L + S or 2L - 2S as 27-bit operands (then both kinds of sum have their leading
//     one at bit 27 or 26); 4: two sums, with half a unit in the last place added at bit
//     3 and at bit 2, so that rounding needs no carry after them; 5: the one whose bit 27
//     decides, the last bit cleared on a tie (round half to even).
//   near (a subtraction with d <= 1 that cancels two bits or more, or any with d = 0,
//   whose difference may be negative in the far path): 1: the exact differences of the
//   significands for d = 0 and d = 1 in both orders; 2: the one that applies, with a
//   one at the position where a left shift would take the exponent below 1 (subnormal
//   results); 3: its leading-zero count (up to the last level); 4: the count, the shift
//   by its upper bits, the exponent; 5: the shift by its two low bits.
module vichls_fadd #(parameter SUB = 0) (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    input wire [31:0] b,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 5;
    // verilator lint_on UNUSEDPARAM

    // leading zeros of a 16-bit value and whether it is zero, as a tree of nibble counts
    // (a priority chain would be 16 levels deep): {zero, count}
    function [4:0] lzc16;
        input [15:0] x;
        reg [3:0] z4;       // nibble j all zero
        reg [7:0] c4;       // leading zeros within nibble j (2 bits each)
        reg [1:0] z8;
        reg [5:0] c8;       // 3 bits per byte
        integer j;
        begin
            for (j = 0; j < 4; j = j + 1) begin
                z4[j] = ~|x[4*j +: 4];
                c4[2*j +: 2] = x[4*j+3] ? 2'd0 : x[4*j+2] ? 2'd1 : x[4*j+1] ? 2'd2 : 2'd3;
            end
            for (j = 0; j < 2; j = j + 1) begin
                z8[j] = z4[2*j+1] & z4[2*j];
                c8[3*j +: 3] = z4[2*j+1] ? {1'b1, c4[4*j +: 2]} : {1'b0, c4[4*j+2 +: 2]};
            end
            lzc16 = {z8[1] & z8[0], z8[1] ? {1'b1, c8[2:0]} : {1'b0, c8[5:3]}};
        end
    endfunction

    // trailing zeros of a 24-bit significand, the same tree from the other end; 31 for zero
    function [4:0] tzc24;
        input [23:0] m;
        reg [5:0] z4;
        reg [11:0] c4;
        reg [2:0] z8;
        reg [8:0] c8;
        integer j;
        begin
            for (j = 0; j < 6; j = j + 1) begin
                z4[j] = ~|m[4*j +: 4];
                c4[2*j +: 2] = m[4*j] ? 2'd0 : m[4*j+1] ? 2'd1 : m[4*j+2] ? 2'd2 : 2'd3;
            end
            for (j = 0; j < 3; j = j + 1) begin
                z8[j] = z4[2*j] & z4[2*j+1];
                c8[3*j +: 3] = z4[2*j] ? {1'b1, c4[4*j+2 +: 2]} : {1'b0, c4[4*j +: 2]};
            end
            tzc24 = z8[0] ? (z8[1] ? {2'b10, c8[8] | z8[2], c8[7:6]} : {2'b01, c8[5:3]})
                          : {2'b00, c8[2:0]};
        end
    endfunction

    // ---- stage 1: exponent difference, near differences, special cases -----------------
    wire sign_a = a[31];
    wire sign_b = b[31] ^ (SUB != 0);
    wire [7:0] exp_a = a[30:23];
    wire [7:0] exp_b = b[30:23];
    wire hidden_a = |exp_a;  // 0: zero or subnormal
    wire hidden_b = |exp_b;
    wire [23:0] sig_a = {hidden_a, a[22:0]};
    wire [23:0] sig_b = {hidden_b, b[22:0]};
    // a subnormal's significand counts at exponent 1
    wire [7:0] eff_exp_a = {exp_a[7:1], exp_a[0] | ~hidden_a};
    wire [7:0] eff_exp_b = {exp_b[7:1], exp_b[0] | ~hidden_b};
    // The far path shifts S by the raw exponent difference (the adjustment of a zero
    // exponent to 1 would delay the carry chains): when exactly one operand is subnormal, S
    // (that one) has its significand doubled instead. d, the difference of the effective
    // exponents, is the raw one less 1 then.
    wire [8:0] diff_ab = {1'b0, exp_a} - {1'b0, exp_b};
    wire [7:0] diff_ba = exp_b - exp_a;
    wire swap = diff_ab[8];  // b is L
    wire one_subnormal = hidden_a ^ hidden_b;
    wire [7:0] exp_diff = swap ? diff_ba : diff_ab[7:0];
    // near: a - b, b - a (d = 0) and a - b/2, b - a/2 (d = 1, the halved operand's last bit
    // at bit 0), from chains that do not wait for the hidden bits. For d = 0 the difference
    // of the bit patterns is that of the significands (equal exponents, or 0 and 1: then
    // the exponent fields' difference stands for the hidden bits'), and its sign says
    // |a| < |b|. For d = 1 the operands' hidden bits are taken as 1: a subnormal S (the
    // other at exponent 2) makes the difference 2^23 too small, corrected in stage 2.
    // verilator lint_off UNUSEDSIGNAL
    wire [31:0] near_ab = {1'b0, a[30:0]} - {1'b0, b[30:0]};  // (bits 30:24 unused)
    // verilator lint_on UNUSEDSIGNAL
    wire [23:0] near_ba = b[23:0] - a[23:0];
    wire [24:0] near_ab_half = {1'b1, a[22:0], 1'b0} - {2'b01, b[22:0]};
    wire [24:0] near_ba_half = {1'b1, b[22:0], 1'b0} - {2'b01, a[22:0]};
    // the near difference's normalizing left shift may not take the exponent below 1: a
    // one at position 25 - exp (exp <= 25) will stop its leading-zero count there
    reg [24:0] stop_a, stop_b;
    integer i;
    always @* begin
        for (i = 0; i < 25; i = i + 1) begin
            stop_a[i] = i == 24 ? ~|exp_a[7:1] : exp_a == 8'd25 - i[7:0];
            stop_b[i] = i == 24 ? ~|exp_b[7:1] : exp_b == 8'd25 - i[7:0];
        end
    end

    reg [23:0] sig_a1, sig_b1;
    reg [7:0] exp_a1, exp_b1;
    reg exp_a_one1, exp_b_one1, exp_a_254_1, exp_b_254_1;
    reg [7:0] diff1;
    reg swap1;
    reg exp_eq_high1, exp_eq_low1, both_low1;  // for d = 0 (stage 2)
    reg [4:0] tz_a1, tz_b1;
    reg [23:0] near_ab1, near_ba1;
    reg a_less1;             // |a| < |b| when d = 0
    reg one_subnormal1;      // S is subnormal, L not
    reg [24:0] near_ab_half1, near_ba_half1;
    reg [24:0] stop_a1, stop_b1;
    reg a_top1, b_top1, a_frac_zero1, b_frac_zero1;
    reg sign_a1, sign_b1, sub1;
    always @(posedge clk) begin
        if (ce) begin
            sig_a1 <= sig_a;
            sig_b1 <= sig_b;
            exp_a1 <= eff_exp_a;
            exp_b1 <= eff_exp_b;
            exp_a_one1 <= ~|exp_a[7:1];
            exp_b_one1 <= ~|exp_b[7:1];
            exp_a_254_1 <= exp_a == 8'd254;
            exp_b_254_1 <= exp_b == 8'd254;
            diff1 <= exp_diff;
            swap1 <= swap;
            exp_eq_high1 <= exp_a[7:4] == exp_b[7:4];
            exp_eq_low1 <= exp_a[3:0] == exp_b[3:0];
            both_low1 <= ~|exp_a[7:1] & ~|exp_b[7:1];
            tz_a1 <= tzc24(sig_a);
            tz_b1 <= tzc24(sig_b);
            near_ab1 <= near_ab[23:0];
            near_ba1 <= near_ba;
            a_less1 <= near_ab[31];
            one_subnormal1 <= one_subnormal;
            near_ab_half1 <= near_ab_half;
            near_ba_half1 <= near_ba_half;
            stop_a1 <= stop_a;
            stop_b1 <= stop_b;
            a_top1 <= &exp_a;
            b_top1 <= &exp_b;
            a_frac_zero1 <= ~|a[22:0];
            b_frac_zero1 <= ~|b[22:0];
            sign_a1 <= sign_a;
            sign_b1 <= sign_b;
            sub1 <= sign_a ^ sign_b;
        end
    end

    // ---- stage 2: far: shift by the shift mod 4; near: pick the difference -------------
    wire a_nan = a_top1 & ~a_frac_zero1;
    wire b_nan = b_top1 & ~b_frac_zero1;
    wire is_nan = a_nan | b_nan | (a_top1 & b_top1 & sub1);  // (inf - inf)
    wire is_inf = a_top1 | b_top1;                           // (and not is_nan)
    wire [23:0] sig_l = swap1 ? sig_b1 : sig_a1;
    wire [7:0] exp_l = swap1 ? exp_b1 : exp_a1;
    wire exp_l_one = swap1 ? exp_b_one1 : exp_a_one1;
    // d = 0: equal exponents, or both 0 or 1
    wire same_exp = (exp_eq_high1 & exp_eq_low1) | both_low1;
    wire [23:0] sig_s = swap1 ? sig_a1 : sig_b1;
    // far: S's significand (doubled if subnormal, see above) with guard and round bits,
    // shifted by the raw difference mod 4 here and by the rest in stage 3
    wire [23:0] sig_s_far = one_subnormal1 ? {sig_s[22:0], 1'b0} : sig_s;
    wire [25:0] s_part = {sig_s_far, 2'b00} >> diff1[1:0];
    // The far sum is L + S, or the difference doubled, 2L - 2S: then a difference of at
    // least 1/2 (in units of L's leading bit) has its leading one where a sum of at least 1
    // has it. The operands are bits 27:1 of the 28-bit sum, whose bit 0 is the sticky bit
    // of an addition (and 0 for a subtraction).
    wire [26:0] l_operand = sub1 ? {sig_l, 3'b000} : {1'b0, sig_l, 2'b00};
    // S's sticky bit: some bit at a position <= d - 3 of its significand is set, that is
    // its trailing zeros tz are at most d - 3: with d = raw - one_subnormal,
    // raw + ~tz + ~one_subnormal = d - tz + 32 >= 35 (stage 3). With the raw difference
    // capped at 31 (all of S shifted out) and tz = 31 for a zero significand, this needs no
    // zero test.
    wire [4:0] tz_s = swap1 ? tz_a1 : tz_b1;
    wire [4:0] diff_cap = |diff1[7:5] ? 5'd31 : diff1[4:0];
    wire [5:0] tz_gap = {1'b0, diff_cap} + {1'b0, ~tz_s} + {5'd0, ~one_subnormal1};
    // near: |L - S| for d <= 1: for d = 0 b - a when |a| < |b|, for d = 1 b - a/2 when b is L
    wire [24:0] near_diff0 = a_less1 ? {near_ba1, 1'b0} : {near_ab1, 1'b0};
    // (with S subnormal its hidden bit, taken as 1, is added back: 2^23)
    wire [24:0] near_half_raw = swap1 ? near_ba_half1 : near_ab_half1;
    wire [24:0] near_diff1 = {near_half_raw[24] ^ (near_half_raw[23] & one_subnormal1),
                              near_half_raw[23] ^ one_subnormal1, near_half_raw[22:0]};
    wire [24:0] near_diff = same_exp ? near_diff0 : near_diff1;
    // (for d = 0 both stop vectors are the same)
    wire [24:0] near_stop = swap1 ? stop_b1 : stop_a1;
    wire sign_l = swap1 ? sign_b1 : sign_a1;
    wire near_sign = same_exp ? (a_less1 ? sign_b1 : sign_a1) : sign_l;
    // the near path takes a difference of d = 1 that needs a shift of two bits or more
    // (or of one at exponent 1), and every difference of d = 0
    wire diff_le1 = ~|diff1[7:2] & (~diff1[1] | (one_subnormal1 & ~diff1[0]));
    wire use_near = sub1
                  & (same_exp | (diff_le1 & ~near_diff1[24] & ~(near_diff1[23] & ~exp_l_one)));

    reg [25:0] s_part2;
    reg [2:0] diff_high2;        // d[4:2] (7 when d >= 32)
    reg [5:0] tz_gap2;
    reg [26:0] l_operand2;
    reg add_exp1_2;              // an addition at exponent 1: the sum's bit 26 decides
    reg overflow_exp2;           // the exponent field would be 255 when the sum's bit 27 is set
    reg [7:0] exp_l2;
    reg [24:0] near_diff2, near_masked2, near_stop2;
    reg use_near2, near_sign2, near_zero2;
    reg sign_l2, sub2, nan2, inf2;
    always @(posedge clk) begin
        if (ce) begin
            s_part2 <= s_part;
            // d >= 32 leaves nothing of S: shift by 28
            diff_high2 <= |diff1[7:5] ? 3'b111 : diff1[4:2];
            tz_gap2 <= tz_gap;
            l_operand2 <= l_operand;
            add_exp1_2 <= ~sub1 & exp_l_one;
            overflow_exp2 <= ~sub1 & (swap1 ? exp_b_254_1 : exp_a_254_1);
            exp_l2 <= exp_l;
            near_diff2 <= near_diff;
            near_masked2 <= near_diff | near_stop;
            near_stop2 <= near_stop;
            use_near2 <= use_near;
            near_sign2 <= near_sign;
            near_zero2 <= same_exp & ~|near_ab1;  // an exact zero
            sign_l2 <= sign_l;
            sub2 <= sub1;
            nan2 <= is_nan;
            inf2 <= is_inf;
        end
    end

    // ---- stage 3: far: align, operands, sticky; near: count ----------------------------
    wire [25:0] s_aligned = s_part2 >> {diff_high2, 2'b00};
    wire sticky = tz_gap2[5] & (|tz_gap2[4:2] | &tz_gap2[1:0]);
    // 2L - 2S = 2L + ~(2S) + 1: the low bits of ~(2S) + 1 = {~s_aligned, ~sticky, 1} + 1
    // carry ~sticky into bit 2, the carry in of the operands' sum
    wire [26:0] s_operand = sub2 ? {~s_aligned, 1'b1} : {1'b0, s_aligned};
    // half a unit in the last place at bit 3 of the sum (bit 2 of the operands)
    wire [26:0] l_operand_up = l_operand2 + 27'd4;
    wire [4:0] near_hi = lzc16(near_masked2[24:9]);
    // verilator lint_off UNUSEDSIGNAL
    wire [4:0] near_lo = lzc16({near_masked2[8:0], 7'h7F});  // (never zero)
    // verilator lint_on UNUSEDSIGNAL
    // the cap applied: no bit of n at or above the stop position (n < the stop bit)
    wire near_capped = near_diff2 < near_stop2;

    reg [26:0] s_operand3, l_operand_up3;
    // verilator lint_off UNUSEDSIGNAL
    reg [26:0] l_operand3;  // (bit 1 is 0)
    // verilator lint_on UNUSEDSIGNAL
    reg carry_in3, low_bit3;
    reg [7:0] exp_l_up3, exp_l_down3;
    reg sub3;
    reg add_exp1_3, overflow_exp3;
    reg [24:0] near_diff3;
    reg near_hi_zero3;
    reg [3:0] near_hi_count3, near_lo_count3;
    reg near_capped3, near_zero3;
    reg [7:0] exp_l3;
    reg use_near3, near_sign3;
    reg sign_l3, nan3, inf3;
    always @(posedge clk) begin
        if (ce) begin
            s_operand3 <= s_operand;
            l_operand3 <= l_operand2;
            l_operand_up3 <= l_operand_up;
            carry_in3 <= sub2 & ~sticky;
            low_bit3 <= ~sub2 & sticky;
            exp_l_up3 <= exp_l2 + 8'd1;
            exp_l_down3 <= exp_l2 - 8'd1;
            sub3 <= sub2;
            add_exp1_3 <= add_exp1_2;
            overflow_exp3 <= overflow_exp2;
            near_diff3 <= near_diff2;
            near_hi_zero3 <= near_hi[4];
            near_hi_count3 <= near_hi[3:0];
            near_lo_count3 <= near_lo[3:0];
            near_capped3 <= near_capped;
            near_zero3 <= near_zero2;
            exp_l3 <= exp_l2;
            use_near3 <= use_near2;
            near_sign3 <= near_sign2 & ~near_zero2;  // an exact zero is +0
            sign_l3 <= sign_l2;
            nan3 <= nan2;
            inf3 <= inf2;
        end
    end

    // ---- stage 4: far: the two rounded sums; near: count, shift by its upper bits ------
    wire [26:0] sum_up_high = l_operand_up3 + s_operand3 + {26'd0, carry_in3};
    wire [26:0] sum_half_high = {l_operand3[26:2], 1'b1, l_operand3[0]} + s_operand3
                              + {26'd0, carry_in3};
    // verilator lint_off UNUSEDSIGNAL
    wire [27:0] sum_up = {sum_up_high, low_bit3};      // the exact sum + 8 (< 2^28)
    // verilator lint_on UNUSEDSIGNAL
    wire [27:0] sum_half = {sum_half_high, low_bit3};  // the exact sum + 4
    // round half up is the top bits of the right sum; a tie (nothing below the half left)
    // clears the last bit. When rounding carries the second sum into bit 27, the first
    // gives the rounded value (fraction 0) and the higher exponent, as it should.
    wire tie_up = ~|sum_up[3:0];
    wire tie_half = ~|sum_half[2:0];
    wire [22:0] frac_up = {sum_up[26:5], sum_up[4] & ~tie_up};
    wire [22:0] frac_half = {sum_half[25:4], sum_half[3] & ~tie_half};
    wire [4:0] near_shift = near_hi_zero3 ? {1'b1, near_lo_count3} : {1'b0, near_hi_count3};
    // by 16 (known at the start of the cycle), then by 4 * near_shift[3:2]
    wire [24:0] near_by16 = near_hi_zero3 ? {near_diff3[8:0], 16'd0} : near_diff3;
    wire [24:0] near_part = near_by16 << {near_shift[3:2], 2'b00};
    // capped: exponent 1 with a zero hidden bit, field 0: exp_l - shift - 1 (an exact zero
    // becomes +0 in stage 5); exp_l - shift - capped = exp_l + ~shift + ~capped
    wire [7:0] near_exp = exp_l3 + {3'b111, ~near_shift} + {7'd0, ~near_capped3};

    reg [22:0] frac_up4, frac_half4;
    reg high4, hidden_half4;
    reg [7:0] exp_hi4, exp_lo4;
    reg add_exp1_4, overflow_exp4;
    reg special4, nan4, zero4;
    reg [24:0] near_part4;
    reg [1:0] near_shift_low4;
    reg [7:0] near_exp4;
    reg use_near4, near_sign4, sign_l4;
    always @(posedge clk) begin
        if (ce) begin
            frac_up4 <= frac_up;
            frac_half4 <= frac_half;
            high4 <= sum_half[27];
            hidden_half4 <= sum_half[26];
            // the exponent field when the sum's bit 27 is set / is not
            exp_hi4 <= sub3 ? exp_l3 : exp_l_up3;
            exp_lo4 <= sub3 ? exp_l_down3 : exp_l3;
            add_exp1_4 <= add_exp1_3;
            overflow_exp4 <= overflow_exp3;
            special4 <= nan3 | inf3 | (use_near3 & near_zero3);
            zero4 <= use_near3 & near_zero3;
            nan4 <= nan3;
            near_part4 <= near_part;
            near_shift_low4 <= near_shift[1:0];
            near_exp4 <= near_exp;
            use_near4 <= use_near3;
            near_sign4 <= near_sign3;
            sign_l4 <= sign_l3;
        end
    end

    // ---- stage 5: select -------------------------------------------------------------------
    // verilator lint_off UNUSEDSIGNAL
    wire [24:0] near_norm = near_part4 << near_shift_low4;  // (hidden bit, guard 0)
    // verilator lint_on UNUSEDSIGNAL
    wire [31:0] near_result = {near_sign4, near_exp4, near_norm[23:1]};
    // at exponent 1 an addition's hidden bit (bit 26) says normal (field 1) or subnormal (0)
    wire [7:0] exp_half = add_exp1_4 ? {7'd0, hidden_half4} : exp_lo4;
    // an exponent field of 255 before rounding (exp_hi4 = 255) is an infinity: fraction 0
    wire [22:0] far_frac = high4 ? (overflow_exp4 ? 23'd0 : frac_up4) : frac_half4;
    wire [31:0] far_result = {sign_l4, high4 ? exp_hi4 : exp_half, far_frac};

    reg [31:0] result5;
    always @(posedge clk) begin
        if (ce) begin
            // NaN, an infinite operand, an exact zero of the near path
            result5 <= special4 ? (nan4 ? 32'h7FC00000 : zero4 ? 32'd0 : {sign_l4, 31'h7F800000})
                     : use_near4 ? near_result : far_result;
        end
    end
    assign r = result5;
endmodule
