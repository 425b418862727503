// vichls primitive: integer to float32 (IEEE-754 binary32) conversion, fully pipelined.
// r = the integer a rounded once to the nearest float32, ties to even (numpy's
// np.float32(np.int64(a)) or np.float32(np.uint64(a))). LATENCY = 3: operands presented in
// cycle N give r in cycle N+3, counting only cycles with the clock enable `ce` high. As in
// vichls_mul, there is logic on both sides of the three register stages: the first steps
// of the leading-zero count before the first, the rounding adder after the last (r is
// combinational from the third register stage through one 32-bit carry chain).
// Parameters: WIDTH (1 to 64) the width of a; SIGNED (0/1) a is two's complement when 1.
//
// How. x is a, left-aligned in P = 32 or 64 bits (zeros below). There is no negation
// before the normalization (a 64-bit negation takes a whole cycle): for a negative x,
// |x| << s = -(x << s) for any s, and -X = ~X + 1 where the 1 carries up through the low
// bits of X while they are zero. So the top 25 bits of |x| << s (24 significand bits and
// the guard bit) are those of ~(x << s), plus 1 when every bit of x << s below them is 0
// (no sticky bit). The shift s is the leading-zero count of n = x, or ~x when x < 0,
// 16 * (first nonzero 16-bit block) + 4 * (its first nonzero 4-bit group) + (the count
// within that group).
//   Before register 1: per 4-bit group of n, nonzero and its count; per 16-bit block,
//     nonzero, its first nonzero group and that group's count.
//   Before register 2: the first nonzero block and the count's bits 3:0 from it; the
//     shift of x by 16 * that block, keeping the 40 bits that the rest of the shift (0 to
//     15) can bring to the top 25; the OR of the bits of x below that window; the rest of
//     the shift decoded one-hot.
//   Before register 3: the rest of the shift (an OR of 16 select-and-data terms per bit),
//     inverting the kept 25 bits when x < 0; the sticky bit in two halves (the bits below
//     the window with the window's whole 4-bit groups below the guard bit, and the guard's
//     own group); the biased exponent 126 + WIDTH - count.
//   After register 3: the rounding, one carry chain adding a carry into the fraction's
//     last bit to {exponent, fraction} (a carry into the exponent handles a significand
//     rounded up to 2.0), then clearing the last bit on a tie. With the kept bits
//     {hidden, fraction, guard}: for x >= 0 the carry is the guard bit (round half up) and
//     a tie (guard set, sticky clear) clears the last bit (half to even). For x < 0 and
//     Y the kept bits (of ~X): with sticky set the 25-bit value is Y (the +1 does not
//     reach it) and the carry is its guard bit; otherwise the value is Y + 1 with a zero
//     sticky, and round-to-even of (Y + 1) / 2 is Y / 2 plus Y[0] | Y[1]. For a negative
//     power of two n has one leading zero more than |x|: Y is 0 1...1, and the carry
//     runs into the exponent.
// Zero (n = 0, x >= 0) gets exponent 0 (its kept bits are 0); x = -1 (n = 0, x < 0) is a
// power of two like the others, with exponent 126 + 1.
// The (* keep *) signals are LUT levels for the synthesis to keep (Yosys's ABC9 otherwise
// trades logic depth for area where the routing delays make depth expensive).
module vichls_itof #(parameter WIDTH = 32, parameter SIGNED = 1) (
    input wire clk,
    input wire ce,
    input wire [WIDTH-1:0] a,
    output wire [31:0] r
);
    /* verilator lint_off UNUSEDPARAM */
    localparam LATENCY = 3;
    /* verilator lint_on UNUSEDPARAM */
    localparam P = (WIDTH > 32) ? 64 : 32;  // the aligned width
    localparam PAD = P - WIDTH;
    localparam NG = P / 4;                  // 4-bit groups
    localparam NB = P / 16;                 // 16-bit blocks (2 or 4)
    localparam BW = (NB == 4) ? 2 : 1;      // width of a block index
    localparam [7:0] EXPONENT_TOP = 126 + WIDTH;  // biased exponent at count 0, minus 1

    // ---- before register 1 ----------------------------------------------------------------
    wire negative = (SIGNED != 0) && a[WIDTH-1];
    wire [P-1:0] x = {a, {PAD{1'b0}}};
    // n's leading zeros (x's leading sign bits when SIGNED) are counted on d: for a signed
    // x, d[i] = x[i] ^ x[i+1] below the sign bit, whose first 1 from the top is n's first 1
    // (the first bit that differs from the sign); the other bits of d and n differ, but
    // the count reads only the first nonzero group and block. d needs no fan-out of the
    // sign bit to every bit.
    wire [WIDTH-1:0] d;
    generate
        if (SIGNED != 0 && WIDTH > 1) begin : sign_bits
            assign d = {1'b0, a[WIDTH-2:0] ^ a[WIDTH-1:1]};
        end else if (SIGNED != 0) begin : one_bit
            assign d = 1'b0;
            /* verilator lint_off UNUSED */
            wire unused_sign = a[0];
            /* verilator lint_on UNUSED */
        end else begin : unsigned_bits
            assign d = a;
        end
    endgenerate
    wire [P-1:0] n = {d, {PAD{1'b0}}};

    // per 4-bit group of n: nonzero, and its leading-zero count (3 also when zero); per
    // group of x: nonzero (for the bits below the windows)
    (* keep *) wire [NG-1:0] group_nonzero;
    (* keep *) wire [2*NG-1:0] group_count;
    /* verilator lint_off UNUSED */
    (* keep *) wire [NG-1:0] x_group_or;  // only the groups below the windows are read
    /* verilator lint_on UNUSED */
    // per 16-bit block of n: nonzero, its first nonzero group (0 = the top one; 3 also
    // when the block is zero) and that group's count, as priority selects by the groups'
    // nonzero flags
    (* keep *) wire [NB-1:0] block_nonzero;
    (* keep *) wire [2*NB-1:0] block_group;
    (* keep *) wire [2*NB-1:0] block_low;
    genvar g, b;
    generate
        for (g = 0; g < NG; g = g + 1) begin : group
            wire [3:0] bits4 = n[4*g +: 4];
            assign group_nonzero[g] = |bits4;
            assign group_count[2*g + 1] = ~bits4[3] & ~bits4[2];
            assign group_count[2*g] = ~bits4[3] & (bits4[2] | ~bits4[1]);
            assign x_group_or[g] = |x[4*g +: 4];
        end
        for (b = 0; b < NB; b = b + 1) begin : block
            wire [3:0] nonzero4 = group_nonzero[4*b +: 4];
            wire [7:0] counts = group_count[8*b +: 8];  // group 4b+k at [2k +: 2]
            assign block_nonzero[b] = |nonzero4;
            // (plain logic rather than constant multiplexers, which Yosys would turn into
            // a slower synchronous reset of the register)
            assign block_group[2*b + 1] = ~nonzero4[3] & ~nonzero4[2];
            assign block_group[2*b] = ~nonzero4[3] & (nonzero4[2] | ~nonzero4[1]);
            assign block_low[2*b +: 2] = nonzero4[3] ? counts[7:6] : nonzero4[2] ? counts[5:4]
                                       : nonzero4[1] ? counts[3:2] : counts[1:0];
        end
    endgenerate
    // x[23:0] lies below the 40-bit window of block 3 (P = 64), x[7:0] below that of block 2
    wire [1:0] below_windows = {|x_group_or[5:0], |x_group_or[1:0]};

    reg [P-1:0] x_q;
    reg [NB-1:0] block_nonzero_q;
    reg [2*NB-1:0] block_group_q;
    reg [2*NB-1:0] block_low_q;
    reg [1:0] below_windows_q;
    reg negative_q1;
    always @(posedge clk) begin
        if (ce) begin
            x_q <= x;
            block_nonzero_q <= block_nonzero;
            block_group_q <= block_group;
            block_low_q <= block_low;
            below_windows_q <= below_windows;
            negative_q1 <= negative;
        end
    end

    // ---- before register 2 ----------------------------------------------------------------
    // the first nonzero block (0 = the top one; NB-1 also when n = 0) and, from it, the
    // count's bits 3:2 and 1:0; the coarse shift; the OR of the bits below its window
    wire [BW-1:0] first_block;
    (* keep *) wire [1:0] count_mid;
    (* keep *) wire [1:0] count_low;
    wire [39:0] x_coarse;
    wire below_window;
    wire n_zero = ~|block_nonzero_q;  // x = 0 or x = -1
    wire [P+23:0] x_wide = {x_q, 24'd0};  // x extended with the zeros shifts bring in
    generate
        if (NB == 4) begin : coarse4
            wire [3:1] nz = block_nonzero_q[3:1];  // block 0 is the default
            assign first_block = nz[3] ? 2'd0 : nz[2] ? 2'd1 : nz[1] ? 2'd2 : 2'd3;
            assign count_mid = nz[3] ? block_group_q[7:6] : nz[2] ? block_group_q[5:4]
                             : nz[1] ? block_group_q[3:2] : block_group_q[1:0];
            assign count_low = nz[3] ? block_low_q[7:6] : nz[2] ? block_low_q[5:4]
                             : nz[1] ? block_low_q[3:2] : block_low_q[1:0];
            assign x_coarse = nz[3] ? x_wide[P+23 -: 40] : nz[2] ? x_wide[P+7 -: 40]
                            : nz[1] ? x_wide[P-9 -: 40] : x_wide[P-25 -: 40];
            assign below_window = nz[3] ? below_windows_q[1] : nz[2] & below_windows_q[0];
        end else begin : coarse2
            wire top = block_nonzero_q[1];
            assign first_block = ~top;
            assign count_mid = top ? block_group_q[3:2] : block_group_q[1:0];
            assign count_low = top ? block_low_q[3:2] : block_low_q[1:0];
            assign x_coarse = top ? x_wide[P+23 -: 40] : x_wide[P+7 -: 40];
            assign below_window = 1'b0;  // the windows reach x's bit 0
            /* verilator lint_off UNUSED */
            wire unused_below = |below_windows_q;
            /* verilator lint_on UNUSED */
        end
    endgenerate
    // the rest of the shift, 4 * count_mid + count_low, one-hot
    wire [15:0] fine_select;
    genvar k;
    generate
        for (k = 0; k < 16; k = k + 1) begin : decode
            assign fine_select[k] = {count_mid, count_low} == k;
        end
    endgenerate

    reg [BW-1:0] first_block_q;
    reg [1:0] count_mid_q;
    reg [1:0] count_low_q;
    // two copies (the second one inverted, so that the synthesis keeps it), each driving
    // about half of the shift's bits below: shorter nets
    reg [15:0] fine_select_q;
    reg [15:0] fine_unselect_q;
    reg [39:0] x_coarse_q;
    reg below_window_q;
    reg n_zero_q;
    reg negative_q;
    always @(posedge clk) begin
        if (ce) begin
            first_block_q <= first_block;
            count_mid_q <= count_mid;
            count_low_q <= count_low;
            fine_select_q <= fine_select;
            fine_unselect_q <= ~fine_select;
            x_coarse_q <= x_coarse;
            below_window_q <= below_window;
            n_zero_q <= n_zero;
            negative_q <= negative_q1;
        end
    end

    // ---- before register 3 ----------------------------------------------------------------
    // the rest of the shift: bit j of the top 25 bits of x << count is bit 15 - fine + j of
    // x_coarse; inverted when x < 0
    wire [24:0] kept;
    genvar j;
    generate
        for (j = 0; j < 25; j = j + 1) begin : fine_bit
            wire [15:0] terms;
            for (k = 0; k < 16; k = k + 1) begin : term
                wire select = (j < 12) ? ~fine_unselect_q[k] : fine_select_q[k];
                assign terms[k] = select & x_coarse_q[15 - k + j];
            end
            assign kept[j] = (|terms) ^ negative_q;
        end
    endgenerate
    // the sticky bit's two halves. The guard bit is bit 15 - fine of x_coarse, in its group
    // 3 - count_mid at bit 3 - count_low. Below it: the bits below the window and the
    // window's groups below the guard's group, and the guard group's bits below the guard
    // (an OR of select-and-data terms like the shift's).
    (* keep *) wire [2:0] window_group_or = {|x_coarse_q[11:8], |x_coarse_q[7:4],
                                              |x_coarse_q[3:0]};
    wire sticky_groups = below_window_q
                       | (count_mid_q == 2'd0 && |window_group_or)
                       | (count_mid_q == 2'd1 && |window_group_or[1:0])
                       | (count_mid_q == 2'd2 && window_group_or[0]);
    wire [15:0] guard_terms;
    generate
        for (k = 0; k < 16; k = k + 1) begin : guard_term
            // the bits of the guard's group below the guard: [14 - k : 12 - 4 * (k / 4)]
            if (k % 4 == 3) begin : none
                assign guard_terms[k] = 1'b0;
            end else begin : some
                assign guard_terms[k] = fine_select_q[k] & |x_coarse_q[14 - k : 12 - 4 * (k / 4)];
            end
        end
    endgenerate
    wire sticky_guard_group = |guard_terms;
    wire sticky = sticky_groups | sticky_guard_group;
    wire nosticky_negative = negative_q & ~sticky;
    // the biased exponent 126 + WIDTH - count (one less than the true one for a negative
    // power of two, where the rounding carries into it); zero: 0, x = -1: 126 (+1)
    wire [7:0] exponent = n_zero_q ? (negative_q ? 8'd126 : 8'd0)
        : EXPONENT_TOP - {{(4-BW){1'b0}}, first_block_q, count_mid_q, count_low_q};

    /* verilator lint_off UNUSED */
    reg [24:0] kept_q;  // bit 24, the leading 1, is implied by the exponent
    /* verilator lint_on UNUSED */
    reg sticky_q;
    reg nosticky_negative_q;
    reg [7:0] exponent_q;
    reg negative_q2;
    always @(posedge clk) begin
        if (ce) begin
            kept_q <= kept;
            sticky_q <= sticky;
            nosticky_negative_q <= nosticky_negative;
            exponent_q <= exponent;
            negative_q2 <= negative_q;
        end
    end

    // ---- after register 3 -----------------------------------------------------------------
    // The rounding (see the header) as round-half-up, a carry into the fraction's last
    // bit, then a tie fix. The carry is k0 | (b0 & k1) (k0 the guard bit, k1 the last kept
    // bit, b0 = (x < 0) & ~sticky): for x >= 0 it is the guard bit, and a tie (guard set,
    // sticky clear) then clears the last bit, which makes half-up half-to-even; for x < 0
    // with sticky set it is the guard bit (Y rounded half-up; no tie with a sticky bit);
    // for x < 0 with sticky clear, (Y + 1 + Y[1]) / 2 is Y / 2 plus k0 | k1. The carry
    // comes out of the carry chain itself, from two extra low positions added
    // {k0, b0} + {1, k1}: their carry is k0 | (b0 & k1), so every input of the chain is a
    // register or a constant and the tie fix reads the chain's first sum bit.
    wire rounding_tie = ~negative_q2 & ~sticky_q & kept_q[0];
    /* verilator lint_off UNUSED */
    wire [32:0] sum = {exponent_q, kept_q[23:1], kept_q[0], nosticky_negative_q}
                    + {31'd0, 1'b1, kept_q[1]};  // bits 1:0: the carry's positions
    /* verilator lint_on UNUSED */
    assign r = {negative_q2, sum[32:3], sum[2] & ~rounding_tie};
endmodule
