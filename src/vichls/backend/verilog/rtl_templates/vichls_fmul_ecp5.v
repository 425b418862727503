// vichls primitive: IEEE-754 binary32 multiplication r = a * b for a Lattice ECP5
// (--device ecp5), rounded to nearest even, fully pipelined, with the results of
// vichls_fmul (numpy float32: subnormal operands and results exact, no flush to zero; the
// sign of a zero or infinite result is the xor of the operands' signs; overflow gives an
// infinity; 0 * inf and a NaN operand give a quiet NaN, here 32'h7FFFFFFE or 7FFFFFFF).
// LATENCY = 6: operands presented in a cycle with the clock enable `ce` high give r 6
// enabled cycles later (r is the last pipeline register). No parameters.
//
// Built for 200 MHz on the ECP5, where a LUT level with its net costs about 1 ns, a
// variable shift over 8 places two of those, a carry chain of 50 bits about 4 ns, and a
// MULT18X18D block is only fast with its own input and output registers (its output then
// needs ~2.2 ns to reach a fabric LUT). Q = 2 * product (bit 0 zero, so that every guard
// place exists). G is the place in Q of the guard bit when the significand's leading one is
// at the lower of its two possible places: 23 - lz for a normal result (lz the subnormal
// operand's leading zeros, else 0), else the exponent's place 151 - s (s the effective
// exponent sum): the larger of the two. K = max(23 - lz + 25, 151 - s + 24) is the place
// whose bit says that the rounded result is at the upper place (for a subnormal result,
// that it is the smallest normal).
//   stage 1: the significands (hidden bit = exponent field not zero) into the input
//            registers of four 12 x 12 MULT18X18D blocks; in the fabric the exponent
//            fields' sum, the first two levels of the trees finding each fraction's leading
//            one and trailing zeros, the places below its leading one (suffix ORs).
//   stage 2: the blocks' output registers; the trees' last level (lz, 23 - lz, the trailing
//            zeros); the places below 23 - lz and below 151 - s (thermometer codes: G and K
//            follow from them with ORs); the special operands.
//   stage 3: the partial products in a 3:2 row, Q = X + Y; as two rows for a carry chain
//            each, the carry into G of X + Y and X + Y + 2^G + (2^50 - 2^K), whose carry out
//            says Q + 2^G >= 2^K; S = X ^ Y, X & Y and O = X | Y, shifted right by 32 * G[5]
//            (from G on X + Y = S + ((X & Y) << 1): C has a free bit at G for the carry into
//            G, S's column at G takes the rounding 1, whose carry is then O); whether the
//            result is subnormal (E <= 0, a carry chain), G.
//   stage 4: the two carries (carry chains); S, X & Y and O shifted right by 4 * G[4:2];
//            the exponent field at each place, its overflow, whether something is below the
//            guard (from the trailing zeros).
//   stage 5: those shifted right by G[1:0] more (the window from G), and by one more place
//            for the upper place (picked by the carry of stage 4): the operands of stage 6's
//            sum, with the rounding 1 and the carries placed; the result's constants.
//   stage 6: one carry chain: {fraction, guard} of the rounded significand; a tie (nothing
//            below the guard, from the trailing zeros; the guard 0 after the increment)
//            clears the last bit. The exponent field and the constant results are chosen by
//            signals ready at the stage's start (the clearing as a synchronous reset).
// The combinational logic of each stage is in submodules that Yosys keeps (keep_hierarchy):
// its LUT mapping (ABC) would otherwise deepen every short path of the design up to the
// longest one, through the carry chains, well past what a stage allows. The blocks are
// MULT18X18D primitives when Yosys synthesizes (SYNTHESIS defined), the same registers
// written behaviourally otherwise (simulation, lint, VICHLS_NO_VENDOR_PRIMITIVES): two
// cycles in both.
module vichls_fmul_ecp5 (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    input wire [31:0] b,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 6;
    // verilator lint_on UNUSEDPARAM

    // ---- stage 1 -----------------------------------------------------------------------------
    wire hidden_a, hidden_b;        // exponent field not zero
    wire [9:0] nexp_a, nexp_b;      // -(exponent field) - 1
    vichls_fmul_ecp5_hidden hidden (
        .exp_a(a[30:23]), .exp_b(b[30:23]),
        .hidden_a(hidden_a), .hidden_b(hidden_b), .nexp_a(nexp_a), .nexp_b(nexp_b));
    // the partial products of the 12-bit halves of the significands, registered twice
    // inside the blocks
    wire [23:0] sig_a = {hidden_a, a[22:0]};
    wire [23:0] sig_b = {hidden_b, b[22:0]};
    wire [23:0] pp_ll, pp_lh, pp_hl, pp_hh;
    vichls_ecp5_mult18_io #(.AW(12), .BW(12), .PW(24)) block_ll (
        .clk(clk), .ce(ce), .a(sig_a[11:0]), .b(sig_b[11:0]), .p(pp_ll));
    vichls_ecp5_mult18_io #(.AW(12), .BW(12), .PW(24)) block_lh (
        .clk(clk), .ce(ce), .a(sig_a[11:0]), .b(sig_b[23:12]), .p(pp_lh));
    vichls_ecp5_mult18_io #(.AW(12), .BW(12), .PW(24)) block_hl (
        .clk(clk), .ce(ce), .a(sig_a[23:12]), .b(sig_b[11:0]), .p(pp_hl));
    vichls_ecp5_mult18_io #(.AW(12), .BW(12), .PW(24)) block_hh (
        .clk(clk), .ce(ce), .a(sig_a[23:12]), .b(sig_b[23:12]), .p(pp_hh));
    // the leading-one trees' first two levels (nibbles, bytes), the places below the leading
    // one (suffix ORs), the trailing-zero trees' first two levels, the classes
    wire [2:1] bytes_a, bytes_b;    // byte not zero
    wire [8:0] bpos_a, bpos_b;      // place of each byte's leading one
    wire [22:0] above_a, above_b;   // bit q: a 1 in the fraction above q
    wire [5:0] z4_a, z4_b;          // nibble of {1, fraction} all zero
    wire [8:0] tz8_a, tz8_b;        // trailing zeros of each byte
    vichls_fmul_ecp5_lead2 lead_a (.f(a[22:0]), .bytes(bytes_a), .bpos(bpos_a));
    vichls_fmul_ecp5_lead2 lead_b (.f(b[22:0]), .bytes(bytes_b), .bpos(bpos_b));
    vichls_fmul_ecp5_above above_of_a (.f(a[22:0]), .above(above_a));
    vichls_fmul_ecp5_above above_of_b (.f(b[22:0]), .above(above_b));
    vichls_fmul_ecp5_trail2 trail_a (.f(a[22:0]), .z4(z4_a), .tz8(tz8_a));
    vichls_fmul_ecp5_trail2 trail_b (.f(b[22:0]), .z4(z4_b), .tz8(tz8_b));

    reg sign1;
    reg [9:0] nsum1;                // -(exponent fields' sum) - 2
    reg normal1;                    // no operand subnormal (s = the fields' sum, else + 1)
    reg [2:1] bytes_a1, bytes_b1;
    reg [8:0] bpos_a1, bpos_b1, tz8_a1, tz8_b1;
    reg [22:0] above_a1, above_b1;
    reg [5:0] z4_a1, z4_b1;
    reg top_a1, top_b1, hidden_a1, hidden_b1;
    always @(posedge clk) begin
        if (ce) begin
            sign1 <= a[31] ^ b[31];
            nsum1 <= nexp_a + nexp_b;
            normal1 <= hidden_a & hidden_b;
            bytes_a1 <= bytes_a;
            bytes_b1 <= bytes_b;
            bpos_a1 <= bpos_a;
            bpos_b1 <= bpos_b;
            tz8_a1 <= tz8_a;
            tz8_b1 <= tz8_b;
            above_a1 <= above_a;
            above_b1 <= above_b;
            z4_a1 <= z4_a;
            z4_b1 <= z4_b;
            top_a1 <= &a[30:23];
            top_b1 <= &b[30:23];
            hidden_a1 <= hidden_a;
            hidden_b1 <= hidden_b;
        end
    end

    // ---- stage 2 -----------------------------------------------------------------------------
    // With s the effective exponent sum (a subnormal's field 0 counting as 1) and lz the
    // subnormal operand's leading zeros (0 if none): the lower place's biased exponent is
    // E = s - 127 - lz; G = max(23 - lz, 151 - s).
    wire [9:0] g_sub = nsum1 + 10'd152 + {9'd0, normal1};     // 151 - s
    wire [4:0] lz, place;           // place = 23 - lz
    vichls_fmul_ecp5_lz lz_of (.hidden_a(hidden_a1), .hidden_b(hidden_b1), .bytes_a(bytes_a1),
                               .bytes_b(bytes_b1), .bpos_a(bpos_a1), .bpos_b(bpos_b1), .lz(lz));
    vichls_fmul_ecp5_place place_of (
        .hidden_a(hidden_a1), .hidden_b(hidden_b1), .bytes_a(bytes_a1), .bytes_b(bytes_b1),
        .bpos_a(bpos_a1), .bpos_b(bpos_b1), .place(place));
    wire [4:0] tz_a, tz_b;
    vichls_fmul_ecp5_trail trail (.z4_a(z4_a1), .z4_b(z4_b1), .tz8_a(tz8_a1), .tz8_b(tz8_b1),
                                  .tz_a(tz_a), .tz_b(tz_b));
    wire nan, inf, zero;
    vichls_fmul_ecp5_special special (
        .hidden_a(hidden_a1), .hidden_b(hidden_b1), .z4_a(z4_a1), .z4_b(z4_b1),
        .tz8_a(tz8_a1), .tz8_b(tz8_b1), .top_a(top_a1), .top_b(top_b1), .nan(nan), .inf(inf),
        .zero(zero));
    wire [22:0] below_place;        // bit q: q < 23 - lz
    wire [50:0] below_sub;          // bit q: q < 151 - s
    vichls_fmul_ecp5_thermo thermo (
        .nsum(nsum1), .normal(normal1), .hidden_a(hidden_a1), .hidden_b(hidden_b1),
        .above_a(above_a1), .above_b(above_b1), .below_place(below_place),
        .below_sub(below_sub));

    reg [22:0] below_place2;
    reg [50:0] below_sub2;
    reg [9:0] nsum2, g_sub2;        // -s - 2, 151 - s
    reg [4:0] lz2, place2;
    reg [4:0] tz_a2, tz_b2;         // trailing zeros of the significands
    reg sign2, nan2, inf2, zero2;
    always @(posedge clk) begin
        if (ce) begin
            below_place2 <= below_place;
            below_sub2 <= below_sub;
            nsum2 <= nsum1 + {9'd0, normal1};
            g_sub2 <= g_sub;
            lz2 <= lz;
            place2 <= place;
            tz_a2 <= tz_a;
            tz_b2 <= tz_b;
            sign2 <= sign1;
            nan2 <= nan;
            inf2 <= inf;
            zero2 <= zero;
        end
    end

    // ---- stage 3 -----------------------------------------------------------------------------
    wire [49:0] x3, y3, xc3, yc3;   // the 3:2 row of the partial products: Q = X + Y (twice)
    vichls_fmul_ecp5_csa #(.COPY(0)) csa (.ll(pp_ll), .lh(pp_lh), .hl(pp_hl), .hh(pp_hh),
                                          .x(x3), .y(y3));
    vichls_fmul_ecp5_csa #(.COPY(1)) csa_carries (.ll(pp_ll), .lh(pp_lh), .hl(pp_hl),
                                                  .hh(pp_hh), .x(xc3), .y(yc3));
    wire [49:0] t_bits;             // T's bits: at G and from K on
    vichls_fmul_ecp5_tbits tbits (.below_place(below_place2), .below_sub(below_sub2),
                                  .t_bits(t_bits));
    wire [55:0] s_row, xy_row, o_row;
    wire [49:0] carry_x, carry_y, up_x, up_y;
    vichls_fmul_ecp5_rows rows (
        .x(x3), .y(y3), .xc(xc3), .yc(yc3), .below_place(below_place2),
        .below_sub(below_sub2[49:0]), .by32(below_sub2[31]), .t_bits(t_bits), .s(s_row),
        .xy(xy_row), .o(o_row), .carry_x(carry_x), .carry_y(carry_y), .up_x(up_x),
        .up_y(up_y));
    // D = 127 - s + lz = -E: E <= 0 (a subnormal result) when D >= 0; G
    wire [9:0] d = nsum2 + {5'b00100, lz2};
    wire [5:0] g;
    wire big;
    vichls_fmul_ecp5_guard guard (.d_sign(d[9]), .g_sub(g_sub2), .place(place2), .g(g),
                                  .big(big));
    wire exp_low = ~d[9];

    reg [55:0] s3, xy3, o3;
    reg [49:0] carry_x3, carry_y3, up_x3, up_y3;
    reg [5:0] g3;
    reg [9:0] d3;
    reg [5:0] tz3;                  // trailing zeros of Q
    reg big3;                       // with a subnormal result G >= 64: below half the
                                    // smallest subnormal
    reg exp_low3, sign3, nan3, inf3, zero3;
    always @(posedge clk) begin
        if (ce) begin
            s3 <= s_row;
            xy3 <= xy_row;
            o3 <= o_row;
            carry_x3 <= carry_x;
            carry_y3 <= carry_y;
            up_x3 <= up_x;
            up_y3 <= up_y;
            g3 <= g;
            d3 <= d;
            tz3 <= {1'b0, tz_a2} + {1'b0, tz_b2} + 6'd1;
            exp_low3 <= exp_low;
            sign3 <= sign2;
            nan3 <= nan2;
            inf3 <= inf2;
            zero3 <= zero2;
            big3 <= big;
        end
    end

    // ---- stage 4 -----------------------------------------------------------------------------
    // verilator lint_off UNUSEDSIGNAL
    wire [50:0] carry_sum = {1'b0, carry_x3} + {1'b0, carry_y3};
    wire [50:0] up_sum = {1'b0, up_x3} + {1'b0, up_y3};
    // the exponent field at each place (for a normal result), whether it overflows, whether
    // something is below the guard (from the trailing zeros)
    wire [9:0] e_lo = 10'd0 - d3;
    wire [9:0] e_hi = 10'd1 - d3;
    wire [9:0] ovf_lo = d3 + 10'd254;              // negative: E >= 255
    wire [9:0] ovf_hi = d3 + 10'd253;              // negative: E + 1 >= 255
    // verilator lint_on UNUSEDSIGNAL
    wire [27:0] s_step, xy_step;
    wire [4:0] o_step;
    vichls_fmul_ecp5_step coarse (.s(s3), .xy(xy3), .o(o3), .amount(g3[4:2]),
                                .s_out(s_step), .xy_out(xy_step), .o_out(o_step));

    reg [27:0] s4, xy4;
    reg [4:0] o4;
    reg carry4;                     // carry into G of X + Y
    reg up4;                        // Q + 2^G >= 2^K
    reg [1:0] fine4;                // G[1:0]
    reg [7:0] field_lo4, field_hi4;
    reg ovf_lo4, ovf_hi4;           // exponent 255 or more at that place
    reg exact_lo4, exact_hi4;       // nothing below the guard at that place
    reg exp_low4, sign4, nan4, inf4, zero4;
    always @(posedge clk) begin
        if (ce) begin
            s4 <= s_step;
            xy4 <= xy_step;
            o4 <= o_step;
            carry4 <= carry_sum[50];
            up4 <= up_sum[50];
            fine4 <= g3[1:0];
            field_lo4 <= e_lo[7:0];
            field_hi4 <= e_hi[7:0];
            ovf_lo4 <= ovf_lo[9];
            ovf_hi4 <= ovf_hi[9];
            exact_lo4 <= tz3 >= g3;
            exact_hi4 <= tz3 > g3;
            exp_low4 <= exp_low3;
            sign4 <= sign3;
            nan4 <= nan3;
            inf4 <= inf3;
            zero4 <= zero3 | big3;
        end
    end

    // ---- stage 5 -----------------------------------------------------------------------------
    wire [23:0] add_s, add_c;       // stage 6's sum: {fraction, guard} + 1 at the guard
    wire carry_in;
    wire clear_up, clear_down, inexact;
    wire [7:0] field_up, field_down;
    wire [24:0] s_g;
    wire [23:0] xy_g;
    wire [1:0] o_g;
    vichls_fmul_ecp5_window window (.s(s4), .xy(xy4), .o(o4), .shift(fine4), .s_g(s_g),
                                    .xy_g(xy_g), .o_g(o_g));
    vichls_fmul_ecp5_align align (
        .s_g(s_g), .xy_g(xy_g), .o_g(o_g), .nan(nan4), .carry(carry4), .up(up4),
        .exp_low(exp_low4), .add_s(add_s), .add_c(add_c), .carry_in(carry_in));
    vichls_fmul_ecp5_consts consts (
        .nan(nan4), .up(up4), .exp_low(exp_low4), .inf(inf4), .zero(zero4), .ovf_lo(ovf_lo4),
        .ovf_hi(ovf_hi4), .field_lo(field_lo4), .field_hi(field_hi4), .exact_lo(exact_lo4),
        .exact_hi(exact_hi4), .clear_up(clear_up), .clear_down(clear_down),
        .field_up(field_up), .field_down(field_down), .inexact(inexact));

    reg [23:0] add_s5, add_c5;
    reg carry_in5, up5;
    reg clear_up5, clear_down5;     // a constant result but NaN when up4 is 1, 0
    reg [7:0] field_up5, field_down5;
    reg inexact5;                   // something below the guard of the place taken
    reg sign5;
    always @(posedge clk) begin
        if (ce) begin
            add_s5 <= add_s;
            add_c5 <= add_c;
            carry_in5 <= carry_in;
            up5 <= up4;
            clear_up5 <= clear_up;
            clear_down5 <= clear_down;
            field_up5 <= field_up;
            field_down5 <= field_down;
            inexact5 <= inexact;
            sign5 <= sign4 & ~nan4;
        end
    end

    // ---- stage 6 -----------------------------------------------------------------------------
    // {fraction, guard} of Q + 2^guard (the carry in as a low column: 1 + carry_in)
    // verilator lint_off UNUSEDSIGNAL
    wire [24:0] sum = {add_s5, 1'b1} + {add_c5, carry_in5};
    // verilator lint_on UNUSEDSIGNAL
    wire clear_ce, last;
    wire [7:0] field;
    vichls_fmul_ecp5_round round (
        .ce(ce), .up(up5), .clear_up(clear_up5), .clear_down(clear_down5),
        .field_up(field_up5), .field_down(field_down5), .sum(sum[2:1]), .inexact(inexact5),
        .clear_ce(clear_ce), .field(field), .last(last));

    reg [22:0] mant6;
    reg [7:0] field6;
    reg sign6;
    always @(posedge clk) begin
        // the clearing as the registers' synchronous reset (over `ce`: clear_ce includes it),
        // not logic after the carry chain
        if (clear_ce) mant6 <= 23'd0;
        else if (ce) mant6 <= {sum[24:3], last};
        if (ce) begin
            field6 <= field;
            sign6 <= sign5;
        end
    end
    assign r = {sign6, field6, mant6};
endmodule

// ---- the stages' combinational logic -------------------------------------------------------
// verilator lint_off DECLFILENAME

// Stage 1: hidden bits (into the blocks) and -(exponent field) - 1 for the exponent sum.
(* keep_hierarchy *)
module vichls_fmul_ecp5_hidden (
    input wire [7:0] exp_a,
    input wire [7:0] exp_b,
    output wire hidden_a,
    output wire hidden_b,
    output wire [9:0] nexp_a,
    output wire [9:0] nexp_b
);
    assign hidden_a = |exp_a;
    assign hidden_b = |exp_b;
    assign nexp_a = {2'b11, ~exp_a};
    assign nexp_b = {2'b11, ~exp_b};
endmodule

// Stage 1: for each operand (two LUT levels, finished in stage 2; each in its own module,
// whose mapping cannot share logic with the others and deepen them): the first two levels of
// the tree finding its fraction's leading one (in the 24 bits {0, f}: nibbles, then bytes);
// the places below the leading one (bit q: a 1 above q, suffix ORs); the first two levels
// of the trailing-zero tree (of {1, f}: 23 for a zero fraction, the hidden bit's place).
(* keep_hierarchy *)
module vichls_fmul_ecp5_lead2 (
    input wire [22:0] f,
    output wire [2:1] bytes,        // byte 2, 1 of {0, f} not zero
    output wire [8:0] bpos          // place of each byte's leading one (3 bits each)
);
    wire [23:0] w = {1'b0, f};
    // verilator lint_off UNUSEDSIGNAL
    wire [5:0] nz;                  // nibble of {0, f} not zero (nibble 0's not needed)
    // verilator lint_on UNUSEDSIGNAL
    wire [11:0] npos;               // place of the nibble's leading one (2 bits each)
    genvar k;
    generate
        for (k = 0; k < 6; k = k + 1) begin : nibbles
            assign nz[k] = |w[4*k +: 4];
            assign npos[2*k +: 2] = w[4*k+3] ? 2'd3 : w[4*k+2] ? 2'd2 : w[4*k+1] ? 2'd1 : 2'd0;
        end
        for (k = 0; k < 3; k = k + 1) begin : bytes_of
            if (k > 0) begin : upper
                assign bytes[k] = nz[2*k+1] | nz[2*k];
            end
            assign bpos[3*k +: 3] = nz[2*k+1] ? {1'b1, npos[4*k+2 +: 2]} : {1'b0, npos[4*k +: 2]};
        end
    endgenerate
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_above (
    // verilator lint_off UNUSEDSIGNAL
    input wire [22:0] f,            // (bit 0 has no place below it that it could be above)
    // verilator lint_on UNUSEDSIGNAL
    output wire [22:0] above
);
    genvar k;
    generate
        for (k = 0; k < 23; k = k + 1) begin : suffix
            if (k == 22) begin : none
                assign above[k] = 1'b0;
            end else begin : some
                assign above[k] = |f[22:k+1];
            end
        end
    endgenerate
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_trail2 (
    input wire [22:0] f,
    output wire [5:0] z4,           // nibble of {1, f} all zero
    output wire [8:0] tz8           // trailing zeros of each byte of {1, f} (3 bits each)
);
    wire [23:0] v = {1'b1, f};
    wire [11:0] c4;                 // trailing zeros within a nibble of {1, f}
    genvar k;
    generate
        for (k = 0; k < 6; k = k + 1) begin : nibbles
            assign z4[k] = ~|v[4*k +: 4];
            assign c4[2*k +: 2] = v[4*k] ? 2'd0 : v[4*k+1] ? 2'd1 : v[4*k+2] ? 2'd2 : 2'd3;
        end
        for (k = 0; k < 3; k = k + 1) begin : bytes_of
            assign tz8[3*k +: 3] = z4[2*k] ? {1'b1, c4[4*k+2 +: 2]} : {1'b0, c4[4*k +: 2]};
        end
    endgenerate
endmodule

// Stage 2: the leading-one tree's last level for the subnormal operand (a when a is
// subnormal, else b): its leading zeros lz = 23 - p = {2 - byte, 7 - bit} (0 when no operand
// is subnormal), and 23 - lz (23 then). Separate modules for lz and 23 - lz: ABC would
// otherwise share logic between them and deepen both.
(* keep_hierarchy *)
module vichls_fmul_ecp5_lz (
    input wire hidden_a,
    input wire hidden_b,
    input wire [2:1] bytes_a,
    input wire [2:1] bytes_b,
    input wire [8:0] bpos_a,
    input wire [8:0] bpos_b,
    output wire [4:0] lz
);
    wire [2:0] bit_a = bytes_a[2] ? bpos_a[8:6] : bytes_a[1] ? bpos_a[5:3] : bpos_a[2:0];
    wire [2:0] bit_b = bytes_b[2] ? bpos_b[8:6] : bytes_b[1] ? bpos_b[5:3] : bpos_b[2:0];
    wire [4:0] lz_a = {~bytes_a[2] & ~bytes_a[1], ~bytes_a[2] & bytes_a[1], ~bit_a};
    wire [4:0] lz_b = {~bytes_b[2] & ~bytes_b[1], ~bytes_b[2] & bytes_b[1], ~bit_b};
    assign lz = hidden_a ? (hidden_b ? 5'd0 : lz_b) : lz_a;
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_place (
    input wire hidden_a,
    input wire hidden_b,
    input wire [2:1] bytes_a,
    input wire [2:1] bytes_b,
    input wire [8:0] bpos_a,
    input wire [8:0] bpos_b,
    output wire [4:0] place
);
    wire [2:0] bit_a = bytes_a[2] ? bpos_a[8:6] : bytes_a[1] ? bpos_a[5:3] : bpos_a[2:0];
    wire [2:0] bit_b = bytes_b[2] ? bpos_b[8:6] : bytes_b[1] ? bpos_b[5:3] : bpos_b[2:0];
    wire [4:0] place_a = {bytes_a[2], ~bytes_a[2] & bytes_a[1], bit_a};
    wire [4:0] place_b = {bytes_b[2], ~bytes_b[2] & bytes_b[1], bit_b};
    assign place = hidden_a ? (hidden_b ? 5'd23 : place_b) : place_a;
endmodule

// Stage 2: the trailing-zero trees' last level.
(* keep_hierarchy *)
module vichls_fmul_ecp5_trail (
    // verilator lint_off UNUSEDSIGNAL
    input wire [5:0] z4_a,          // (nibble 5 holds the hidden 1: never zero)
    input wire [5:0] z4_b,
    // verilator lint_on UNUSEDSIGNAL
    input wire [8:0] tz8_a,
    input wire [8:0] tz8_b,
    output wire [4:0] tz_a,
    output wire [4:0] tz_b
);
    assign tz_a = (z4_a[0] & z4_a[1]) ? ((z4_a[2] & z4_a[3]) ? {2'b10, tz8_a[8:6]}
                                                             : {2'b01, tz8_a[5:3]})
                                      : {2'b00, tz8_a[2:0]};
    assign tz_b = (z4_b[0] & z4_b[1]) ? ((z4_b[2] & z4_b[3]) ? {2'b10, tz8_b[8:6]}
                                                             : {2'b01, tz8_b[5:3]})
                                      : {2'b00, tz8_b[2:0]};
endmodule

// Stage 2: the special results.
(* keep_hierarchy *)
module vichls_fmul_ecp5_special (
    input wire hidden_a,
    input wire hidden_b,
    // verilator lint_off UNUSEDSIGNAL
    input wire [5:0] z4_a,
    input wire [5:0] z4_b,
    input wire [8:0] tz8_a,
    input wire [8:0] tz8_b,
    // verilator lint_on UNUSEDSIGNAL
    input wire top_a,
    input wire top_b,
    output wire nan,
    output wire inf,
    output wire zero
);
    // the fraction is zero when {1, f}'s nibbles are all zero but the top one's hidden 1
    wire fzero_a = &z4_a[4:0] & (tz8_a[8:6] == 3'd7);
    wire fzero_b = &z4_b[4:0] & (tz8_b[8:6] == 3'd7);
    assign nan = (top_a & ~fzero_a) | (top_b & ~fzero_b)
               | (top_a & ~hidden_b & fzero_b) | (top_b & ~hidden_a & fzero_a);
    assign inf = top_a | top_b;
    // a zero operand, or two subnormals: a product below 2^-252
    assign zero = (~hidden_a & fzero_a) | (~hidden_b & fzero_b) | (~hidden_a & ~hidden_b);
endmodule

// Stage 2: the places below 23 - lz (the subnormal operand's places below its leading one;
// all below 23 when no operand is subnormal) and below 151 - s (s the effective exponent sum,
// from nsum = -(the fields' sum) - 2 and whether no operand is subnormal): thermometer codes,
// straight from the registers in two LUT levels (comparisons with constants written as
// logic: no carry chains).
(* keep_hierarchy *)
module vichls_fmul_ecp5_thermo (
    input wire [9:0] nsum,
    input wire normal,
    input wire hidden_a,
    input wire hidden_b,
    input wire [22:0] above_a,
    input wire [22:0] above_b,
    output wire [22:0] below_place,
    output wire [50:0] below_sub
);
    assign below_place = hidden_a ? (hidden_b ? {23{1'b1}} : above_b) : above_a;
    // q < 151 - s, s = -nsum - 2 + !normal: nsum (as unsigned 10 bits, 512 + n with n in
    // 0..510) >= 1024 + q - 152 + !normal = 512 + c, c = 360 + q + !normal in 360..411: on
    // n's top 3 bits h (c's are 5 or 6) and low 6 bits l, (h > c_h) | (h == c_h & l >= c_l)
    wire [3:0] h_class;             // h >= 6, h == 5, h == 7, h == 6
    wire [50:0] low_ge;             // l >= c_l
    vichls_fmul_ecp5_thermo_low low (.nsum(nsum), .normal(normal), .h_class(h_class),
                                     .low_ge(low_ge));
    vichls_fmul_ecp5_thermo_high high (.h_class(h_class), .low_ge(low_ge),
                                       .below_sub(below_sub));
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_thermo_low (
    input wire [9:0] nsum,
    input wire normal,
    output wire [3:0] h_class,
    output wire [50:0] low_ge
);
    // (nsum's top bit is always 1)
    // verilator lint_off UNUSEDSIGNAL
    wire unused = nsum[9];
    // verilator lint_on UNUSEDSIGNAL
    // v >= c, unsigned: decided by the highest bit where they differ (logic, not a chain)
    function ge6;
        input [5:0] v;
        input [5:0] c;
        integer i;
        reg done;
        begin
            ge6 = 1'b1;
            done = 1'b0;
            for (i = 5; i >= 0; i = i - 1) begin
                if (!done && v[i] != c[i]) begin
                    ge6 = v[i];
                    done = 1'b1;
                end
            end
        end
    endfunction
    wire [2:0] h = nsum[8:6];
    wire [5:0] l = nsum[5:0];
    assign h_class = {h == 3'd6, h == 3'd7, h == 3'd5, h[2] & h[1]};
    genvar k;
    generate
        for (k = 0; k < 51; k = k + 1) begin : places
            localparam integer C1 = 360 + k;        // normal
            localparam integer C0 = 361 + k;
            localparam integer L1I = C1 % 64;
            localparam integer L0I = C0 % 64;
            localparam [5:0] L1 = L1I[5:0];
            localparam [5:0] L0 = L0I[5:0];
            if (C0 == 384) begin : wrapped
                // c = 384 when not normal: h >= 6, which is the c_h = 5 form with l >= c_l
                // false
                assign low_ge[k] = normal & ge6(l, L1);
            end else begin : plain
                assign low_ge[k] = normal ? ge6(l, L1) : ge6(l, L0);
            end
        end
    endgenerate
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_thermo_high (
    input wire [3:0] h_class,       // h >= 6, h == 5, h == 7, h == 6 (bits 0..3)
    input wire [50:0] low_ge,
    output wire [50:0] below_sub
);
    genvar k;
    generate
        for (k = 0; k < 51; k = k + 1) begin : places
            localparam integer C1 = 360 + k;
            if (C1 + 1 < 384) begin : five
                // c_h = 5 both ways: h > 5 | h == 5 & l >= c_l
                assign below_sub[k] = h_class[0] | (h_class[1] & low_ge[k]);
            end else if (C1 >= 384) begin : six
                // c_h = 6: h == 7 | h == 6 & l >= c_l
                assign below_sub[k] = h_class[2] | (h_class[3] & low_ge[k]);
            end else begin : at383
                // c = 383 (c_h 5) when normal, 384 when not (low_ge false then)
                assign below_sub[k] = h_class[0] | (h_class[1] & low_ge[k]);
            end
        end
    endgenerate
endmodule

// Stage 3: the partial products at their places in Q (ll and hh in one row: they do not
// overlap) and their 3:2 row, Q = X + Y.
(* keep_hierarchy *)
module vichls_fmul_ecp5_csa #(parameter COPY = 0) (
    input wire [23:0] ll,
    input wire [23:0] lh,
    input wire [23:0] hl,
    input wire [23:0] hh,
    output wire [49:0] x,
    output wire [49:0] y
);
    // (COPY tells apart two copies driving different rows: fewer loads on each net)
    // verilator lint_off UNUSEDPARAM
    localparam C = COPY;
    // verilator lint_on UNUSEDPARAM
    wire [49:0] row_lh = {1'b0, hh, ll, 1'b0};
    wire [49:0] row_m1 = {13'd0, lh, 13'd0};
    wire [49:0] row_m2 = {13'd0, hl, 13'd0};
    assign x = row_lh ^ row_m1 ^ row_m2;
    assign y = {(row_lh[48:0] & row_m1[48:0]) | (row_lh[48:0] & row_m2[48:0])
                | (row_m1[48:0] & row_m2[48:0]), 1'b0};
endmodule

// Stage 3: T's bits, at G and from K on. G = max(23 - lz, 151 - s), so q < G is an OR of the
// two thermometer codes (and q = G: q - 1 < G but not q < G); K = max(23 - lz + 25,
// 151 - s + 24).
(* keep_hierarchy *)
module vichls_fmul_ecp5_tbits (
    input wire [22:0] below_place,
    input wire [50:0] below_sub,
    output wire [49:0] t_bits
);
    // verilator lint_off UNUSEDSIGNAL
    wire [50:0] below_g = {28'd0, below_place} | below_sub;
    // verilator lint_on UNUSEDSIGNAL
    genvar k;
    generate
        for (k = 0; k < 50; k = k + 1) begin : places
            if (k >= 48) begin : top
                assign t_bits[k] = (below_g[k-1] & ~below_g[k]) | ~below_sub[k-24];
            end else if (k >= 25) begin : high
                assign t_bits[k] = (below_g[k-1] & ~below_g[k])
                                 | (~below_place[k-25] & ~below_sub[k-24]);
            end else if (k >= 1) begin : mid
                assign t_bits[k] = below_g[k-1] & ~below_g[k];
            end else begin : first
                assign t_bits[k] = ~below_g[k];
            end
        end
    endgenerate
endmodule

// Stage 3: from X and Y (one LUT level each): S = X ^ Y, X & Y, O = X | Y, shifted right by 32
// when by32 (G >= 32); the rows whose sum's carry out is the carry into G of X + Y (X below G
// with ones above, Y below G); the 3:2 row of X, Y and T = 2^G + 2^50 - 2^K, whose sum's
// carry out says X + Y + 2^G >= 2^K.
(* keep_hierarchy *)
module vichls_fmul_ecp5_rows (
    input wire [49:0] x,            // (for the frame)
    input wire [49:0] y,
    input wire [49:0] xc,           // the same (for the carries)
    input wire [49:0] yc,
    input wire [22:0] below_place,
    input wire [49:0] below_sub,
    input wire by32,
    input wire [49:0] t_bits,
    output wire [55:0] s,
    output wire [55:0] xy,
    output wire [55:0] o,
    output wire [49:0] carry_x,
    output wire [49:0] carry_y,
    output wire [49:0] up_x,
    output wire [49:0] up_y
);
    wire [87:0] x_ext = {38'd0, x};
    wire [87:0] y_ext = {38'd0, y};
    wire [55:0] x_lo = x_ext[55:0];
    wire [55:0] y_lo = y_ext[55:0];
    wire [55:0] x_hi = x_ext[87:32];
    wire [55:0] y_hi = y_ext[87:32];
    assign s = by32 ? x_hi ^ y_hi : x_lo ^ y_lo;
    assign xy = by32 ? x_hi & y_hi : x_lo & y_lo;
    assign o = by32 ? x_hi | y_hi : x_lo | y_lo;
    wire [49:0] below_g = {27'd0, below_place} | below_sub;
    assign carry_x = xc | ~below_g;
    assign carry_y = yc & below_g;
    assign up_x = xc ^ yc ^ t_bits;
    assign up_y = {(t_bits[48:0] & (xc[48:0] | yc[48:0]))
                   | (~t_bits[48:0] & xc[48:0] & yc[48:0]), 1'b0};
endmodule

// Stage 3: G, and whether G >= 64 with a subnormal result.
(* keep_hierarchy *)
module vichls_fmul_ecp5_guard (
    input wire d_sign,              // the sign of -E: a normal result
    input wire [9:0] g_sub,
    input wire [4:0] place,
    output wire [5:0] g,
    output wire big
);
    assign g = d_sign ? {1'b0, place} : g_sub[5:0];
    assign big = ~d_sign & |g_sub[9:6];
endmodule

// Stage 4: S, X & Y, O from place 4 * amount on.
(* keep_hierarchy *)
module vichls_fmul_ecp5_step (
    input wire [55:0] s,
    input wire [55:0] xy,
    input wire [55:0] o,
    input wire [2:0] amount,
    output wire [27:0] s_out,
    output wire [27:0] xy_out,
    output wire [4:0] o_out
);
    wire [5:0] from = {1'b0, amount, 2'b00};
    assign s_out = s[from +: 28];
    assign xy_out = xy[from +: 28];
    assign o_out = o[from +: 5];
endmodule

// Stage 5: the operands of stage 6's carry chain, from the guard's place: G for the lower
// place, G + 1 for the upper one (the upper place is taken by a normal result whose
// significand rounded at the lower place reaches 2^24; for a subnormal result `up` is
// instead the rounded result's hidden bit: the exponent field 1, the smallest normal). The
// window is `shift` = G[1:0] places on (a 4:1 choice; a module of its own, one LUT level),
// then one place more or not (the next module): S, with the guard column's bit inverted (the
// rounding 1); C = (X & Y) one place up, with O = X | Y in the column after the guard (the
// guard column's carry) and the carry into the lower place's guard column at its own place
// (a free bit there); the carry into the upper place's guard column from the plain column G.
// For a NaN, S all ones and the rest 0: a fraction of ones.
(* keep_hierarchy *)
module vichls_fmul_ecp5_window (
    input wire [27:0] s,
    input wire [27:0] xy,
    input wire [4:0] o,
    input wire [1:0] shift,
    output wire [24:0] s_g,         // from G on
    output wire [23:0] xy_g,
    output wire [1:0] o_g
);
    // verilator lint_off UNUSEDSIGNAL
    wire [27:0] s_all = s >> shift;
    wire [27:0] xy_all = xy >> shift;
    wire [4:0] o_all = o >> shift;
    // verilator lint_on UNUSEDSIGNAL
    assign s_g = s_all[24:0];
    assign xy_g = xy_all[23:0];
    assign o_g = o_all[1:0];
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_align (
    input wire [24:0] s_g,
    input wire [23:0] xy_g,
    input wire [1:0] o_g,
    input wire nan,
    input wire carry,               // the carry into G of X + Y
    input wire up,
    input wire exp_low,
    output wire [23:0] add_s,
    output wire [23:0] add_c,
    output wire carry_in
);
    wire upper = up & ~exp_low;
    // S from the guard on, the guard's inverted; C: XY from the guard - 1 on, O after the
    // guard, and at the guard the carry into G (lower) or XY at G (upper)
    wire [23:0] s_from = upper ? s_g[24:1] : s_g[23:0];
    wire [21:0] xy_from = upper ? xy_g[23:2] : xy_g[22:1];
    wire o_at = upper ? o_g[1] : o_g[0];
    wire c_at = upper ? xy_g[0] : carry;
    assign add_s = {s_from[23:1], ~s_from[0]} | {24{nan}};
    assign add_c = {xy_from, o_at, c_at} & {24{~nan}};
    // the upper place's guard column G + 1 gets the carry of the plain column G: S_G + carry
    assign carry_in = upper & s_g[0] & carry & ~nan;
endmodule

// Stage 5: the result's constants chosen for both values of `up`, and whether something is
// below the guard of the place taken.
(* keep_hierarchy *)
module vichls_fmul_ecp5_consts (
    input wire nan,
    input wire up,
    input wire exp_low,
    input wire inf,
    input wire zero,
    input wire ovf_lo,
    input wire ovf_hi,
    input wire [7:0] field_lo,
    input wire [7:0] field_hi,
    input wire exact_lo,
    input wire exact_hi,
    output wire clear_up,           // a constant result but NaN (up = 1, 0): fraction 0
    output wire clear_down,
    output wire [7:0] field_up,
    output wire [7:0] field_down,
    output wire inexact
);
    assign inexact = up & ~exp_low ? ~exact_hi : ~exact_lo;
    wire const_lo = ~nan & (inf | zero | (~exp_low & ovf_lo));
    wire const_hi = ~nan & (inf | zero | ovf_hi);
    // the constant result's field: NaN and infinity 255 (an operand 0 and inf is a NaN)
    wire ones_lo = nan | inf | (~zero & ~exp_low & ovf_lo);
    wire ones_hi = nan | inf | (~zero & ovf_hi);
    assign clear_up = exp_low ? const_lo : const_hi;
    assign clear_down = const_lo;
    assign field_up = exp_low ? (ones_lo ? 8'hFF : zero ? 8'd0 : 8'd1)
                              : (ones_hi ? 8'hFF : zero ? 8'd0 : field_hi);
    assign field_down = ones_lo ? 8'hFF : (zero | exp_low) ? 8'd0 : field_lo;
endmodule

// Stage 6: the constant result's clearing (a synchronous reset with `ce`), the exponent
// field, and the last bit, cleared by a tie (the guard 1 before the increment, so 0 after
// it, and nothing below it: round to even).
(* keep_hierarchy *)
module vichls_fmul_ecp5_round (
    input wire ce,
    input wire up,
    input wire clear_up,
    input wire clear_down,
    input wire [7:0] field_up,
    input wire [7:0] field_down,
    input wire [1:0] sum,           // {last bit, guard}
    input wire inexact,
    output wire clear_ce,
    output wire [7:0] field,
    output wire last
);
    assign clear_ce = ce & (up ? clear_up : clear_down);
    assign field = up ? field_up : field_down;
    assign last = sum[1] & (sum[0] | inexact);
endmodule

// One MULT18X18D with its input registers and its output register: p (PW <= 36 bits) is the
// low bits of the unsigned product of a (AW <= 18) and b (BW <= 18) presented two enabled
// cycles earlier (operands into the input registers, their product into the output one).
module vichls_ecp5_mult18_io #(parameter AW = 18, parameter BW = 18, parameter PW = 36) (
    input wire clk,
    input wire ce,
    input wire [AW-1:0] a,
    input wire [BW-1:0] b,
    output wire [PW-1:0] p
);
`ifdef VICHLS_NO_VENDOR_PRIMITIVES
    reg [AW-1:0] a_in;
    reg [BW-1:0] b_in;
    reg [PW-1:0] registered;
    always @(posedge clk) begin
        if (ce) begin
            a_in <= a;
            b_in <= b;
            registered <= a_in * b_in;
        end
    end
    assign p = registered;
`elsif SYNTHESIS
    wire [17:0] a18 = a;  // zero-extended: the block multiplies unsigned
    wire [17:0] b18 = b;
    wire [35:0] p36;
    MULT18X18D #(.REG_INPUTA_CLK("CLK0"), .REG_INPUTA_CE("CE0"), .REG_INPUTA_RST("RST0"),
                 .REG_INPUTB_CLK("CLK0"), .REG_INPUTB_CE("CE0"), .REG_INPUTB_RST("RST0"),
                 .REG_OUTPUT_CLK("CLK0"), .REG_OUTPUT_CE("CE0"), .REG_OUTPUT_RST("RST0"))
    block (
        .A0(a18[0]), .A1(a18[1]), .A2(a18[2]), .A3(a18[3]), .A4(a18[4]), .A5(a18[5]),
        .A6(a18[6]), .A7(a18[7]), .A8(a18[8]), .A9(a18[9]), .A10(a18[10]), .A11(a18[11]),
        .A12(a18[12]), .A13(a18[13]), .A14(a18[14]), .A15(a18[15]), .A16(a18[16]),
        .A17(a18[17]),
        .B0(b18[0]), .B1(b18[1]), .B2(b18[2]), .B3(b18[3]), .B4(b18[4]), .B5(b18[5]),
        .B6(b18[6]), .B7(b18[7]), .B8(b18[8]), .B9(b18[9]), .B10(b18[10]), .B11(b18[11]),
        .B12(b18[12]), .B13(b18[13]), .B14(b18[14]), .B15(b18[15]), .B16(b18[16]),
        .B17(b18[17]),
        .P0(p36[0]), .P1(p36[1]), .P2(p36[2]), .P3(p36[3]), .P4(p36[4]), .P5(p36[5]),
        .P6(p36[6]), .P7(p36[7]), .P8(p36[8]), .P9(p36[9]), .P10(p36[10]), .P11(p36[11]),
        .P12(p36[12]), .P13(p36[13]), .P14(p36[14]), .P15(p36[15]), .P16(p36[16]),
        .P17(p36[17]), .P18(p36[18]), .P19(p36[19]), .P20(p36[20]), .P21(p36[21]),
        .P22(p36[22]), .P23(p36[23]), .P24(p36[24]), .P25(p36[25]), .P26(p36[26]),
        .P27(p36[27]), .P28(p36[28]), .P29(p36[29]), .P30(p36[30]), .P31(p36[31]),
        .P32(p36[32]), .P33(p36[33]), .P34(p36[34]), .P35(p36[35]),
        .CLK0(clk), .CE0(ce), .RST0(1'b0), .SIGNEDA(1'b0), .SIGNEDB(1'b0),
        .SOURCEA(1'b0), .SOURCEB(1'b0));
    assign p = p36[PW-1:0];
`else
    reg [AW-1:0] a_in;
    reg [BW-1:0] b_in;
    reg [PW-1:0] registered;
    always @(posedge clk) begin
        if (ce) begin
            a_in <= a;
            b_in <= b;
            registered <= a_in * b_in;
        end
    end
    assign p = registered;
`endif
endmodule
// verilator lint_on DECLFILENAME
