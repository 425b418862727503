"""The m_axi bundle interconnect: several arrays' adapters on one AXI4 master port.

What: ``bundle_mux(top, bundle, arrays, width)`` is the Verilog of the module
``<top>_<bundle>_m_axi_mux`` that puts the m_axi adapters (interface/maxi.py, one per
array) of the arrays in one bundle behind the bundle's single AXI4 master, as
Vitis HLS shares one ``m_axi_<bundle>`` port set between the arguments of a bundle.
``arrays`` lists ``(name, reads, writes)`` in the bundle's order. The module's ports: the
master's signals without the ``m_axi_<bundle>_`` prefix (as the adapter's), and for each
array the adapter's signals prefixed ``<name>_`` (the other way round); the read data and
the write response's payload (``RDATA``, ``RLAST``, ``RRESP``, ``RUSER``, ``BRESP``,
``BUSER``) go from the port to every adapter directly (``RLAST`` to this module too).

- IDs (1 bit, as Vitis has them): with two adapters reading, each has its own ``ARID``
  (0 and 1, in the bundle's order) and the read beats go to the adapter ``RID`` names;
  with one, or more than two, every burst has ID 0, the memory answers them in order
  (AXI4: one ID, in order), and the beats go to the adapters in the order their bursts
  were accepted (a queue of ``ORDER`` adapter numbers, popped at ``RLAST``; a new request
  waits while it is full). The same for writes: ``AWID`` (and ``WID``), the write
  responses routed by ``BID`` or in the order the write addresses were accepted.
- AR and AW: the adapters asking take turns (round robin from the last one served); the
  request shown is held until its handshake (AXI4 asks a master not to change a request it
  shows), and nothing is registered on the way: a lone request goes out in the cycle the
  adapter raises it.
- W: AXI4 has no WID, so the beats follow the order in which the write addresses were
  shown: a FIFO of ``W_ORDER`` adapter numbers (a new AW waits when it is full) whose head
  owns the W channel until it sends WLAST; when the FIFO is empty, the AW shown for the
  first time owns it in the same cycle (no cycle added before a burst's first beat).
- the adapters of a bundle with two writers or more gather each burst before its address
  (maxi.py, ``gather``): the W channel, which follows the order of the addresses, never
  waits for words the core has not written. (Were it to, the core could be held by
  another array whose writes queue behind that burst, for good.)

Why: Vitis puts every m_axi argument of a bundle (by default ``gmem``) on one port, and
that is how most kernels are written. A bundle of one array has no interconnect at all
(the wrapper connects its adapter to the port, as before).

Assumes the adapters of a bundle have the same bus width, hold ``ARVALID``/``AWVALID`` with
their request until its handshake, send W beats only for addresses they have shown, in
order, gather their bursts when two or more write, and take the read and write IDs only
from this module (theirs are ignored); a memory that answers each ID in order (AXI4).
"""

from __future__ import annotations

from vichls.interface.maxi import M_AXI_SIGNALS, m_axi_ports

#: the write-address order the W channel follows: this many bursts shown and not yet sent;
#: and the bursts accepted and not yet answered, in order, when several adapters share ID 0
W_ORDER = 4
ORDER = 8
#: the port's signals each adapter reads directly (not through the interconnect)
BROADCAST = ("RDATA", "RLAST", "RRESP", "RUSER", "BRESP", "BUSER")
#: the port's signals the interconnect has (RLAST: the end of a read burst, for the order)
MASTER = tuple((s, d) for s, d in M_AXI_SIGNALS if s not in BROADCAST or s == "RLAST")
_FIXED_AW = ("AWSIZE", "AWBURST", "AWLOCK", "AWCACHE", "AWPROT", "AWQOS", "AWREGION", "AWUSER")
_FIXED_AR = ("ARSIZE", "ARBURST", "ARLOCK", "ARCACHE", "ARPROT", "ARQOS", "ARREGION", "ARUSER")


