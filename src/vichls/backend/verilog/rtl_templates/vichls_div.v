// vichls primitive: iterative restoring divider with MLIR divsi/divui/remsi/remui
// semantics (quotient rounded toward zero, remainder with the dividend's sign).
// Operands presented with `start` in cycle N; quotient and remainder are valid from cycle
// N+WIDTH+1 until the next start, counting only cycles with the clock enable `ce` high (a
// design stalled on a stream holds `ce` low). WIDTH >= 2. Division by zero gives an all-ones
// magnitude quotient and the dividend as remainder (the front end guards it anyway).
module vichls_div #(parameter WIDTH = 32, parameter SIGNED = 1) (
    input wire clk,
    input wire ce,
    input wire start,
    input wire [WIDTH-1:0] a,
    input wire [WIDTH-1:0] b,
    output wire [WIDTH-1:0] quotient,
    output wire [WIDTH-1:0] remainder
);
    localparam CW = $clog2(WIDTH + 1);
    localparam [CW-1:0] STEPS = WIDTH;
    reg [WIDTH-1:0] q;          // dividend bits shifting out, quotient bits shifting in
    reg [WIDTH-1:0] r;          // partial remainder
    reg [WIDTH-1:0] divisor;
    reg negate_q;
    reg negate_r;
    reg [CW-1:0] steps;
    wire a_neg = (SIGNED != 0) && a[WIDTH-1];
    wire b_neg = (SIGNED != 0) && b[WIDTH-1];
    wire [WIDTH:0] shifted = {r, q[WIDTH-1]};
    wire [WIDTH:0] trial = shifted - {1'b0, divisor};
    wire fits = !trial[WIDTH];
    always @(posedge clk) begin
        if (!ce) begin
            // clock enable low: the design is stalled, every register holds
        end else if (start) begin
            q <= a_neg ? -a : a;
            divisor <= b_neg ? -b : b;
            r <= {WIDTH{1'b0}};
            negate_q <= a_neg ^ b_neg;
            negate_r <= a_neg;
            steps <= STEPS;
        end else if (steps != {CW{1'b0}}) begin
            r <= fits ? trial[WIDTH-1:0] : shifted[WIDTH-1:0];
            q <= {q[WIDTH-2:0], fits};
            steps <= steps - 1'b1;
        end
    end
    assign quotient = negate_q ? -q : q;
    assign remainder = negate_r ? -r : r;
endmodule
