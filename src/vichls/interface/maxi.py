"""The m_axi adapter: an array served from memory through an AXI4 master, streaming in bursts.

What: ``maxi_adapter(top, name, words, width, max_burst, reads, writes, latency)`` is the
Verilog of the module ``<top>_<name>_m_axi`` between the core's ap_memory port set of the
array and an AXI4 master (all five channels, the contract's port names without the
``m_axi_<bundle>_`` prefix). The core keeps its ap_memory timing (a read is answered the
next cycle); the adapter raises ``hold`` (the core stalls) only when the word it reads has
not come yet, or the write side has no room.

- bursts: up to ``max_burst`` beats, ending at a multiple of ALIGN words of the bus (the
  power of two at or above ``max_burst``; a 4 KiB page holds a whole number of them, so no
  burst crosses one) and at the array's end: a burst's length is ALIGN less the low bits
  of its first word's address, no page arithmetic. A stream from an unaligned word starts
  with a shorter burst; a ``max_burst`` that is not a power of two alternates it with the
  rest of ALIGN.
- reads: a stream of bursts into a circular buffer of ``DEPTH`` words (a power of two, at
  least two bursts; ``read_depth``). A read that misses starts the stream at its word; once
  the core has read again (it reads sequentially) the adapter keeps requesting the next
  burst while the buffer has room (its end no more than DEPTH - KEEP - max_burst words
  ahead of the core's latest read; several bursts outstanding, one ID, in order), so
  sequential reads find their word there. The buffer holds the words from the stream's
  first word, and no more than DEPTH before its end, up to the last word come. The words
  of a stream left behind by a restart are dropped as they come (counted); a second
  restart waits until they have come, which costs nothing in practice (the word that ends
  the miss comes after them).
- writes: each write goes to a small FIFO (marked when it opens a burst), from which W
  beats go out as soon as their burst's address is sent. The address of a burst goes out
  with its first word, its length guessed: ``max_burst`` (to the burst boundary or the
  array's end) when the write continues the previous run of consecutive words, otherwise
  the length of that previous run (1 at the start of a call). A write elsewhere opens its
  burst at once; the burst it leaves (or one closed by the end of the call or a read that
  needs the memory) is filled by the W side with beats whose WSTRB is 0, which write
  nothing; so random writes are one-beat bursts and a loop writing rows learns the row
  length. Bursts outstanding are counted until their B response.
- reads after writes: a write to a word the read buffer holds updates it; a write to a word
  requested and not yet come cuts the stream there (its later words are not used). The
  stream requests no words while writes to them are outstanding (words from the lowest to
  the highest address written since the writes were last all answered), and a read that
  must fetch such words first closes the gathered burst and waits for its answer. So every
  read sees every earlier write.
- ``drain`` (the core has finished): the open burst is closed, the read stream dropped (the
  next call may find another memory); ``idle`` once every write is answered and no read
  beat is outstanding (the wrapper holds ``ap_done`` until then).

Element ``i`` is at ``base + i * bytes``. The bus has ``data_width`` bits (by default an
element's), ``lanes`` elements a beat (lane 0 the low bytes); everything above counts beats
of the bus ("words"): element ``i`` is lane ``(i + lane0) mod lanes`` of beat
``(i + lane0) / lanes``, ``lane0`` the elements of the base address below a beat (the array
spans one beat more when it is not 0). With several lanes: the read buffer has a bank per
lane (a beat that comes writes them all, the core's write its lane; a read takes the beat,
registered, and q0 is its lane); writes are gathered into a beat (``amask``: the lanes
written) that goes into the FIFO at a write to another beat or when the burst is closed
(the FIFO counts as full one beat early, so it always has room then), and its W beat's
WSTRB marks the bytes of those lanes only.

Why: the contract (docs/hardware-interface.md) has Vitis's m_axi ports; the issue asks that
sequential accesses stream at one word a cycle with reads and writes outstanding, random
ones stay correct. The core keeps its schedule; ``hold`` is a function of the adapter's
registers only (the core's stall logic must not depend on its own requests).

With ``gather`` (several writers share the bundle's W channel, interface/interconnect.py)
a burst's address waits until the burst takes no more beats (a write to a beat that does
not continue it, its end or a close; with lanes, once its last beat is complete or pushed),
and its length is the beats it took: no beat with WSTRB 0, and the W channel, in the order
of the addresses, never waits for the core (which could itself wait for another array's
writes queued behind).

Assumes its bundle to itself, or shared through the bundle's interconnect (whose IDs
replace the adapter's), a single-port memory (the schedule gives m_axi arrays one port),
elements of whole bytes (8, 16, 32 or 64 bits) and a base address aligned to the element
size.
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
#: the longest burst (in beats) of an adapter that gathers its bursts before their address
#: (half the write FIFO: the next burst gathers while this one leaves)
GATHER = WRITE_FIFO // 2


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


def _zext(expr: str, width: int, to: int, cut: bool = False) -> str:
    """``expr`` (``width`` bits) zero-extended to ``to`` bits (or, with ``cut``, its low
    ``to`` bits when it is wider)."""
    if width == to:
        return expr
    if width > to:
        assert cut, (expr, width, to)
        return f"{expr}[{to - 1}:0]"
    return f"{{{to - width}'d0, {expr}}}"


def _pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def read_depth(words: int, max_burst: int, latency: int = 0, lanes: int = 1) -> int:
    """The beats of the read buffer: room for two bursts, or for a burst, the words kept
    behind the core and enough requested ahead to cover the memory's latency (the
    ``latency`` option; with ``lanes`` elements a beat, the core takes a beat every
    ``lanes`` cycles, so as many fewer), whichever is more; no more than the array's
    ``words`` beats (rounded up)."""
    want = max(2 * max_burst, max_burst + -(-(KEEP + 32 + latency) // lanes))
    return min(_pow2(want), max(2, _pow2(words)))


def bus_width(width: int, data_width: int = 0) -> int:
    """The bits of an m_axi bus: ``data_width``, or by default the element's width and at
    least 32 bits."""
    return data_width or max(32, width)


def _strobes(lanes: int, nbytes: int, mask: str) -> str:
    """WSTRB from a bit per lane of ``nbytes`` bytes (lane 0 the low bytes)."""
    if lanes == 1:
        return f"{{{nbytes}{{{mask}}}}}"
    return "{" + ", ".join(f"{{{nbytes}{{{mask}[{j}]}}}}" for j in reversed(range(lanes))) + "}"


def maxi_adapter(top: str, name: str, words: int, width: int, max_burst: int,
                 reads: bool, writes: bool, latency: int = 0, data_width: int = 0,
                 gather: bool = False) -> str:
    """The Verilog of ``<top>_<name>_m_axi`` (see the module doc); ``width``: the element's
    bits, ``data_width``: the bus's (a multiple of ``width``; 0: as wide as an element).
    ``gather`` (an adapter that writes beside other writers in its bundle, whose W channel
    they share: interface/interconnect.py): a burst's address goes out only once the burst
    takes no more beats, with the count it took (bursts of at most ``GATHER`` beats), so the
    shared W channel never waits for words the core has not written."""
    bus = data_width or width
    assert bus % width == 0 and bus >= 32 and width % 8 == 0, (width, bus)
    lanes = bus // width  # elements a beat
    r = lanes.bit_length() - 1
    aw = max(1, (words - 1).bit_length())
    nb = bus // 8
    size = nb.bit_length() - 1
    # the beats the array spans: with lanes, one more than its words need when the base
    # address is not aligned to a beat
    beats = words if lanes == 1 else -(-(words + lanes - 1) // lanes)
    b = max_burst
    depth = read_depth(beats, b, latency, lanes)
    db = max(1, (depth - 1).bit_length())
    keep = min(-(-KEEP // lanes), depth // 4)
    fb = (WRITE_FIFO - 1).bit_length()
    qb = (WRITE_BURSTS - 1).bit_length()
    # bursts end at a multiple of ALIGN words of the bus (the next power of two at or above
    # max_burst; a 4 KiB page holds a whole number of them): a burst's length is then
    # ALIGN minus the low bits of its first word's address
    align = min(_pow2(b), 4096 // nb)
    kb = (align - 1).bit_length()
    # beat counters: the array's beats, and a burst beyond them (the overlap checks)
    ab = max(1, (beats - 1).bit_length())
    ax = max(ab, db + 1, kb + 1, (beats + b).bit_length())
    ports = ["input wire clk", "input wire rst", "input wire [63:0] base", "input wire drain",
             "output wire hold", "output wire idle",
             f"input wire [{aw - 1}:0] address0", "input wire ce0"]
    if writes:
        ports += ["input wire we0", f"input wire [{width - 1}:0] d0"]
    if reads:
        ports += [f"output {'reg' if lanes == 1 else 'wire'} [{width - 1}:0] q0"]
    widths = {"AWADDR": 64, "ARADDR": 64, "AWLEN": 8, "ARLEN": 8, "AWSIZE": 3, "ARSIZE": 3,
              "AWBURST": 2, "ARBURST": 2, "AWLOCK": 2, "ARLOCK": 2, "AWCACHE": 4,
              "ARCACHE": 4, "AWPROT": 3, "ARPROT": 3, "AWQOS": 4, "ARQOS": 4, "AWREGION": 4,
              "ARREGION": 4, "WDATA": bus, "RDATA": bus, "WSTRB": nb, "RRESP": 2,
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
    functions = ""
    if writes:  # (the write side's guess of a burst's length compares beats)
        functions += _burst_function("room", "", ax, kb, size, align, b)
    if reads:  # (the read side sends AxLEN, the beats less one)
        functions += _burst_function("burst_last", ", less one (its AxLEN)", ax, kb, size,
                                     align, b)
    burst_decl = (f"    localparam [AX-1:0] BURST = {ax}'d{b};\n" if reads and writes else "")
    if lanes == 1:
        place = f"""    localparam [AX-1:0] WORDS = {ax}'d{words};
{burst_decl}    wire [AX-1:0] a = {_zext("address0", aw, ax)};
"""
        what = f"{words} words of {width} bits"
    else:
        # element i is lane (i + LANE0) mod LANES of beat (i + LANE0) / LANES, LANE0 the
        # base address's elements below a beat (0 when the base is aligned to a beat)
        esize = (width // 8).bit_length() - 1
        ew = max(r + 1, (words + lanes - 2).bit_length())
        # the array's beats: (words + lanes - 1 + lane0) / lanes, one more than q when lane0
        # takes the last beat's elements past a beat
        q, m = divmod(words + lanes - 1, lanes)
        if m:
            count = (f"    wire [AX-1:0] WORDS = {ax}'d{q} + {{{ax - 1}'d0, lane0 >= {r}'d{lanes - m}}};"
                     "  // the array's beats\n")
        else:
            count = f"    localparam [AX-1:0] WORDS = {ax}'d{q};  // the array's beats\n"
        if esize:  # (the base address is aligned to an element)
            count += (f"    /* verilator lint_off UNUSED */\n    wire [{esize - 1}:0] base_low = "
                      f"base[{esize - 1}:0];\n    /* verilator lint_on UNUSED */\n")
        place = f"""{burst_decl}    // element i is lane (i + lane0) mod {lanes} of beat (i + lane0) / {lanes}, lane0 the
    // elements of the base address below a beat
    wire [{r - 1}:0] lane0 = base[{size - 1}:{esize}];
    wire [{ew - 1}:0] e = {_zext("address0", aw, ew)} + {_zext("lane0", r, ew)};
    wire [AX-1:0] a = {_zext(f"e[{ew - 1}:{r}]", ew - r, ax)};  // the beat accessed
    wire [{r - 1}:0] lane = e[{r - 1}:0];
{count}"""
        what = (f"{words} words of {width} bits, {lanes} a beat of {bus} bits "
                f"({beats} beats at most)")
    head = f"""// The m_axi adapter of array '{name}': {what}, bursts of up to {b}
