"""The m_axi adapter: an array served from memory through an AXI4 master, streaming in bursts.

What: ``maxi_adapter(top, name, words, width, max_burst, reads, writes, latency)`` is the
Verilog of the module ``<top>_<name>_m_axi`` between the core's ap_memory port set of the
array and an AXI4 master (all five channels, the contract's port names without the
``m_axi_<bundle>_`` prefix). The core keeps its ap_memory timing (a read is answered the
next cycle); the adapter raises ``hold`` (the core stalls) only when the word it reads has
not come yet, or the write side has no room.

- reads: a stream of bursts into a circular buffer of ``DEPTH`` words (a power of two, at
  least two bursts; ``read_depth``). A read that misses starts the stream at its word; once
  the core has read past the stream's first word (it reads sequentially) the adapter keeps
  requesting the next burst while the buffer has room (several bursts outstanding, one ID,
  in order), so sequential reads find their word there. A burst has up to ``max_burst``
  beats and stops at the array's end and at a 4 KiB boundary. The words of a stream left
  behind by a restart are dropped as they come.
- writes: each write goes to a small FIFO, from which W beats go out as soon as their
  burst's address is sent. The address of a burst goes out with its first word, its length
  guessed: ``max_burst`` (to the 4 KiB boundary or the array's end) when the write
  continues the previous run of consecutive words, otherwise the length of that previous
  run. A run that stops early (a write elsewhere, the end of the call, a read that needs the
  memory) fills its burst with beats whose WSTRB is 0, which write nothing; then the guess
  for the next run is the length of this one, so random writes become one-beat bursts after
  the first. Bursts outstanding are counted until their B response.
- reads after writes: a write to a word the read buffer holds updates it; a write to a word
  requested and not yet come cuts the stream there (its later words are not used). The
  stream requests no words while writes to them are outstanding (words from the lowest to
  the highest address written since the writes were last all answered), and a read that
  must fetch such words first closes the gathered burst and waits for its answer. So every
  read sees every earlier write.
- ``drain`` (the core has finished): the open burst is closed, the read stream dropped (the
  next call may find another memory); ``idle`` once every write is answered and no read
  beat is outstanding (the wrapper holds ``ap_done`` until then).

Element ``i`` is at ``base + i * bytes``; the bus is as wide as an element (32 or 64 bits).

Why: the contract (docs/hardware-interface.md) has Vitis's m_axi ports; the issue asks that
sequential accesses stream at one word a cycle with reads and writes outstanding, random
ones stay correct. The core keeps its schedule; ``hold`` is a function of the adapter's
registers only (the core's stall logic must not depend on its own requests).

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

#: words behind the core's latest read that the read buffer keeps (a loop that reads a few
#: words back, as a stencil does, still finds them)
KEEP = 16
#: the write FIFO's words (W beats waiting for the bus) and the bursts outstanding at once
WRITE_FIFO = 32
WRITE_BURSTS = 8


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


def _pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def read_depth(words: int, max_burst: int, latency: int = 0) -> int:
    """The words of the read buffer: room for two bursts, or for a burst, the words kept
    behind the core and enough requested ahead to cover the memory's latency (the
    ``latency`` option), whichever is more; no more than the array (rounded up)."""
    want = max(2 * max_burst, max_burst + KEEP + 32 + latency)
    return min(_pow2(want), max(2, _pow2(words)))


def maxi_adapter(top: str, name: str, words: int, width: int, max_burst: int,
                 reads: bool, writes: bool, latency: int = 0) -> str:
    """The Verilog of ``<top>_<name>_m_axi`` (see the module doc)."""
    aw = max(1, (words - 1).bit_length())
    nb = width // 8
    size = nb.bit_length() - 1
    b = max_burst
    depth = read_depth(words, b, latency)
    db = max(1, (depth - 1).bit_length())
    keep = min(KEEP, depth // 4)
    fb = (WRITE_FIFO - 1).bit_length()
    qb = (WRITE_BURSTS - 1).bit_length()
    ax = max(aw, db, 12) + 2  # word counters: room for the array plus the buffer
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
    unused_inputs = {"RID", "RUSER", "RRESP", "RLAST", "BRESP", "BID", "BUSER"}
    if not reads:
        unused_inputs |= {"ARREADY", "RVALID", "RDATA"}
    if not writes:
        unused_inputs |= {"AWREADY", "WREADY", "BVALID"}
    for signal, direction in M_AXI_SIGNALS:
        w = widths.get(signal, 1)
        kind = "input wire" if direction == "in" else "output wire"
        decl = f"{kind} {f'[{w - 1}:0] ' if w > 1 else ''}{signal}"
        if signal in unused_inputs:
            decl = f"/* verilator lint_off UNUSED */ {decl} /* verilator lint_on UNUSED */"
        ports.append(decl)
    port_list = ",\n".join(f"    {p}" for p in ports)
    wr = "ce0 & we0" if writes else "1'b0"
    rd = ("ce0 & ~we0" if writes else "ce0") if reads else "1'b0"
    head = f"""// The m_axi adapter of array '{name}': {words} words of {width} bits, bursts of up to {b}
