// vichls primitive: ping-pong (multi-bank) buffer of BANKS >= 2 banks of WORDS words
// between a producer task (ports p_*) and a consumer task (ports c_*), each seeing an
// ap_memory pair of ports with the timing of vichls_ram_dp: q one cycle after ce,
// read-first, a write at the edge with ce & we. The banks form a ring: the producer works
// on bank `wbank`, the consumer on bank `rbank`. A `p_commit` pulse (the producer finished
// a call) makes its bank full and moves it to the next bank; a `c_release` pulse (the
// consumer finished a call) frees its bank and moves it to the next bank; both may come
// at one edge. `p_may_start` (fewer than BANKS banks full) and `c_may_start` (at least one
// bank full) are functions of registers only. With two banks it is a double buffer; more
// banks let the producer run more calls ahead of the consumer (a channel that bypasses
// other tasks, whose consumer starts a call several calls after its producer).
// Assumed: a task uses its ports, and pulses once, only in a call that it started while
// its may_start was high. Then the two tasks never share a bank: the full banks are
// rbank, rbank + 1, ... (count of them, modulo BANKS) and wbank == rbank + count; when
// wbank == rbank that bank belongs to the producer if count is 0 and to the consumer if
// count is BANKS. A q comes from the bank that its port's last ce addressed, so a read in
// the cycle of the pulse still returns that bank's word.
// Each bank is a true dual-port RAM (block RAM for large WORDS). Synchronous reset `rst`
// (active high) empties the banks' flags (the contents are kept).
module vichls_pingpong #(parameter WIDTH = 32, parameter WORDS = 64, parameter AW = 6,
                        parameter BANKS = 2) (
    input wire clk,
    input wire rst,
    input wire [AW-1:0] p_address0,
    input wire p_ce0,
    input wire p_we0,
    input wire [WIDTH-1:0] p_d0,
    output wire [WIDTH-1:0] p_q0,
    input wire [AW-1:0] p_address1,
    input wire p_ce1,
    input wire p_we1,
    input wire [WIDTH-1:0] p_d1,
    output wire [WIDTH-1:0] p_q1,
    input wire [AW-1:0] c_address0,
    input wire c_ce0,
    input wire c_we0,
    input wire [WIDTH-1:0] c_d0,
    output wire [WIDTH-1:0] c_q0,
    input wire [AW-1:0] c_address1,
    input wire c_ce1,
    input wire c_we1,
    input wire [WIDTH-1:0] c_d1,
    output wire [WIDTH-1:0] c_q1,
    input wire p_commit,
    input wire c_release,
    output wire p_may_start,
    output wire c_may_start
);
    localparam BW = $clog2(BANKS);  // bits of a bank's index
    localparam CW = $clog2(BANKS + 1);  // bits of the full-bank count, 0 to BANKS
    localparam integer LAST_INDEX = BANKS - 1;
    localparam integer BANK_COUNT = BANKS;
    localparam [BW-1:0] LAST = LAST_INDEX[BW-1:0];
    localparam [CW-1:0] ALL = BANK_COUNT[CW-1:0];
    reg [BW-1:0] wbank;
    reg [BW-1:0] rbank;
    reg [CW-1:0] full_banks;  // 0 to BANKS
    // the bank that each port's last ce addressed: its q comes from there
    reg [BW-1:0] p_q0_bank;
    reg [BW-1:0] p_q1_bank;
    reg [BW-1:0] c_q0_bank;
    reg [BW-1:0] c_q1_bank;
    always @(posedge clk) begin
        if (rst) begin
            wbank <= {BW{1'b0}};
            rbank <= {BW{1'b0}};
            full_banks <= {CW{1'b0}};
        end else begin
            if (p_commit) wbank <= (wbank == LAST) ? {BW{1'b0}} : wbank + 1'b1;
            if (c_release) rbank <= (rbank == LAST) ? {BW{1'b0}} : rbank + 1'b1;
            if (p_commit && !c_release) full_banks <= full_banks + 1'b1;
            else if (c_release && !p_commit) full_banks <= full_banks - 1'b1;
        end
        if (p_ce0) p_q0_bank <= wbank;
        if (p_ce1) p_q1_bank <= wbank;
        if (c_ce0) c_q0_bank <= rbank;
        if (c_ce1) c_q1_bank <= rbank;
    end
    assign p_may_start = full_banks != ALL;
    assign c_may_start = full_banks != {CW{1'b0}};

    wire [BANKS*WIDTH-1:0] q0_of_bank;
    wire [BANKS*WIDTH-1:0] q1_of_bank;
    // (a genvar in the reserved vichls_ namespace: a design's cell named like it would be
    // hidden by it)
    genvar vichls_b;
    generate
        for (vichls_b = 0; vichls_b < BANKS; vichls_b = vichls_b + 1) begin : bank
            // wbank == rbank means every bank empty (that one the producer's) or every
            // bank full (that one the consumer's); a bank neither side works on ignores both
            localparam integer THIS_INDEX = vichls_b;
            localparam [BW-1:0] THIS_BANK = THIS_INDEX[BW-1:0];
            wire to_producer = (wbank == THIS_BANK) && (full_banks != ALL);
            wire to_consumer = (rbank == THIS_BANK) && (full_banks != {CW{1'b0}});
            wire [AW-1:0] address0 = to_producer ? p_address0 : c_address0;
            wire ce0 = to_producer ? p_ce0 : to_consumer & c_ce0;
            wire we0 = to_producer ? p_we0 : c_we0;
            wire [WIDTH-1:0] d0 = to_producer ? p_d0 : c_d0;
            wire [AW-1:0] address1 = to_producer ? p_address1 : c_address1;
            wire ce1 = to_producer ? p_ce1 : to_consumer & c_ce1;
            wire we1 = to_producer ? p_we1 : c_we1;
            wire [WIDTH-1:0] d1 = to_producer ? p_d1 : c_d1;
            reg [WIDTH-1:0] mem [0:WORDS-1];
            reg [WIDTH-1:0] q0;
            reg [WIDTH-1:0] q1;
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
            assign q0_of_bank[vichls_b*WIDTH +: WIDTH] = q0;
            assign q1_of_bank[vichls_b*WIDTH +: WIDTH] = q1;
        end
    endgenerate
    assign p_q0 = q0_of_bank[p_q0_bank*WIDTH +: WIDTH];
    assign p_q1 = q1_of_bank[p_q1_bank*WIDTH +: WIDTH];
    assign c_q0 = q0_of_bank[c_q0_bank*WIDTH +: WIDTH];
    assign c_q1 = q1_of_bank[c_q1_bank*WIDTH +: WIDTH];
endmodule