// beats{f', a read buffer of {depth} beats' if reads else ''}{f', a write FIFO of {WRITE_FIFO} beats and up to {WRITE_BURSTS} write bursts outstanding' if writes else ''}.
module {top}_{name}_m_axi (
{port_list}
);
    localparam integer AX = {ax};  // the width of beat addresses and counts
{place}    wire wr = {wr};
    wire rd = {rd};
{functions}"""
    fixed = """    assign AWID = 1'b0; assign AWSIZE = 3'd{size}; assign AWBURST = 2'b01; assign AWLOCK = 2'b00;
    assign AWCACHE = 4'b0011; assign AWPROT = 3'b000; assign AWQOS = 4'd0;
    assign AWREGION = 4'd0; assign AWUSER = 1'b0; assign WID = 1'b0; assign WUSER = 1'b0;
    assign ARID = 1'b0; assign ARSIZE = 3'd{size}; assign ARBURST = 2'b01; assign ARLOCK = 2'b00;
    assign ARCACHE = 4'b0011; assign ARPROT = 3'b000; assign ARQOS = 4'd0;
    assign ARREGION = 4'd0; assign ARUSER = 1'b0;
""".format(size=size)
    parts = [head, fixed]
    if writes:
        parts.append(_write_side(ax, width, nb, size, fb, qb, reads, b, lanes, gather))
    else:
        parts.append("""    // nothing is written
    assign AWVALID = 1'b0; assign AWADDR = 64'd0; assign AWLEN = 8'd0;
    assign WVALID = 1'b0; assign WDATA = %d'd0; assign WSTRB = %d'd0; assign WLAST = 1'b0;
    assign BREADY = 1'b0;
