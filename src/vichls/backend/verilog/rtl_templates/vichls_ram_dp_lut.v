// vichls primitive: true dual-port RAM for small local arrays, with registered read
// addresses, asynchronous reads and writes that land one cycle late (see vichls_ram_lut).
// Two write ports do not fit the LUT RAMs of most FPGAs, so synthesis builds it from
// flip-flops; it is only chosen for small arrays. The scheduler never writes one address
// from both ports in one cycle, nor reads an address in the cycle the other port writes it.
module vichls_ram_dp_lut #(parameter WIDTH = 32, parameter WORDS = 64, parameter AW = 6) (
    input wire clk,
    input wire [AW-1:0] address0,
    input wire ce0,
    input wire we0,
    input wire [WIDTH-1:0] d0,
    output wire [WIDTH-1:0] q0,
    input wire [AW-1:0] address1,
    input wire ce1,
    input wire we1,
    input wire [WIDTH-1:0] d1,
    output wire [WIDTH-1:0] q1
);
    reg [WIDTH-1:0] mem [0:WORDS-1];
    reg [AW-1:0] read_address0;
    reg [AW-1:0] read_address1;
    reg write_pending0;
    reg write_pending1;
    reg [AW-1:0] write_address0;
    reg [AW-1:0] write_address1;
    reg [WIDTH-1:0] write_data0;
    reg [WIDTH-1:0] write_data1;
    initial begin  // no write pending at power-up (FPGA flip-flop initial value)
        write_pending0 = 1'b0;
        write_pending1 = 1'b0;
    end
    always @(posedge clk) begin
        if (write_pending0) mem[write_address0] <= write_data0;
        if (write_pending1) mem[write_address1] <= write_data1;
        write_pending0 <= ce0 & we0;
        write_pending1 <= ce1 & we1;
        write_address0 <= address0;
        write_address1 <= address1;
        write_data0 <= d0;
        write_data1 <= d1;
        if (ce0) read_address0 <= address0;
        if (ce1) read_address1 <= address1;
    end
    assign q0 = mem[read_address0];
    assign q1 = mem[read_address1];
endmodule
