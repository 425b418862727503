"""The Verilog test harness that lets one simulator build serve many designs.

Driving a design cycle by cycle from Python (cocotb) costs tens of microseconds per cycle;
so everything that happens every cycle is done in Verilog here, and Python only acts once
per call. The generated top module ``vichls_sim_top`` instantiates, for each design ``dN``:

- the design itself, with every module of its text renamed ``dN_<module>`` so that designs
  of the same kernel (or sharing primitive names) coexist in one build;
- one ``vichls_sim_mem`` per memory bank of each array parameter: a word memory with the
  ap_memory timing (``ce`` with ``address`` in cycle N gives ``q`` in cycle N+1, read-first;
  a write at the rising edge when ``ce`` and ``we``), loaded from ``dN_<bank>.hex`` with
  ``$readmemh`` when the call starts and dumped with ``$writememh`` when it ends (Python
  writes and reads those files in the simulator's working folder). It flags an address
  out of range while ``ce`` is high and two writes to one word in one cycle;
- one ``vichls_sim_ctrl``: the ap_ctrl_hs caller. A toggle of ``dN_go`` starts a call;
  ``dN_fin`` toggles when the call's results are dumped, with ``dN_status``, ``dN_cycles``
  and ``dN_ret`` valid. It also gates the clock of the design and its memories so that
  they see rising edges only from the go toggle to the end of the dump (and in reset):
  with ~150 designs in one model most are idle at any time, and an idle design should
  cost no evaluation. A Vitis-style block is idle between calls, so a stopped clock
  there is not observable through the interface.

Timing of a call (the definition of ``cycles``): at edge E0 the controller sees the go
toggle and asks the memories to load; at E1 they load and ``ap_start`` rises; E2, the
first rising edge at which the design samples ``ap_start`` high, is the *start edge*.
``ap_start`` falls after the first edge that samples ``ap_ready`` high. The *done edge* is
the first edge (from the start edge on) that samples ``ap_done`` high, and
``cycles = done edge - start edge`` counted in rising edges: a design that raises ap_done
combinationally in its start cycle has 0 cycles, as Vitis reports a latency of 0. If no
done edge comes within ``max_cycles`` edges, the call ends with status TIMEOUT and the
design is left running (the caller resets it). The memories dump at the edge after the
done edge, so a write at the done edge is included.

Status codes (``dN_status``): 0 ok, 1 timeout, 2 ap_done without ap_ready while
ap_start was still held; ``dN_spurious`` is set when ap_done is high while no call is
running (e.g. a done longer than one cycle). ``dN_fin`` toggles two edges after the done
edge, when both are settled.

Assumes: every port named by the interface contract exists with the width derived from
the signature (the harness connects by name; a missing port fails the build).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from vichls.signature import KernelSignature, Param
from vichls.types import ArrayType, ScalarType, address_width

HARNESS_TOP = "vichls_sim_top"

# Status codes of vichls_sim_ctrl; sim_bench.py (which cannot import this module) repeats them.
STATUS_OK, STATUS_TIMEOUT, STATUS_NO_READY = 0, 1, 2


@dataclass(frozen=True)
class Partition:
    """How an array parameter is split into banks (see hardware-interface.md).

    ``kind`` is ``"cyclic"`` or ``"block"``, ``factor`` the number of banks, ``dim`` the
    partitioned dimension counted from 1, or 0 for every dimension (``factor`` banks along
    each, numbered row-major over the grid of banks), as in ``customize(k).partition`` and
    Vitis HLS."""

    kind: str
    factor: int
    dim: int = 1


@dataclass(frozen=True)
class Bank:
    """One ap_memory port set: ``port`` is its name prefix (``A`` or ``A_1``), ``index``
    maps each word to the row-major flat index of its array element (-1: no element)."""

    param: str
    port: str
    element: ScalarType
    index: np.ndarray
    dual: bool

    @property
    def words(self) -> int:
        return len(self.index)


def banks_of(param: Param, partition: Partition | None, dual: bool) -> list[Bank]:
    """The memory banks of an array parameter, with the word -> element map of each."""
    assert isinstance(param.type, ArrayType)
    shape = param.type.shape
    flat = np.arange(param.type.size, dtype=np.int64).reshape(shape)
    if partition is None:
        return [Bank(param.name, param.name, param.type.element, flat.reshape(-1), dual)]
    kind, factor = partition.kind, partition.factor
    if kind not in ("cyclic", "block"):
        raise ValueError(
            f"array {param.name!r}: a parameter can be partitioned cyclic or block, not {kind!r}"
        )
    if not 0 <= partition.dim <= len(shape) or factor < 1:
        raise ValueError(
            f"array {param.name!r}: partition {partition} does not fit shape {shape} "
            f"(dim counts from 1, 0 for all; factor >= 1)"
        )
    axes = range(len(shape)) if partition.dim == 0 else [partition.dim - 1]

    def elements(axis: int, b: int) -> list[int]:
        size = shape[axis]
        if kind == "cyclic":
            return list(range(b, size, factor))
        per_bank = math.ceil(size / factor)
        return list(range(b * per_bank, min(size, (b + 1) * per_bank)))

    banks = []
    for number, coords in enumerate(itertools.product(range(factor), repeat=len(axes))):
        index = flat
        for axis, b in zip(axes, coords):
            elems = elements(axis, b)
            per_bank = math.ceil(shape[axis] / factor)
            # pad the partitioned dimension to per_bank so every bank has the same shape
            taken = np.take(index, elems, axis=axis) if elems else \
                np.empty([*index.shape[:axis], 0, *index.shape[axis + 1:]], dtype=flat.dtype)
            pad = [(0, 0)] * len(shape)
            pad[axis] = (0, per_bank - len(elems))
            index = np.pad(taken, pad, constant_values=-1)
        banks.append(Bank(param.name, f"{param.name}_{number}", param.type.element,
                          index.reshape(-1), dual))
    return banks


# -- renaming the modules of a design -------------------------------------------------------

_MODULE_RE = re.compile(r"^\s*module\s+([A-Za-z_][\w$]*)", re.MULTILINE)


def module_names(verilog: str) -> list[str]:
    return _MODULE_RE.findall(verilog)


def prefix_modules(verilog: str, prefix: str) -> str:
    """Rename every module defined in ``verilog`` (and every use of its name) to
    ``<prefix>_<name>``; renaming an identifier consistently keeps the text valid."""
    names = module_names(verilog)
    if not names:
        return verilog
    pattern = re.compile(r"(?<![\w$`])(" + "|".join(map(re.escape, names)) + r")(?![\w$])")
    return pattern.sub(lambda m: f"{prefix}_{m.group(1)}", verilog)


# -- the harness text -------------------------------------------------------------------------

LIBRARY = """\
`resetall
`timescale 1ns/1ps
// ap_memory model: one or two ports, one-cycle read latency (read-first), write at the
// rising edge when ce & we; loaded/dumped through $readmemh/$writememh.
module vichls_sim_mem #(
    parameter W = 32, parameter WORDS = 1, parameter AW = 1, parameter DUAL = 0,
    parameter FILE = "mem.hex"
) (
    input  wire          clk,
    input  wire          load,
    input  wire          dump,
    input  wire [AW-1:0] address0, input wire ce0, input wire we0,
    input  wire [W-1:0]  d0, output reg [W-1:0] q0,
    input  wire [AW-1:0] address1, input wire ce1, input wire we1,
    input  wire [W-1:0]  d1, output reg [W-1:0] q1,
    output reg           bad,
    output reg  [1:0]    bad_kind,
    output reg  [63:0]   bad_addr
);
    reg [W-1:0] mem [0:WORDS-1];
    initial begin bad = 1'b0; bad_kind = 2'd0; bad_addr = 64'd0; q0 = {W{1'b0}}; q1 = {W{1'b0}}; end
    always @(posedge clk) begin
        if (load) begin
            $readmemh(FILE, mem);
            bad <= 1'b0;
        end
        if (dump) $writememh(FILE, mem);
        if (ce0) begin
            if ({32'd0, address0} >= WORDS) begin
                if (!bad && !load) begin bad <= 1'b1; bad_kind <= 2'd0; bad_addr <= {32'd0, address0}; end
            end else begin
                q0 <= mem[address0];
                if (we0) mem[address0] <= d0;
            end
        end
        if (DUAL != 0 && ce1) begin
            if ({32'd0, address1} >= WORDS) begin
                if (!bad && !load) begin bad <= 1'b1; bad_kind <= 2'd1; bad_addr <= {32'd0, address1}; end
            end else begin
                q1 <= mem[address1];
                if (we1) mem[address1] <= d1;
            end
        end
        if (DUAL != 0 && ce0 && we0 && ce1 && we1 && address0 == address1 && !bad && !load) begin
            bad <= 1'b1; bad_kind <= 2'd2; bad_addr <= {32'd0, address0};
        end
    end
endmodule

// ap_ctrl_hs caller: starts a call on a toggle of go, counts cycles, times out.
module vichls_sim_ctrl (
    input  wire        clk,
    input  wire        rst,
    input  wire        go,
    input  wire [63:0] max_cycles,
    output reg         ap_start,
    input  wire        ap_done,
    input  wire        ap_ready,
    output reg         load,
    output reg         dump,
    output reg         fin,
    output reg  [1:0]  status,
    output reg         spurious,
    output reg  [63:0] cycles,
    output reg         active
);
    reg go_seen, loading, running, dumped;
    // Clock gate of the design and its memories: they only get clock edges while something
    // happens (reset, a call, its dump), so idle designs cost no simulation time. Sampled
    // at the falling edge, as a glitch-free clock gate does.
    always @(negedge clk) active <= rst || go != go_seen || loading || running || dump || dumped;
    reg [63:0] n;
    initial begin
        ap_start = 1'b0; load = 1'b0; dump = 1'b0; fin = 1'b0; status = 2'd0; spurious = 1'b0;
        cycles = 64'd0; go_seen = 1'b0; loading = 1'b0; running = 1'b0; dumped = 1'b0; n = 64'd0;
        active = 1'b0;
    end
    always @(posedge clk) begin
        load <= 1'b0;
        dump <= 1'b0;
        // fin toggles two edges after the done edge: the memories dump at the first,
        // and a done still high at the first has been seen as spurious by then.
        dumped <= dump;
        if (dumped) fin <= ~fin;
        if (!running && ap_done && !rst) spurious <= 1'b1;
        if (rst) begin
            ap_start <= 1'b0; loading <= 1'b0; running <= 1'b0; go_seen <= go;
        end else if (running) begin
            if (ap_ready) ap_start <= 1'b0;
            if (ap_done) begin
                running <= 1'b0; dump <= 1'b1; cycles <= n;
                status <= (ap_start && !ap_ready) ? 2'd2 : 2'd0;
                ap_start <= 1'b0;
            end else if (n >= max_cycles) begin
                running <= 1'b0; dump <= 1'b1; cycles <= n; status <= 2'd1; ap_start <= 1'b0;
            end else begin
                n <= n + 64'd1;
            end
        end else if (loading) begin
            loading <= 1'b0; running <= 1'b1; ap_start <= 1'b1; n <= 64'd0;
        end else if (go != go_seen) begin
            go_seen <= go; loading <= 1'b1; load <= 1'b1; spurious <= 1'b0;
        end
    end
endmodule
"""


@dataclass(frozen=True)
class HarnessDesign:
    """What the harness needs of one design: its prefix, renamed top, signature, banks."""

    prefix: str
    top: str
    signature: KernelSignature
    banks: tuple[Bank, ...]


def harness_top(designs: list[HarnessDesign]) -> str:
    """The ``vichls_sim_top`` module driving every design."""
    ports = ["    input wire clk", "    input wire [63:0] max_cycles"]
    body: list[str] = []
    for d in designs:
        p = d.prefix
        sig = d.signature
        ports += [
            f"    input wire {p}_rst",
            f"    input wire {p}_go",
            f"    output wire {p}_fin",
            f"    output wire [1:0] {p}_status",
            f"    output wire {p}_spurious",
            f"    output wire [63:0] {p}_cycles",
        ]
        for prm in sig.params:
            if not prm.is_array:
                ports.append(f"    input wire [{prm.scalar.width - 1}:0] {p}_s_{prm.name}")
        if sig.ret is not None:
            ports.append(f"    output reg [{sig.ret.width - 1}:0] {p}_ret")
        body += [
            f"    // ---- design {p}: {sig.name}",
            f"    wire {p}_ap_start, {p}_ap_done, {p}_ap_idle, {p}_ap_ready, {p}_load, {p}_dump, {p}_active;",
            f"    wire {p}_clk = clk & {p}_active;",
        ]
        conns = [
            f".ap_clk({p}_clk)",
            f".ap_rst({p}_rst)",
            f".ap_start({p}_ap_start)",
            f".ap_done({p}_ap_done)",
            f".ap_idle({p}_ap_idle)",
            f".ap_ready({p}_ap_ready)",
        ]
        if sig.ret is not None:
            body.append(f"    wire [{sig.ret.width - 1}:0] {p}_ap_return;")
            conns.append(f".ap_return({p}_ap_return)")
            # ap_return is valid in the done cycle only: latch it there
            body.append(f"    always @(posedge {p}_clk) if ({p}_ap_done) {p}_ret <= {p}_ap_return;")
        for prm in sig.params:
            if not prm.is_array:
                conns.append(f".{prm.name}({p}_s_{prm.name})")
        for i, bank in enumerate(d.banks):
            w, aw = bank.element.width, address_width(bank.words)
            m = f"{p}_m{i}"
            nports = 2 if bank.dual else 1
            for k in range(nports):
                body.append(
                    f"    wire [{aw - 1}:0] {m}_address{k}; wire {m}_ce{k}, {m}_we{k}; "
                    f"wire [{w - 1}:0] {m}_d{k}, {m}_q{k};"
                )
                conns += [
                    f".{bank.port}_address{k}({m}_address{k})",
                    f".{bank.port}_ce{k}({m}_ce{k})",
                    f".{bank.port}_we{k}({m}_we{k})",
                    f".{bank.port}_d{k}({m}_d{k})",
                    f".{bank.port}_q{k}({m}_q{k})",
                ]
            second = (
                f".address1({m}_address1), .ce1({m}_ce1), .we1({m}_we1), .d1({m}_d1), .q1({m}_q1)"
                if bank.dual
                else f".address1({{{aw}{{1'b0}}}}), .ce1(1'b0), .we1(1'b0), .d1({{{w}{{1'b0}}}}), .q1()"
            )
            body.append(
                f"    wire {m}_bad; wire [1:0] {m}_bad_kind; wire [63:0] {m}_bad_addr;\n"
                f"    vichls_sim_mem #(.W({w}), .WORDS({bank.words}), .AW({aw}), "
                f'.DUAL({int(bank.dual)}), .FILE("{p}_{bank.port}.hex")) {m} (\n'
                f"        .clk({p}_clk), .load({p}_load), .dump({p}_dump),\n"
                f"        .address0({m}_address0), .ce0({m}_ce0), .we0({m}_we0), .d0({m}_d0), .q0({m}_q0),\n"
                f"        {second},\n"
                f"        .bad({m}_bad), .bad_kind({m}_bad_kind), .bad_addr({m}_bad_addr));"
            )
        body.append(f"    {d.top} {p}_dut (\n        " + ",\n        ".join(conns) + ");")
        body.append(
            f"    vichls_sim_ctrl {p}_ctrl (.clk(clk), .rst({p}_rst), .go({p}_go), "
            f".max_cycles(max_cycles), .ap_start({p}_ap_start), .ap_done({p}_ap_done), "
            f".ap_ready({p}_ap_ready), .load({p}_load), .dump({p}_dump), .fin({p}_fin), "
            f".status({p}_status), .spurious({p}_spurious), .cycles({p}_cycles), .active({p}_active));"
        )
        body.append(f"    wire unused_{p} = {p}_ap_idle;")
    return (
        "`resetall\n`timescale 1ns/1ps\n"
        f"module {HARNESS_TOP} (\n" + ",\n".join(ports) + "\n);\n" + "\n".join(body) + "\nendmodule\n"
    )