""" % (bus, nb))
    if reads:
        parts.append(_read_side(ax, width, size, depth, db, keep, writes, beats, b, lanes))
    else:
        parts.append("""    // nothing is read
    wire rmiss = 1'b0, ridle = 1'b1;
    assign ARVALID = 1'b0; assign ARADDR = 64'd0; assign ARLEN = 8'd0; assign RREADY = 1'b0;
""")
    if writes:
        parts.append("""    assign hold = rmiss | wfull | dfull;
    assign idle = ridle & ~wpend;
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


def _burst_function(name: str, what: str, ax: int, kb: int, size: int, align: int,
                    b: int) -> str:
    """The function ``name(w)``: the beats of a burst from beat ``w`` (with ``what`` =
    ", less one ...": the beats less one, 8 bits; else 9 bits)."""
    last = bool(what)
    if kb:  # (ALIGN - 1 - low: the complement of low)
        low = f"""reg [{kb - 1}:0] low; begin
        low = base[{kb + size - 1}:{size}] + w[{kb - 1}:0];
        left = {"{1'b0, ~low}" if last else f"{kb + 1}'d{align} - {{1'b0, low}}"};"""
    else:
        low = f"""begin
        left = {"1'b0" if last else "1'b1"};"""
    top = b - 1 if last else b
    cap = (f"\n        if (left > {kb + 1}'d{top}) left = {kb + 1}'d{top};" if b < align else "")
    ow = 8 if last else 9
    tail = "WORDS - 1'b1 - w" if last else "WORDS - w"
    return f"""    // the beats of a burst from beat w{what}: to the next multiple of {align}
    // beats (at most {b}), and no further than the array's end
    function [{ow - 1}:0] {name}; input [AX-1:0] w; reg [{kb}:0] left; reg [AX-1:0] tail; {low}{cap}
        tail = {tail};
        {name} = tail < {_zext("left", kb + 1, ax)} ? {_zext("tail", ax, ow, True)} : {_zext("left", kb + 1, ow, True)};
    end endfunction
"""


