// vichls primitive: pipelined multiplier, low WIDTH bits of a*b (WIDTH > 18), LATENCY >= 1
// register stages (the result of operands presented in cycle N is valid in cycle
// N+LATENCY, counting only cycles with the clock enable `ce` high: a design stalled on a
// stream holds `ce` low and every stage keeps its value). For an even WIDTH the first stage
// registers the partial products of the operands' halves (each small enough for one DSP
// block), so no cycle holds a full-width multiply, and they are summed after it:
// combinationally when LATENCY is 1, else into the next stage. An odd WIDTH registers the
// whole product. Further stages only delay.
module vichls_mul #(parameter WIDTH = 32, parameter LATENCY = 1) (
    input wire clk,
    input wire ce,
    input wire [WIDTH-1:0] a,
    input wire [WIDTH-1:0] b,
    output wire [WIDTH-1:0] p
);
    localparam HALF = WIDTH / 2;
    wire [WIDTH-1:0] product;
    generate
        if (WIDTH % 2 == 0) begin : halves
            reg [WIDTH-1:0] low_low;   // a_low * b_low
            reg [HALF-1:0] high_low;   // a_high * b_low, the bits that land below WIDTH
            reg [HALF-1:0] low_high;   // a_low * b_high, likewise
            wire [WIDTH-1:0] ll = a[HALF-1:0] * b[HALF-1:0];
            wire [HALF-1:0] hl = a[WIDTH-1:HALF] * b[HALF-1:0];
            wire [HALF-1:0] lh = a[HALF-1:0] * b[WIDTH-1:HALF];
            always @(posedge clk) begin
                if (ce) begin
                    low_low <= ll;
                    high_low <= hl;
                    low_high <= lh;
                end
            end
            wire [HALF-1:0] middle = high_low + low_high;
            assign product = low_low + {middle, {HALF{1'b0}}};
        end else begin : whole
            reg [WIDTH-1:0] registered;
            always @(posedge clk) if (ce) registered <= a * b;
            assign product = registered;
        end
        if (LATENCY == 1) begin : direct
            assign p = product;
        end else begin : delayed
            reg [WIDTH-1:0] stage [0:LATENCY-2];
            integer k;
            always @(posedge clk) begin
                if (ce) begin
                    stage[0] <= product;
                    for (k = 1; k < LATENCY - 1; k = k + 1) stage[k] <= stage[k-1];
                end
            end
            assign p = stage[LATENCY-2];
        end
    endgenerate
endmodule
