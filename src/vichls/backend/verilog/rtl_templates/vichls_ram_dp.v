// vichls primitive: true dual-port RAM (two read/write ports, synchronous read,
// read-first, one-cycle read latency like ap_memory). The scheduler never writes one
// address from both ports in one cycle, nor reads an address in the cycle the other port
// writes it.
module vichls_ram_dp #(parameter WIDTH = 32, parameter WORDS = 64, parameter AW = 6) (
    input wire clk,
    input wire [AW-1:0] address0,
    input wire ce0,
    input wire we0,
    input wire [WIDTH-1:0] d0,
    output reg [WIDTH-1:0] q0,
    input wire [AW-1:0] address1,
    input wire ce1,
    input wire we1,
    input wire [WIDTH-1:0] d1,
    output reg [WIDTH-1:0] q1
);
    reg [WIDTH-1:0] mem [0:WORDS-1];
    always @(posedge clk) begin
        if (ce0) begin
            if (we0) mem[address0] <= d0;
            q0 <= mem[address0];
        end
        if (ce1) begin
            if (we1) mem[address1] <= d1;
            q1 <= mem[address1];
        end
    end
endmodule