def _address(word: str, ax: int, size: int, lanes: int) -> str:
    """The byte address of beat ``word`` (``ax`` bits) of the bus (2**size bytes): from the
    base address, itself aligned down to a beat when a beat holds several elements."""
    if lanes == 1:
        return f"base + ({{{64 - ax}'d0, {word}}} << {size})"
    return f"{{base[63:{size}] + {{{64 - size - ax}'d0, {word}}}, {size}'d0}}"


def _write_side(ax: int, width: int, nb: int, size: int, fb: int, qb: int, reads: bool,
                b: int, lanes: int = 1, gather: bool = False) -> str:
    force = "rmiss & ~served & ~requested & ovl_miss" if reads else "1'b0"
    bus = width * lanes
    if lanes == 1:  # each write a beat, straight into the FIFO
        mark, fifo_w, full = width, width + 1, WRITE_FIFO
        lane_decl = ""
        fifo_write = f"        if (wr) wfifo[wtail[{fb - 1}:0]] <= {{~cont, d0}};\n"
        new_beat = "wr & ~cont"
        on_write = "            if (wr) begin\n                wtail <= wtail + 1'b1; gnext <= a + 1'b1;\n"
        on_write_end = "            end else if (close) gleft <= 9'd0;\n"
        lane_rst = ""
        strobe_decl = "    reg wv, wstrobe, wlast;\n"
        strobe_load = "wstrobe <= wword;"
        closed = "~gopen"
    else:
        # a beat is gathered (the elements written to it, a bit each in amask) until a
        # write to another beat or the closing of the burst sends it into the FIFO; the
        # FIFO counts as full a beat early, so that the gathered beat always has room
        mark, fifo_w, full = bus + lanes, bus + lanes + 1, WRITE_FIFO - 1
        # (gather: the burst's last beat, once complete, goes at once; a later write to it
        # opens a burst of its own)
        done = "(close | gdone)" if gather else "close"
        gdone = ("    wire gdone = ~gopen & (&amask);  // the burst's last beat is complete\n"
                 if gather else "")
        lane_decl = f"""    // the beat being gathered (when aval): gcur, its lanes written (amask), whether it
    // opens a burst
    reg aval, aopen;
    reg [AX-1:0] gcur;
    reg [{lanes - 1}:0] amask;
    reg [{bus - 1}:0] adata;
    wire same = aval & (a == gcur);  // a write to the beat being gathered
{gdone}    wire push = aval & (wr ? ~same : {done});  // the gathered beat goes into the FIFO
"""
        fifo_write = f"""        if (push) wfifo[wtail[{fb - 1}:0]] <= {{aopen, amask, adata}};
        if (wr) begin
            adata[{{lane, {(width - 1).bit_length()}'d0}} +: {width}] <= d0;
            amask <= (same ? amask : {lanes}'d0) | ({lanes}'d1 << lane);
        end
"""
        new_beat = "wr & ~same & ~cont"
        on_write = ("            if (push) wtail <= wtail + 1'b1;\n"
                    "            if (wr & ~same) begin  // a new beat\n"
                    "                gnext <= a + 1'b1; gcur <= a; aval <= 1'b1; aopen <= ~cont;\n")
        on_write_end = (f"            end else if (~wr & {done}) begin gleft <= 9'd0; "
                        "aval <= 1'b0; end\n")
        lane_rst = " aval <= 1'b0;"
        strobe_decl = f"    reg wv, wlast;\n    reg [{lanes - 1}:0] wstrobe;  // the lanes the beat writes\n"
        strobe_load = f"wstrobe <= wword ? whead_word[{bus + lanes - 1}:{bus}] : {lanes}'d0;"
        # (the newest burst's beat being gathered is still to come)
        closed = "(~gopen & ~aval)"
    if full == WRITE_FIFO:
        wfull = f"wtail == {{~whead[{fb}], whead[{fb - 1}:0]}}"
    else:
        wfull = f"wtail - whead == {fb + 1}'d{full}"
    # (the words written are tracked only for the reads to see them)
    span = """            if (wr) begin
                wlo <= wpend && wlo < a ? wlo : a;
                whi <= wpend && whi > a ? whi : a;
            end
""" if reads else ""
    span_decl = ("    reg [AX-1:0] wlo, whi;  // the words written and not yet all answered "
                 "(when wpend)\n") if reads else ""
    # gather: bursts of at most GATHER beats, the newest one open (gat; with lanes, while
    # its last beat gathers) until a write to a beat that does not continue it, its end (a
    # cycle without a write once its last beat is complete) or a close; its length (the
    # beats it took) written then, its address sent after
    cap = gather and b > GATHER
    guess = "new_guess" if cap else "new_len"
    capped = (f"    wire [8:0] new_len = {guess} > 9'd{GATHER} ? 9'd{GATHER} : {guess};\n"
              if cap else "")
    length = f"            dlast[dtail[{qb - 1}:0]] <= new_last[7:0];\n"
    take = take_new = shut = rst_gat = ready = taken = ""
    if gather:
        gw = max(1, (min(b, GATHER) - 1).bit_length())
        if lanes == 1:
            gat = "gat"
            taken = ("    reg gat;  // the newest burst is open (its length not yet written)\n"
                     "    wire gshut = gat & (wr ? ~cont : close | ~gopen);  // it closes\n")
            take_new = " gtake <= 0; gat <= 1'b1;"
            shut = "            if (~wr & gshut) gat <= 1'b0;\n"
            rst_gat = " gat <= 1'b0;"
        else:  # (open while its last beat gathers: aval)
            gat = "aval"
            taken = "    wire gshut = aval & (wr ? ~same & ~cont : close | gdone);  // it closes\n"
            take_new = " gtake <= 0;"
        taken = (f"    reg [{gw - 1}:0] gtake;  // the beats the newest burst took, less one\n"
                 + taken)
        length = (f"        if (gshut) dlast[dtail[{qb - 1}:0] - 1'b1] <= "
                  f"{_zext('gtake', gw, 8)};\n")
        take = "                    gtake <= gtake + 1'b1;\n"
        ready = f" && (dav + 1'b1 != dtail || ~{gat})"
    return f"""    // -- writes: a FIFO of the beats written (each marked when it opens a burst); each
    // burst's address and length (AWLEN: the beats after its words have WSTRB 0)
    reg [{fifo_w - 1}:0] wfifo [0:{WRITE_FIFO - 1}];
    reg [{fb}:0] wtail, whead;
    reg [AX-1:0] dword [0:{WRITE_BURSTS - 1}];
    reg [7:0] dlast [0:{WRITE_BURSTS - 1}];  // the burst's beats less one (AWLEN)
    reg [{qb}:0] dtail, dav, dw, dack;  // pushed; to AW; beats to W; answered (B)
    reg [8:0] gleft;  // the words the newest burst still takes
    reg [AX-1:0] gnext;  // the word that continues it
    localparam [8:0] BURST9 = 9'd{b};
    // the run of consecutive words written (at most BURST; 1 at the start of a call, so a
    // first write elsewhere than where the last run stopped is a burst of one beat)
    reg [8:0] wrun;
    reg wseq;  // gnext continues the last run
{span_decl}    wire wpend = dtail != dack;
    wire wfull = {wfull};
    // (counters one bit wider than the queue: full when they differ in that bit only)
    wire dfull = dtail == {{~dack[{qb}], dack[{qb - 1}:0]}};
    wire gopen = gleft != 9'd0;
    // the newest burst takes no more words: a read needs the memory, or the call ends
    wire close = {force} | drain;
    wire cont = gopen & (a == gnext);
    wire seq = wseq & (a == gnext);
    wire [8:0] room_a = room(a);
    wire [8:0] {guess} = ~seq && wrun < room_a ? wrun : room_a;  // (room_a <= BURST)
{capped}    wire [8:0] new_last = new_len - 1'b1;
{lane_decl}{taken}    always @(posedge clk) begin
{fifo_write}        if ({new_beat}) begin
            dword[dtail[{qb - 1}:0]] <= a;
{length if not gather else ""}        end
{length if gather else ""}    end
    always @(posedge clk) begin
        if (rst) begin
            wtail <= 0; dtail <= 0; gleft <= 0; wrun <= 9'd1; wseq <= 1'b0;{lane_rst}{rst_gat}
        end else begin
{on_write}                if (cont) begin
                    gleft <= gleft - 1'b1;
{take}                    if (wrun != BURST9) wrun <= wrun + 1'b1;
                end else begin  // a new burst (the newest one, if open, stops here)
                    dtail <= dtail + 1'b1; gleft <= new_last; wseq <= 1'b1;{take_new}
                    wrun <= seq ? (wrun != BURST9 ? wrun + 1'b1 : BURST9) : 9'd1;
                end
{on_write_end}{shut}{span}            if (drain) begin wseq <= 1'b0; wrun <= 9'd1; end
        end
    end
    // AW: the bursts in order
    reg awv;
    reg [AX-1:0] aw_word;
    reg [7:0] aw_len;
    assign AWVALID = awv;
    assign AWADDR = {_address("aw_word", ax, size, lanes)};
    assign AWLEN = aw_len;
    always @(posedge clk) begin
        if (rst) begin awv <= 1'b0; dav <= 0; end
        else if ((~awv | AWREADY) && dav != dtail{ready}) begin
            awv <= 1'b1; aw_word <= dword[dav[{qb - 1}:0]];
            aw_len <= dlast[dav[{qb - 1}:0]]; dav <= dav + 1'b1;
        end else if (AWREADY) awv <= 1'b0;
    end
    // W: a burst's beats once its address is out (or going): its words from the FIFO (up to
    // the word that opens the next burst), then, once it takes no more words, beats with
    // WSTRB 0 up to its length; WLAST by the length
{strobe_decl}    reg [{bus - 1}:0] wdata;
    reg [7:0] wbeat;
    wire [{fifo_w - 1}:0] whead_word = wfifo[whead[{fb - 1}:0]];
    wire wword = whead != wtail && (wbeat == 8'd0 || ~whead_word[{mark}]);
    wire wclosed = dw + 1'b1 != dtail || {closed};
    wire wload = (~wv | WREADY) && dw != dav && (wword || wclosed);
    wire wend = wbeat == dlast[dw[{qb - 1}:0]];
    assign WVALID = wv;
    assign WDATA = wdata;
    assign WSTRB = {_strobes(lanes, nb // lanes, "wstrobe")};
    assign WLAST = wlast;
    always @(posedge clk) if (wload) begin {strobe_load} wdata <= whead_word[{bus - 1}:0]; end
    always @(posedge clk) begin
        if (rst) begin wv <= 1'b0; whead <= 0; dw <= 0; wbeat <= 0; wlast <= 1'b0; end
        else if (wload) begin
            wv <= 1'b1; wlast <= wend;
            if (wword) whead <= whead + 1'b1;
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
               writes: bool, words: int, burst: int, lanes: int = 1) -> str:
    data = "d0" if writes else f"{width}'d0"
    if lanes == 1:
        buf_decl = f"    reg [{width - 1}:0] rbuf [0:{depth - 1}];\n"
        buf = f"""    always @(posedge clk) begin
        if (wr_hit || (rbeat && rdrop == 0))
            rbuf[wr_hit ? a[{db - 1}:0] : rgot[{db - 1}:0]] <= wr_hit ? {data} : RDATA;
        if ((rd && hit) || served) q0 <= rbuf[rd ? a[{db - 1}:0] : rmiss_addr[{db - 1}:0]];
    end
