// vichls primitive: IEEE-754 binary32 multiplication r = a * b, rounded to nearest even, fully
// pipelined. LATENCY = 4: operands presented in a cycle with the clock enable `ce` high give
// r 4 enabled cycles later (r is the last pipeline register, no logic after it). Subnormal
// operands and results are exact (no flush to zero); the sign of a zero or infinite result
// is the xor of the operands' signs; overflow gives an infinity; 0 * inf and any NaN
// operand give the quiet NaN 32'h7FC00000.
//
//   stage 1: the significands (with their hidden bits) into the multiplier's operand
//            registers; the leading zeros of a subnormal operand's significand, the
//            trailing zeros of both, the sum of the exponent fields.
//   stage 2: the 24 x 24 product of the registered significands into a registered
//            product (a plain `*`: DSP blocks); meanwhile the exponent E the result has
//            when the product's leading one is the lower of its two possible places, and
//            the right shift r that brings the product's significand to bits 23:0 then
//            (23 - lz, or more for a subnormal result: no separate normalization of a
//            subnormal operand).
//            Also the exponent fields (or the constant result: NaN, infinity, zero,
//            overflow) for both places.
//   stage 3: the product shifted right by r (one bit more kept on both ends: the upper
//            place's window too); the sticky bits of both windows from the trailing zeros
//            (the product's are the operands' summed), not from the shifted-out bits.
//   stage 4: {exponent field, significand, guard} + 1 for the window the leading one picks:
//            round half up with no carry to wait for before the sum (a significand carry
//            rounds into the exponent, up to infinity; a subnormal's hidden bit 0 keeps the
//            field 0), then a tie clears the last bit.
// On a Lattice ECP5 Yosys maps the product onto MULT18X18D blocks without their registers:
// that stage is then the slowest by far (the blocks and the adders of their pieces).
module vichls_fmul (
    input wire clk,
    input wire ce,
    input wire [31:0] a,
    input wire [31:0] b,
    output wire [31:0] r
);
    // verilator lint_off UNUSEDPARAM
    localparam LATENCY = 4;
    // verilator lint_on UNUSEDPARAM

    // leading zeros of a 24-bit significand, as a tree of nibble counts (a priority chain
    // would be 24 levels deep)
    function [4:0] lzc24;
        input [23:0] m;
        reg [5:0] z4;       // nibble j all zero
        reg [11:0] c4;      // leading zeros within nibble j (2 bits each)
        reg [8:0] c8;       // 3 bits per byte
        integer j;
        begin
            for (j = 0; j < 6; j = j + 1) begin
                z4[j] = ~|m[4*j +: 4];
                c4[2*j +: 2] = m[4*j+3] ? 2'd0 : m[4*j+2] ? 2'd1 : m[4*j+1] ? 2'd2 : 2'd3;
            end
            for (j = 0; j < 3; j = j + 1)
                c8[3*j +: 3] = z4[2*j+1] ? {1'b1, c4[4*j +: 2]} : {1'b0, c4[4*j+2 +: 2]};
            // bytes 2 and 1 all zero, or byte 2
            lzc24 = (z4[5] & z4[4]) ? ((z4[3] & z4[2]) ? {2'b10, c8[2:0]} : {2'b01, c8[5:3]})
                                    : {2'b00, c8[8:6]};
        end
    endfunction

    // trailing zeros of a nonzero 24-bit significand, the same tree from the other end
    function [4:0] tzc24;
        input [23:0] m;
        reg [5:0] z4;
        reg [11:0] c4;
        reg [8:0] c8;
        integer j;
        begin
            for (j = 0; j < 6; j = j + 1) begin
                z4[j] = ~|m[4*j +: 4];
                c4[2*j +: 2] = m[4*j] ? 2'd0 : m[4*j+1] ? 2'd1 : m[4*j+2] ? 2'd2 : 2'd3;
            end
            for (j = 0; j < 3; j = j + 1)
                c8[3*j +: 3] = z4[2*j] ? {1'b1, c4[4*j+2 +: 2]} : {1'b0, c4[4*j +: 2]};
            tzc24 = (z4[0] & z4[1]) ? ((z4[2] & z4[3]) ? {2'b10, c8[8:6]} : {2'b01, c8[5:3]})
                                    : {2'b00, c8[2:0]};
        end
    endfunction

    // ---- stage 1: unpack ---------------------------------------------------------------
    wire [7:0] exp_a = a[30:23];
    wire [7:0] exp_b = b[30:23];
    wire hidden_a = |exp_a;  // 0: zero or subnormal
    wire hidden_b = |exp_b;
    wire [23:0] sig_a = {hidden_a, a[22:0]};
    wire [23:0] sig_b = {hidden_b, b[22:0]};

    reg [23:0] sig_a1, sig_b1;    // the multiplier's operands
    reg [8:0] exp_sum1;           // exp_a + exp_b (raw fields)
    reg one_subnormal1;           // exactly one operand zero or subnormal (counts at 1)
    reg [4:0] lz_a1, lz_b1;       // leading zeros of the significands taken as subnormal
    reg [4:0] tz_a1, tz_b1;
    reg a_top1, b_top1, a_frac_zero1, b_frac_zero1, a_low1, b_low1;
    reg sign1;
    always @(posedge clk) begin
        if (ce) begin
            sig_a1 <= sig_a;
            sig_b1 <= sig_b;
            exp_sum1 <= {1'b0, exp_a} + {1'b0, exp_b};
            one_subnormal1 <= hidden_a ^ hidden_b;
            // (the counts do not wait for the hidden bits)
            lz_a1 <= lzc24({1'b0, a[22:0]});
            lz_b1 <= lzc24({1'b0, b[22:0]});
            tz_a1 <= tzc24(sig_a);
            tz_b1 <= tzc24(sig_b);
            a_top1 <= &exp_a;
            b_top1 <= &exp_b;
            a_frac_zero1 <= ~|a[22:0];
            b_frac_zero1 <= ~|b[22:0];
            a_low1 <= ~hidden_a;
            b_low1 <= ~hidden_b;
            sign1 <= a[31] ^ b[31];
        end
    end

    // ---- stage 2: the product; exponent and shift ----------------------------------------
    wire [47:0] product = sig_a1 * sig_b1;
    // the leading zeros of the subnormal operand's significand (0 if none)
    wire [4:0] lead_zeros1 = (a_low1 ? lz_a1 : 5'd0) | (b_low1 ? lz_b1 : 5'd0);
    // The effective exponent sum (a subnormal counts at exponent 1) is exp_sum1 +
    // one_subnormal1 (with two subnormals the result is zero anyway). With lz leading zeros
    // the product's leading one is at bit 47 - lz or 46 - lz; at 46 - lz the biased
    // exponent is E = sum - 127 - lz.
    wire [9:0] sub_e = 10'd127 + {5'd0, lead_zeros1} - {9'd0, one_subnormal1};
    wire [9:0] exp_lo = {1'b0, exp_sum1} - sub_e;
    // verilator lint_off UNUSEDSIGNAL
    wire [9:0] exp_lo_less = {1'b0, exp_sum1} - (sub_e + 10'd1);  // E - 1: its sign is E <= 0
    // verilator lint_on UNUSEDSIGNAL
    // the right shift bringing the significand to bits 23:0: 23 - lz for E >= 1; for a
    // subnormal result 23 - lz + 1 - E = 151 - sum (the exponent's place, whatever lz)
    wire [9:0] shift_sub = (10'd151 - {9'd0, one_subnormal1}) - {1'b0, exp_sum1};
    wire [4:0] shift_norm = 5'd23 - lead_zeros1;
    wire [5:0] tz_sum = {1'b0, tz_a1} + {1'b0, tz_b1};
    // special operands
    wire a_nan = a_top1 & ~a_frac_zero1;
    wire b_nan = b_top1 & ~b_frac_zero1;
    wire a_inf = a_top1 & a_frac_zero1;
    wire b_inf = b_top1 & b_frac_zero1;
    wire a_zero = a_low1 & a_frac_zero1;
    wire b_zero = b_low1 & b_frac_zero1;

    // r, capped at 63 (everything shifted out)
    wire exp_low = exp_lo_less[9];
    wire [5:0] shift = ~exp_low ? {1'b0, shift_norm} : |shift_sub[9:6] ? 6'd63 : shift_sub[5:0];
    // exponent field less the hidden bit: E - 1 at the lower place, E at the upper (0 for
    // E <= 0; then the window's hidden bit makes it 1 or leaves 0)
    wire [7:0] field_lo = exp_low ? 8'd0 : exp_lo_less[7:0];
    wire [7:0] field_hi = exp_lo[9] ? 8'd0 : exp_lo[7:0];
    // exponent 255 or more before rounding
    wire overflow_lo = ~exp_lo[9] & (exp_lo[8] | &exp_lo[7:0]);
    wire overflow_hi = ~exp_lo[9] & (exp_lo[8] | &exp_lo[7:1]);
    wire nan = a_nan | b_nan | (a_inf & b_zero) | (b_inf & a_zero);
    wire inf = a_inf | b_inf;
    // two subnormals: a product below 2^-252, rounded to zero
    wire zero = a_zero | b_zero | (a_low1 & b_low1);
    // NaN, infinity (an operand, or an exponent of 255 or more before rounding), zero: a
    // constant result
    wire force_lo = nan | inf | zero | overflow_lo;
    wire force_hi = nan | inf | zero | overflow_hi;
    wire [30:0] const_mag = nan ? 31'h7FC00000 : (inf | ~zero) ? 31'h7F800000 : 31'd0;

    reg [47:0] product2;
    reg exp_lo_low2;              // E <= 0: a subnormal result (or zero)
    reg [5:0] shift2;
    reg [5:0] tz_sum2;
    reg [31:0] high_lo2, high_hi2;  // the final sum's first operand for each place
    reg force_lo2, force_hi2;
    reg nan2, sign2;
    always @(posedge clk) begin
        if (ce) begin
            product2 <= product;
            exp_lo_low2 <= exp_low;
            shift2 <= shift;
            tz_sum2 <= tz_sum;
            // {field, 24 zeros}, or the constant result
            high_lo2 <= force_lo ? {const_mag, 1'b0} : {field_lo, 24'd0};
            high_hi2 <= force_hi ? {const_mag, 1'b0} : {field_hi, 24'd0};
            force_lo2 <= force_lo;
            force_hi2 <= force_hi;
            nan2 <= nan;
            sign2 <= sign1;
        end
    end

    // ---- stage 3: the windows ----------------------------------------------------------------
    // window[k] = product[r + k - 1]: the lower place's significand is window[24:1] (guard
    // window[0]), the upper place's window[25:2] (guard window[1]); with E <= 0 only the
    // lower one counts (both places give the same subnormal window). Shifted by
    // 16 * r[5:4], 4 * r[3:2], then r[1:0] (4:1 multiplexers).
    // verilator lint_off UNUSEDSIGNAL
    wire [48:0] by16 = {product2, 1'b0} >> {shift2[5:4], 4'b0000};
    wire [40:0] by4 = by16[40:0] >> {shift2[3:2], 2'b00};
    wire [28:0] by1 = by4[28:0] >> shift2[1:0];
    // verilator lint_on UNUSEDSIGNAL
    wire [25:0] window = by1[25:0];
    // sticky: some product bit below the guard, that is the product's trailing zeros
    // (tz_a + tz_b) below r - 1 (lower place) or r (upper place)
    wire [6:0] gap = {1'b0, shift2} + {1'b0, ~tz_sum2};   // r - tz - 1 + 64
    wire sticky_hi = gap[6];                              // r - tz - 1 >= 0
    wire sticky_lo = gap[6] & |gap[5:0];                  // r - tz - 2 >= 0

    reg [25:0] window3;
    reg exact_hi3, exact_lo3;     // nothing below the guard (and no constant) at each place
    reg upper_ok3;                // E >= 1: the upper place is one bit above the lower
    reg [31:0] high_lo3, high_hi3;
    reg force_lo3, force_hi3;
    reg nan3, sign3;
    always @(posedge clk) begin
        if (ce) begin
            window3 <= window;
            exact_hi3 <= ~sticky_hi & ~force_hi2;
            exact_lo3 <= ~sticky_lo & ~force_lo2;
            upper_ok3 <= ~exp_lo_low2;
            high_lo3 <= high_lo2;
            high_hi3 <= high_hi2;
            force_lo3 <= force_lo2;
            force_hi3 <= force_hi2;
            nan3 <= nan2;
            sign3 <= sign2;
        end
    end

    // ---- stage 4: round ------------------------------------------------------------------------
    wire upper = upper_ok3 & window3[25];   // the leading one is at the upper place
    // (a forced constant has all its bits in the first operand)
    wire [24:0] low_hi = force_hi3 ? 25'd0 : {window3[25:2], window3[1]};
    wire [24:0] low_lo = force_lo3 ? 25'd0 : {window3[24:1], window3[0]};
    // {field, 23 zeros, 0} + {significand, guard} + 1 (half a unit in the last place, the
    // carry in): round half up in bits 31:1, no carry to wait for before the sum; the
    // hidden bit adds 1 to the field. A tie (guard and nothing below) then clears the last
    // bit (round half to even), which comes out of the sum's first cells.
    wire [31:0] high_part = upper ? high_hi3 : high_lo3;
    wire [31:0] low_part = {7'd0, upper ? low_hi : low_lo};
    // verilator lint_off UNUSEDSIGNAL
    wire [31:0] rounded = high_part + low_part + 32'd1;  // (bit 0: below the last bit)
    // verilator lint_on UNUSEDSIGNAL
    wire tie = upper ? window3[1] & exact_hi3 : window3[0] & exact_lo3;
    wire [30:0] magnitude = {rounded[31:2], rounded[1] & ~tie};

    reg [31:0] result4;
    always @(posedge clk) begin
        if (ce) result4 <= {sign3 & ~nan3, magnitude};
    end
    assign r = result4;
endmodule
