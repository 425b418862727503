// vichls primitive: single-port RAM in the block-RAM template that Yosys and vendor tools
// infer (synchronous read, read-first, one-cycle read latency like ap_memory).
module vichls_ram #(parameter WIDTH = 32, parameter WORDS = 64, parameter AW = 6) (
    input wire clk,
    input wire [AW-1:0] address0,
    input wire ce0,
    input wire we0,
    input wire [WIDTH-1:0] d0,
    output reg [WIDTH-1:0] q0
);
    reg [WIDTH-1:0] mem [0:WORDS-1];
    always @(posedge clk) begin
        if (ce0) begin
            if (we0) mem[address0] <= d0;
            q0 <= mem[address0];
        end
    end
endmodule
