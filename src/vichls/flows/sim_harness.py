"""The Verilog test harness that lets one simulator build serve many designs.

Driving a design cycle by cycle from Python (cocotb) costs tens of microseconds per cycle;
so everything that happens every cycle is done in Verilog here, and Python only acts once
per run. The generated top module ``vichls_sim_top`` instantiates, for each design ``dN``:

- the design itself, with every module of its text renamed ``dN_<module>`` so that designs
  of the same kernel (or sharing primitive names) coexist in one build;
- one ``vichls_sim_mem`` per memory bank of each array parameter: a word memory with the
  ap_memory timing (``ce`` with ``address`` in cycle N gives ``q`` in cycle N+1, read-first;
  a write at the rising edge when ``ce`` and ``we``; ``q`` holds its value while ``ce`` is
  low, as a block RAM's output register does, so a design that stalls may use it later),
  loaded from ``dN_<bank>.hex`` with ``$readmemh`` when a run starts and dumped with
  ``$writememh`` when it ends (Python writes and reads those files in the simulator's
  working folder). It flags an address out of range while ``ce`` is high and two writes
  to one word in one cycle;
- per input stream parameter ``x`` (ap_fifo), one ``vichls_sim_stream_in`` (``dN_f<i>``,
  ``i`` counting the stream parameters): it holds the run's elements, ``dN_f<i>_count``
  of them loaded from ``dN_x.fifo.hex``, drives ``x_dout``/``x_empty_n`` first-word
  fall-through and pops one at a rising edge where ``x_read & x_empty_n``; ``taken``
  says how many the design read. Per output stream ``y``, one ``vichls_sim_stream_out``
  that drives ``y_full_n`` and stores ``y_din`` at an edge where ``y_write & y_full_n``,
  dumping its ``count`` elements at the end of the run. Both hold up to the design's
  stream capacity (a build parameter, default 65536 elements); a write wanted while the
  sink is at capacity ends the run with status OVERFLOW;
- one ``vichls_sim_ctrl``: the ap_ctrl_hs caller. A toggle of ``dN_go`` starts a run of
  ``dN_times`` calls; ``dN_fin`` toggles when the run's results are dumped, with
  ``dN_status``, ``dN_cycles`` and ``dN_ret`` valid. It also gates the clock of the design,
  its memories and streams so that they see rising edges only from the go toggle to the
  end of the dump (and in reset): with ~150 designs in one model most are idle at any
  time, and an idle design should cost no evaluation. A Vitis-style block is idle between
  calls, so a stopped clock there is not observable through the interface.

Timing of a run (the definition of ``cycles``): at edge E0 the controller sees the go
toggle and asks the memories and streams to load; at E1 they load and ``ap_start`` rises;
E2, the first rising edge at which the design samples ``ap_start`` high, is the *start
edge*. ``ap_start`` stays high until the design has *accepted* ``times`` calls, a call
being accepted at each edge that samples ``ap_start`` and ``ap_ready`` high (the contract:
a block that sees ``ap_start`` still high when it raises ``ap_ready`` starts the next call,
so a design whose ap_ready comes before ap_done overlaps consecutive calls). A *done
edge* is an edge (from the start edge on) that samples ``ap_done`` high; each one sets
``dN_done_edge`` to its number plus one (so that every done edge changes it, which
cocotb watches), and ``cycles = last done edge - start edge`` counted in rising edges: a
design that raises ap_done combinationally in its start cycle has 0 cycles, as Vitis
reports a latency of 0. Memories and streams dump at the edge after the last done edge,
so a write at the done edge is included. With ``times = 1`` (the normal case) a run is
one call.

Status codes (``dN_status``, a run ends at the first that applies, in this order):
2 a done edge came for a call not yet accepted (ap_done without ap_ready while ap_start
was still held); 4 a sink overflowed; 0 ok (the ``times``-th done edge); 3 DEADLOCK: the
design's ``vichls_stalled`` wire (see below) stayed high for ``DEADLOCK_CYCLES``
consecutive edges; 1 TIMEOUT: no last done edge within ``max_cycles`` edges. After an
error the design is left running (the caller resets it). ``dN_spurious`` is set when
ap_done is high while no run is going on (e.g. a done longer than one cycle). ``dN_fin``
toggles two edges after the last done edge, when both are settled.

Throttling (``dN_throttle`` high during a run): each source then models a FIFO whose
producer puts an element on the cycles a 16-bit LFSR picks, and each sink a 2-deep FIFO
that a consumer drains on such cycles, so ``empty_n``/``full_n`` drop pseudo-randomly but
only as a real FIFO's do (``empty_n`` never falls without a read, ``full_n`` never falls
without a write). Results must not change; cycles do.

Deadlock: a generated design that can wait on streams declares a 1-bit wire
``vichls_stalled`` in its top module, high in a cycle where it is busy and every part of
it waits on a stream. The harness watches it through the hierarchical reference
``dN_dut.vichls_stalled`` when the top module's text declares it; otherwise it never
reports a deadlock (a stuck design then times out).

Assumes: every port named by the interface contract exists with the width derived from
the signature (the harness connects by name; a missing port fails the build).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from vichls import ports
from vichls.signature import KernelSignature, Param
from vichls.types import ArrayType, ScalarType, address_width

HARNESS_TOP = "vichls_sim_top"

# Status codes of vichls_sim_ctrl; sim_bench.py (which cannot import this module) repeats them.
STATUS_OK, STATUS_TIMEOUT, STATUS_NO_READY, STATUS_DEADLOCK, STATUS_OVERFLOW = 0, 1, 2, 3, 4

#: a run ends with status DEADLOCK when the design's ``vichls_stalled`` wire stays high for
#: this many consecutive cycles. Long enough that no design legitimately stalls that long
#: on throttled streams (their LFSR never idles more than 15 cycles in a row), short
#: enough that a deadlock costs next to nothing next to the default max_cycles.
DEADLOCK_CYCLES = 1024
#: the 1-bit wire a design that waits on streams declares in its top module: high in a
#: cycle where it is busy and every part of it waits on a stream
STALLED_WIRE = "vichls_stalled"
#: elements a stream source or sink holds unless the design says otherwise
DEFAULT_STREAM_CAPACITY = 65536


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
    #: the design reads it (has ``q``) / writes it (has ``we``, ``d``): docs/hardware-interface.md
    reads: bool = True
    writes: bool = True

    @property
    def words(self) -> int:
        return len(self.index)


def banks_of(param: Param, partition: Partition | tuple[Partition, ...] | None,
             dual: bool) -> list[Bank]:
    """The memory banks of an array parameter, with the word -> element map of each. A
    tuple of partitions (each on its own dimension, dim >= 1) composes: the banks are the
    grid over those dimensions, numbered row-major in the order of the dimensions."""
    assert isinstance(param.type, ArrayType)
    shape = param.type.shape
    flat = np.arange(param.type.size, dtype=np.int64).reshape(shape)
    if partition is None or partition == ():
        return [Bank(param.name, param.name, param.type.element, flat.reshape(-1), dual)]
    parts = partition if isinstance(partition, tuple) else (partition,)
    splits: list[tuple[int, str, int]] = []  # (axis, kind, factor)
    for part in parts:
        if part.kind not in ("cyclic", "block"):
            raise ValueError(f"array {param.name!r}: a parameter can be partitioned cyclic or "
                             f"block, not {part.kind!r}")
        if not 0 <= part.dim <= len(shape) or part.factor < 1 or (part.dim == 0 and len(parts) > 1):
            raise ValueError(
                f"array {param.name!r}: partition {part} does not fit shape {shape} "
                f"(dim counts from 1, 0 for all; factor >= 1)"
            )
        axes = range(len(shape)) if part.dim == 0 else [part.dim - 1]
        splits += [(axis, part.kind, part.factor) for axis in axes]
    splits.sort()
    if len({axis for axis, _, _ in splits}) != len(splits):
        raise ValueError(f"array {param.name!r}: a dimension is partitioned twice")

    def elements(axis: int, kind: str, factor: int, b: int) -> list[int]:
        size = shape[axis]
        if kind == "cyclic":
            return list(range(b, size, factor))
        per_bank = math.ceil(size / factor)
        return list(range(b * per_bank, min(size, (b + 1) * per_bank)))

    banks = []
    grid = itertools.product(*(range(factor) for _, _, factor in splits))
    for number, coords in enumerate(grid):
        index = flat
        for (axis, kind, factor), b in zip(splits, coords):
            elems = elements(axis, kind, factor, b)
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
// rising edge when ce & we; q holds its value while ce is low, as a block RAM output
// does; loaded/dumped through $readmemh/$writememh.
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

// ap_fifo source of an input stream: the elements of a run (count of them, loaded from
// FILE), first-word fall-through (dout valid while empty_n). Throttled, it models a FIFO
// whose producer puts an element on the cycles an LFSR picks: empty_n then falls while
// the consumer is ahead, but once high it stays high until a read, as a FIFO's does.
module vichls_sim_stream_in #(
    parameter W = 32, parameter CAP = 1, parameter AW = 1, parameter SEED = 16'h1,
    parameter FILE = "in.hex"
) (
    input  wire         clk,
    input  wire         load,
    input  wire [31:0]  count,
    input  wire         throttle,
    input  wire         read,
    output wire [W-1:0] dout,
    output wire         empty_n,
    output reg  [31:0]  taken,
    output reg  [31:0]  given
);
    reg [W-1:0] mem [0:CAP-1];
    reg [31:0] arrived;
    reg [15:0] lfsr;
    assign empty_n = taken < arrived;
    assign dout = mem[taken[AW-1:0]];
    initial begin taken = 32'd0; given = 32'd0; arrived = 32'd0; lfsr = SEED; end
    always @(posedge clk) begin
        if (load) begin
            if (count != 32'd0) $readmemh(FILE, mem, 0, count - 32'd1);
            given <= count; taken <= 32'd0; arrived <= throttle ? 32'd0 : count; lfsr <= SEED;
        end else begin
            if (read && empty_n) taken <= taken + 32'd1;
            lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
            if (!throttle) arrived <= given;
            else if (arrived < given && lfsr[0]) arrived <= arrived + 32'd1;
        end
    end
endmodule

// ap_fifo sink of an output stream: stores din when write & full_n, up to CAP elements,
// dumps them (count of them) to FILE. A write wanted at capacity sets overflow, which
// ends the run. Throttled, it models a 2-deep FIFO that a consumer drains on the cycles
// an LFSR picks: full_n falls only after writes fill it, as a FIFO's does.
module vichls_sim_stream_out #(
    parameter W = 32, parameter CAP = 1, parameter AW = 1, parameter SEED = 16'h1,
    parameter FILE = "out.hex"
) (
    input  wire         clk,
    input  wire         load,
    input  wire         dump,
    input  wire         throttle,
    input  wire         write,
    input  wire [W-1:0] din,
    output wire         full_n,
    output reg  [31:0]  count,
    output reg          overflow
);
    reg [W-1:0] mem [0:CAP-1];
    reg [1:0] held;
    reg [15:0] lfsr;
    wire room = count < CAP;
    assign full_n = room && (!throttle || held != 2'd2);
    wire accept = write && full_n;
    wire drain = throttle && lfsr[0] && held != 2'd0;
    initial begin count = 32'd0; overflow = 1'b0; held = 2'd0; lfsr = SEED; end
    always @(posedge clk) begin
        if (dump && count != 32'd0) $writememh(FILE, mem, 0, count - 32'd1);
        if (load) begin
            count <= 32'd0; overflow <= 1'b0; held <= 2'd0; lfsr <= SEED;
        end else begin
            if (accept) begin mem[count[AW-1:0]] <= din; count <= count + 32'd1; end
            if (write && !room) overflow <= 1'b1;
            held <= held + {1'b0, accept} - {1'b0, drain};
            lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
        end
    end
endmodule

// ap_ctrl_hs caller: starts a run of `times` calls on a toggle of go, counts cycles,
// ends the run on the last done, a timeout, a deadlock or a sink overflow.
module vichls_sim_ctrl #(parameter DEADLOCK_CYCLES = 1024) (
    input  wire        clk,
    input  wire        rst,
    input  wire        go,
    input  wire [63:0] max_cycles,
    input  wire [31:0] times,
    input  wire        stalled,
    input  wire        overflow,
    output reg         ap_start,
    input  wire        ap_done,
    input  wire        ap_ready,
    output reg         load,
    output reg         dump,
    output reg         fin,
    output reg  [2:0]  status,
    output reg         spurious,
    output reg  [63:0] cycles,
    output reg  [63:0] done_edge,
    output reg         active
);
    reg go_seen, loading, running, dumped;
    // Clock gate of the design and its memories: they only get clock edges while something
    // happens (reset, a run, its dump), so idle designs cost no simulation time. Sampled
    // at the falling edge, as a glitch-free clock gate does.
    always @(negedge clk) active <= rst || go != go_seen || loading || running || dump || dumped;
    reg [63:0] n;
    reg [31:0] accepted, finished, stall_run;
    // calls accepted (ap_ready sampled with ap_start) and finished, counting this edge
    wire [31:0] accepted_now = accepted + {31'd0, ap_start & ap_ready};
    wire [31:0] finished_now = finished + {31'd0, ap_done};
    reg        ending;
    reg [2:0]  ending_status;
    always @(*) begin
        ending = 1'b1;
        if (ap_done && accepted_now < finished_now) ending_status = 3'd2;
        else if (overflow) ending_status = 3'd4;
        else if (ap_done && finished_now >= times) ending_status = 3'd0;
        else if (stalled && stall_run + 32'd1 >= DEADLOCK_CYCLES) ending_status = 3'd3;
        else if (n >= max_cycles) ending_status = 3'd1;
        else begin ending = 1'b0; ending_status = 3'd0; end
    end
    initial begin
        ap_start = 1'b0; load = 1'b0; dump = 1'b0; fin = 1'b0; status = 3'd0; spurious = 1'b0;
        cycles = 64'd0; go_seen = 1'b0; loading = 1'b0; running = 1'b0; dumped = 1'b0; n = 64'd0;
        active = 1'b0; accepted = 32'd0; finished = 32'd0; stall_run = 32'd0; done_edge = 64'd0;
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
            accepted <= accepted_now;
            finished <= finished_now;
            stall_run <= stalled ? stall_run + 32'd1 : 32'd0;
            // hold ap_start until the design has accepted every call of the run
            if (ap_start && ap_ready && accepted_now >= times) ap_start <= 1'b0;
            if (ap_done) done_edge <= n + 64'd1;  // 1-based: every done edge changes it
            if (ending) begin
                running <= 1'b0; dump <= 1'b1; cycles <= n; status <= ending_status; ap_start <= 1'b0;
            end else begin
                n <= n + 64'd1;
            end
        end else if (loading) begin
            loading <= 1'b0; running <= 1'b1; ap_start <= 1'b1; n <= 64'd0;
            accepted <= 32'd0; finished <= 32'd0; stall_run <= 32'd0;
        end else if (go != go_seen) begin
            go_seen <= go; loading <= 1'b1; load <= 1'b1; spurious <= 1'b0; done_edge <= 64'd0;
        end
    end
endmodule
"""


