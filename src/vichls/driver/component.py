"""One kernel to one structural component: the FPGA back end below the dataflow level.

``compile_component(module)`` runs the loop-level preparation and the schedule (the
fpga-prepare and fpga-schedule pipelines of vichls/passes/pipelines.py), builds the structural
component (conversion/to_structural/build_structural.py), compiles its control to an FSM and inserts the
stall logic, and computes the report (latency, loops, interface, resources, operators)
from the same scheduled IR and operator library. vichls/driver/fpga.py turns it into Verilog;
vichls/driver/dataflow.py compiles each task of a dataflow design with it (``task_mode``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from xdsl.dialects import builtin, func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

from vichls import ports
from vichls.dialects.attributes import NAME_ATTR
from vichls.passes import pipelines
from vichls.targets import oplib
from vichls.dialects import stream as ir_stream
from vichls.dialects import structural as st
from vichls.conversion.to_structural.build_structural import (
    SOURCE_ATTR,
    build_structural,
    source_controls,
    static_trip_count,
)
from vichls.transforms.loop.partition_arrays import (
    original_signature,
    partitions_of,
)
from vichls.scheduling.critical_path import critical_path
from vichls.scheduling.modulo_schedule import is_dual_port
from vichls.scheduling.list_schedule import (
    WIRE_OP_NAMES,
    op_cost,
    op_kind,
)
from vichls.errors import FpgaError
from vichls.analysis.static_eval import counter_expression, evaluate
from vichls.signature import KernelSignature, signature_of, top_function
from vichls.types import address_width

__all__ = ["compile_component", "prepare", "FpgaDesign", "FpgaError"]


@dataclass
class FpgaDesign:
    top: str
    verilog: str
    report: dict
    #: the structural IR before control compilation (None when not kept)
    structural: ModuleOp | None
    signature: KernelSignature
    # {parameter: vichls.flows.sim.Partition}: what the simulator needs to serve the banks
    partitions: dict = field(default_factory=dict)
    #: the module to deliver when interface directives put adapters around the core
    #: (interface/wrapper.py); None: ``verilog`` itself
    top_verilog: str | None = None
    #: {bundle: interface.axilite.RegisterMap} of its s_axilite register files
    register_maps: dict = field(default_factory=dict)

    @property
    def deliverable(self) -> str:
        """The Verilog a user puts into a system: the adapters and the core, or the core."""
        return self.top_verilog if self.top_verilog is not None else self.verilog


_SUPPORTED_ARITH = {
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
    "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli",
    "arith.shrsi", "arith.shrui", "arith.cmpi", "arith.select", "arith.floordivsi",
    "arith.ceildivsi", *WIRE_OP_NAMES,
    # float32 (the units of rtl_templates/vichls_f*.v, vichls_itof.v, vichls_ftoi.v)
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf", "arith.cmpf",
    "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui", "math.sqrt", "math.absf", "arith.bitcast",
}
_SUPPORTED_OTHER = {
    "func.func", "func.return", "func.call", "memref.alloca", "memref.load", "memref.store",
    "memref.global", "memref.get_global",
    "scf.for", "scf.if", "scf.while", "scf.yield", "scf.condition", "builtin.module",
}


def _check_supported(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name in _SUPPORTED_ARITH or op.name in _SUPPORTED_OTHER:
            continue
        if op.name in ("stream.create", "stream.get", "stream.put"):
            continue
        if op.dialect_name() == "affine" and op.name in (
            "affine.for", "affine.load", "affine.store", "affine.yield", "affine.apply",
        ):
            continue
        raise FpgaError.at(op, "operation is not supported by the FPGA back end")
    for op in module.walk():
        for v in list(op.operands) + list(op.results):
            t = v.type
            if isinstance(t, (builtin.MemRefType, ir_stream.StreamType)):
                t = t.element_type
            if isinstance(t, builtin.IntegerType) and t.width.data > 64:
                raise FpgaError.at(op, f"integers wider than 64 bits are not supported ({t})")
            if not isinstance(t, (builtin.IntegerType, builtin.IndexType, builtin.FunctionType,
                                  builtin.Float32Type)):
                raise FpgaError.at(op, f"type {t} is not supported by the FPGA back end")


def prepare(module: ModuleOp, clock_period_ns: float) -> tuple[func.FuncOp, KernelSignature]:
    """Run the loop-level preparation and the scheduler on ``module`` in place."""
    _check_supported(module)
    pipelines.run_passes(pipelines.fpga_prepare(oplib.current_device().name), module)
    pipelines.run_passes(pipelines.fpga_schedule(oplib.current_device().name, clock_period_ns),
                         module)
    top = top_function(module)
    sig = signature_of(top)  # with one argument per bank
    return top, sig


@dataclass
class CompiledComponent:
    """One kernel compiled to one structural component (before printing)."""

    signature: KernelSignature  # the kernel's, banks folded back
    compiled: ModuleOp  # after control compilation and stall insertion
    #: before control compilation (``--emit structural``); None without ``keep_view``
    view: ModuleOp | None
    report: dict
    partitions: dict


def compile_component(work: ModuleOp, clock_period_ns: float, *, task_mode: bool = False,
                      keep_view: bool = True) -> CompiledComponent:
    """Compile the top kernel of ``work`` (consumed) to a structural component;
    ``task_mode`` gives the module of a dataflow task (conversion/to_structural/build_structural.py);
    ``keep_view`` keeps a copy of the structural IR before control compilation."""
    top, banked_sig = prepare(work, clock_period_ns)
    # a partitioned parameter is one function argument (hence one port set) per bank;
    # the design's signature is the kernel's, with the banks folded back into the array
    sig = original_signature(top)
    structural = build_structural(work, top, banked_sig, task_mode)
    timing = control_timing(top, structural)  # read before control compilation
    structural_view = structural.clone() if keep_view else None
    pipelines.run_passes(pipelines.compile_control(oplib.current_device().name, task_mode),
                         structural)
    report = make_report(top, banked_sig, timing, structural, clock_period_ns)
    add_partitions_to_report(report, top, sig)
    return CompiledComponent(sig, structural, structural_view, report,
                             sim_partitions(partitions_of(top)))


# -- the report -----------------------------------------------------------------------


class _LatencyModel:
    """Latency bounds (in cycles, None = unknown) read off the structural control tree,
    which the FSM follows exactly: every group takes its latency, loops and ifs add no
    cycle of their own. A loop's trip count is known when its bounds are constants, or
    when they are computed from constants and enclosing loop counters (a triangle): the
    loop-level ``scf.for`` each structural loop was built from (``source``) gives the
    bounds, evaluated at every iteration of the loops around it, which are then counted
    one by one (at most ``ENUMERATION_LIMIT`` iterations in all, else unknown). An if
    whose condition is known that way (a guard of a loop that may not run) takes its
    branch. Each loop's entry gets the bounds of one execution of the loop ("latency":
    {min, max}, over all its executions)."""

    ENUMERATION_LIMIT = 1_000_000

    def __init__(self, component: st.ComponentOp, source: list[scf.ForOp | scf.IfOp]):
        self.latency = {
            op.sym_name.data: op.latency.value.data
            for op in component.body.block.ops
            if isinstance(op, st.StaticGroupOp)
        }
        self.loops: list[dict] = []
        self.source = source
        self.env: dict = {}  # loop-level induction variable -> its value now
        self.entries: dict[Operation, dict] = {}
        self.varying: dict[Operation, bool] = {}
        self.enumerated = 0

    def block(self, block: Block) -> tuple[int, int | None]:
        low, high = 0, 0
        for op in block.ops:
            lo, hi = self.step(op)
            low += lo
            high = None if high is None or hi is None else high + hi
        return low, high

    def _entry(self, op, **fields) -> dict:
        """The report's entry of a loop, made on its first visit."""
        if op not in self.entries:
            self.entries[op] = dict(fields)
            self.loops.append(self.entries[op])
        return self.entries[op]

    def _source(self, op) -> scf.ForOp | scf.IfOp | None:
        attr = op.attributes.get(SOURCE_ATTR)
        return self.source[attr.value.data] if attr is not None else None

    def _bounds(self, op) -> tuple[int | None, scf.ForOp | None]:
        """(trip count now, the loop-level loop) of a structural loop."""
        trips = static_trip_count(op)
        loop = self._source(op)
        if trips is None and loop is not None:
            lb, ub, step = (evaluate(v, self.env) for v in (loop.lb, loop.ub, loop.step))
            if lb is not None and ub is not None and step is not None and step > 0:
                trips = max(0, -(-(ub - lb) // step))
        return trips, loop

    def _has_varying_loops(self, op) -> bool:
        """Whether a loop inside ``op`` has bounds that are not constants, or an if
        inside it a condition that is not."""
        if op not in self.varying:
            self.varying[op] = any(
                (isinstance(inner, (st.ForOp, st.PipelineOp)) and static_trip_count(inner) is None)
                or (isinstance(inner, st.IfOp) and self._source(inner) is not None
                    and counter_expression(self._source(inner).cond))
                for inner in op.body.block.walk())
        return self.varying[op]

    def step(self, op) -> tuple[int, int | None]:
        low, high = self._step(op)
        if op in self.entries:  # a loop: its "latency" is that of one execution, over all
            seen = self.entries[op].get("latency")
            if seen is None:
                self.entries[op]["latency"] = {"min": low, "max": high}
            else:
                seen["min"] = min(seen["min"], low)
                seen["max"] = None if high is None or seen["max"] is None \
                    else max(seen["max"], high)
        return low, high

    def _step(self, op) -> tuple[int, int | None]:
        if isinstance(op, st.EnableOp):
            n = self.latency[op.group.data]
            return n, n
        if isinstance(op, st.ForOp):
            entry = self._entry(op, name=op.attributes["loop_name"].data
                                if "loop_name" in op.attributes else "loop",
                                trip_count=static_trip_count(op), iteration_latency=None,
                                pipelined=False, ii=None)
            trips, loop = self._bounds(op)
            if trips is None:
                _, entry["iteration_latency"] = self.block(op.body.block)
                return 0, None
            if loop is not None and self._has_varying_loops(op) and \
                    self.enumerated + trips <= self.ENUMERATION_LIMIT:
                self.enumerated += trips
                iv, start = loop.body.block.args[0], evaluate(loop.lb, self.env)
                step = evaluate(loop.step, self.env)
                low, high, worst = 0, 0, 0
                for t in range(trips):
                    self.env[iv] = start + t * step
                    lo, hi = self.block(op.body.block)
                    low += lo
                    high = None if high is None or hi is None else high + hi
                    worst = None if worst is None or hi is None else max(worst, hi)
                self.env.pop(iv, None)
                entry["iteration_latency"] = worst
                return low, high
            body_low, body_high = self.block(op.body.block)
            entry["iteration_latency"] = body_high
            return trips * body_low, None if body_high is None else trips * body_high
        if isinstance(op, st.PipelineOp):
            depth = self.latency[op.group.data]
            ii = op.ii.value.data
            entry = self._entry(op, name=op.attributes["loop_name"].data,
                                trip_count=static_trip_count(op), iteration_latency=depth,
                                pipelined=True, ii=ii,
                                requested_ii=op.attributes["requested_ii"].value.data,
                                depth=depth)
            if "ii_reason" in op.attributes:
                entry["ii_reason"] = op.attributes["ii_reason"].data
            if "fused" in op.attributes:
                entry["fused"] = op.attributes["fused"].data
            trips, _ = self._bounds(op)
            if trips is None:
                return 0, None
            cycles = (trips - 1) * ii + depth if trips else 0
            return cycles, cycles
        if isinstance(op, st.IfOp):
            t_low, t_high = self.block(op.then.block)
            e_low, e_high = self.block(op.else_.block)
            branch = self._source(op)
            taken = evaluate(branch.cond, self.env) if branch is not None else None
            if taken is not None:
                return (t_low, t_high) if taken else (e_low, e_high)
            high = None if t_high is None or e_high is None else max(t_high, e_high)
            return min(t_low, e_low), high
        if isinstance(op, st.WhileOp):
            low, _ = self.block(op.before.block)
            self.block(op.after.block)
            return low, None
        raise AssertionError(op.name)


@dataclass
class ControlTiming:
    """What the report takes from the control tree: the latency bounds and the loops."""

    low: int
    high: int | None
    loops: list[dict]


def control_timing(top: func.FuncOp, structural: ModuleOp) -> ControlTiming:
    """The latency bounds and loop entries of ``structural`` before control compilation."""
    model = _LatencyModel(next(op for op in structural.walk() if isinstance(op, st.ComponentOp)),
                          source_controls(top))
    control = next(op for op in structural.walk() if isinstance(op, st.ControlOp))
    low, high = model.block(control.body.block)
    return ControlTiming(low, high, model.loops)


def make_report(
    top: func.FuncOp, sig: KernelSignature, timing: ControlTiming, structural: ModuleOp,
    clock: float
) -> dict:
    """The report of ``structural`` after control compilation; ``timing`` was read from its
    control tree before."""
    component = next(op for op in structural.walk() if isinstance(op, st.ComponentOp))
    port_entries = [
        {"name": op.port_name.data, "direction": op.direction.data,
         "width": op.result.type.width.data}
        for op in component.body.block.ops if isinstance(op, st.PortOp)
    ]
    arrays = {
        p.name: {"ports": 1, "words": p.type.size, "width": p.scalar.width, "partition": None}
        for p in sig.params if p.is_array
    }
    streams = {p.name: {"direction": p.direction, "width": p.scalar.width}
               for p in sig.params if p.is_stream}
    operators: Counter = Counter()
    totals: Counter = Counter()
    device = oplib.current_device()
    for op in top.walk():
        kind = op_kind(op)
        if kind is None or kind in ("wire", "reg_read", "reg_write", "shift_const"):
            continue
        operators[kind] += 1
        cost = op_cost(op)
        totals["lut"] += cost.lut
        totals["ff"] += cost.ff
        totals["dsp"] += cost.dsp
    for op in component.body.block.ops:
        if isinstance(op, st.CellOp):
            params = {k: v.value.data for k, v in op.params.data.items()}
            if op.primitive.data == "vichls_reg":
                totals["ff"] += params["WIDTH"] * device.ff_per_register_bit
            elif op.primitive.data.startswith(("vichls_ram", "vichls_rom")):
                ram = oplib.ram_cost(params["WORDS"], params["WIDTH"])
                for key in ("lut", "ff", "bram18"):
                    totals[key] += ram[key]
        elif isinstance(op, st.FsmOp):
            states = op.num_states.value.data
            totals["ff"] += op.state.type.width.data
            totals["lut"] += 2 * states
    for p in sig.params:
        if p.is_array:
            totals["lut"] += address_width(p.type.size) + p.scalar.width  # port muxes
    warnings = [
        f"loop '{loop['name']}': pipelined at II={loop['ii']}, not the II={loop['requested_ii']} "
        f"asked for: {loop.get('ii_reason', 'see the schedule')}"
        for loop in timing.loops if loop.get("pipelined") and loop["ii"] > loop["requested_ii"]
    ]
    resources = {"lut": round(totals["lut"] * device.lut_scale),
                 **{k: round(totals[k]) for k in ("ff", "dsp", "bram18")}}
    warnings += oplib.over_capacity(resources, device)
    return {
        "top": sig.name,
        "warnings": warnings,
        "clock_period_ns": clock,
        "device": oplib.current_device().name,
        "interface": {"ports": port_entries, "arrays": arrays, **({"streams": streams} if streams else {})},
        "latency": {"min": timing.low, "max": timing.high},
        "loops": timing.loops,
        "resources": resources,
        "operators": dict(sorted(operators.items())),
        # the longest chained path in one cycle (scheduling/critical_path.py)
        "timing": critical_path(top),
    }


def sim_partitions(records: dict[str, dict]) -> dict:
    """The ``Partition`` of each partitioned parameter, for ``vichls.flows.sim`` (dim=0:
    every dimension; of a 1-d array, its dimension 1)."""
    from vichls.flows.sim_harness import Partition

    out = {}
    for name, r in records.items():
        if r["local"]:
            continue
        if len(r["splits"]) > 1 and r["dim"] != 0:  # composed: one per dimension
            out[name] = tuple(Partition(kind, factor, dim) for kind, factor, dim in r["splits"])
            continue
        dim = r["dim"]
        if dim == 0 and len(r["shape"]) == 1:
            dim = 1
        out[name] = Partition(r["kind"], r["factor"], dim)
    return out


def add_partitions_to_report(report: dict, top: func.FuncOp, sig: KernelSignature) -> None:
    """Report the kernel's arrays (not the banks) with their partitioning: a partitioned
    array parameter's entry gets "partition" {kind, factor, dim}, "banks" and the "words"
    of each bank (ports: per bank); partitioned local arrays are listed under
    "local_partitions"."""
    records = partitions_of(top)
    arrays = {}
    for p in sig.params:
        if not p.is_array:
            continue
        entry = {"ports": 1, "words": p.type.size, "width": p.scalar.width, "partition": None}
        r = records.get(p.name)
        if r is not None:
            banks = r["banks"]
            entry.update(partition=_partition_entry(r), banks=banks,
                         words=_bank_words(r))  # words of each bank
        arrays[p.name] = entry
    port_names = {port["name"] for port in report["interface"]["ports"]}
    for name, entry in arrays.items():
        prefixes = [f"{name}_{b}" for b in range(entry.get("banks", 0))] or [name]
        if any(ports.memory_port(prefix, "address", 1) in port_names for prefix in prefixes):
            entry["ports"] = 2
    report["interface"]["arrays"] = arrays
    dual_locals = sorted(op.attributes[NAME_ATTR].data for op in top.walk()
                         if isinstance(op, memref.AllocaOp) and is_dual_port(op.memref)
                         and NAME_ATTR in op.attributes)
    if dual_locals:
        report["dual_port_local_arrays"] = dual_locals
    local = {name: {**_partition_entry(r), "banks": r["banks"]}
             for name, r in records.items() if r["local"]}
    if local:
        report["local_partitions"] = local


def _partition_entry(record: dict) -> dict:
    """{kind, factor, dim} of one partition directive; composed ones (several dimensions
    partitioned by their own directives) also list each: "splits": [{kind, factor, dim}]."""
    entry = {"kind": record["kind"], "factor": record["factor"], "dim": record["dim"]}
    if len(record["splits"]) > 1 and record["dim"] != 0:
        entry["splits"] = [{"kind": k, "factor": f, "dim": d} for k, f, d in record["splits"]]
    return entry


def _bank_words(record: dict) -> int:
    """Words of one bank: the shape with each partitioned dimension shrunk."""
    shape = list(record["shape"])
    for _kind, factor, dim in record["splits"]:
        shape[dim - 1] = -(-shape[dim - 1] // factor)
    words = 1
    for n in shape:
        words *= n
    return words
