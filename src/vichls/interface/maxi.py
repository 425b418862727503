"""The m_axi adapter: an array served from memory through an AXI4 master, in bursts.

What: ``maxi_adapter(top, name, words, width, max_burst)`` is the Verilog of the module
``<top>_<name>_m_axi`` between the core's ap_memory port set of the array and an AXI4 master
(all five channels, the contract's port names without the ``m_axi_<bundle>_`` prefix):

- reads: a line of up to ``max_burst`` words. A read that the line holds is answered the next
  cycle, as the ap_memory timing wants; any other read raises ``hold`` (the core stalls and
  reads ``q`` again when it comes) and the adapter fetches a burst from that word on (no more
  than ``max_burst`` beats, the array's end, or the 4 KiB boundary), answering when the word
  has come;
- writes: gathered into a burst of consecutive words; a write that does not continue the
  burst, or finds it full, is kept aside while the burst goes out (the core holds), and so are
  the remaining ones when the wrapper asks for a drain (``drain``: the core has finished, and
  its ``ap_done`` waits until ``idle``). A read that misses sends the gathered writes first
  where they overlap the words it fetches; a write to a word of the read line updates it (or
  drops the line while that word is still coming), so reads see every earlier write;
- one transaction at a time (one burst, or one read burst, in flight); the read line is
  dropped at the end of each call (the next may find the memory changed).

Element ``i`` is at ``base + i * bytes``; the bus is as wide as an element (32 or 64 bits).

Why: the contract (docs/hardware-interface.md) has Vitis's m_axi ports; the core keeps its
ap_memory timing and a stall input, so the schedule does not change with the memory.

Assumes one array per bundle, a single-port memory (the schedule gives m_axi arrays one port)
and a base address aligned to the element size.
"""

from __future__ import annotations

M_AXI_SIGNALS = (
    ("AWVALID", "out"), ("AWREADY", "in"), ("AWADDR", "out"), ("AWID", "out"), ("AWLEN", "out"),
    ("AWSIZE", "out"), ("AWBURST", "out"), ("AWLOCK", "out"), ("AWCACHE", "out"),
    ("AWPROT", "out"), ("AWQOS", "out"), ("AWREGION", "out"), ("AWUSER", "out"),
    ("WVALID", "out"), ("WREADY", "in"), ("WDATA", "out"), ("WSTRB", "out"), ("WLAST", "out"),
    ("WID", "out"), ("WUSER", "out"),
    ("ARVALID", "out"), ("ARREADY", "in"), ("ARADDR", "out"), ("ARID", "out"), ("ARLEN", "out"),
    ("ARSIZE", "out"), ("ARBURST", "out"), ("ARLOCK", "out"), ("ARCACHE", "out"),
    ("ARPROT", "out"), ("ARQOS", "out"), ("ARREGION", "out"), ("ARUSER", "out"),
    ("RVALID", "in"), ("RREADY", "out"), ("RDATA", "in"), ("RLAST", "in"), ("RID", "in"),
    ("RUSER", "in"), ("RRESP", "in"),
    ("BVALID", "in"), ("BREADY", "out"), ("BRESP", "in"), ("BID", "in"), ("BUSER", "in"))


