// vichls primitive: pipelined multiplier, low WIDTH bits of a*b, LATENCY register stages
// (the result of operands presented in cycle N is valid in cycle N+LATENCY).
module vichls_mul #(parameter WIDTH = 32, parameter LATENCY = 1) (
    input wire clk,
    input wire [WIDTH-1:0] a,
    input wire [WIDTH-1:0] b,
    output wire [WIDTH-1:0] p
);
    reg [WIDTH-1:0] stage [0:LATENCY-1];
    integer k;
    always @(posedge clk) begin
        stage[0] <= a * b;
        for (k = 1; k < LATENCY; k = k + 1) stage[k] <= stage[k-1];
    end
    assign p = stage[LATENCY-1];
endmodule
