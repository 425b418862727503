// vichls primitive: float32 (IEEE-754 binary32) to integer conversion, fully pipelined.
// r = the value of a rounded toward zero (C's conversion), wrapped modulo 2^WIDTH, for
// every finite a however large (2^40 gives 0 at WIDTH = 32, 3e9 gives 3e9 - 2^32); a NaN or
// an infinity gives 0. LATENCY = 3: operands presented in cycle N give r in cycle N+3,
// counting only cycles with the clock enable `ce` high.
// Parameters: WIDTH (1 to 64) the width of r; SIGNED (0/1) whether r is read as two's
// complement. The wrapped bit pattern is the same either way, so SIGNED does not change
// the hardware; it is kept for the common interface of the conversions.
// How: for |a| >= 2 (biased exponent e >= 128) the integer part is the 24-bit significand
// shifted left by e[6:0] with 22 fraction places dropped; its bits modulo 2^WIDTH are bits
// [WIDTH+21:22] of significand << e[6:0]. NaN and infinity (e = 255, a shift by 127) shift
// every significand bit out of that window, so they give 0 with no special case. Stage 1
// shifts by 8 * e[6:3], stage 2 by e[2:0] and takes the one's complement of a negative
// value, stage 3 adds its 1 (negation modulo 2^WIDTH).
module vichls_ftoi #(parameter WIDTH = 32, parameter SIGNED = 1) (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    output wire [WIDTH-1:0] r
);
    /* verilator lint_off UNUSEDPARAM */
    localparam LATENCY = 3;
    localparam SIGNED_UNUSED = SIGNED;  // see the header: the bits do not depend on SIGNED
    /* verilator lint_on UNUSEDPARAM */

    wire sign = a[31];
    wire [7:0] exponent = a[30:23];
    wire [22:0] fraction = a[22:0];
    // |a| >= 2 (or NaN/infinity, see the header)
    wire big = exponent[7];
    // 1 <= |a| < 2: the integer part is 1; |a| < 1 (zeros, subnormals): 0
    wire one = exponent == 8'd127;

    // stage 1: the coarse shift, by 8 * exponent[6:3]. The fine shift (0 to 7 places) reads
    // bits [WIDTH+21:15] of its result, the bits that can land in [WIDTH+21:22]; they are
    // kept at [WIDTH+6:0] of coarse_q. Each of those bits can receive one of at most three
    // significand bits (the significand spans three bytes), so instead of a 4-level shifter
    // the shift is a one-hot decode of exponent[6:3] (one LUT level) and, per bit, an OR of
    // three select-and-data terms (two levels).
    localparam CW = WIDTH + 7;
    wire [23:0] significand = {1'b1, fraction};
    /* verilator lint_off UNUSED */
    wire [15:0] coarse_select;  // the high selects are unused when WIDTH is small
    /* verilator lint_on UNUSED */
    wire [CW-1:0] coarse;
    genvar sel_i, bit_j, term_k;
    generate
        for (sel_i = 0; sel_i < 16; sel_i = sel_i + 1) begin : decode
            assign coarse_select[sel_i] = exponent[6:3] == sel_i;
        end
        for (bit_j = 0; bit_j < CW; bit_j = bit_j + 1) begin : coarse_bit
            wire [15:0] terms;
            for (term_k = 0; term_k < 16; term_k = term_k + 1) begin : term
                // the significand bit that a shift by 8 * term_k brings to bit bit_j + 15
                localparam integer SOURCE = bit_j + 15 - 8 * term_k;
                if (SOURCE >= 0 && SOURCE < 24) begin : some
                    assign terms[term_k] = coarse_select[term_k] & significand[SOURCE];
                end else begin : none
                    assign terms[term_k] = 1'b0;
                end
            end
            assign coarse[bit_j] = |terms;
        end
    endgenerate
    reg [CW-1:0] coarse_q;
    reg [2:0] fine_shift_q;
    reg big_q;
    reg one_q;
    reg sign_q;
    always @(posedge clk) begin
        if (ce) begin
            coarse_q <= coarse;
            fine_shift_q <= exponent[2:0];
            big_q <= big;
            one_q <= one;
            sign_q <= sign;
        end
    end

    // stage 2: the fine shift, three levels of 2:1 multiplexers; bit i of the integer part
    // is bit i + 7 - fine_shift_q of coarse_q. The first level also zeroes the value unless
    // |a| >= 2; then a negative value is inverted (its one's complement; stage 3 adds the 1).
    wire [CW-1:0] by_1 = (fine_shift_q[0] ? {coarse_q[CW-2:0], 1'b0} : coarse_q) & {CW{big_q}};
    wire [CW-1:0] by_2 = fine_shift_q[1] ? {by_1[CW-3:0], 2'b00} : by_1;
    /* verilator lint_off UNUSED */
    wire [CW-1:0] by_4 = fine_shift_q[2] ? {by_2[CW-5:0], 4'b0000} : by_2;
    /* verilator lint_on UNUSED */
    wire [WIDTH-1:0] magnitude = by_4[CW-1:7] | {{(WIDTH-1){1'b0}}, one_q};
    reg [WIDTH-1:0] inverted_q;  // the magnitude, inverted when a is negative
    reg negate_q;
    always @(posedge clk) begin
        if (ce) begin
            inverted_q <= magnitude ^ {WIDTH{sign_q}};
            negate_q <= sign_q;
        end
    end

    // stage 3: the increment completing the negation (~m + 1) of a negative value
    reg [WIDTH-1:0] result_q;
    always @(posedge clk) begin
        if (ce) result_q <= inverted_q + {{(WIDTH-1){1'b0}}, negate_q};
    end
    assign r = result_q;
endmodule