def _bits(n: int) -> int:
    """Bits of an index among ``n`` (at least 1)."""
    return max(1, (n - 1).bit_length())


def clocked(arrays) -> bool:
    """The interconnect has registers (and clock and reset inputs): two adapters or more
    read, or write (else it is wires)."""
    return sum(1 for _, r, _ in arrays if r) > 1 or sum(1 for _, _, w in arrays if w) > 1


def _widths(width: int) -> dict[str, int]:
    """The width of each signal of an adapter (its ID signals 1 bit)."""
    return {n[len("m_axi_b_"):]: w for n, _, w in m_axi_ports("b", width)}


def _mux(sel: str, bits: int, exprs: list[str]) -> str:
    """``exprs[sel]`` as a chain of conditions (the last one when ``sel`` is beyond)."""
    if len(exprs) == 1:
        return exprs[0]
    text = exprs[-1]
    for k in range(len(exprs) - 2, -1, -1):
        text = f"{sel} == {bits}'d{k} ? {exprs[k]} : {text}"
    return text


def _decl(direction: str, width: int, name: str, unused: bool) -> str:
    kind = "input wire" if direction == "in" else "output wire"
    text = f"{kind} {f'[{width - 1}:0] ' if width > 1 else ''}{name}"
    if unused:
        text = f"/* verilator lint_off UNUSED */ {text} /* verilator lint_on UNUSED */"
    return text


def _address_channel(ch: str, names: list[str], gate: str | None) -> list[str]:
    """Round-robin arbitration of channel ``ch`` ("AR" or "AW") between the adapters
    ``names`` (two or more); ``gate``: a condition a new request waits for (or None)."""
    n = len(names)
    b = _bits(n)
    lc = ch.lower()
    req = "{" + ", ".join(f"{m}_{ch}VALID" for m in reversed(names)) + "}"
    lines = [f"    // {ch}: the adapters asking take turns (round robin from the last one served);",
             "    // the request shown stays until its handshake",
             f"    wire [{n - 1}:0] {lc}_req = {req};",
             f"    reg {lc}_lock;  // a request is shown and not taken yet",
             f"    reg [{b - 1}:0] {lc}_held, {lc}_last, {lc}_pick;",
             "    always @* begin",
             f"        {lc}_pick = {lc}_last;",
             f"        case ({lc}_last)"]
    for last in range(n):
        order = [(last + i) % n for i in range(1, n + 1)]
        chain = " else ".join(f"if ({lc}_req[{k}]) {lc}_pick = {b}'d{k};" for k in order)
        lines.append(f"            {b}'d{last}: {chain}")
    if (1 << b) > n:
        lines.append("            default: ;")
    lines += ["        endcase",
              "    end",
              f"    wire [{b - 1}:0] {lc}_sel = {lc}_lock ? {lc}_held : {lc}_pick;",
              f"    wire {lc}_asks = {_mux(f'{lc}_sel', b, [f'{lc}_req[{k}]' for k in range(n)])};"]
    if gate:
        lines.append(f"    wire {lc}_new = ~{lc}_lock & {lc}_asks & {gate};  // shown for the first time")
        lines.append(f"    assign {ch}VALID = {lc}_lock ? {lc}_asks : {lc}_new;")
    else:
        lines.append(f"    assign {ch}VALID = {lc}_asks;")
    lines += ["    always @(posedge clk) begin",
              f"        if (rst) begin {lc}_lock <= 1'b0; {lc}_last <= {b}'d0; end",
              "        else begin",
              f"            {lc}_lock <= {ch}VALID & ~{ch}READY;",
              f"            if ({ch}VALID & {ch}READY) {lc}_last <= {lc}_sel;",
              "        end",
              f"        {lc}_held <= {lc}_sel;",
              "    end"]
    # (the handshake, not the port's READY alone: a request held back by the gate is not
    # taken, though the port is ready)
    for k, m in enumerate(names):
        lines.append(f"    assign {m}_{ch}READY = {ch}READY & {ch}VALID & {lc}_sel == {b}'d{k};")
    return lines


