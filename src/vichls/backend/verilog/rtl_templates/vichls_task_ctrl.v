// vichls primitive: start/done bookkeeping of one task of a dataflow top.
// `call` (the top accepts a call this cycle) gives the task a call to start; the task is
// started (`t_start`, its ap_start) in that cycle or later, whenever `deps_ok` (its
// channels allow it), and the call stays `pending` until an edge where `t_start & t_ready`
// (our task modules pulse ap_ready in the cycle they take ap_start). The top accepts a
// call only while no task is pending, so `call` never meets a pending call. The task's
// ap_done (`t_done`) is held until ap_continue (`t_continue`); each edge with `t_done &
// t_continue` adds a finished call to a count of up to 3 finished-but-unretired calls
// (at 3, `t_continue` is low and the task keeps its done). `finished` says the count is
// not zero or a done is taken this cycle; a `retire` pulse (the top finishes a call, when
// every task is finished) removes one. Timing: `t_start` follows `call` and `deps_ok`,
// `finished` follows `t_done` combinationally; `pending` and `t_continue` are registers
// or functions of registers only. Synchronous reset `rst` (active high) clears both.
module vichls_task_ctrl (
    input wire clk,
    input wire rst,
    input wire call,
    input wire deps_ok,
    input wire t_ready,
    input wire t_done,
    input wire retire,
    output wire t_start,
    output wire t_continue,
    output wire pending,
    output wire finished
);
    reg pending_call;
    reg [1:0] unretired;  // finished calls not yet retired
    wire done_taken = t_done & t_continue;
    // a retire without a finished call (a fault of the top) is ignored rather than wrapping
    wire retired = retire & finished;
    assign t_start = (pending_call | call) & deps_ok;
    assign t_continue = unretired != 2'd3;
    assign pending = pending_call;
    assign finished = (unretired != 2'd0) | done_taken;
    always @(posedge clk) begin
        if (rst) begin
            pending_call <= 1'b0;
            unretired <= 2'd0;
        end else begin
            pending_call <= (pending_call | call) & ~(t_start & t_ready);
            if (done_taken && !retired) unretired <= unretired + 2'd1;
            else if (retired && !done_taken) unretired <= unretired - 2'd1;
        end
    end
endmodule