"""
        lane_set = ""
    else:
        # a bank of the buffer per lane: a beat that comes writes them all, the core's write
        # one; a read takes the beat from every bank (registered, as a block RAM reads) and
        # q0 is its lane
        r = lanes.bit_length() - 1
        bus = width * lanes
        buf_decl = f"""    wire [{bus - 1}:0] rrow;  // the beat read last
    reg [{r - 1}:0] qlane;  // q0's lane of it
    reg [{r - 1}:0] rmiss_lane;
"""
        buf = f"""    wire rwe = wr_hit || (rbeat && rdrop == 0);
    wire [{lanes - 1}:0] rlanes = wr_hit ? {lanes}'d1 << lane : {{{lanes}{{1'b1}}}};
    wire [{db - 1}:0] rwidx = wr_hit ? a[{db - 1}:0] : rgot[{db - 1}:0];
    wire [{db - 1}:0] rridx = rd ? a[{db - 1}:0] : rmiss_addr[{db - 1}:0];
    wire rren = (rd && hit) || served;
    genvar j;
    generate for (j = 0; j < {lanes}; j = j + 1) begin : bank
        reg [{width - 1}:0] mem [0:{depth - 1}];
        reg [{width - 1}:0] q;
        always @(posedge clk) begin
            if (rwe && rlanes[j]) mem[rwidx] <= wr_hit ? {data} : RDATA[j * {width} +: {width}];
            if (rren) q <= mem[rridx];
        end
        assign rrow[j * {width} +: {width}] = q;
    end endgenerate
    always @(posedge clk) if (rren) qlane <= rd ? lane : rmiss_lane;
    assign q0 = rrow[{{qlane, {(width - 1).bit_length()}'d0}} +: {width}];
"""
        lane_set = " rmiss_lane <= lane;"
    # the stream is usable up to rlim when cut (writes), not at all when cut (reads only)
    ok_a = "(~rcut || a < rlim)" if writes else "~rcut"
    ok_m = "(~rcut || rmiss_addr < rlim)" if writes else "~rcut"
    ovl_miss = "wpend && rmiss_addr <= whi && wlo < rmiss_addr + BURST" if writes else "1'b0"
    ovl_fetch = "wpend && rend <= whi && wlo < rnext" if writes else "1'b0"
    if depth >= words:  # the whole array fits: no word of the buffer is ever overwritten
        room_ok = "1'b1"
        kept = ""
        decl_room = ""
    else:
        # a burst more fits when the stream's end stays within DEPTH of the words kept,
        # KEEP behind the core's latest read (a burst counted as max_burst beats)
        ahead = depth - min(burst, words) - keep
        decl_room = (f"    localparam [AX-1:0] AHEAD = {ax}'d{ahead};\n"
                     "    wire [AX-1:0] ahead = rend - rcur;\n")
        room_ok = "ahead <= AHEAD"
        # (a word DEPTH before the stream's end has been asked to make room)
        kept = " && rend - a <= DEPTH"
    cut = ("""            // a write to a word requested and not come: the stream stops before it
            if (wr && ~hit && a >= rgot && a < rend_next && (~rcut || a < rlim)) begin
                rcut <= 1'b1; rlim <= a;
            end
""" if writes else "")
    drain = "rcut <= 1'b1; rlim <= rstart;" if writes else "rcut <= 1'b1;"
    lim = "    reg [AX-1:0] rlim;\n" if writes else ""
    rend_next = ("    wire [AX-1:0] rend_next = fetch ? rnext : rend;\n" if writes else "")
    wraps = depth < words
    cur_decl = "    reg [AX-1:0] rcur;  // the core's latest read\n" if wraps else ""
    cur_set = "                rcur <= a; " if wraps else "                "
    cur_rst = "rcur <= 0; " if wraps else ""
    rb = min(ax, db + 2)
    sl = f"[{rb - 1}:0]" if rb < ax else ""
    if depth < words:
        decl_room = f"    localparam [AX-1:0] DEPTH = {ax}'d{depth};\n" + decl_room
    rlen = "    wire [7:0] rlast = burst_last(rend);  // the next burst's beats less one\n"
    return f"""    // -- reads: a stream of bursts into a circular buffer (beat w at w mod DEPTH)
{decl_room}{buf_decl}    reg [AX-1:0] rstart;  // the stream's first word
    // the buffer holds the words from rstart (and no more than DEPTH before rend) up to rgot;
    // requested up to rend
    reg [AX-1:0] rgot, rend;
    reg rcut;  // the stream is cut{' at rlim (no further requests; words from rlim unused)' if writes else ' (no further requests, no word used)'}
{lim}    // beats of a left stream still to come (dropped): no more than the words asked for
    // and not come, at most DEPTH ahead of a word the core waits for, itself at most DEPTH
    // ahead of the words come
    reg [{rb - 1}:0] rdrop;
{cur_decl}    // no burst asked for since the stream started; the core has read since (once it has
    // read past the word that started the stream, the stream goes on)
    reg rfirst, rpast;
    reg rmiss;  // a read waits for its word
    reg [AX-1:0] rmiss_addr;
    reg arv;
    reg [AX-1:0] ar_word;
    reg [7:0] ar_len;
    wire a_got = a < rgot;
    wire hit = a >= rstart && a_got{kept} && {ok_a};
    wire m_got = rmiss_addr < rgot;  // (shared by the two below)
    reg m_kept;  // the word missed is still to come (it was not below rgot)
    wire served = rmiss && m_kept && m_got && {ok_m};
    // the word is requested (and not cut off), or next to be: it comes without a restart
    wire requested = ~m_got && rmiss_addr < rend && {ok_m};
    wire coming = requested || (~rcut && rmiss_addr == rend && rend < WORDS);
    wire ovl_miss = {ovl_miss};
    // (no two streams are left at once: the next restart waits for the beats dropped)
    wire leave = rmiss && ~served && ~coming && ~ovl_miss;
    wire restart = leave && rdrop == 0;
{rlen}    wire [AX-1:0] rnext = rend + {_zext("rlast", 8, ax, True)} + 1'b1;
    wire fetch = ~rcut && (~arv | ARREADY) && rend < WORDS && {room_ok}
        && ~({ovl_fetch}) && (rfirst || rpast) && ~leave && ~drain;
{rend_next}    wire wr_hit = wr & hit;  // an update of a word in the buffer takes its write port
    wire rbeat = RVALID & RREADY;
    wire ridle = ~rmiss && rdrop == 0 && rgot == rend && ~arv;
    assign RREADY = ~wr_hit;
    assign ARVALID = arv;
    assign ARADDR = {_address("ar_word", ax, size, lanes)};
    assign ARLEN = ar_len;
{buf}    always @(posedge clk) begin
        if (rst) begin
            rstart <= 0; rgot <= 0; rend <= 0; rcut <= 1'b1;{" rlim <= 0;" if writes else ""} rdrop <= 0;
            {cur_rst}rmiss <= 1'b0; arv <= 1'b0;
        end else begin
            if (fetch) begin
                arv <= 1'b1; ar_word <= rend; ar_len <= rlast; rend <= rnext;
                rfirst <= 1'b0;
            end else if (ARREADY) arv <= 1'b0;
            if (rbeat) begin
                if (rdrop != 0) rdrop <= rdrop - 1'b1;
                else rgot <= rgot + 1'b1;
            end
            if (rd) begin
{cur_set}rpast <= 1'b1;
                if (~hit) begin rmiss <= 1'b1; rmiss_addr <= a; m_kept <= ~a_got;{lane_set} end
            end
            if (served) rmiss <= 1'b0;
{cut}            if (restart) begin  // the stream starts again at the word read
                rstart <= rmiss_addr; rgot <= rmiss_addr;
                rend <= rmiss_addr; rcut <= 1'b0; m_kept <= 1'b1;
                rfirst <= 1'b1; rpast <= 1'b0;
                rdrop <= rend{sl} - rgot{sl} - {{{{{rb - 1}{{1'b0}}}}, rbeat}};
            end
            if (drain) begin {drain} end
        end
    end
"""
