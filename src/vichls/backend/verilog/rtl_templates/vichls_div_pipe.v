// vichls primitive: fully pipelined restoring divider with MLIR divsi/divui/remsi/remui
// semantics (quotient rounded toward zero, remainder with the dividend's sign), accepting
// new operands every cycle. Operands presented in cycle N give quotient and remainder in
// cycle N+WIDTH+1, counting only cycles with the clock enable `ce` high (the latency of vichls_div, whose algorithm this unrolls: one register
// stage for the magnitudes, then one per quotient bit). WIDTH >= 2. Division by zero gives
// an all-ones magnitude quotient and the dividend as remainder, as vichls_div does.
module vichls_div_pipe #(parameter WIDTH = 32, parameter SIGNED = 1) (
    input wire clk,
    input wire ce,
    input wire [WIDTH-1:0] a,
    input wire [WIDTH-1:0] b,
    output wire [WIDTH-1:0] quotient,
    output wire [WIDTH-1:0] remainder
);
    wire a_neg = (SIGNED != 0) && a[WIDTH-1];
    wire b_neg = (SIGNED != 0) && b[WIDTH-1];
    // the registers of stage k sit at slice k of these buses (stage 0: the magnitudes)
    wire [(WIDTH+1)*WIDTH-1:0] r_bus;
    wire [(WIDTH+1)*WIDTH-1:0] q_bus;
    wire [WIDTH*WIDTH-1:0] d_bus;
    wire [WIDTH:0] nq_bus;
    wire [WIDTH:0] nr_bus;
    reg [WIDTH-1:0] q_first;
    reg [WIDTH-1:0] d_first;
    reg nq_first;
    reg nr_first;
    always @(posedge clk) begin
        if (ce) begin
            q_first <= a_neg ? -a : a;
            d_first <= b_neg ? -b : b;
            nq_first <= a_neg ^ b_neg;
            nr_first <= a_neg;
        end
    end
    assign r_bus[WIDTH-1:0] = {WIDTH{1'b0}};
    assign q_bus[WIDTH-1:0] = q_first;
    assign d_bus[WIDTH-1:0] = d_first;
    assign nq_bus[0] = nq_first;
    assign nr_bus[0] = nr_first;
    genvar k;
    generate
        for (k = 0; k < WIDTH; k = k + 1) begin : step
            wire [WIDTH-1:0] r_in = r_bus[k*WIDTH +: WIDTH];
            wire [WIDTH-1:0] q_in = q_bus[k*WIDTH +: WIDTH];
            wire [WIDTH-1:0] d_in = d_bus[k*WIDTH +: WIDTH];
            wire [WIDTH:0] shifted = {r_in, q_in[WIDTH-1]};
            wire [WIDTH:0] trial = shifted - {1'b0, d_in};
            wire fits = !trial[WIDTH];
            reg [WIDTH-1:0] r;
            reg [WIDTH-1:0] q;
            reg nq;
            reg nr;
            always @(posedge clk) begin
                if (ce) begin
                    r <= fits ? trial[WIDTH-1:0] : shifted[WIDTH-1:0];
                    q <= {q_in[WIDTH-2:0], fits};
                    nq <= nq_bus[k];
                    nr <= nr_bus[k];
                end
            end
            assign r_bus[(k+1)*WIDTH +: WIDTH] = r;
            assign q_bus[(k+1)*WIDTH +: WIDTH] = q;
            assign nq_bus[k+1] = nq;
            assign nr_bus[k+1] = nr;
            if (k + 1 < WIDTH) begin : carry_divisor
                reg [WIDTH-1:0] d;
                always @(posedge clk) if (ce) d <= d_in;
                assign d_bus[(k+1)*WIDTH +: WIDTH] = d;
            end
        end
    endgenerate
    wire [WIDTH-1:0] q_last = q_bus[WIDTH*WIDTH +: WIDTH];
    wire [WIDTH-1:0] r_last = r_bus[WIDTH*WIDTH +: WIDTH];
    assign quotient = nq_bus[WIDTH] ? -q_last : q_last;
    assign remainder = nr_bus[WIDTH] ? -r_last : r_last;
endmodule
