// vichls primitive: start/done bookkeeping of one task of a dataflow top, with a queue of
// up to DEPTH calls the top accepted and the task has not started yet.
// `call` (the top accepts a call this cycle) gives the task a call to start, with its scalar
// arguments `args_in` (ARGW bits, all the task's scalar inputs side by side; a task without
// any gets a constant). The task is started (`t_start`, its ap_start) whenever it has a
// call to start and `deps_ok` (its channels allow it); a call is started at an edge with
// `t_start & t_ready` (our task modules pulse ap_ready in the cycle they take ap_start and
// latch their scalars then). The oldest call not started is the one started: `args_out`
// gives its arguments (from the queue, or `args_in` straight through when the queue is
// empty and the call arrives in this cycle). `room` says the queue can take a call: the top
// raises `call` only while every task has room. `pending` says the queue is not empty.
// The task's ap_done (`t_done`) is held until ap_continue (`t_continue`); each edge with
// `t_done & t_continue` adds a finished call to a count of up to KEEP finished-but-unretired
// calls (at KEEP, `t_continue` is low and the task keeps its done). `finished` says the
// count is not zero or a done is taken this cycle; a `retire` pulse (the top finishes a
// call, when every task is finished) removes one. Calls start and finish in the order the
// top accepted them. Timing: `t_start` and `args_out` follow `call`, `args_in` and `deps_ok`
// combinationally, `finished` follows `t_done`; `pending`, `room` and `t_continue` are
// functions of registers only. Synchronous reset `rst` (active high) empties the queue and
// the count.
module vichls_task_ctrl #(parameter DEPTH = 1, parameter KEEP = 3, parameter ARGW = 1) (
    input wire clk,
    input wire rst,
    input wire call,
    input wire [ARGW-1:0] args_in,
    input wire deps_ok,
    input wire t_ready,
    input wire t_done,
    input wire retire,
    output wire t_start,
    output wire [ARGW-1:0] args_out,
    output wire t_continue,
    output wire pending,
    output wire room,
    output wire finished
);
    localparam QW = $clog2(DEPTH + 1);  // bits of the queue's count, 0 to DEPTH
    localparam KW = $clog2(KEEP + 1);  // bits of the finished count, 0 to KEEP
    localparam AW = (DEPTH > 1) ? $clog2(DEPTH) : 1;  // bits of a slot's index
    localparam integer LAST_INDEX = DEPTH - 1;
    localparam [AW-1:0] LAST = LAST_INDEX[AW-1:0];
    localparam integer DEPTH_COUNT = DEPTH;
    localparam integer KEEP_COUNT = KEEP;
    localparam [QW-1:0] FULL = DEPTH_COUNT[QW-1:0];
    localparam [KW-1:0] MOST = KEEP_COUNT[KW-1:0];
    reg [QW-1:0] queued;  // calls accepted, not started
    reg [AW-1:0] head;  // the slot of the oldest queued call
    reg [AW-1:0] tail;  // the slot of the next queued call
    reg [ARGW-1:0] slots [0:DEPTH-1];
    reg [KW-1:0] unretired;  // finished calls not yet retired
    wire started = t_start & t_ready;
    wire done_taken = t_done & t_continue;
    // a retire without a finished call (a fault of the top) is ignored rather than wrapping
    wire retired = retire & finished;
    // a call that arrives on an empty queue and is started at once is not queued
    wire push = call & (pending | ~started);
    wire pop = pending & started;
    wire [AW-1:0] head_next = (head == LAST) ? {AW{1'b0}} : head + 1'b1;
    wire [AW-1:0] tail_next = (tail == LAST) ? {AW{1'b0}} : tail + 1'b1;
    assign pending = queued != {QW{1'b0}};
    assign room = queued != FULL;
    assign t_start = (pending | call) & deps_ok;
    assign args_out = pending ? slots[head] : args_in;
    assign t_continue = unretired != MOST;
    assign finished = (unretired != {KW{1'b0}}) | done_taken;
    always @(posedge clk) begin
        if (push) slots[tail] <= args_in;
    end
    always @(posedge clk) begin
        if (rst) begin
            queued <= {QW{1'b0}};
            head <= {AW{1'b0}};
            tail <= {AW{1'b0}};
            unretired <= {KW{1'b0}};
        end else begin
            if (push) tail <= tail_next;
            if (pop) head <= head_next;
            if (push && !pop) queued <= queued + 1'b1;
            else if (pop && !push) queued <= queued - 1'b1;
            if (done_taken && !retired) unretired <= unretired + 1'b1;
            else if (retired && !done_taken) unretired <= unretired - 1'b1;
        end
    end
endmodule