def m_axi_ports(bundle: str, data_width: int) -> list[tuple[str, str, int]]:
    """(name, direction, width) of an m_axi port set, in the contract's order."""
    widths = {"ADDR": 64, "ID": 1, "LEN": 8, "SIZE": 3, "BURST": 2, "LOCK": 2, "CACHE": 4,
              "PROT": 3, "QOS": 4, "REGION": 4, "USER": 1, "DATA": data_width,
              "STRB": data_width // 8, "RESP": 2}
    out = []
    for signal, direction in M_AXI_SIGNALS:
        field = signal[2:] if signal[:2] in ("AW", "AR") else signal[1:]
        out.append((f"m_axi_{bundle}_{signal}", direction, widths.get(field, 1)))
    return out


def maxi_adapter(top: str, name: str, words: int, width: int, max_burst: int,
                 reads: bool, writes: bool) -> str:
    """The Verilog of ``<top>_<name>_m_axi`` (see the module doc). Counters and word
    addresses are 32 bits inside (synthesis keeps the bits they use)."""
    aw = max(1, (words - 1).bit_length())
    nb = width // 8
    size = nb.bit_length() - 1
    ports = ["input wire clk", "input wire rst", "input wire [63:0] base", "input wire drain",
             "output wire hold", "output wire idle",
             f"input wire [{aw - 1}:0] address0", "input wire ce0"]
    if writes:
        ports += ["input wire we0", f"input wire [{width - 1}:0] d0"]
    if reads:
        ports += [f"output reg [{width - 1}:0] q0"]
    widths = {"AWADDR": 64, "ARADDR": 64, "AWLEN": 8, "ARLEN": 8, "AWSIZE": 3, "ARSIZE": 3,
              "AWBURST": 2, "ARBURST": 2, "AWLOCK": 2, "ARLOCK": 2, "AWCACHE": 4,
              "ARCACHE": 4, "AWPROT": 3, "ARPROT": 3, "AWQOS": 4, "ARQOS": 4, "AWREGION": 4,
              "ARREGION": 4, "WDATA": width, "RDATA": width, "WSTRB": nb, "RRESP": 2,
              "BRESP": 2}
    unused_inputs = ["RID", "RUSER", "RRESP", "BRESP", "BID", "BUSER"]
    for signal, direction in M_AXI_SIGNALS:
        w = widths.get(signal, 1)
        kind = "input wire" if direction == "in" else "output wire"
        decl = f"{kind} {f'[{w - 1}:0] ' if w > 1 else ''}{signal}"
        if signal in unused_inputs:
            decl = f"/* verilator lint_off UNUSED */ {decl} /* verilator lint_on UNUSED */"
        ports.append(decl)
    wr = "ce0 & we0" if writes else "1'b0"
    rd = ("ce0 & ~we0" if writes else "ce0") if reads else "1'b0"
    b = max_burst
    port_list = ",\n".join(f"    {p}" for p in ports)
    bi = max(1, (b - 1).bit_length()) - 1  # the top bit of a word's place in a burst
    text = f"""// The m_axi adapter of array '{name}': {words} words of {width} bits, bursts of up to {b}.
module {top}_{name}_m_axi (
{port_list}
);
    localparam [31:0] WORDS = 32'd{words};
    localparam [31:0] BURST = 32'd{b};
    localparam [2:0] IDLE = 3'd0, RADDR = 3'd1, RDATA_S = 3'd2, WADDR = 3'd3, WDATA_S = 3'd4,
        WRESP = 3'd5;
    reg [2:0] state;
    wire writing = state == WADDR || state == WDATA_S || state == WRESP;
    wire [31:0] addr = {{{32 - aw}'d0, address0}};
    // the words from word w to the next 4 KiB boundary, at most BURST
    // (the low 12 bits of a byte address decide it; w: the low 12 bits of a word address)
    function [31:0] room; input [11:0] w; reg [11:0] a; reg [31:0] page; begin
        a = base[11:0] + (w << {size});
        page = (32'd4096 - {{20'd0, a}}) >> {size};
        room = page < BURST ? page : BURST;
    end endfunction
    assign AWID = 1'b0; assign AWSIZE = 3'd{size}; assign AWBURST = 2'b01; assign AWLOCK = 2'b00;
    assign AWCACHE = 4'b0011; assign AWPROT = 3'b000; assign AWQOS = 4'd0;
    assign AWREGION = 4'd0; assign AWUSER = 1'b0; assign WID = 1'b0; assign WUSER = 1'b0;
    assign WSTRB = {{{nb}{{1'b1}}}};
    assign ARID = 1'b0; assign ARSIZE = 3'd{size}; assign ARBURST = 2'b01; assign ARLOCK = 2'b00;
    assign ARCACHE = 4'b0011; assign ARPROT = 3'b000; assign ARQOS = 4'd0;
    assign ARREGION = 4'd0; assign ARUSER = 1'b0;
    wire wr = {wr};
    wire rd = {rd};
    // the write burst being gathered (sent in WADDR..WRESP)
    reg [{width - 1}:0] wbuf [0:{b - 1}];
    reg [31:0] wcount, wbase, wroom, wbeat;
    reg waside;  // a write kept aside while the burst goes out (the core holds)
    reg [31:0] waside_addr;
    reg [{width - 1}:0] waside_data;
    wire continues = !writing && wcount != 0 && addr == wbase + wcount && wcount < wroom;
    // the read line
    reg [{width - 1}:0] rline [0:{b - 1}];
    reg [31:0] rbase, rlen, rgot;
    reg rvalid;  // the line holds rgot words from rbase
    reg rmiss;  // a read waits for its word
    reg [31:0] rmiss_addr;
    wire hit = rvalid && addr >= rbase && addr < rbase + rgot;
    wire miss_served = rvalid && rmiss_addr >= rbase && rmiss_addr < rbase + rgot;
    wire in_line = addr >= rbase && addr < rbase + rlen;
    wire [31:0] left = WORDS - rmiss_addr;
    wire [31:0] fits = room(rmiss_addr[11:0]);
    wire [31:0] rburst = left < fits ? left : fits;
    // a read that misses waits for the gathered writes only where they overlap its burst
    wire overlap = wcount != 0 && wbase < rmiss_addr + rburst && rmiss_addr < wbase + wcount;
    wire flush = wcount != 0 && (waside || (rmiss && overlap) || drain || wcount == wroom);
    assign hold = rmiss | waside;
    assign idle = state == IDLE && wcount == 0 && !waside && !rmiss;
    assign ARVALID = state == RADDR;
    assign ARADDR = base + ({{32'd0, rbase}} << {size});
    assign ARLEN = rlen[7:0] - 8'd1;
    assign RREADY = state == RDATA_S;
    assign AWVALID = state == WADDR;
    assign AWADDR = base + ({{32'd0, wbase}} << {size});
    assign AWLEN = wcount[7:0] - 8'd1;
    assign WVALID = state == WDATA_S;
    assign WDATA = wbuf[wbeat[{bi}:0]];
    assign WLAST = wbeat + 32'd1 == wcount;
    assign BREADY = state == WRESP;
    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE; wcount <= 0; wbeat <= 0; waside <= 1'b0; rvalid <= 1'b0;
            rmiss <= 1'b0; rgot <= 0; rlen <= 0; wroom <= 0;
        end else begin
            case (state)
                IDLE:
                    if (flush) begin
                        state <= WADDR; wbeat <= 0;
                    end else if (waside) begin  // the kept write starts the next burst
                        waside <= 1'b0; wbase <= waside_addr; wcount <= 1;
                        wbuf[0] <= waside_data; wroom <= room(waside_addr[11:0]);
                    end else if (rmiss && !miss_served) begin
                        state <= RADDR; rbase <= rmiss_addr; rlen <= rburst; rgot <= 0;
                        rvalid <= 1'b1;
                    end
                RADDR: if (ARREADY) state <= RDATA_S;
                RDATA_S: if (RVALID) begin
                    rline[rgot[{bi}:0]] <= RDATA;
                    rgot <= rgot + 1;
                    if (RLAST) state <= IDLE;
                end
                WADDR: if (AWREADY) state <= WDATA_S;
                WDATA_S: if (WREADY) begin
                    wbeat <= wbeat + 1;
                    if (WLAST) state <= WRESP;
                end
                WRESP: if (BVALID) begin state <= IDLE; wcount <= 0; end
                default: state <= IDLE;
            endcase
            // the next call may find another memory (another base, the host's writes)
            if (drain) rvalid <= 1'b0;
            // the core's requests (none while it is held); after the state machine, so
            // that a write in the cycle a burst is answered starts the next one
            if (wr) begin
                // the line follows the writes to the words it holds; one still coming
                // would overwrite a newer value: the line is dropped
                if (rvalid && addr >= rbase && addr < rbase + rgot) rline[addr - rbase] <= d0;
                else if (in_line) rvalid <= 1'b0;
                if (continues) begin
                    wbuf[wcount[{bi}:0]] <= d0;
                    wcount <= wcount + 1;
                end else if (!writing && wcount == 0) begin
                    wbase <= addr; wcount <= 1; wbuf[0] <= d0; wroom <= room(addr[11:0]);
                end else begin
                    waside <= 1'b1; waside_addr <= addr; waside_data <= d0;
                end
            end
            if (rd) begin
                if (hit) q0 <= rline[addr - rbase];
                else begin rmiss <= 1'b1; rmiss_addr <= addr; end
            end else if (rmiss && miss_served) begin
                q0 <= rline[rmiss_addr - rbase];
                rmiss <= 1'b0;
            end
        end
    end
endmodule
"""
    inner = []
    if not writes:  # (no data to gather: the write side stays empty)
        inner.append(f"    wire [{width - 1}:0] d0 = {width}'d0;")
    if not reads:  # (nothing is read: the answer goes nowhere)
        inner += ["    /* verilator lint_off UNUSED */", f"    reg [{width - 1}:0] q0;",
                  "    /* verilator lint_on UNUSED */"]
    if inner:
        text = text.replace("    reg [2:0] state;\n", "    reg [2:0] state;\n" + "\n".join(inner) + "\n", 1)
    return text
