// vichls primitive: vichls_mul for a Lattice ECP5 (--device ecp5), low WIDTH bits of a*b
// (WIDTH <= 36), LATENCY 1 or 2 register stages counted in cycles with the clock enable `ce`
// high, exactly as vichls_mul. OPERAND_WIDTH below WIDTH says that the bits of a and b above
// it are zero: with at most 18 such bits, one block makes the whole product. The first
// stage is the output register inside the MULT18X18D blocks: Yosys synth_ecp5 maps a product onto the block without packing a fabric register
// that follows it, so the register-to-register path through the block would be the
// block's whole delay plus two nets (about 7.5 ns, under 140 MHz). Operands wider than 18
// bits are split into halves (unsigned, so the low WIDTH bits are right for both
// signednesses): three partial products, summed after the first stage as in vichls_mul
// (only the upper half of the sum needs an adder).
// Synthesis (Yosys defines SYNTHESIS) instantiates the blocks; simulation, lint and any
// flow that defines VICHLS_NO_VENDOR_PRIMITIVES use the behavioural register instead.
module vichls_mul_ecp5 #(parameter WIDTH = 32, parameter LATENCY = 2,
                         parameter OPERAND_WIDTH = WIDTH) (
    input wire clk,
    input wire ce,
    input wire [WIDTH-1:0] a,
    input wire [WIDTH-1:0] b,
    output wire [WIDTH-1:0] p
);
    localparam EVEN = WIDTH + (WIDTH % 2);  // an odd width multiplies one bit wider
    localparam HALF = EVEN / 2;
    wire [WIDTH-1:0] product;
    generate
        if (WIDTH <= 18) begin : single
            vichls_ecp5_mult18 #(.AW(WIDTH), .BW(WIDTH), .PW(WIDTH)) block (
                .clk(clk), .ce(ce), .a(a), .b(b), .p(product));
        end else if (OPERAND_WIDTH <= 18) begin : narrow
            // operands zero-extended from OPERAND_WIDTH bits: one block holds the product
            vichls_ecp5_mult18 #(.AW(OPERAND_WIDTH), .BW(OPERAND_WIDTH), .PW(WIDTH)) block (
                .clk(clk), .ce(ce), .a(a[OPERAND_WIDTH-1:0]), .b(b[OPERAND_WIDTH-1:0]),
                .p(product));
            // verilator lint_off UNUSED
            wire unused_zero_bits = &{1'b0, a[WIDTH-1:OPERAND_WIDTH], b[WIDTH-1:OPERAND_WIDTH]};
            // verilator lint_on UNUSED
        end else begin : halves
            wire [EVEN-1:0] a_even;
            wire [EVEN-1:0] b_even;
            wire [EVEN-1:0] low_low;   // a_low * b_low
            wire [HALF-1:0] high_low;  // a_high * b_low, the bits that land below EVEN
            wire [HALF-1:0] low_high;  // a_low * b_high, likewise
            vichls_ecp5_mult18 #(.AW(HALF), .BW(HALF), .PW(EVEN)) ll (
                .clk(clk), .ce(ce), .a(a_even[HALF-1:0]), .b(b_even[HALF-1:0]), .p(low_low));
            vichls_ecp5_mult18 #(.AW(HALF), .BW(HALF), .PW(HALF)) hl (
                .clk(clk), .ce(ce), .a(a_even[EVEN-1:HALF]), .b(b_even[HALF-1:0]), .p(high_low));
            vichls_ecp5_mult18 #(.AW(HALF), .BW(HALF), .PW(HALF)) lh (
                .clk(clk), .ce(ce), .a(a_even[HALF-1:0]), .b(b_even[EVEN-1:HALF]), .p(low_high));
            // the low half is low_low's alone: only the upper half is added (a
            // three-input adder half as long as the product)
            wire [HALF-1:0] upper = low_low[EVEN-1:HALF] + high_low + low_high;
            wire [EVEN-1:0] sum = {upper, low_low[HALF-1:0]};
            if (EVEN != WIDTH) begin : odd
                assign a_even = {1'b0, a};
                assign b_even = {1'b0, b};
                // verilator lint_off UNUSED
                wire unused_top_bit = sum[EVEN-1];
                // verilator lint_on UNUSED
            end else begin : even
                assign a_even = a;
                assign b_even = b;
            end
            assign product = sum[WIDTH-1:0];
        end
        if (LATENCY == 1) begin : direct
            assign p = product;
        end else begin : summed
            reg [WIDTH-1:0] stage;  // the sum of the partial products, registered
            always @(posedge clk) if (ce) stage <= product;
            assign p = stage;
        end
    endgenerate
endmodule

// One MULT18X18D with its output register: p (PW <= 36 bits) is the low bits of the
// unsigned product of a (AW <= 18) and b (BW <= 18) presented in the last cycle `ce` was high.
module vichls_ecp5_mult18 #(parameter AW = 18, parameter BW = 18, parameter PW = 36) (
    input wire clk,
    input wire ce,
    input wire [AW-1:0] a,
    input wire [BW-1:0] b,
    output wire [PW-1:0] p
);
`ifdef VICHLS_NO_VENDOR_PRIMITIVES
    reg [PW-1:0] registered;
    always @(posedge clk) if (ce) registered <= a * b;
    assign p = registered;
`elsif SYNTHESIS
    wire [17:0] a18 = a;  // zero-extended: the block multiplies unsigned
    wire [17:0] b18 = b;
    wire [35:0] p36;
    MULT18X18D #(.REG_OUTPUT_CLK("CLK0"), .REG_OUTPUT_CE("CE0"), .REG_OUTPUT_RST("RST0"))
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
    reg [PW-1:0] registered;
    always @(posedge clk) if (ce) registered <= a * b;
    assign p = registered;
`endif
endmodule