def _order(q: str, names: list[str], push: str, what: str, pop: str,
           depth: int) -> tuple[list[str], list[str]]:
    """A queue ``q`` of adapter numbers (``<q>_sel`` its head, ``<q>_full``): ``what`` is
    pushed when ``push``, the head popped when ``pop``. Its declarations, and its update
    (placed after ``push``'s signals are declared)."""
    b = _bits(len(names))
    qb = _bits(depth)
    return [f"    reg [{b - 1}:0] {q} [0:{depth - 1}];",
            f"    reg [{qb}:0] {q}_head, {q}_tail;",
            f"    wire {q}_full = {q}_tail - {q}_head == {qb + 1}'d{depth};",
            f"    wire [{b - 1}:0] {q}_sel = {q}[{q}_head[{qb - 1}:0]];"], [
            "    always @(posedge clk) begin",
            f"        if (rst) begin {q}_head <= 0; {q}_tail <= 0; end",
            "        else begin",
            f"            if ({push}) begin {q}[{q}_tail[{qb - 1}:0]] <= {what}; "
            f"{q}_tail <= {q}_tail + 1'b1; end",
            f"            if ({pop}) {q}_head <= {q}_head + 1'b1;",
            "        end",
            "    end"]


def _answers(ch: str, names: list[str], idsig: str, queue: str) -> list[str]:
    """The answers of channel ``ch`` ("R" or "B") to the adapters ``names`` (two or more):
    by ``idsig`` (two adapters, IDs 0 and 1), or in the order of ``queue``."""
    b = _bits(len(names))
    if len(names) == 2:
        sel, cmp = idsig, [f"{idsig} == 1'd{k}" for k in range(2)]
    else:
        sel, cmp = f"{queue}_sel", [f"{queue}_sel == {b}'d{k}" for k in range(len(names))]
    lines = [f"    assign {m}_{ch}VALID = {ch}VALID & {c};" for m, c in zip(names, cmp)]
    lines.append(f"    assign {ch}READY = "
                 f"{_mux(sel, 1 if len(names) == 2 else b, [f'{m}_{ch}READY' for m in names])};")
    return lines


