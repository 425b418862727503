// vichls primitive: IEEE-754 binary32 multiplication r = a * b for a Lattice ECP5
// (--device ecp5), rounded to nearest even, fully pipelined, with the results of
// vichls_fmul (numpy float32: subnormal operands and results exact, no flush to zero; the
// sign of a zero or infinite result is the xor of the operands' signs; overflow gives an
// infinity; 0 * inf and a NaN operand give the quiet NaN 32'h7F800001).
// LATENCY = 5: operands presented in a cycle with the clock enable `ce` high give r 5
// enabled cycles later. r is one LUT level after the last registers (an OR of four of
// them; oplib's out delay); it holds while `ce` is low. No parameters.
//
// Built for 200 MHz on the ECP5, where a LUT level with its net costs about 1 ns (the
// slice's wide multiplexers PFUMX and L6MUX21 add 0.2 ns each to a LUT4 in the same level),
// a carry chain of 50 bits about 4 ns with its nets, and a MULT18X18D block is only fast
// with its own input and output registers (its output then needs ~2.2 ns to reach a fabric
// LUT). A register right after a LUT4 shares its slice; after a PFUMX it usually does not
// (a net more). Q = 2 * product (bit 0 zero, so that every guard place exists). G is the
// place in Q of the guard bit when the significand's leading one is at the lower of its two
// possible places: 23 - lz for a normal result (lz the subnormal operand's leading zeros in
// {0, fraction}, else 0), else the exponent's place 151 - s (s the effective exponent sum):
// the larger of the two. K = max(23 - lz + 25, 151 - s + 24) is the place whose bit says
// that the rounded result is at the upper place (for a subnormal result, that it is the
// smallest normal).
//   stage 1: the significands (hidden bit = exponent field not zero) into the input
//            registers of four 12 x 12 MULT18X18D blocks; in the fabric the exponent
//            fields' sums, the first two levels of the trees finding each fraction's leading
//            one and trailing zeros, the places below its leading one (suffix ORs), and for
//            each operand as the subnormal one the place of its `above` that says whether
//            the result is subnormal (from the other exponent field, without a carry chain).
//   stage 2: the blocks' output registers; the trees' last level (23 - lz, the trailing
//            zeros); the places below 23 - lz and below 151 - s (thermometer codes: G and K
//            follow from them with ORs); the special operands; whether the result is
//            subnormal for a subnormal a, b (a 32:1 multiplexer of `above`) or none; s plus
//            the constants of stage 3's exponents (a carry chain each).
//   stage 3: the partial products in a 3:2 row, Q = X + Y; S = X ^ Y, X & Y and O = X | Y,
//            shifted right by 32 when G >= 32 (from Q's place 38 on only hh is there: LUT4s
//            but for six places); as two rows for a carry chain each, the carry into G of
//            X + Y and X + Y + 2^G + (2^50 - 2^K), whose carry out says Q + 2^G >= 2^K
//            (`up`); the exponent at both places and its overflow (carry chains from 23 - lz);
//            G (the subnormal result from stage 2) and copies of it.
//   stage 4: the two carry chains; S, X & Y and O shifted right by 4 * G[4:2] (8:1
//            multiplexers of LUT4s, PFUMX and L6MUX21) and by G[1:0] more (4:1): the window
//            from G; whether something is below the guard (from the trailing zeros); the
//            result's constants.
//   stage 5: {fraction, guard} rounded at the lower and at the upper place, each with and
//            without the carry into G: four carry chains straight into registers of their
//            own. The place (`up`) and the carry come from stage 4's carry chains: choosing
//            among the sums before the registers (a LUT level and its nets before or after
//            a chain) does not fit 5 ns. The sums not taken, a constant result and NaN
//            clear their registers by the synchronous reset; a tie (nothing below the
//            guard, from the trailing zeros; the guard 0 after the increment) clears the
//            last bit; r ORs the four.
// The combinational logic of each stage is in submodules that Yosys keeps (keep_hierarchy):
// its LUT mapping (ABC) would otherwise deepen every short path of the design up to the
// longest one, through the carry chains, well past what a stage allows. The blocks are
// MULT18X18D primitives and the multiplexers of the shifters and of stage 2's `above` LUT4,
// PFUMX and L6MUX21 cells when Yosys synthesizes (SYNTHESIS defined), the same written
// behaviourally otherwise (simulation, lint, VICHLS_NO_VENDOR_PRIMITIVES).
module vichls_fmul_ecp5 (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    input wire [31:0] b,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 5;
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
    reg [9:0] esum1;                // the exponent fields' sum
    reg normal1;                    // no operand subnormal (s = the fields' sum, else + 1)
    reg sub1;                       // not normal1 (a register of its own: no inverter)
    reg [2:1] bytes_a1, bytes_b1;
    reg [8:0] bpos_a1, bpos_b1, tz8_a1, tz8_b1;
    reg [22:0] above_a1, above_b1;
    reg [5:0] z4_a1, z4_b1;
    reg top_a1, top_b1, hidden_a1, hidden_b1;
    // where to look in a subnormal operand's `above` for whether the result is subnormal,
    // from the other operand's exponent field
    wire [4:0] look_a, look_b;      // (look_a: for a subnormal, from b's field)
    vichls_fmul_ecp5_look look_of_a (.e(b[30:23]), .look(look_a));
    vichls_fmul_ecp5_look look_of_b (.e(a[30:23]), .look(look_b));
    reg [4:0] look_a1, look_b1;
    always @(posedge clk) begin
        if (ce) begin
            sign1 <= a[31] ^ b[31];
            nsum1 <= nexp_a + nexp_b;
            esum1 <= {2'b00, a[30:23]} + {2'b00, b[30:23]};
            normal1 <= hidden_a & hidden_b;
            sub1 <= ~(hidden_a & hidden_b);
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
            look_a1 <= look_a;
            look_b1 <= look_b;
        end
    end

    // ---- stage 2 -----------------------------------------------------------------------------
    // With s the effective exponent sum (a subnormal's field 0 counting as 1) and lz the
    // subnormal operand's leading zeros (0 if none): the lower place's biased exponent is
    // E = s - 127 - lz = (s - 150) + place, place = 23 - lz; G = max(place, 151 - s).
    wire [9:0] g_sub = nsum1 + 10'd152 + {9'd0, normal1};     // 151 - s
    wire [4:0] place;
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
    // a subnormal result (E <= 0) when a (b) is the subnormal operand: lz >= m, m the other
    // field - 126, i.e. no 1 in the fraction above place 23 - m (`above` at `look`)
    wire low_a, low_b;
    vichls_fmul_ecp5_low low_of_a (.above(above_a1), .look(look_a1), .low(low_a));
    vichls_fmul_ecp5_low low_of_b (.above(above_b1), .look(look_b1), .low(low_b));
    // s + c for the constants c of stage 3's comparisons (s = esum + !normal: one carry
    // chain each, the operand's bits constants or the registers normal1 / sub1)
    wire [9:0] base_lo, base_hi, base_ovf_lo, base_ovf_hi;
    vichls_fmul_ecp5_base #(.C(-150)) b_lo (.esum(esum1), .normal(normal1), .sub(sub1),
                                            .s_plus(base_lo));
    vichls_fmul_ecp5_base #(.C(-149)) b_hi (.esum(esum1), .normal(normal1), .sub(sub1),
                                            .s_plus(base_hi));
    vichls_fmul_ecp5_base #(.C(-405)) b_ovf_lo (.esum(esum1), .normal(normal1), .sub(sub1),
                                                .s_plus(base_ovf_lo));
    vichls_fmul_ecp5_base #(.C(-404)) b_ovf_hi (.esum(esum1), .normal(normal1), .sub(sub1),
                                                .s_plus(base_ovf_hi));

    reg [22:0] below_place2;
    reg [50:0] below_sub2;
    reg [9:0] g_sub2;               // 151 - s
    reg [9:0] base_lo2, base_hi2, base_ovf_lo2, base_ovf_hi2;
    reg low_a2, low_b2, low_n2;      // E <= 0 when a, b, neither is subnormal
    reg hidden_a2, hidden_b2;
    reg [4:0] place2;
    wire [4:0] place_e2;            // a copy for stage 3's exponent sums
    vichls_fmul_ecp5_greg #(.W(5), .COPY(30)) place_reg (.clk(clk), .ce(ce), .d(place),
                                                          .q(place_e2));
    reg [4:0] tz_a2, tz_b2;         // trailing zeros of the significands
    reg sign2, nan2, inf2, zero2;
    always @(posedge clk) begin
        if (ce) begin
            below_place2 <= below_place;
            below_sub2 <= below_sub;
            g_sub2 <= g_sub;
            base_lo2 <= base_lo;
            base_hi2 <= base_hi;
            base_ovf_lo2 <= base_ovf_lo;
            base_ovf_hi2 <= base_ovf_hi;
            low_a2 <= low_a;
            low_b2 <= low_b;
            low_n2 <= ~|esum1[9:7];    // s = the fields' sum <= 127
            hidden_a2 <= hidden_a1;
            hidden_b2 <= hidden_b1;
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
    // verilator lint_off UNUSEDSIGNAL
    wire [49:0] carry_x, carry_y;   // (bits 14 on used)
    // verilator lint_on UNUSEDSIGNAL
    wire [49:0] up_x, up_y;
    vichls_fmul_ecp5_rows rows (
        .x(x3), .y(y3), .hh(pp_hh), .xc(xc3), .yc(yc3), .below_place(below_place2),
        .below_sub(below_sub2[49:0]), .by32(below_sub2[31]), .t_bits(t_bits), .s(s_row),
        .xy(xy_row), .o(o_row), .carry_x(carry_x), .carry_y(carry_y), .up_x(up_x),
        .up_y(up_y));
    // the exponent at both places, its overflow, a subnormal result (E <= 0), G
    // verilator lint_off UNUSEDSIGNAL
    wire [9:0] e_lo = base_lo2 + {5'd0, place_e2};
    wire [9:0] e_hi = base_hi2 + {5'd0, place_e2};
    wire [9:0] e_ovf_lo = base_ovf_lo2 + {5'd0, place_e2};     // E - 255
    wire [9:0] e_ovf_hi = base_ovf_hi2 + {5'd0, place_e2};     // E + 1 - 255
    // verilator lint_on UNUSEDSIGNAL
    wire exp_low;
    wire [5:0] g;
    wire big;
    vichls_fmul_ecp5_guard guard (
        .hidden_a(hidden_a2), .hidden_b(hidden_b2), .low_a(low_a2), .low_b(low_b2),
        .low_n(low_n2), .g_sub(g_sub2), .place(place2), .exp_low(exp_low), .g(g), .big(big));

    reg [55:0] s3, xy3, o3;
    reg [49:14] carry_x3, carry_y3;
    reg [49:0] up_x3, up_y3;
    // G, and copies of it for stage 4's shifters (fewer loads on each net): G[4:2] eight
    // times, G[1:0] four times
    wire [5:0] g3;
    wire [23:0] g_shift3;
    wire [7:0] g_fine3;
    vichls_fmul_ecp5_greg #(.W(6), .COPY(0)) g_reg (.clk(clk), .ce(ce), .d(g), .q(g3));
    genvar k;
    generate
        for (k = 0; k < 8; k = k + 1) begin : shift_copies
            vichls_fmul_ecp5_greg #(.W(3), .COPY(1 + k)) g_reg (
                .clk(clk), .ce(ce), .d(g[4:2]), .q(g_shift3[3*k +: 3]));
        end
        for (k = 0; k < 4; k = k + 1) begin : fine_copies
            vichls_fmul_ecp5_greg #(.W(2), .COPY(9 + k)) g_reg (
                .clk(clk), .ce(ce), .d(g[1:0]), .q(g_fine3[2*k +: 2]));
        end
    endgenerate
    reg [7:0] field_lo3, field_hi3; // E, E + 1 (low 8 bits)
    reg below_lo3, below_hi3;       // exponent below 255 at that place (else overflow)
    reg [5:0] tz3;                  // trailing zeros of Q
    reg exp_low3, sign3, nan3, inf3, zero3;
    always @(posedge clk) begin
        if (ce) begin
            s3 <= s_row;
            xy3 <= xy_row;
            o3 <= o_row;
            carry_x3 <= carry_x[49:14];
            carry_y3 <= carry_y[49:14];
            up_x3 <= up_x;
            up_y3 <= up_y;
            field_lo3 <= e_lo[7:0];
            field_hi3 <= e_hi[7:0];
            below_lo3 <= e_ovf_lo[9];
            below_hi3 <= e_ovf_hi[9];
            tz3 <= {1'b0, tz_a2} + {1'b0, tz_b2} + 6'd1;
            exp_low3 <= exp_low;
            sign3 <= sign2;
            nan3 <= nan2;
            inf3 <= inf2;
            zero3 <= zero2 | big;
        end
    end

    // ---- stage 4 -----------------------------------------------------------------------------
    // verilator lint_off UNUSEDSIGNAL
    // (the rows' bits below 14 carry nothing: Y is 0 there, the partial products lh and hl
    // start at Q's place 13)
    wire [36:0] carry_sum = {1'b0, carry_x3} + {1'b0, carry_y3};
    wire [50:0] up_sum = {1'b0, up_x3} + {1'b0, up_y3};
    // verilator lint_on UNUSEDSIGNAL
    wire [27:0] s_step, xy_step;
    wire [4:0] o_step;
    vichls_fmul_ecp5_step coarse (.s(s3), .xy(xy3), .o(o3), .amount(g_shift3),
                                  .s_out(s_step), .xy_out(xy_step), .o_out(o_step));
    wire [24:0] s_g;
    wire [23:0] xy_g;
    wire [1:0] o_g, ns_g;
    vichls_fmul_ecp5_window window (.s(s_step), .xy(xy_step), .o(o_step), .shift(g_fine3),
                                    .s_g(s_g), .xy_g(xy_g), .o_g(o_g), .ns_g(ns_g));
    wire clear_up, clear_down;
    wire [7:0] field_up, field_down;
    vichls_fmul_ecp5_consts consts (
        .nan(nan3), .exp_low(exp_low3), .inf(inf3), .zero(zero3), .below_lo(below_lo3),
        .below_hi(below_hi3), .field_lo(field_lo3), .field_hi(field_hi3), .clear_up(clear_up),
        .clear_down(clear_down), .field_up(field_up), .field_down(field_down));

    reg [24:0] s4;
    reg [23:0] xy4;
    reg [1:0] o4, ns4;
    reg inexact_lo4, inexact_hi4;   // something below the guard at that place
    reg clear_up4, clear_down4;     // a constant result but NaN when up4 is 1, 0
    reg [7:0] field_up4, field_down4;
    reg carry4;                     // the carry into G of X + Y
    reg up4, exp_low4, nan4, sign4;
    always @(posedge clk) begin
        if (ce) begin
            s4 <= s_g;
            xy4 <= xy_g;
            o4 <= o_g;
            ns4 <= ns_g;
            inexact_lo4 <= tz3 < g3;
            inexact_hi4 <= tz3 <= g3;
            clear_up4 <= clear_up;
            clear_down4 <= clear_down;
            field_up4 <= field_up;
            field_down4 <= field_down;
            carry4 <= carry_sum[36];
            up4 <= up_sum[50];
            exp_low4 <= exp_low3;
            nan4 <= nan3;
            sign4 <= sign3 & ~nan3;
        end
    end

    // ---- stage 5 -----------------------------------------------------------------------------
    // {fraction, guard} + 1 at the guard at both places and for both values of the carry into
    // G, each in one carry chain straight into registers of its own (the carry, from stage
    // 4's long carry chain, only chooses among them), from the columns G on: the lower
    // place's guard column is S_G inverted (S_G + 1) with the carry into G, the next column
    // S + O (the guard column's carry); the upper place's guard column G + 1 gets XY_G and
    // the carry of the plain column G (S_G + the carry into G) from a column of its own
    // verilator lint_off UNUSEDSIGNAL
    wire [24:0] sum_lo0 = {1'b0, s4[23:1], ns4[0]} + {1'b0, xy4[22:1], o4[0], 1'b0};
    wire [24:0] sum_lo1 = {1'b0, s4[23:1], ns4[0]} + {1'b0, xy4[22:1], o4[0], 1'b1};
    wire [24:0] sum_up0 = {s4[24:2], ns4[1], s4[0]} + {xy4[23:2], o4[1], xy4[0], 1'b0};
    wire [24:0] sum_up1 = {s4[24:2], ns4[1], s4[0]} + {xy4[23:2], o4[1], xy4[0], 1'b1};
    // verilator lint_on UNUSEDSIGNAL
    // the sums not taken, a constant result and NaN clear their registers (a synchronous
    // reset, over `ce`: the clears include it); the last bits after the ties
    wire [3:0] clear_ce, last;      // lower 0, 1, upper 0, 1
    wire clear_first_ce;            // the lower place's (carry 0) last bit: NaN sets it
    wire [7:0] field;
    vichls_fmul_ecp5_round round (
        .ce(ce), .up(up4), .exp_low(exp_low4), .carry(carry4), .nan(nan4),
        .clear_up(clear_up4), .clear_down(clear_down4), .field_up(field_up4),
        .field_down(field_down4),
        .sums({sum_up1[2:1], sum_up0[2:1], sum_lo1[1:0], sum_lo0[1:0]}),
        .inexact_lo(inexact_lo4), .inexact_hi(inexact_hi4), .clear_ce(clear_ce),
        .clear_first_ce(clear_first_ce), .field(field), .last(last));

    reg [22:0] mant_lo05, mant_lo15, mant_up05, mant_up15;      // the fractions (or 0)
    reg [7:0] field5;
    reg sign5;
    always @(posedge clk) begin
        if (clear_ce[0]) mant_lo05[22:1] <= 22'd0;
        else if (ce) mant_lo05[22:1] <= sum_lo0[23:2];
        if (clear_first_ce) mant_lo05[0] <= 1'b0;
        else if (ce) mant_lo05[0] <= last[0];
        if (clear_ce[1]) mant_lo15 <= 23'd0;
        else if (ce) mant_lo15 <= {sum_lo1[23:2], last[1]};
        if (clear_ce[2]) mant_up05 <= 23'd0;
        else if (ce) mant_up05 <= {sum_up0[24:3], last[2]};
        if (clear_ce[3]) mant_up15 <= 23'd0;
        else if (ce) mant_up15 <= {sum_up1[24:3], last[3]};
        if (ce) begin
            field5 <= field;
            sign5 <= sign4;
        end
    end
    // the result: the fraction taken (the other registers hold 0; a NaN 7F800001), one LUT
    // level after the registers
    assign r = {sign5, field5, mant_lo05 | mant_lo15 | mant_up05 | mant_up15};
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

// Stage 1: for a subnormal operand against the other operand's exponent field e, with
// m = e - 126 (the result is subnormal when the subnormal's leading zeros in {0, fraction}
// lz >= m, i.e. no 1 in the fraction above place 23 - m): the place 23 - m of `above` to
// look at, 22 (always 0 there) when m <= 1, 23 (a 1) when m >= 24.
(* keep_hierarchy *)
module vichls_fmul_ecp5_look (
    input wire [7:0] e,
    output wire [4:0] look
);
    // 149 - e for e = 128 + v, v < 22; 23 for v >= 22 (logic on constants: no carry chain)
    function [4:0] ix;
        // verilator lint_off UNUSEDSIGNAL
        input integer k;
        // verilator lint_on UNUSEDSIGNAL
        begin
            ix = k[4:0];
        end
    endfunction
    function [4:0] place_of;
        input [4:0] v;
        integer k;
        begin
            place_of = 5'd23;
            for (k = 0; k < 22; k = k + 1) begin
                if ({27'd0, v} == k) place_of = ix(21 - k);
            end
        end
    endfunction
    assign look = ~e[7] ? 5'd22 : (e[6] | e[5]) ? 5'd23 : place_of(e[4:0]);
endmodule

// Stage 2: the leading-one tree's last level for the subnormal operand (a when a is
// subnormal, else b): 23 - lz = {byte, bit} of its leading one (23 when no operand is
// subnormal).
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

// Stage 2: the result is subnormal: no 1 in the fraction above place `look` (a 32:1
// multiplexer of two LUT levels, inverted).
(* keep_hierarchy *)
module vichls_fmul_ecp5_low (
    input wire [22:0] above,
    input wire [4:0] look,
    output wire low
);
    wire [31:0] table_of = {8'd0, 1'b1, above};
    wire [3:0] eighths;
    genvar k;
    generate
        for (k = 0; k < 4; k = k + 1) begin : parts
            vichls_ecp5_mux8 #(.INV(1)) mux (.d(table_of[8 * k +: 8]), .s(look[2:0]),
                                             .y(eighths[k]));
        end
    endgenerate
    vichls_ecp5_mux4 #(.INV(0)) mux (.d(eighths), .s(look[4:3]), .y(low));
endmodule

// Stage 2: s + C (s = esum + !normal, the effective exponent sum) in one carry chain: the
// second operand's bits are C's, C + 1's or, where they differ, normal / sub (= !normal,
// registers of their own: no inverter before the chain).
(* keep_hierarchy *)
module vichls_fmul_ecp5_base #(parameter integer C = 0) (
    input wire [9:0] esum,
    // verilator lint_off UNUSEDSIGNAL
    input wire normal,              // (not needed by every C)
    input wire sub,
    // verilator lint_on UNUSEDSIGNAL
    output wire [9:0] s_plus
);
    localparam integer C1 = C + 1;
    localparam [9:0] K0 = C[9:0];
    localparam [9:0] K1 = C1[9:0];
    wire [9:0] k;
    genvar i;
    generate
        for (i = 0; i < 10; i = i + 1) begin : bits
            if (K0[i] == K1[i]) begin : same
                assign k[i] = K0[i];
            end else if (K0[i]) begin : when_normal
                assign k[i] = normal;
            end else begin : when_sub
                assign k[i] = sub;
            end
        end
    endgenerate
    assign s_plus = esum + k;
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
// when by32 (G >= 32; from Q's place 38 on, taken from hh: four inputs, the register in the
// LUT's slice); the rows whose sum's carry out is the carry into G of X + Y (X below G with
// ones above, Y below G); the 3:2 row of X, Y and T = 2^G + 2^50 - 2^K, whose sum's carry
// out says X + Y + 2^G >= 2^K.
(* keep_hierarchy *)
module vichls_fmul_ecp5_rows (
    input wire [49:0] x,            // (for the frame)
    input wire [49:0] y,
    // verilator lint_off UNUSEDSIGNAL
    input wire [23:0] hh,           // (bits 13 on: Q's places 38 on)
    // verilator lint_on UNUSEDSIGNAL
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
    // from Q's place 38 on, X is hh and Y 0 (lh and hl end at place 36, their carries at
    // 37): there the rows shifted by 32 take hh's bits, four inputs a LUT
    genvar m;
    generate
        for (m = 0; m < 56; m = m + 1) begin : places
            if (m >= 50) begin : none
                assign s[m] = 1'b0;
                assign xy[m] = 1'b0;
                assign o[m] = 1'b0;
            end else if (m >= 17) begin : low_only
                assign s[m] = ~by32 & (x[m] ^ y[m]);
                assign xy[m] = ~by32 & x[m] & y[m];
                assign o[m] = ~by32 & (x[m] | y[m]);
            end else if (m >= 6) begin : from_hh
                assign s[m] = by32 ? hh[m + 7] : x[m] ^ y[m];
                assign xy[m] = ~by32 & x[m] & y[m];
                assign o[m] = by32 ? hh[m + 7] : x[m] | y[m];
            end else begin : both
                assign s[m] = by32 ? x[m + 32] ^ y[m + 32] : x[m] ^ y[m];
                assign xy[m] = by32 ? x[m + 32] & y[m + 32] : x[m] & y[m];
                assign o[m] = by32 ? x[m + 32] | y[m + 32] : x[m] | y[m];
            end
        end
    endgenerate
    wire [49:0] below_g = {27'd0, below_place} | below_sub;
    assign carry_x = xc | ~below_g;
    assign carry_y = yc & below_g;
    assign up_x = xc ^ yc ^ t_bits;
    assign up_y = {(t_bits[48:0] & (xc[48:0] | yc[48:0]))
                   | (~t_bits[48:0] & xc[48:0] & yc[48:0]), 1'b0};
endmodule

// Stage 3: whether the result is subnormal (E <= 0; from the operand that is subnormal, if
// any); G = max(23 - lz, 151 - s): 151 - s for a subnormal result, else 23 - lz; whether
// G >= 64 with a subnormal result (below half the smallest subnormal).
(* keep_hierarchy *)
module vichls_fmul_ecp5_guard (
    input wire hidden_a,
    input wire hidden_b,
    input wire low_a,
    input wire low_b,
    input wire low_n,
    input wire [9:0] g_sub,
    input wire [4:0] place,
    output wire exp_low,
    output wire [5:0] g,
    output wire big
);
    assign exp_low = hidden_a ? (hidden_b ? low_n : low_b) : low_a;
    assign g = exp_low ? g_sub[5:0] : {1'b0, place};
    assign big = exp_low & |g_sub[9:6];
endmodule

// A copy of registers (COPY tells the copies apart: Yosys merges none of them, and each
// drives a share of the loads).
(* keep_hierarchy *)
module vichls_fmul_ecp5_greg #(parameter integer W = 1, parameter integer COPY = 0) (
    input wire clk,
    input wire ce,
    input wire [W-1:0] d,
    output reg [W-1:0] q
);
    // verilator lint_off UNUSEDPARAM
    localparam integer C = COPY;
    // verilator lint_on UNUSEDPARAM
    always @(posedge clk) begin
        if (ce) q <= d;
    end
endmodule

// Stage 4: S, X & Y, O from place 4 * G[4:2] on: one 8:1 multiplexer per bit (a LUT level
// with the slices' own wide multiplexers); `amount` holds eight copies of G[4:2], each
// driving an eighth of the multiplexers.
(* keep_hierarchy *)
module vichls_fmul_ecp5_step (
    input wire [55:0] s,
    input wire [55:0] xy,
    // verilator lint_off UNUSEDSIGNAL
    input wire [55:0] o,            // (bits 33 on not needed)
    // verilator lint_on UNUSEDSIGNAL
    input wire [23:0] amount,
    output wire [27:0] s_out,
    output wire [27:0] xy_out,
    output wire [4:0] o_out
);
    genvar i, j;
    generate
        for (i = 0; i < 28; i = i + 1) begin : bits
            wire [7:0] ds, dxy;
            for (j = 0; j < 8; j = j + 1) begin : taps
                assign ds[j] = s[i + 4 * j];
                assign dxy[j] = xy[i + 4 * j];
            end
            vichls_ecp5_mux8 #(.INV(0)) mux_s (.d(ds), .s(amount[3 * (i % 8) +: 3]),
                                               .y(s_out[i]));
            vichls_ecp5_mux8 #(.INV(0)) mux_xy (.d(dxy), .s(amount[3 * ((i + 4) % 8) +: 3]),
                                                .y(xy_out[i]));
        end
        for (i = 0; i < 5; i = i + 1) begin : o_bits
            wire [7:0] d_o;
            for (j = 0; j < 8; j = j + 1) begin : taps
                assign d_o[j] = o[i + 4 * j];
            end
            vichls_ecp5_mux8 #(.INV(0)) mux_o (.d(d_o), .s(amount[3 * ((i + 2) % 8) +: 3]),
                                               .y(o_out[i]));
        end
    endgenerate
endmodule

// Stage 4: the window from G on: S, X & Y and O shifted right by G[1:0] (one 4:1 multiplexer
// per bit: a LUT level with the slice's multiplexer), and S at G and G + 1 inverted (the
// rounding 1 of the guard columns); `shift` holds four copies of G[1:0].
(* keep_hierarchy *)
module vichls_fmul_ecp5_window (
    // verilator lint_off UNUSEDSIGNAL
    input wire [27:0] s,
    input wire [27:0] xy,
    // verilator lint_on UNUSEDSIGNAL
    input wire [4:0] o,
    input wire [7:0] shift,
    output wire [24:0] s_g,         // from G on
    output wire [23:0] xy_g,
    output wire [1:0] o_g,
    output wire [1:0] ns_g          // ~s_g[1:0]
);
    genvar i;
    generate
        for (i = 0; i < 25; i = i + 1) begin : s_bits
            vichls_ecp5_mux4 #(.INV(0)) mux_s (.d(s[i +: 4]), .s(shift[2 * (i % 4) +: 2]),
                                               .y(s_g[i]));
        end
        for (i = 0; i < 24; i = i + 1) begin : xy_bits
            vichls_ecp5_mux4 #(.INV(0)) mux_xy (.d(xy[i +: 4]),
                                                .s(shift[2 * ((i + 2) % 4) +: 2]),
                                                .y(xy_g[i]));
        end
        for (i = 0; i < 2; i = i + 1) begin : o_bits
            vichls_ecp5_mux4 #(.INV(0)) mux_o (.d(o[i +: 4]), .s(shift[2 * ((i + 1) % 4) +: 2]),
                                               .y(o_g[i]));
            vichls_ecp5_mux4 #(.INV(1)) mux_ns (.d(s[i +: 4]),
                                                .s(shift[2 * ((i + 3) % 4) +: 2]),
                                                .y(ns_g[i]));
        end
    endgenerate
endmodule

// Stage 4: the result's constants for both values of `up`.
(* keep_hierarchy *)
module vichls_fmul_ecp5_consts (
    input wire nan,
    input wire exp_low,
    input wire inf,
    input wire zero,
    input wire below_lo,            // the exponent below 255 at the lower, upper place
    input wire below_hi,
    input wire [7:0] field_lo,
    input wire [7:0] field_hi,
    output wire clear_up,           // a constant result but NaN (up = 1, 0): fraction 0
    output wire clear_down,
    output wire [7:0] field_up,
    output wire [7:0] field_down
);
    wire ovf_lo = ~below_lo;
    wire ovf_hi = ~below_hi;
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

// Stage 5: the clearing of each sum's registers (a synchronous reset with `ce`): the sums
// not taken (the upper place is taken by a normal result whose significand rounded at the
// lower place reaches 2^24; for a subnormal result `up` is instead the rounded result's
// hidden bit: the exponent field 1, the smallest normal), a constant result, NaN (but the
// last bit of the lower place's sum without carry, which NaN sets); the exponent field; the
// last bits, cleared by a tie (the guard 1 before the increment, so 0 after it, and nothing
// below it: round to even).
(* keep_hierarchy *)
module vichls_fmul_ecp5_round (
    input wire ce,
    input wire up,
    input wire exp_low,
    input wire carry,
    input wire nan,
    input wire clear_up,
    input wire clear_down,
    input wire [7:0] field_up,
    input wire [7:0] field_down,
    input wire [7:0] sums,          // {last bit, guard} of each sum (lower 0, 1, upper 0, 1)
    input wire inexact_lo,
    input wire inexact_hi,
    output wire [3:0] clear_ce,
    output wire clear_first_ce,
    output wire [7:0] field,
    output wire [3:0] last
);
    wire upper = up & ~exp_low;
    wire clear = up ? clear_up : clear_down;
    wire [3:0] taken = {upper & carry, upper & ~carry, ~upper & carry, ~upper & ~carry};
    assign clear_ce = {4{ce}} & ({4{clear | nan}} | ~taken);
    assign clear_first_ce = ce & (clear | (~taken[0] & ~nan));
    assign field = up ? field_up : field_down;
    // (modules of their own: one LUT after the carry chains' low bits)
    genvar k;
    generate
        for (k = 0; k < 4; k = k + 1) begin : lasts
            vichls_fmul_ecp5_last last_of (.set(k == 0 ? nan : 1'b0), .sum(sums[2 * k +: 2]),
                                           .inexact(k < 2 ? inexact_lo : inexact_hi),
                                           .last(last[k]));
        end
    endgenerate
endmodule

(* keep_hierarchy *)
module vichls_fmul_ecp5_last (
    input wire set,
    input wire [1:0] sum,
    input wire inexact,
    output wire last
);
    assign last = set | (sum[1] & (sum[0] | inexact));
endmodule

// A 4:1 multiplexer y = d[s] (inverted when INV): on the ECP5 two LUT4s (2:1 each) and the
// slice's PFUMX, one LUT level; written behaviourally otherwise.
module vichls_ecp5_mux4 #(parameter INV = 0) (
    input wire [3:0] d,
    input wire [1:0] s,
    output wire y
);
`ifdef VICHLS_NO_VENDOR_PRIMITIVES
    assign y = d[s] ^ (INV != 0);
`elsif SYNTHESIS
    // Z = A ? B : C (INIT D8), inverted 27
    localparam [15:0] MUX2 = (INV != 0) ? 16'h2727 : 16'hD8D8;
    wire lo, hi;
    LUT4 #(.INIT(MUX2)) lut_lo (.A(s[0]), .B(d[1]), .C(d[0]), .D(1'b0), .Z(lo));
    LUT4 #(.INIT(MUX2)) lut_hi (.A(s[0]), .B(d[3]), .C(d[2]), .D(1'b0), .Z(hi));
    PFUMX mux (.ALUT(hi), .BLUT(lo), .C0(s[1]), .Z(y));
`else
    assign y = d[s] ^ (INV != 0);
`endif
endmodule

// An 8:1 multiplexer y = d[s]: on the ECP5 two slices' 4:1 multiplexers and an L6MUX21, one
// LUT level; written behaviourally otherwise.
module vichls_ecp5_mux8 #(parameter INV = 0) (
    input wire [7:0] d,
    input wire [2:0] s,
    output wire y
);
`ifdef VICHLS_NO_VENDOR_PRIMITIVES
    assign y = d[s] ^ (INV != 0);
`elsif SYNTHESIS
    wire lo, hi;
    vichls_ecp5_mux4 #(.INV(INV)) mux_lo (.d(d[3:0]), .s(s[1:0]), .y(lo));
    vichls_ecp5_mux4 #(.INV(INV)) mux_hi (.d(d[7:4]), .s(s[1:0]), .y(hi));
    L6MUX21 mux (.D0(lo), .D1(hi), .SD(s[2]), .Z(y));
`else
    assign y = d[s] ^ (INV != 0);
`endif
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
