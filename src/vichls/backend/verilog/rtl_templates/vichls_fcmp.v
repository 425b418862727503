// vichls primitive: float32 (IEEE-754 binary32) comparison with the semantics of MLIR's
// arith.cmpf: r = 1 when `a PREDICATE b` holds. LATENCY = 0 (combinational: r follows a
// and b in the same cycle; clk and ce are there for the common interface and unused).
// Parameter PREDICATE, numbered as arith.cmpf's CmpFPredicate:
//   0 false, 1 oeq, 2 ogt, 3 oge, 4 olt, 5 ole, 6 one, 7 ord,
//   8 ueq, 9 ugt, 10 uge, 11 ult, 12 ule, 13 une, 14 uno, 15 true.
// An ordered predicate is false when a or b is a NaN, an unordered one true. +0 and -0 are
// equal; subnormals are ordinary numbers (no flush to zero). The ordering of two non-NaN
// values comes from the magnitudes (exponent and fraction fields concatenated order like
// the values they encode), compared as 31-bit integers, and the two signs. Each test is a
// comparison on its own carry chain (no logic before it) and one LUT combines the few that
// the predicate needs: the chains run side by side, so r is one carry chain and one LUT
// deep.
module vichls_fcmp #(parameter PREDICATE = 1) (
    /* verilator lint_off UNUSED */
    input wire clk,
    input wire ce,
    /* verilator lint_on UNUSED */
    input wire [31:0] a,
    input wire [31:0] b,
    output wire r
);
    /* verilator lint_off UNUSEDPARAM */
    localparam LATENCY = 0;  // combinational
    /* verilator lint_on UNUSEDPARAM */

    // x < y for 33-bit x and y: the borrow out of x - y, the top sum bit of a 34-bit
    // subtraction (one carry chain)
    function less_than_33(input [32:0] x, input [32:0] y);
        /* verilator lint_off UNUSED */
        reg [33:0] difference;  // only the borrow is read
        /* verilator lint_on UNUSED */
        begin
            difference = {1'b0, x} - {1'b0, y};
            less_than_33 = difference[33];
        end
    endfunction

    wire sign_a = a[31];
    wire sign_b = b[31];
    wire [30:0] mag_a = a[30:0];
    wire [30:0] mag_b = b[30:0];

    // Every test is one comparison on a carry chain, x < y read as the borrow out of the
    // subtraction x - y (the chain's top sum bit: no logic after the chain but the final
    // LUT), with operands that are bits of a and b or constants (no logic before the chain);
    // one LUT after the chains combines them. A sign condition that gates a magnitude
    // comparison goes into it as a top bit: {s, p} < {0, q} is false when s = 1 and p < q
    // when s = 0; {1, p} < {s, q} is p < q when s = 1 and false when s = 0.
    // a or b a NaN: its magnitude above that of infinity
    wire nan_a = less_than_33({2'b00, 31'h7F800000}, {2'b00, mag_a});
    wire nan_b = less_than_33({2'b00, 31'h7F800000}, {2'b00, mag_b});
    // a < b for non-NaN operands (+0 and -0 equal):
    //   ~sb & |a| < |b|  |  sa & |b| < |a|  |  sa & ~sb & (|a| != 0 | |b| != 0)
    // where, sa & ~sb, a value pair that is not +-0 has |a| < |b|, |b| < |a| or |a| != 0,
    // so the last term is sa & ~sb & |a| != 0 beside the first two
    wire lt_pos = less_than_33({1'b0, sign_b, mag_a}, {2'b00, mag_b});
    wire lt_neg = less_than_33({2'b01, mag_b}, {1'b0, sign_a, mag_a});
    wire lt_mixed = less_than_33({sign_b, 1'b1, 31'd0}, {1'b0, sign_a, mag_a});
    wire less = lt_pos | lt_neg | lt_mixed;
    // a > b likewise, a and b swapped
    wire gt_pos = less_than_33({1'b0, sign_a, mag_b}, {2'b00, mag_a});
    wire gt_neg = less_than_33({2'b01, mag_a}, {1'b0, sign_b, mag_b});
    wire gt_mixed = less_than_33({sign_a, 1'b1, 31'd0}, {1'b0, sign_b, mag_b});
    wire greater = gt_pos | gt_neg | gt_mixed;
    // a == b for non-NaN operands: the same bits, or both zero; when a and b have the same
    // bits only one of them needs the NaN test
    wire bits_lt = less_than_33({1'b0, a}, {1'b0, b});
    wire bits_gt = less_than_33({1'b0, b}, {1'b0, a});
    wire a_nonzero = less_than_33(33'd0, {2'b00, mag_a});
    wire b_nonzero = less_than_33(33'd0, {2'b00, mag_b});
    wire same_bits = ~bits_lt & ~bits_gt;
    wire both_zero = ~a_nonzero & ~b_nonzero;
    wire unordered = nan_a | nan_b;

    reg result;
    always @(*) begin
        case (PREDICATE)
            0: result = 1'b0;
            1: result = (same_bits & ~nan_a) | both_zero;                 // oeq
            2: result = ~unordered & greater;                             // ogt
            3: result = ~unordered & ~less;                               // oge
            4: result = ~unordered & less;                                // olt
            5: result = ~unordered & ~greater;                            // ole
            6: result = ~unordered & ~same_bits & ~both_zero;             // one
            7: result = ~unordered;                                       // ord
            8: result = unordered | same_bits | both_zero;                // ueq
            9: result = unordered | greater;                              // ugt
            10: result = unordered | ~less;                               // uge
            11: result = unordered | less;                                // ult
            12: result = unordered | ~greater;                            // ule
            13: result = ~((same_bits & ~nan_a) | both_zero);             // une
            14: result = unordered;                                       // uno
            default: result = 1'b1;
        endcase
    end
    assign r = result;
endmodule