def bundle_mux(top: str, bundle: str, arrays, width: int) -> str:
    """The Verilog of ``<top>_<bundle>_m_axi_mux`` (see the module doc)."""
    readers = [n for n, r, _ in arrays if r]
    writers = [n for n, _, w in arrays if w]
    widths = _widths(width)
    ports = ["input wire clk", "input wire rst"] if clocked(arrays) else []
    # the master side: the inputs nobody needs (RID, BID when the order routes; RLAST
    # when the ID does)
    unused_master = set()
    if len(readers) != 2:
        unused_master.add("RID")
    if len(readers) <= 2:
        unused_master.add("RLAST")
    if not readers:
        unused_master |= {"ARREADY", "RVALID"}
    if len(writers) != 2:
        unused_master.add("BID")
    if not writers:
        unused_master |= {"AWREADY", "WREADY", "BVALID"}
    for s, d in MASTER:
        ports.append(_decl(d, widths[s], s, s in unused_master))
    # the adapters' side: what each adapter sends that goes nowhere
    for name, r, w in arrays:
        used = set()
        if r:
            used |= {"ARVALID", "ARADDR", "ARLEN", "RREADY", "ARREADY", "RVALID"}
            if name == readers[0]:
                used |= set(_FIXED_AR)
        if w:
            used |= {"AWVALID", "AWADDR", "AWLEN", "WVALID", "WDATA", "WSTRB", "WLAST",
                     "BREADY", "AWREADY", "WREADY", "BVALID"}
            if name == writers[0]:
                used |= set(_FIXED_AW) | {"WUSER"}
        for s, d in M_AXI_SIGNALS:
            if s in BROADCAST:
                continue
            # (mirrored: what the adapter puts out comes in)
            ports.append(_decl("in" if d == "out" else "out", widths[s], f"{name}_{s}",
                               d == "out" and s not in used))

    def ids(names):
        if len(names) == 2:
            return f"IDs {names[0]} 0, {names[1]} 1"
        return "ID 0" + (" (answers in order)" if len(names) > 2 else "")

    listed = ", ".join(f"'{n}'" for n, _, _ in arrays)
    lines = [f"// The m_axi bundle '{bundle}': the adapters of {listed} on one AXI4 master;",
             f"// reads: {', '.join(readers) or 'none'}, {ids(readers)}; "
             f"writes: {', '.join(writers) or 'none'}, {ids(writers)}.",
             f"module {top}_{bundle}_m_axi_mux (",
             ",\n".join(f"    {p}" for p in ports),
             ");"]
    zero = {s: f"{widths[s]}'d0" for s in widths}
    # -- reads ------------------------------------------------------------------------------
    if not readers:
        lines.append("    // nothing is read")
        lines += [f"    assign {s} = {zero[s]};" for s in ("ARVALID", "ARADDR", "ARID", "ARLEN",
                                                             *_FIXED_AR, "RREADY")]
    else:
        first = readers[0]
        lines += [f"    assign {s} = {first}_{s};" for s in _FIXED_AR]
        if len(readers) == 1:
            lines += [f"    // one adapter reads: {first}, ID 0",
                      f"    assign ARVALID = {first}_ARVALID; assign ARADDR = {first}_ARADDR;",
                      f"    assign ARLEN = {first}_ARLEN; assign ARID = 1'b0;",
                      f"    assign {first}_ARREADY = ARREADY;",
                      f"    assign {first}_RVALID = RVALID; assign RREADY = {first}_RREADY;"]
        else:
            b = _bits(len(readers))
            many = len(readers) > 2
            update = []
            if many:
                lines.append("    // the read bursts accepted, in order (one ID: answered in order)")
                decl, update = _order("rq", readers, "ARVALID & ARREADY", "ar_sel",
                                      "RVALID & RREADY & RLAST", ORDER)
                lines += decl
            lines += _address_channel("AR", readers, "~rq_full" if many else None) + update
            lines += [f"    assign ARADDR = {_mux('ar_sel', b, [f'{m}_ARADDR' for m in readers])};",
                      f"    assign ARLEN = {_mux('ar_sel', b, [f'{m}_ARLEN' for m in readers])};",
                      f"    assign ARID = {'1' + chr(39) + 'b0' if many else 'ar_sel'};",
                      "    // R: each beat to the adapter "
                      + ("whose burst is the oldest not answered" if many else "its RID names")]
            lines += _answers("R", readers, "RID", "rq")
    # -- writes -----------------------------------------------------------------------------
    if not writers:
        lines.append("    // nothing is written")
        lines += [f"    assign {s} = {zero[s]};" for s in (
            "AWVALID", "AWADDR", "AWID", "AWLEN", *_FIXED_AW, "WVALID", "WDATA", "WSTRB",
            "WLAST", "WID", "WUSER", "BREADY")]
    else:
        first = writers[0]
        lines += [f"    assign {s} = {first}_{s};" for s in (*_FIXED_AW, "WUSER")]
        if len(writers) == 1:
            lines += [f"    // one adapter writes: {first}, ID 0",
                      f"    assign AWVALID = {first}_AWVALID; assign AWADDR = {first}_AWADDR;",
                      f"    assign AWLEN = {first}_AWLEN; assign AWID = 1'b0;",
                      f"    assign {first}_AWREADY = AWREADY;",
                      f"    assign WVALID = {first}_WVALID; assign WDATA = {first}_WDATA;",
                      f"    assign WSTRB = {first}_WSTRB; assign WLAST = {first}_WLAST;",
                      f"    assign WID = 1'b0; assign {first}_WREADY = WREADY;",
                      f"    assign {first}_BVALID = BVALID; assign BREADY = {first}_BREADY;"]
        else:
            b = _bits(len(writers))
            many = len(writers) > 2
            qb = _bits(W_ORDER)
            lines += ["    // the W order: the adapters whose AW was shown, oldest first",
                      f"    reg [{b - 1}:0] wq [0:{W_ORDER - 1}];",
                      f"    reg [{qb}:0] wq_head, wq_tail;",
                      "    wire wq_empty = wq_head == wq_tail;",
                      f"    wire wq_full = wq_tail - wq_head == {qb + 1}'d{W_ORDER};"]
            update = []
            if many:
                lines.append("    // the write bursts accepted, in order (one ID: answered in order)")
                decl, update = _order("bq", writers, "AWVALID & AWREADY", "aw_sel",
                                      "BVALID & BREADY", ORDER)
                lines += decl
            lines += _address_channel("AW", writers,
                                      "~wq_full & ~bq_full" if many else "~wq_full") + update
            own = "1'b0" if many else "aw_sel"
            lines += [f"    assign AWADDR = {_mux('aw_sel', b, [f'{m}_AWADDR' for m in writers])};",
                      f"    assign AWLEN = {_mux('aw_sel', b, [f'{m}_AWLEN' for m in writers])};",
                      f"    assign AWID = {own};",
                      "    // W: the head of the order (or, with none, the AW shown now) until WLAST",
                      "    wire w_has = ~wq_empty | aw_new;",
                      f"    wire [{b - 1}:0] w_sel = wq_empty ? aw_sel : wq[wq_head[{qb - 1}:0]];",
                      f"    assign WVALID = w_has & ({_mux('w_sel', b, [f'{m}_WVALID' for m in writers])});",
                      f"    assign WDATA = {_mux('w_sel', b, [f'{m}_WDATA' for m in writers])};",
                      f"    assign WSTRB = {_mux('w_sel', b, [f'{m}_WSTRB' for m in writers])};",
                      f"    assign WLAST = {_mux('w_sel', b, [f'{m}_WLAST' for m in writers])};",
                      f"    assign WID = {'1' + chr(39) + 'b0' if many else 'w_sel'};",
                      "    wire w_end = WVALID & WREADY & WLAST;",
                      "    always @(posedge clk) begin",
                      "        if (rst) begin wq_head <= 0; wq_tail <= 0; end",
                      "        else begin",
                      "            // (a burst whose beats all went in the cycle its AW was first",
                      "            // shown is not queued)",
                      "            if (aw_new & ~(wq_empty & w_end)) begin",
                      f"                wq[wq_tail[{qb - 1}:0]] <= aw_sel; wq_tail <= wq_tail + 1'b1;",
                      "            end",
                      "            if (w_end & ~wq_empty) wq_head <= wq_head + 1'b1;",
                      "        end",
                      "    end"]
            for k, m in enumerate(writers):
                lines.append(f"    assign {m}_WREADY = WREADY & w_has & w_sel == {b}'d{k};")
            lines.append("    // B: each response to the adapter "
                         + ("whose burst is the oldest not answered" if many else "its BID names"))
            lines += _answers("B", writers, "BID", "bq")
    # the adapters that only read (write) get no grant on the other side; their ID inputs
    # are not used (the IDs are this module's)
    for name, r, w in arrays:
        lines.append(f"    assign {name}_RID = 1'b0; assign {name}_BID = 1'b0;")
        if not r:
            lines.append(f"    assign {name}_ARREADY = 1'b0; assign {name}_RVALID = 1'b0;")
        if not w:
            lines.append(f"    assign {name}_AWREADY = 1'b0; assign {name}_WREADY = 1'b0; "
                         f"assign {name}_BVALID = 1'b0;")
    lines += ["endmodule", ""]
    return "\n".join(lines)
