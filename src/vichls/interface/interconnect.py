"""The m_axi bundle interconnect: several arrays' adapters on one AXI4 master port.

What: ``bundle_mux(top, bundle, arrays, width)`` is the Verilog of the module
``<top>_<bundle>_m_axi_mux`` that puts the m_axi adapters (interface/maxi.py, one per
array, unchanged) of the arrays in one bundle behind the bundle's single AXI4 master, as
Vitis HLS shares one ``m_axi_<bundle>`` port set between the arguments of a bundle.
``arrays`` lists ``(name, reads, writes)`` in the bundle's order. The module's ports: the
master's signals without the ``m_axi_<bundle>_`` prefix (as the adapter's), and for each
array the adapter's signals prefixed ``<name>_`` (the other way round); the read data and
the write response's payload (``RDATA``, ``RLAST``, ``RRESP``, ``RUSER``, ``BRESP``,
``BUSER``) go from the port to every adapter directly and do not pass through it.

- IDs: the adapters that read are numbered in the bundle's order, and so are those that
  write; a burst leaves with its adapter's number as ``ARID`` (``AWID`` and ``WID``). The
  port's ID signals are ``id_width(arrays)`` bits: 1 (Vitis's width) up to two readers and
  two writers, more beyond. Read beats go to the adapter ``RID`` names, responses to the one
  ``BID`` names (``RVALID``/``BVALID`` to it alone, its ``RREADY``/``BREADY`` back).
- AR and AW: the adapters asking take turns (round robin from the last one served); the
  request shown is held until its handshake (AXI4 asks a master not to change a request it
  shows), and nothing is registered on the way: a lone request goes out in the cycle the
  adapter raises it.
- W: AXI4 has no WID, so the beats follow the order in which the write addresses were
  shown: a FIFO of ``W_ORDER`` adapter numbers (a new AW waits when it is full) whose head
  owns the W channel until it sends WLAST; when the FIFO is empty, the AW shown for the
  first time owns it in the same cycle (no cycle added before a burst's first beat).
- ``wclose`` (bundles with two writers or more): an adapter sends a burst's address with
  its first word, so the W channel may wait for words the core has not written yet. If the
  core is held (``hold``: another adapter has no room, or a read waits for writes queued
  behind this burst) while the W channel waits for adapter ``k``, ``k``'s ``wclose`` asks it
  to take no more words into that burst: it completes it with beats whose WSTRB is 0, as it
  does when the call ends, and the channel moves on. Without it such a bundle can deadlock.

Why: Vitis puts every m_axi argument of a bundle (by default ``gmem``) on one port, and
that is how most kernels are written. A bundle of one array has no interconnect at all
(the wrapper connects its adapter to the port, as before).

Assumes the adapters of a bundle have the same bus width, hold ``ARVALID``/``AWVALID`` with
their request until its handshake, send W beats only for addresses they have shown, in
order, and take the read and write IDs only from this module (theirs are ignored); a
memory that answers each ID in order (AXI4).
"""

from __future__ import annotations

from vichls.interface.maxi import M_AXI_SIGNALS, m_axi_ports

#: the write-address order the W channel follows: this many bursts shown and not yet sent
W_ORDER = 4
#: the port's signals each adapter reads directly (not through the interconnect)
BROADCAST = ("RDATA", "RLAST", "RRESP", "RUSER", "BRESP", "BUSER")
IDS = ("AWID", "WID", "ARID", "RID", "BID")
_FIXED_AW = ("AWSIZE", "AWBURST", "AWLOCK", "AWCACHE", "AWPROT", "AWQOS", "AWREGION", "AWUSER")
_FIXED_AR = ("ARSIZE", "ARBURST", "ARLOCK", "ARCACHE", "ARPROT", "ARQOS", "ARREGION", "ARUSER")


def _bits(n: int) -> int:
    """Bits of an index among ``n`` (at least 1)."""
    return max(1, (n - 1).bit_length())


def id_width(arrays) -> int:
    """The ID signals' width of a bundle of ``arrays`` ((name, reads, writes), ...)."""
    readers = sum(1 for _, r, _ in arrays if r)
    writers = sum(1 for _, _, w in arrays if w)
    return _bits(max(readers, writers, 1))


def clocked(arrays) -> bool:
    """The interconnect has registers (and clock and reset inputs): two adapters or more
    read, or write (else it is wires)."""
    return sum(1 for _, r, _ in arrays if r) > 1 or sum(1 for _, _, w in arrays if w) > 1


def bundle_ports(bundle: str, width: int, arrays) -> list[tuple[str, str, int]]:
    """The bundle's port set (``m_axi_ports``) with its ID signals ``id_width`` bits."""
    idw = id_width(arrays)
    prefix = f"m_axi_{bundle}_"
    return [(n, d, idw if n[len(prefix):] in IDS else w)
            for n, d, w in m_axi_ports(bundle, width)]


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
    for k, m in enumerate(names):
        lines.append(f"    assign {m}_{ch}READY = {ch}READY & {lc}_sel == {b}'d{k};")
    return lines


