// vichls primitive: fully pipelined IEEE-754 binary32 square root r = sqrt(a), rounded to
// nearest even, bit for bit what numpy float32 computes: subnormal operands (no flush to
// zero), sqrt(+-0) = +-0, sqrt(+inf) = +inf, the square root of a negative nonzero number
// (-inf included) is NaN and a NaN stays NaN (the quiet NaN 32'h7FC00000). LATENCY = 29:
// the operand presented in cycle N gives its root in cycle N+29, counting only cycles with
// the clock enable `ce` high (every stage keeps its value while `ce` is low); a new operand
// may enter every cycle. No parameters. `r` is a register output.
//
// Stages (each holds at most a carry chain or about three LUT levels, for 200 MHz on an
// ECP5):
//   1      unpack: exponent flags, for each 4-bit group of the fraction whether it holds a
//          one and its leading zeros
//   2      the class of the result; the leading zeros of a subnormal's significand; the
//          significand moves left by the multiple of 8 of them; the exponent's parity
//   3      ... and by the rest, into [1, 2); an odd exponent doubles it (the radicand m is
//          then in [1, 4) with an even exponent); the halved exponent
//   4-28   25 non-restoring digit-by-digit steps, one root bit each (one add or subtract
//          of the partial remainder and the root so far): sqrt(m) in [1, 2) to 24
//          significant bits and a guard bit. Beside the last one, the packed result plus
//          one (the rounded-up value)
//   29     round to nearest even, the special cases. A root is never exactly halfway
//          between two floats (its square would need more fraction bits than the operand
//          has), so the guard bit alone decides the rounding: no sticky bit is needed.
module vichls_fsqrt (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 29;  // documents the unit's latency for its users
    // verilator lint_on UNUSEDPARAM
    localparam STEPS = 25;  // root bits
    // the class of the result, decided in stage 2 and carried to the end
    localparam [1:0] KIND_FINITE = 2'd0;  // the root of a positive finite number
    localparam [1:0] KIND_ZERO = 2'd1;    // +-0, the operand's sign
    localparam [1:0] KIND_INF = 2'd2;     // +inf
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
    reg exp_zero_1, exp_ones_1;
    reg [7:0] exp_1;     // biased; a subnormal's is that of the smallest normal, 1
    reg [22:0] frac_1;
    reg [17:0] groups_1;  // the group summaries of the fraction
    always @(posedge clk) begin
        if (ce) begin
            sign_1 <= a[31];
            exp_zero_1 <= (a[30:23] == 8'd0);
            exp_ones_1 <= (a[30:23] == 8'hFF);
            exp_1 <= {a[30:24], a[23] || (a[30:24] == 7'd0)};
            frac_1 <= a[22:0];
            groups_1 <= group_summary(a[22:0]);
        end
    end

    // ---- stage 2: classify; the leading zeros; normalize by their multiple of 8 ----------
    // The operand is 1.f * 2^e with e = exp - lz - 127 (lz: the leading zeros). The root's
    // biased exponent is (e - odd) / 2 + 127 = (exp + 127 - lz - odd) / 2, in [52, 190],
    // where odd = e & 1 = !(exp[0] ^ lz[0]).
    wire frac_zero = (groups_1[5:0] == 6'd0);
    wire [4:0] lz = leading_zeros(groups_1, exp_zero_1);
    wire top_block = !exp_zero_1 || groups_1[0] || groups_1[1];
    wire mid_block = groups_1[2] || groups_1[3];
    wire [23:0] sig = {!exp_zero_1, frac_1};
    wire [23:0] sig_coarse = top_block ? sig : mid_block ? {sig[15:0], 8'd0} : {sig[7:0], 16'd0};
    reg exp_zero_2, exp_ones_2, frac_zero_2;
    reg sign_2;
    reg [23:0] sig_2;
    reg [4:0] lz_2;
    reg odd_2;
    reg [8:0] exp_bias_2;  // exp + 127
    always @(posedge clk) begin
        if (ce) begin
            exp_zero_2 <= exp_zero_1;
            exp_ones_2 <= exp_ones_1;
            frac_zero_2 <= frac_zero;
            sign_2 <= sign_1;
            sig_2 <= sig_coarse;
            lz_2 <= lz;
            odd_2 <= !(exp_1[0] ^ lz[0]);
            exp_bias_2 <= {1'b0, exp_1} + 9'd127;
        end
    end

    // ---- stage 3: finish the normalization; the root's exponent; classify ----------------
    // exp + 127 - lz - odd as exp + 127 + ~lz + !odd, the carry-in on an extra low bit
    // verilator lint_off UNUSEDSIGNAL
    wire [9:0] exp_twice = {exp_bias_2, 1'b1} + {4'b1111, ~lz_2, !odd_2};  // even
    // verilator lint_on UNUSEDSIGNAL
    reg [23:0] sig_3;  // the significand in [1, 2); the radicand m is sig_3 * (odd_3 + 1)
    reg odd_3;
    reg [7:0] exp_3;
    reg sign_3;
    reg [1:0] kind_3;
    always @(posedge clk) begin
        if (ce) begin
            sig_3 <= sig_2 << lz_2[2:0];
            odd_3 <= odd_2;
            exp_3 <= exp_twice[9:2];
            sign_3 <= sign_2;
            kind_3 <= (exp_zero_2 && frac_zero_2) ? KIND_ZERO
                      : (exp_ones_2 && !frac_zero_2) || sign_2 ? KIND_NAN
                      : exp_ones_2 ? KIND_INF
                      : KIND_FINITE;
        end
    end

    // ---- stages 4-28: the root bits ------------------------------------------------------
    // Digit by digit, non-restoring: Q = floor(sqrt(M)) for M = radicand * 2^25 (Q =
    // sqrt(m) * 2^24, 25 bits, q_0 first), two bits of M at a time from the top (the low 25
    // bits of M are zeros: from step 13 on the pairs are zero). Step k computes the partial
    // remainder R_k = 4 R_{k-1} + pair_k - (4 Q_{k-1} + 1) when R_{k-1} >= 0, else
    // 4 R_{k-1} + pair_k + (4 Q_{k-1} + 3), with Q_{k-1} = q_0..q_{k-1}; its root bit q_k is
    // R_k >= 0 (R_{-1} = 0). R_k lies in (-2^(k+2), 2^(k+2)): k+3 bits of two's complement
    // (the shift may wrap, the sum never does). With s = R_{k-1} < 0, both cases add
    // {!s, Q_{k-1} ^ {!s}, 1, 1}: one adder per step, no multiplexer after it. The steps
    // keep the signs s_j (the root bits inverted) rather than the root bits: Q_{k-1} ^ {!s}
    // = S ^ {s} with S = s_0..s_{k-1}, and the last bit gives 0 (q_{k-1} = !s).
    // Step k's registers (stage k+4) sit at slice k of the buses (each value at the bottom
    // of its slice, zero-extended: the upper bits go unread).
    localparam META = 11;  // {exponent, sign, kind}
    localparam RW = STEPS + 2;  // the widest partial remainder
    // verilator lint_off UNUSEDSIGNAL
    wire [STEPS*RW-1:0] rem_bus;          // slice k: R_k (k+3 bits)
    wire [STEPS*(STEPS-1)-1:0] sign_bus;  // slice k: s_0..s_{k-1} (k bits)
    wire [12*25-1:0] rad_bus;             // slice k: {odd, sig's bits not yet used}
    // verilator lint_on UNUSEDSIGNAL
    wire [(STEPS+1)*META-1:0] meta_bus;
    assign meta_bus[META-1:0] = {exp_3, sign_3, kind_3};
    genvar k;
    generate
        for (k = 0; k < STEPS; k = k + 1) begin : step
            localparam W = k + 3;  // width of R_k
            // the pair of M that step k brings in: radicand bits 24-2k and 23-2k (the latter
            // is M's bit 24, a zero, at k = 12)
            // (the radicand is {0, sig} for an even exponent, {sig, 0} for an odd one: the
            // pair is picked from sig's bits 24-2k..22-2k, outside 23..0 zeros)
            wire [1:0] pair;
            if (k == 0) begin : from_input
                assign pair = odd_3 ? sig_3[23:22] : {1'b0, sig_3[23]};
                reg [22:0] rad;
                reg odd;
                always @(posedge clk) begin
                    if (ce) begin
                        rad <= sig_3[22:0];
                        odd <= odd_3;
                    end
                end
                assign rad_bus[0 +: 25] = {odd, 1'b0, rad};
            end else if (k < 12) begin : from_radicand
                wire [24-2*k:0] rad_in = rad_bus[(k-1)*25 +: 25-2*k];  // sig's bits 24-2k..0
                wire odd_in = rad_bus[(k-1)*25 + 24];
                assign pair = odd_in ? rad_in[23-2*k:22-2*k] : rad_in[24-2*k:23-2*k];
                reg [22-2*k:0] rad;
                reg odd;
                always @(posedge clk) begin
                    if (ce) begin
                        rad <= rad_in[22-2*k:0];
                        odd <= odd_in;
                    end
                end
                assign rad_bus[k*25 +: 25] = {odd, {(1+2*k){1'b0}}, rad};
            end else if (k == 12) begin : radicand_end
                // sig's bit 0 and M's bit 24 (a zero), or for an odd exponent two zeros
                assign pair = {rad_bus[(k-1)*25] && !rad_bus[(k-1)*25 + 24], 1'b0};
            end else begin : zeros
                assign pair = 2'b00;
            end
            wire [W-1:0] rem;  // R_k
            if (k == 0) begin : first
                assign rem = {1'b0, pair} - 3'd1;  // pair >= 1: R_0 >= 0, q_0 = 1
            end else begin : later
                wire [k+1:0] rem_in = rem_bus[(k-1)*RW +: k+2];  // R_{k-1}
                wire s = rem_in[k+1];
                wire [W-1:0] operand;
                if (k == 1) begin : no_signs
                    assign operand = {!s, 3'b011};
                end else begin : with_signs
                    wire [k-2:0] signs = sign_bus[(k-1)*(STEPS-1) +: k-1];  // s_0..s_{k-2}
                    assign operand = {!s, signs ^ {(k-1){s}}, 3'b011};
                end
                assign rem = {rem_in[k:0], pair} + operand;
            end
            reg [W-1:0] rem_r;
            reg [META-1:0] meta;
            always @(posedge clk) begin
                if (ce) begin
                    rem_r <= rem;
                    meta <= meta_bus[k*META +: META];
                end
            end
            assign rem_bus[k*RW +: RW] = {{(RW-W){1'b0}}, rem_r};
            assign meta_bus[(k+1)*META +: META] = meta;
            // s_0..s_{k-1}: s_{k-1} from R_{k-1}'s register
            if (k == 0) begin : no_sign
                assign sign_bus[0 +: STEPS-1] = {(STEPS-1){1'b0}};
            end else begin : add_sign
                reg [k-1:0] signs_r;
                if (k == 1) begin : one
                    always @(posedge clk) if (ce) signs_r <= rem_bus[k + 1];
                end else begin : more
                    always @(posedge clk) begin
                        if (ce)
                            signs_r <= {sign_bus[(k-1)*(STEPS-1) +: k-1], rem_bus[(k-1)*RW + k + 1]};
                    end
                end
                assign sign_bus[k*(STEPS-1) +: STEPS-1] = {{(STEPS-1-k){1'b0}}, signs_r};
            end
        end
    endgenerate
    // the root bits s_1..s_22 (stage 27) and the exponent + 1 (stage 27, from stage 26's)
    wire [21:0] signs_27 = sign_bus[(STEPS-2)*(STEPS-1) +: STEPS-3];
    reg [7:0] exp_plus1_27;
    always @(posedge clk) if (ce) exp_plus1_27 <= meta_bus[(STEPS-2)*META + 3 +: 8] + 8'd1;

    // ---- stage 28 (beside the last step): the rounded-up result, in part ------------------
    // The packed result is {V, q_23} with V = {exponent, q_1..q_22} and q_j = ~s_j. Rounded
    // up it is {V, 1} when q_23 = 0, else {V + 1, 0}, where V + 1 = {exponent + 1, 0} -
    // {s_1..s_22}: one subtraction, independent of the last two steps.
    reg [29:0] high_plus1_28;
    always @(posedge clk) if (ce) high_plus1_28 <= {exp_plus1_27, 22'd0} - {8'd0, signs_27};
    wire s_24 = rem_bus[(STEPS-1)*RW + STEPS + 1];  // R_24 < 0: the guard bit q_24 is 0
    // verilator lint_off UNUSEDSIGNAL
    wire [STEPS-2:0] signs_28 = sign_bus[(STEPS-1)*(STEPS-1) +: STEPS-1];  // s_0..s_23
    wire [META-1:0] meta_28 = meta_bus[STEPS*META +: META];
    // verilator lint_on UNUSEDSIGNAL

    // ---- stage 29: round to nearest even, the special cases ------------------------------
    wire [7:0] exp_28 = meta_28[10:3];
    wire sign_28 = meta_28[2];
    wire [1:0] kind_28 = meta_28[1:0];
    wire [30:0] truncated = {exp_28, ~signs_28[22:0]};
    wire [30:0] rounded_up = signs_28[0] ? {truncated[30:1], 1'b1} : {high_plus1_28, 1'b0};
    reg [31:0] result;
    always @(posedge clk) begin
        if (ce) begin
            case (kind_28)
                KIND_FINITE: result <= {1'b0, s_24 ? truncated : rounded_up};
                KIND_ZERO: result <= {sign_28, 31'd0};
                KIND_INF: result <= 32'h7F800000;
                default: result <= 32'h7FC00000;
            endcase
        end
    end
    assign r = result;
endmodule
