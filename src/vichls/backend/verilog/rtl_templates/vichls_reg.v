// vichls primitive: a register with write enable (no reset: data registers are always
// written before they are read).
module vichls_reg #(parameter WIDTH = 32) (
    input wire clk,
    input wire en,
    input wire [WIDTH-1:0] in,
    output reg [WIDTH-1:0] out
);
    always @(posedge clk) begin
        if (en) out <= in;
    end
endmodule