def bundle_mux(top: str, bundle: str, arrays, width: int) -> str:
    """The Verilog of ``<top>_<bundle>_m_axi_mux`` (see the module doc)."""
    readers = [n for n, r, _ in arrays if r]
    writers = [n for n, _, w in arrays if w]
    idw = id_width(arrays)
    widths = _widths(width)
    master = {**widths, **{s: idw for s in IDS}}
    ports = ["input wire clk", "input wire rst"] if clocked(arrays) else []
    if len(writers) > 1:
        ports.append("input wire hold")
    # the master side: unused inputs when nobody reads (writes), or a single one does
    unused_master = set(BROADCAST)
    if not readers:
        unused_master |= {"ARREADY", "RVALID", "RID"}
    elif len(readers) == 1:
        unused_master.add("RID")
    if not writers:
        unused_master |= {"AWREADY", "WREADY", "BVALID", "BID"}
    elif len(writers) == 1:
        unused_master.add("BID")
    for s, d in M_AXI_SIGNALS:
        if s in BROADCAST:
            continue
        ports.append(_decl(d, master[s], s, s in unused_master))
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
        if w and len(writers) > 1:
            ports.append(f"output wire {name}_wclose")
    listed = ", ".join(f"'{n}'" for n, _, _ in arrays)
    lines = [f"// The m_axi bundle '{bundle}': the adapters of {listed} on one AXI4 master;",
             f"// read IDs {', '.join(f'{n} {k}' for k, n in enumerate(readers)) or 'none'}, "
             f"write IDs {', '.join(f'{n} {k}' for k, n in enumerate(writers)) or 'none'}.",
             f"module {top}_{bundle}_m_axi_mux (",
             ",\n".join(f"    {p}" for p in ports),
             ");"]
    zero = {s: f"{master[s]}'d0" for s in master}
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
                      f"    assign ARLEN = {first}_ARLEN; assign ARID = {zero['ARID']};",
                      f"    assign {first}_ARREADY = ARREADY;",
                      f"    assign {first}_RVALID = RVALID; assign RREADY = {first}_RREADY;"]
        else:
            b = _bits(len(readers))
            lines += _address_channel("AR", readers, None)
            lines += [f"    assign ARADDR = {_mux('ar_sel', b, [f'{m}_ARADDR' for m in readers])};",
                      f"    assign ARLEN = {_mux('ar_sel', b, [f'{m}_ARLEN' for m in readers])};",
                      f"    assign ARID = {_ext('ar_sel', b, idw)};",
                      "    // R: each beat to the adapter its RID names"]
            lines += [f"    assign {m}_RVALID = RVALID & RID == {idw}'d{k};"
                      for k, m in enumerate(readers)]
            lines.append(f"    assign RREADY = {_mux('RID', idw, [f'{m}_RREADY' for m in readers])};")
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
                      f"    assign AWLEN = {first}_AWLEN; assign AWID = {zero['AWID']};",
                      f"    assign {first}_AWREADY = AWREADY;",
                      f"    assign WVALID = {first}_WVALID; assign WDATA = {first}_WDATA;",
                      f"    assign WSTRB = {first}_WSTRB; assign WLAST = {first}_WLAST;",
                      f"    assign WID = {zero['WID']}; assign {first}_WREADY = WREADY;",
                      f"    assign {first}_BVALID = BVALID; assign BREADY = {first}_BREADY;"]
        else:
            b = _bits(len(writers))
            qb = _bits(W_ORDER)
            lines += ["    // the W order: the adapters whose AW was shown, oldest first",
                      f"    reg [{b - 1}:0] wq [0:{W_ORDER - 1}];",
                      f"    reg [{qb}:0] wq_head, wq_tail;",
                      "    wire wq_empty = wq_head == wq_tail;",
                      f"    wire wq_full = wq_tail - wq_head == {qb + 1}'d{W_ORDER};"]
            lines += _address_channel("AW", writers, "~wq_full")
            lines += [f"    assign AWADDR = {_mux('aw_sel', b, [f'{m}_AWADDR' for m in writers])};",
                      f"    assign AWLEN = {_mux('aw_sel', b, [f'{m}_AWLEN' for m in writers])};",
                      f"    assign AWID = {_ext('aw_sel', b, idw)};",
                      "    // W: the head of the order (or, with none, the AW shown now) until WLAST",
                      "    wire w_has = ~wq_empty | aw_new;",
                      f"    wire [{b - 1}:0] w_sel = wq_empty ? aw_sel : wq[wq_head[{qb - 1}:0]];",
                      f"    assign WVALID = w_has & ({_mux('w_sel', b, [f'{m}_WVALID' for m in writers])});",
                      f"    assign WDATA = {_mux('w_sel', b, [f'{m}_WDATA' for m in writers])};",
                      f"    assign WSTRB = {_mux('w_sel', b, [f'{m}_WSTRB' for m in writers])};",
                      f"    assign WLAST = {_mux('w_sel', b, [f'{m}_WLAST' for m in writers])};",
                      f"    assign WID = {_ext('w_sel', b, idw)};",
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
                lines += [f"    assign {m}_WREADY = WREADY & w_has & w_sel == {b}'d{k};",
                          f"    assign {m}_wclose = hold & w_has & w_sel == {b}'d{k} & ~{m}_WVALID;"]
            lines.append("    // B: each response to the adapter its BID names")
            lines += [f"    assign {m}_BVALID = BVALID & BID == {idw}'d{k};"
                      for k, m in enumerate(writers)]
            lines.append(f"    assign BREADY = {_mux('BID', idw, [f'{m}_BREADY' for m in writers])};")
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


def _ext(expr: str, bits: int, to: int) -> str:
    return expr if bits == to else f"{{{to - bits}'d0, {expr}}}"
