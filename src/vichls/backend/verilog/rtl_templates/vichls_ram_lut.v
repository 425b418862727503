// vichls primitive: single-port RAM in distributed (LUT) RAM, for small local arrays on
// devices whose block RAM is too slow to read in one cycle without its output register.
// At the ports it behaves as vichls_ram does for every access the scheduler issues (read
// data one cycle after the address; q0 holds while ce0 is low), but:
// - the read address is registered and the read is asynchronous, so the data leaves the
//   RAM early in the next cycle;
// - a write is registered and lands one cycle late, so the RAM's write enables decode a
//   register rather than the port's address multiplexer. No read can tell: a read issued
//   in the cycle after a write shows its data only after the write has landed.
module vichls_ram_lut #(parameter WIDTH = 32, parameter WORDS = 64, parameter AW = 6) (
    input wire clk,
    input wire [AW-1:0] address0,
    input wire ce0,
    input wire we0,
    input wire [WIDTH-1:0] d0,
    output wire [WIDTH-1:0] q0
);
    (* ram_style = "distributed" *) reg [WIDTH-1:0] mem [0:WORDS-1];
    reg [AW-1:0] read_address0;
    reg write_pending0;
    reg [AW-1:0] write_address0;
    reg [WIDTH-1:0] write_data0;
    initial begin  // no write pending at power-up (FPGA flip-flop initial value)
        write_pending0 = 1'b0;
    end
    always @(posedge clk) begin
        if (write_pending0) mem[write_address0] <= write_data0;
        write_pending0 <= ce0 & we0;
        write_address0 <= address0;
        write_data0 <= d0;
        if (ce0) read_address0 <= address0;
    end
    assign q0 = mem[read_address0];
endmodule