// beats{f', a read buffer of {depth} words' if reads else ''}{f', a write FIFO of {WRITE_FIFO} words and up to {WRITE_BURSTS} write bursts outstanding' if writes else ''}.
module {top}_{name}_m_axi (
{port_list}
);
    localparam integer AX = {ax};  // the width of word addresses and counts
    localparam [AX-1:0] WORDS = {ax}'d{words};
    localparam [AX-1:0] BURST = {ax}'d{b};
    wire [AX-1:0] a = {{{ax - aw}'d0, address0}};
    wire wr = {wr};
    wire rd = {rd};
    function [AX-1:0] min2; input [AX-1:0] x, y; min2 = x < y ? x : y; endfunction
    // the words from word w to the next 4 KiB boundary, at most BURST, at most to the end
    function [AX-1:0] room; input [AX-1:0] w; reg [11:0] byte_at; reg [12:0] page; begin
        byte_at = base[11:0] + {{w[{11 - size}:0], {size}'d0}};
        page = (13'd4096 - {{1'b0, byte_at}}) >> {size};
        room = min2(min2({{{ax - 13}'d0, page}}, BURST), WORDS - w);
    end endfunction
"""
    fixed = """    assign AWID = 1'b0; assign AWSIZE = 3'd{size}; assign AWBURST = 2'b01; assign AWLOCK = 2'b00;
    assign AWCACHE = 4'b0011; assign AWPROT = 3'b000; assign AWQOS = 4'd0;
    assign AWREGION = 4'd0; assign AWUSER = 1'b0; assign WID = 1'b0; assign WUSER = 1'b0;
    assign ARID = 1'b0; assign ARSIZE = 3'd{size}; assign ARBURST = 2'b01; assign ARLOCK = 2'b00;
    assign ARCACHE = 4'b0011; assign ARPROT = 3'b000; assign ARQOS = 4'd0;
    assign ARREGION = 4'd0; assign ARUSER = 1'b0;
""".format(size=size)
    parts = [head, fixed]
    if writes:
        parts.append(_write_side(ax, width, nb, size, fb, qb, reads))
    else:
        parts.append("""    // nothing is written
    assign AWVALID = 1'b0; assign AWADDR = 64'd0; assign AWLEN = 8'd0;
    assign WVALID = 1'b0; assign WDATA = %d'd0; assign WSTRB = %d'd0; assign WLAST = 1'b0;
    assign BREADY = 1'b0;
""" % (width, nb))
    if reads:
        parts.append(_read_side(ax, width, size, depth, db, keep, writes))
    else:
        parts.append("""    // nothing is read
    wire rmiss = 1'b0, ridle = 1'b1;
    assign ARVALID = 1'b0; assign ARADDR = 64'd0; assign ARLEN = 8'd0; assign RREADY = 1'b0;
""")
    if writes:
        parts.append("""    assign hold = rmiss | aside | wfull | dfull;
    assign idle = ridle & ~wbusy;
""")
    else:
        parts.append("""    assign hold = rmiss;
    assign idle = ridle;
""")
    parts.append("endmodule\n")
    text = "".join(parts)
    if not reads:
        text = text.replace("    wire rd = 1'b0;\n", "    /* verilator lint_off UNUSED */\n"
                            "    wire rd = 1'b0;\n    /* verilator lint_on UNUSED */\n", 1)
    return text


def _write_side(ax: int, width: int, nb: int, size: int, fb: int, qb: int, reads: bool) -> str:
    force = "rmiss & ~served & ~requested & ovl_miss" if reads else "1'b0"
    return f"""    // -- writes: a FIFO of W beats ({{strobe, data}}), the bursts' addresses and lengths
    reg [{width}:0] wfifo [0:{WRITE_FIFO - 1}];
    reg [{fb}:0] wtail, whead;
    reg [AX-1:0] dword [0:{WRITE_BURSTS - 1}];
    reg [8:0] dlen [0:{WRITE_BURSTS - 1}];
    reg [{qb}:0] dtail, dav, dw, dack;  // pushed; to AW; beats to W; answered (B)
    reg [8:0] gcount, glen;  // the burst being filled: its words so far, its length
    reg [AX-1:0] gnext;  // the word that continues it
    reg [AX-1:0] wrun;  // the run of consecutive words written (at most BURST)
    reg wseq;  // gnext continues the last run
    reg aside;  // a write that does not continue the open burst waits while it is filled
    reg [AX-1:0] aside_addr;
    reg [{width - 1}:0] aside_data;
    reg [AX-1:0] wlo, whi;  // the words written and not yet all answered (when wbusy)
    wire wpend = dtail != dack;
    wire wbusy = wpend | aside;
    wire wfull = wtail - whead == {fb + 1}'d{WRITE_FIFO};
    wire dfull = dtail - dack == {qb + 1}'d{WRITE_BURSTS};
    wire gopen = gcount != glen;
    wire force_close = {force};
    // a write comes in: the core's, or the one kept aside once the open burst is filled
    wire iw = wr | (aside & ~gopen & ~wfull & ~dfull);
    wire [AX-1:0] ia = wr ? a : aside_addr;
    wire [{width - 1}:0] id = wr ? d0 : aside_data;
    wire cont = gopen & (ia == gnext);
    wire seq = wseq & (ia == gnext);
    wire [AX-1:0] guess = seq ? BURST : wrun;
    /* verilator lint_off UNUSED */  // (a length has 9 bits)
    wire [AX-1:0] new_len = min2(guess, room(ia));
    /* verilator lint_on UNUSED */
    // beats with WSTRB 0 fill a burst whose run stopped
    wire pad = gopen & ~wr & (aside | drain | force_close) & ~wfull;
    wire push = (iw & (cont | ~gopen)) | pad;
    always @(posedge clk) begin
        if (push) wfifo[wtail[{fb - 1}:0]] <= pad ? {width + 1}'d0 : {{1'b1, id}};
        if (iw & ~gopen) begin
            dword[dtail[{qb - 1}:0]] <= ia;
            dlen[dtail[{qb - 1}:0]] <= new_len[8:0];
        end
    end
    always @(posedge clk) begin
        if (rst) begin
            wtail <= 0; dtail <= 0; gcount <= 0; glen <= 0; wrun <= BURST; wseq <= 1'b0;
            aside <= 1'b0;
        end else begin
            if (push) wtail <= wtail + 1'b1;
            if (iw) begin
                if (cont) begin
                    gcount <= gcount + 1'b1; gnext <= ia + 1'b1;
                    if (wrun != BURST) wrun <= wrun + 1'b1;
                end else if (gopen) begin
                    aside <= 1'b1; aside_addr <= ia; aside_data <= id;
                end else begin
                    dtail <= dtail + 1'b1; gcount <= 9'd1; glen <= new_len[8:0];
                    gnext <= ia + 1'b1; wseq <= 1'b1; aside <= 1'b0;
                    wrun <= seq ? (wrun != BURST ? wrun + 1'b1 : BURST) : {{{{(AX - 1){{1'b0}}}}, 1'b1}};
                end
            end else if (pad) begin  // (a write after it is not at its place: it waits)
                gcount <= gcount + 1'b1; gnext <= gnext + 1'b1;
            end
            if (wr) begin
                wlo <= wbusy && wlo < a ? wlo : a;
                whi <= wbusy && whi > a ? whi : a;
            end
            if (drain) begin wseq <= 1'b0; wrun <= BURST; end
        end
    end
    // AW: the bursts in order
    reg awv;
    reg [AX-1:0] aw_word;
    reg [7:0] aw_len;
    assign AWVALID = awv;
    assign AWADDR = base + ({{{64 - ax}'d0, aw_word}} << {size});
    assign AWLEN = aw_len;
    always @(posedge clk) begin
        if (rst) begin awv <= 1'b0; dav <= 0; end
        else if ((~awv | AWREADY) && dav != dtail) begin
            awv <= 1'b1; aw_word <= dword[dav[{qb - 1}:0]];
            aw_len <= dlen[dav[{qb - 1}:0]][7:0] - 8'd1; dav <= dav + 1'b1;
        end else if (AWREADY) awv <= 1'b0;
    end
    // W: the FIFO's beats once their burst's address is out (or going), WLAST by its length
    reg wv, wstrobe, wlast;
    reg [{width - 1}:0] wdata;
    reg [8:0] wbeat;
    wire wload = (~wv | WREADY) && whead != wtail && dw != dav;
    wire wend = wbeat + 1'b1 == dlen[dw[{qb - 1}:0]];
    assign WVALID = wv;
    assign WDATA = wdata;
    assign WSTRB = {{{nb}{{wstrobe}}}};
    assign WLAST = wlast;
    always @(posedge clk) if (wload) {{wstrobe, wdata}} <= wfifo[whead[{fb - 1}:0]];
    always @(posedge clk) begin
        if (rst) begin wv <= 1'b0; whead <= 0; dw <= 0; wbeat <= 0; wlast <= 1'b0; end
        else if (wload) begin
            wv <= 1'b1; whead <= whead + 1'b1; wlast <= wend;
            if (wend) begin wbeat <= 0; dw <= dw + 1'b1; end else wbeat <= wbeat + 1'b1;
        end else if (WREADY) wv <= 1'b0;
    end
    // B: counted
    assign BREADY = dack != dav;
    always @(posedge clk) begin
        if (rst) dack <= 0;
        else if (BVALID && BREADY) dack <= dack + 1'b1;
    end
"""


def _read_side(ax: int, width: int, size: int, depth: int, db: int, keep: int,
               writes: bool) -> str:
    ovl_miss = ("wbusy && rmiss_addr <= whi && wlo < rmiss_addr + BURST" if writes else "1'b0")
    ovl_fetch = ("wbusy && rend <= whi && wlo < rend + rlen" if writes else "1'b0")
    return f"""    // -- reads: a stream of bursts into a circular buffer (word w at w mod DEPTH)
    localparam [AX-1:0] DEPTH = {ax}'d{depth}, KEEP = {ax}'d{keep};
    reg [{width - 1}:0] rbuf [0:{depth - 1}];
    reg [AX-1:0] rstart;  // the stream's first word
    reg [AX-1:0] rhead, rgot, rend;  // the buffer holds [rhead, rgot); requested up to rend
    reg rcut;  // the stream is cut at rlim (no further requests; words from rlim unused)
    reg [AX-1:0] rlim;
    reg [AX-1:0] rdrop;  // beats of a left stream still to come (dropped)
    reg [AX-1:0] rcur;  // the core's latest read
    reg rmiss;  // a read waits for its word
    reg [AX-1:0] rmiss_addr;
    reg arv;
    reg [AX-1:0] ar_word;
    reg [7:0] ar_len;
    wire hit = a >= rhead && a < rgot && (~rcut || a < rlim);
    wire served = rmiss && rmiss_addr >= rhead && rmiss_addr < rgot && (~rcut || rmiss_addr < rlim);
    // the word is requested (and not cut off), or next to be: it comes without a restart
    wire requested = rmiss_addr >= rgot && rmiss_addr < rend && (~rcut || rmiss_addr < rlim);
    wire coming = requested || (~rcut && rmiss_addr == rend && rend < WORDS);
    wire ovl_miss = {ovl_miss};
    wire restart = rmiss && ~served && ~coming && ~ovl_miss;
    wire [AX-1:0] rlen = room(rend);
    wire [AX-1:0] rkeep = rcur >= rstart + KEEP ? rcur - KEEP : rstart;
    wire fetch = ~rcut && (~arv | ARREADY) && rend < WORDS && rend + rlen <= rkeep + DEPTH
        && ~({ovl_fetch}) && (rend == rstart || rcur != rstart) && ~restart && ~drain;
    wire [AX-1:0] rend_next = fetch ? rend + rlen : rend;
    wire wr_hit = wr & hit;  // an update of a word in the buffer takes its write port
    wire rbeat = RVALID & RREADY;
    wire ridle = ~rmiss && rdrop == 0 && rgot == rend && ~arv;
    assign RREADY = ~wr_hit;
    assign ARVALID = arv;
    assign ARADDR = base + ({{{64 - ax}'d0, ar_word}} << {size});
    assign ARLEN = ar_len;
    always @(posedge clk) begin
        if (wr_hit || (rbeat && rdrop == 0))
            rbuf[wr_hit ? a[{db - 1}:0] : rgot[{db - 1}:0]] <= wr_hit ? {"d0" if writes else f"{width}'d0"} : RDATA;
        if ((rd && hit) || served) q0 <= rbuf[rd ? a[{db - 1}:0] : rmiss_addr[{db - 1}:0]];
    end
    always @(posedge clk) begin
        if (rst) begin
            rstart <= 0; rhead <= 0; rgot <= 0; rend <= 0; rcut <= 1'b1; rlim <= 0; rdrop <= 0;
            rcur <= 0; rmiss <= 1'b0; arv <= 1'b0;
        end else begin
            if (fetch) begin
                arv <= 1'b1; ar_word <= rend; ar_len <= rlen[7:0] - 8'd1; rend <= rend + rlen;
                if (rend + rlen > rhead + DEPTH) rhead <= rend + rlen - DEPTH;
            end else if (ARREADY) arv <= 1'b0;
            if (rbeat) begin
                if (rdrop != 0) rdrop <= rdrop - 1'b1;
                else rgot <= rgot + 1'b1;
            end
            if (rd) begin
                rcur <= a;
                if (~hit) begin rmiss <= 1'b1; rmiss_addr <= a; end
            end
            if (served) rmiss <= 1'b0;
            // a write to a word requested and not come: the stream stops before it
            if (wr && ~hit && a >= rgot && a < rend_next && (~rcut || a < rlim)) begin
                rcut <= 1'b1; rlim <= a;
            end
            if (restart) begin  // the stream starts again at the word read
                rstart <= rmiss_addr; rhead <= rmiss_addr; rgot <= rmiss_addr;
                rend <= rmiss_addr; rcut <= 1'b0;
                rdrop <= rdrop + (rend - rgot) - {{{{(AX - 1){{1'b0}}}}, rbeat}};
            end
            if (drain) begin rcut <= 1'b1; rlim <= rhead; end
        end
    end
"""
