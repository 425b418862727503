// vichls primitive: first-word-fall-through FIFO of DEPTH >= 1 elements of WIDTH bits
// (a channel between dataflow tasks, ap_fifo handshake on both sides). Synchronous reset
// `rst` (active high) empties it. While `empty_n` is high, `dout` is the oldest element
// (undefined while empty). At a rising edge, `write & full_n` appends `din` and `read &
// empty_n` removes the oldest; both may happen at one edge. `full_n` and `empty_n` are
// registers, so no combinational path runs from `write`/`read` to them: a full FIFO takes
// no write at an edge where it is read, and an element written into an empty FIFO can be
// read from the next cycle on (one cycle from `write` to `empty_n`). DEPTH >= 2 moves one
// element per cycle in steady state; DEPTH = 1 alternates. Storage is a register array
// read asynchronously (LUT RAM); DEPTH need not be a power of two.
module vichls_fifo #(parameter WIDTH = 32, parameter DEPTH = 2) (
    input wire clk,
    input wire rst,
    input wire [WIDTH-1:0] din,
    input wire write,
    output reg full_n,
    output wire [WIDTH-1:0] dout,
    input wire read,
    output reg empty_n
);
    localparam AW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam integer LAST_INDEX = DEPTH - 1;
    localparam [AW-1:0] LAST = LAST_INDEX[AW-1:0];
    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [AW-1:0] head;  // the oldest element
    reg [AW-1:0] tail;  // where the next element goes
    wire push = write & full_n;
    wire pop = read & empty_n;
    wire [AW-1:0] head_next = (head == LAST) ? {AW{1'b0}} : head + 1'b1;
    wire [AW-1:0] tail_next = (tail == LAST) ? {AW{1'b0}} : tail + 1'b1;
    always @(posedge clk) begin
        if (push) mem[tail] <= din;
    end
    always @(posedge clk) begin
        if (rst) begin
            head <= {AW{1'b0}};
            tail <= {AW{1'b0}};
            full_n <= 1'b1;
            empty_n <= 1'b0;
        end else begin
            if (push) tail <= tail_next;
            if (pop) head <= head_next;
            // a push and a pop together leave the occupancy, hence both flags, unchanged
            if (push && !pop) begin
                empty_n <= 1'b1;
                full_n <= tail_next != head;
            end else if (pop && !push) begin
                full_n <= 1'b1;
                empty_n <= head_next != tail;
            end
        end
    end
    assign dout = mem[head];
endmodule