@dataclass(frozen=True)
class HarnessDesign:
    """What the harness needs of one design: its prefix, renamed top, signature, banks;
    whether its top declares ``vichls_stalled`` (watched for deadlocks), and how many
    elements a stream source or sink holds."""

    prefix: str
    top: str
    signature: KernelSignature
    banks: tuple[Bank, ...]
    watch_stalled: bool = False
    stream_capacity: int = DEFAULT_STREAM_CAPACITY
    has_continue: bool = False  # an ap_ctrl_chain top, continued at once
    has_hold: bool = False  # a core behind m_axi adapters: its hold input, tied low


def stream_params(signature: KernelSignature) -> list[Param]:
    """The stream parameters, in order: stream ``i`` has the harness instance ``dN_f<i>``."""
    return [prm for prm in signature.params if prm.is_stream]


def stream_file(prefix: str, param: str) -> str:
    """The hex file through which a stream source is loaded or a sink dumped."""
    return f"{prefix}_{param}.fifo.hex"


def _lfsr_seed(number: int) -> int:
    """A distinct non-zero LFSR seed per stream, so that throttled streams stall apart."""
    return ((0xACE1 + 0x9E37 * (number + 1)) & 0xFFFF) or 1


def harness_top(designs: list[HarnessDesign]) -> str:
    """The ``vichls_sim_top`` module driving every design."""
    top_ports = ["    input wire clk", "    input wire [63:0] max_cycles"]
    body: list[str] = []
    for d in designs:
        p = d.prefix
        sig = d.signature
        streams = stream_params(sig)
        top_ports += [
            f"    input wire {p}_rst",
            f"    input wire {p}_go",
            f"    input wire [31:0] {p}_times",
            f"    input wire {p}_throttle",
            f"    output wire {p}_fin",
            f"    output wire [2:0] {p}_status",
            f"    output wire {p}_spurious",
            f"    output wire [63:0] {p}_cycles",
            f"    output wire [63:0] {p}_done_edge",
        ]
        for prm in sig.params:
            if not prm.is_array and not prm.is_stream:
                top_ports.append(f"    input wire [{prm.scalar.width - 1}:0] {p}_s_{prm.name}")
        for i, prm in enumerate(streams):
            if prm.direction == "in":
                top_ports.append(f"    input wire [31:0] {p}_f{i}_count")
        if sig.ret is not None:
            top_ports.append(f"    output reg [{sig.ret.width - 1}:0] {p}_ret")
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
        ] + ([".ap_continue(1'b1)"] if d.has_continue else []) \
            + ([f".{ports.HOLD}(1'b0)"] if d.has_hold else [])
        if sig.ret is not None:
            body.append(f"    wire [{sig.ret.width - 1}:0] {p}_ap_return;")
            conns.append(f".ap_return({p}_ap_return)")
            # ap_return is valid in the done cycle only: latch it there
            body.append(f"    always @(posedge {p}_clk) if ({p}_ap_done) {p}_ret <= {p}_ap_return;")
        for prm in sig.params:
            if not prm.is_array and not prm.is_stream:
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
                present = {name for name, _, _ in ports.memory_ports(
                    bank.port, k, aw, w, reads=bank.reads, writes=bank.writes)}
                conns += [f".{ports.memory_port(bank.port, s, k)}({m}_{s}{k})"
                          for s, _ in ports.MEMORY_SIGNALS
                          if ports.memory_port(bank.port, s, k) in present]
                if not bank.writes:  # a read-only array: the memory is never written
                    body.append(f"    assign {m}_we{k} = 1'b0; assign {m}_d{k} = {w}'d0;")
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
        cap = d.stream_capacity
        overflows = []
        for i, prm in enumerate(streams):
            f, w, name = f"{p}_f{i}", prm.scalar.width, prm.name
            params = (
                f"#(.W({w}), .CAP({cap}), .AW({address_width(cap)}), "
                f".SEED(16'h{_lfsr_seed(i):04x}), .FILE(\"{stream_file(p, name)}\"))"
            )
            if prm.direction == "in":
                body.append(
                    f"    wire [{w - 1}:0] {f}_dout; wire {f}_empty_n, {f}_read; "
                    f"wire [31:0] {f}_taken, {f}_given;\n"
                    f"    vichls_sim_stream_in {params} {f} (\n"
                    f"        .clk({p}_clk), .load({p}_load), .count({f}_count), .throttle({p}_throttle),\n"
                    f"        .read({f}_read), .dout({f}_dout), .empty_n({f}_empty_n), "
                    f".taken({f}_taken), .given({f}_given));"
                )
                conns += [f".{ports.stream_port(name, s)}({f}_{s})"
                          for s, _ in ports.STREAM_SIGNALS["in"]]
            else:
                body.append(
                    f"    wire [{w - 1}:0] {f}_din; wire {f}_full_n, {f}_write, {f}_overflow; "
                    f"wire [31:0] {f}_count;\n"
                    f"    vichls_sim_stream_out {params} {f} (\n"
                    f"        .clk({p}_clk), .load({p}_load), .dump({p}_dump), .throttle({p}_throttle),\n"
                    f"        .write({f}_write), .din({f}_din), .full_n({f}_full_n), "
                    f".count({f}_count), .overflow({f}_overflow));"
                )
                conns += [f".{ports.stream_port(name, s)}({f}_{s})"
                          for s, _ in ports.STREAM_SIGNALS["out"]]
                overflows.append(f"{f}_overflow")
        body.append(f"    {d.top} {p}_dut (\n        " + ",\n        ".join(conns) + ");")
        # the deadlock detector looks inside the design, through a hierarchical reference
        stalled = f"{p}_dut.{STALLED_WIRE}" if d.watch_stalled else "1'b0"
        overflow = " | ".join(overflows) if overflows else "1'b0"
        body.append(f"    wire {p}_stalled = {stalled};\n    wire {p}_overflow = {overflow};")
        body.append(
            f"    vichls_sim_ctrl #(.DEADLOCK_CYCLES({DEADLOCK_CYCLES})) {p}_ctrl (.clk(clk), "
            f".rst({p}_rst), .go({p}_go), .max_cycles(max_cycles), .times({p}_times), "
            f".stalled({p}_stalled), .overflow({p}_overflow), .ap_start({p}_ap_start), "
            f".ap_done({p}_ap_done), .ap_ready({p}_ap_ready), .load({p}_load), .dump({p}_dump), "
            f".fin({p}_fin), .status({p}_status), .spurious({p}_spurious), .cycles({p}_cycles), "
            f".done_edge({p}_done_edge), .active({p}_active));"
        )
        body.append(f"    wire unused_{p} = {p}_ap_idle;")
    return (
        "`resetall\n`timescale 1ns/1ps\n"
        f"module {HARNESS_TOP} (\n" + ",\n".join(top_ports) + "\n);\n" + "\n".join(body) + "\nendmodule\n"
    )
