"""The FPGA back end of a dataflow kernel: one module per task, a top that wires them.

``compile_dataflow(module)`` builds the graph level (transforms/graph/extract_tasks.py, then
transforms/graph/infer_streams.py), compiles every distinct task function with the ordinary back
end (vichls.driver.component.compile_component, in task mode: ap_ctrl_chain, latched scalars, stalls
on streams), and builds the top component:

- one instance per task, one ``vichls_task_ctrl`` per task (its queue of calls to start,
  with their scalar arguments, and its count of finished calls), one ``vichls_fifo`` per
  fifo channel and one ``vichls_pingpong`` per pingpong channel (rtl_templates/);
- the kernel's ports (ap_ctrl_hs, in the contract's order) wired to the task that uses each
  parameter; a task's scalar inputs come from its queue, so each call it starts sees the
  values the top took with that call;
- the top takes a call (``ap_ready``) when every task's queue has room; queues are sized
  by the task's place in the graph (``call_queues``), so in steady state only the first
  tasks' queues (one call) hold it back, and a chain of any length takes a call per
  interval of its slowest task. A task starts its oldest queued call as soon as it is free
  and its channels allow (a pingpong's consumer needs a full bank, its producer a free
  one); calls finish in order: ``ap_done`` pulses when every task has finished the oldest
  call (with ``s.dataflow(interface="ap_ctrl_chain")`` the top also has ``ap_continue``:
  its ``ap_done`` stays high until then);
- a pingpong channel partitioned by the kernel's schedule (``s.partition`` on the local
  array) is partitioned the same way in its two tasks (the request applies to both
  parameters, ``_task_requests``), and becomes one ``vichls_pingpong`` per bank of the
  partition, wired to the two tasks' ports of that bank (a FIFO is not partitioned);
- a pingpong channel has two banks, one more per further channel on the longest path from
  its producer to its consumer (``pingpong_banks``): a channel that bypasses tasks holds a
  bank for every call in flight between its two ends;
- ``vichls_stalled``: high while some task waits on a stream and no task can move, which
  the simulation harness watches to report a deadlock.

A fifo that bypasses other tasks (its consumer also depends on its producer through
them) is deepened by the elements those tasks hold in flight, so that the producer can run
ahead while they fill (a pipeline that stalls does not drain; see structural/insert_stall.py).
When that path goes through a pingpong channel, the consumer starts a call only after the
producer has finished it: the fifo holds whole calls, one per channel on the longest path
(a fifo whose element count is not a constant cannot be sized, and is refused there). A
fifo whose two tasks would otherwise move its elements in lock step across calls is
deepened so that neither waits on the other (``_decoupling``).

The report of a dataflow design adds ``dataflow``: the tasks (module, latency, interval,
loops, resources, timing), the channels (kind, depth or banks, producer, consumer), the
bottleneck (the task with the longest latency) and ``interval``, the cycles between calls
in steady state: the bottleneck's latency + 1 (a task module takes its next call in the
cycle after its done; it is not pipelined across calls), which is what a simulation of
back-to-back calls measures (tests/test_dataflow_overlap.py). It is None when a task's
latency is unknown; with a FIFO emptied between calls it is the estimated latency of a
call + 1 (calls do not overlap).
"""

from __future__ import annotations

from collections import Counter
from math import ceil

from xdsl.dialects import comb, func, hw, memref
from xdsl.dialects.builtin import (ArrayAttr, DictionaryAttr, IntegerAttr, IntegerType, ModuleOp,
                                   StringAttr)
from xdsl.ir import Block, Region, SSAValue

from vichls import ports
from vichls.passes import pipelines
from vichls.targets import oplib
from vichls.driver.component import FpgaDesign, compile_component
from vichls.dialects import graph
from vichls.dialects import structural as st
from vichls.conversion.to_structural.build_structural import STALL_WIRE, WAITS_PORT
from vichls.dialects.attributes import NAME_ATTR, REQUESTS_ATTR, TOP_ATTR
from vichls.analysis.stream_counts import stream_count, substitute
from vichls.errors import FpgaError
from vichls.signature import KernelSignature, signature_of, top_function
from vichls.types import address_width
from vichls.backend.verilog.printer import VERILOG_KEYWORDS, emit_verilog



def compile_dataflow(module: ModuleOp, clock_period_ns: float):
    work = module.clone()
    top = top_function(work)
    requests = list(top.attributes[REQUESTS_ATTR].data) if REQUESTS_ATTR in top.attributes else []
    top.attributes.pop(REQUESTS_ATTR, None)
    signature = signature_of(top)
    interface = top.attributes[graph.DATAFLOW_ATTR]
    chain = isinstance(interface, StringAttr) and interface.data == "ap_ctrl_chain"
    pipelines.run_passes(pipelines.dataflow_graph(), work)
    top = top_function(work)
    tasks = [op for op in top.body.block.ops if isinstance(op, graph.TaskOp)]
    channels = [op for op in top.body.block.ops if isinstance(op, graph.ChannelOp)]
    # one module per (function, partitions of its arrays); tasks are keyed by name
    compiled: dict[str, tuple[st.ComponentOp, object]] = {}
    modules: dict[tuple, tuple[st.ComponentOp, object]] = {}
    names_taken: set[str] = set()
    for task in tasks:
        callee = task.callee.root_reference.data
        task_requests = _task_requests(requests, task, top, channels, work)
        key = (callee, tuple(str(r) for r in task_requests))
        if key not in modules:
            sub = ModuleOp([f.clone() for f in work.ops if isinstance(f, memref.GlobalOp) or (
                isinstance(f, func.FuncOp) and f is not top)])  # (with the constant arrays)
            sub.attributes[TOP_ATTR] = StringAttr(callee)
            if task_requests:
                top_function(sub).attributes[REQUESTS_ATTR] = ArrayAttr(task_requests)
            try:
                component_design = compile_component(sub, clock_period_ns, task_mode=True,
                                                      keep_view=False)
            except FpgaError as e:
                raise FpgaError(f"{e.message} (in dataflow task '{task.task_name.data}')",
                                e.location) from None
            component = next(op for op in component_design.compiled.walk()
                             if isinstance(op, st.ComponentOp))
            # extracted tasks are named <top>_<task> already; called kernels get the prefix
            prefix = f"{signature.name}_"
            name = callee if callee.startswith(prefix) else prefix + callee
            base, k = name, 0
            while name in names_taken:
                k += 1
                name = f"{base}_{k}"
            names_taken.add(name)
            component.sym_name = StringAttr(name)
            modules[key] = (component, component_design)
        compiled[task.task_name.data] = modules[key]
    functions = {f.sym_name.data: f for f in work.ops if isinstance(f, func.FuncOp)}
    counts = _fifo_counts(tasks, channels, functions)
    flushed = {v for v, count in counts.items() if count is None}
    depths = _fifo_depths(tasks, channels, compiled, counts)
    banks = pingpong_banks(tasks, channels)
    builder = TopBuilder(signature, tasks, channels, compiled, depths, chain, flushed, banks)
    top_component = builder.build()
    for component, _ in modules.values():
        component.detach()
    design_module = ModuleOp([top_component] + [c for c, _ in modules.values()])
    verilog = emit_verilog(design_module)
    report = _report(signature, tasks, channels, compiled, depths, top_component, clock_period_ns,
                     flushed, banks, builder.control_sizes, builder.pingpong_split)
    report["interface"]["block_control"] = "ap_ctrl_chain" if chain else "ap_ctrl_hs"
    partitions = {}
    for (t, k), p in builder.param_users.items():
        design = compiled[tasks[t].task_name.data][1]
        pname = design.signature.params[k].name
        if pname in design.partitions:
            partitions[p.name] = design.partitions[pname]
            report["interface"]["arrays"][p.name] = design.report["interface"]["arrays"][pname]
    return FpgaDesign(signature.name, verilog, report, design_module, signature, partitions)


def _task_requests(requests, task: graph.TaskOp, top: func.FuncOp, channels, work) -> list:
    """The partition requests (on the kernel's arrays) that apply inside ``task``, renamed
    to the task function's parameters; a request on a local array or a constant table
    applies to every task that has or reads it."""
    out = []
    params = list(top.body.block.args)
    names = [signature_of(top).params[i].name for i in range(len(params))]
    callee = next(f for f in work.ops if isinstance(f, func.FuncOp)
                  and f.sym_name.data == task.callee.root_reference.data)
    callee_params = signature_of(callee).params
    for entry in requests:
        array = entry.data["array"].data
        channel = next((ch for ch in channels if ch.channel_name.data == array), None)
        if channel is not None and channel.kind.data != "pingpong":
            raise FpgaError(f"s.partition({array!r}) with s.dataflow(): '{array}' is a FIFO "
                            "between tasks, which is not partitioned; partition the arrays "
                            "the tasks keep to themselves, or ping-pong buffers", channel.location)
        if channel is not None:
            # a ping-pong buffer: both its tasks see the same banks (the request applied to
            # their parameters), and the top has one ping-pong per bank (channel_cells)
            for k, v in enumerate(task.args):
                if v is channel.result:
                    fields = dict(entry.data)
                    fields["array"] = StringAttr(callee_params[k].name)
                    out.append(DictionaryAttr(fields))
            continue
        if array in names:
            for k, v in enumerate(task.args):
                if v is params[names.index(array)]:
                    fields = dict(entry.data)
                    fields["array"] = StringAttr(callee_params[k].name)
                    out.append(DictionaryAttr(fields))
        elif any(op.attributes.get(NAME_ATTR) == StringAttr(array)
                 for op in callee.walk() if op.name in ("memref.alloca", "memref.get_global")):
            out.append(entry)  # a local of the task, or a constant table it reads
    return out


# -- channels that a call may leave elements in -------------------------------------------------


def _fifo_counts(tasks, channels, functions) -> dict[SSAValue, dict | None]:
    """Per fifo channel, the elements one call puts and gets (a polynomial of the kernel's
    parameters, analysis/stream_counts.py), or None when the producer is not sure to put,
    in every call, exactly as many elements as its consumer gets. What a call leaves in
    such a FIFO belongs to no later call (a new stream is empty at every call): the top
    empties them between calls, so its calls do not overlap."""
    out = {}
    for ch in channels:
        if ch.kind.data != "fifo":
            continue
        counts = []
        for task_name, side in ((ch.producer.data, "put"), (ch.consumer.data, "get")):
            task = next(t for t in tasks if t.task_name.data == task_name)
            callee = functions[task.callee.root_reference.data]
            k = next(k for k, v in enumerate(task.args) if v is ch.result)
            count = stream_count(callee, k, side, functions)
            counts.append(None if count is None else substitute(count, list(task.args)))
        out[ch.result] = counts[0] if counts[0] is not None and counts[0] == counts[1] else None
    return out


# -- channel sizing -----------------------------------------------------------------------------


def _in_flight(design) -> int:
    """Elements a task holds between its gets and its puts: its deepest pipeline's
    depth over II, or 1 without pipelines."""
    held = 1
    for loop in design.report["loops"]:
        if loop.get("pipelined"):
            held = max(held, ceil(loop["depth"] / loop["ii"]))
    return held


def _constant(count: dict | None) -> int | None:
    """A count that does not depend on the kernel's parameters, else None."""
    if count is None or any(term for term in count):
        return None
    return count.get((), 0)


def _phases(design, count: int) -> tuple[int, int, bool]:
    """(span, slack, known) of a task's call for a channel of ``count`` elements: the cycles
    from its first to its last element, the cycles of the call outside them, and whether
    the task is one loop of ``count`` iterations (an element per II, or per iteration of a
    loop not pipelined). Any other task is taken to move the elements at one per cycle,
    the shortest span and the longest slack."""
    latency = design.report["latency"]["min"] or 0
    loops = design.report["loops"]
    per, known = 1, False
    if len(loops) == 1 and loops[0].get("trip_count") == count:
        loop = loops[0]
        per = loop["ii"] if loop.get("pipelined") else loop.get("iteration_latency")
        known = per is not None
        per = per or 1
    span = (count - 1) * per
    return span, max(0, latency - span), known


def _decoupling(ch, count: int, compiled, slowest: int) -> int:
    """Elements a FIFO needs, beyond the two that stream one per cycle, so that neither of
    its tasks waits on the other from one call to the next. With a shallow FIFO the two
    move the elements in lock step: the producer cannot put the next call's elements while
    the consumer spends the rest of its call elsewhere, nor the consumer get them while the
    producer does, so a call of the pair takes the slower span and the longer slack, which
    may be more than either task's latency. When that is no more than the slowest task's
    latency (``slowest``; both tasks known, ``_phases``), nothing is needed; else the FIFO
    holds what the producer puts during the consumer's slack and what the consumer gets
    during the producer's (at most a call's elements)."""
    if count <= 0:
        return 0
    p_span, p_slack, p_known = _phases(compiled[ch.producer.data][1], count)
    c_span, c_slack, c_known = _phases(compiled[ch.consumer.data][1], count)
    if p_known and c_known and max(p_span, c_span) + max(p_slack, c_slack) <= slowest:
        return 0
    p_per, c_per = max(1, p_span // max(1, count - 1)), max(1, c_span // max(1, count - 1))
    return min(count, ceil(c_slack / p_per) + ceil(p_slack / c_per))


def _fifo_depths(tasks, channels, compiled, counts=None) -> dict[SSAValue, int]:
    import networkx as nx  # (here: its import costs every compile a sixth of a second)

    graph_ = nx.DiGraph()
    graph_.add_nodes_from(t.task_name.data for t in tasks)
    graph_.add_edges_from((ch.producer.data, ch.consumer.data) for ch in channels)
    order = list(nx.topological_sort(graph_))  # tasks run producers first: a DAG
    held_by = {name: _in_flight(compiled[name][1]) for name in graph_}

    def longest_detour(src: str, dst: str) -> int | None:
        """The most elements held by the tasks of a path src -> ... -> dst of at least
        two edges, or None when there is none: a longest path in the DAG, one sweep in
        topological order (each task's best is the most its paths from src hold)."""
        best: dict[str, int] = {}
        for node in order[order.index(src) + 1:]:
            if node == dst:
                break
            reach = [0 if p == src else best[p] for p in graph_.predecessors(node)
                     if p == src or p in best]
            if reach:
                best[node] = max(reach) + held_by[node]
        detours = [best[p] for p in graph_.predecessors(dst) if p in best]
        return max(detours) if detours else None

    pingpong_edges = {(ch.producer.data, ch.consumer.data) for ch in channels
                      if ch.kind.data == "pingpong"}

    def waits_for_the_end(src: str, dst: str) -> bool:
        """Whether a path src -> ... -> dst goes through a ping-pong buffer: then dst
        starts a call only after src has finished it (a ping-pong's consumer starts when
        its producer has ended), and a FIFO from src to dst must hold all its elements."""
        through: dict[str, bool] = {src: False}  # reached from src, through a ping-pong
        for node in order[order.index(src) + 1:]:
            flags = [through[p] or (p, node) in pingpong_edges
                     for p in graph_.predecessors(node) if p in through]
            if flags:
                through[node] = any(flags)
        return through.get(dst, False)

    slowest = max((design.report["latency"]["min"] or 0 for _, design in compiled.values()),
                  default=0)
    hops = longest_paths(tasks, channels)
    index = {t.task_name.data: i for i, t in enumerate(tasks)}
    depths = {}
    for ch in channels:
        if ch.kind.data != "fifo":
            continue
        depth = ch.depth.value.data
        detour = longest_detour(ch.producer.data, ch.consumer.data)
        if detour is not None:  # a bypass: recorded on the channel for the report
            depth = max(depth, detour + 2)
            ch.attributes["bypass"] = StringAttr(f"holds {detour} elements in flight")
        count = _constant((counts or {}).get(ch.result))
        if waits_for_the_end(ch.producer.data, ch.consumer.data):
            if count is None:
                raise FpgaError(
                    f"s.dataflow(): '{ch.channel_name.data}' goes from task "
                    f"'{ch.producer.data}' to task '{ch.consumer.data}' in order (a FIFO), but "
                    f"'{ch.consumer.data}' also waits, through a ping-pong buffer, for "
                    f"'{ch.producer.data}' to finish: the FIFO would have to hold every "
                    "element of a call, and their number is not a constant: give the other "
                    "path FIFOs (local arrays read in the order they are written), or make "
                    "this channel a ping-pong buffer (a local array read in another order)",
                    ch.location)
            # a whole call: the consumer starts after it; and in steady state, one per
            # channel on the longest path between the two tasks (the consumer starts a
            # call that many intervals after the producer: pingpong_banks)
            calls = max(1, hops[index[ch.producer.data]][index[ch.consumer.data]] or 1)
            depth = max(depth, calls * count + 2)
            ch.attributes["bypass"] = StringAttr(f"holds {calls} calls")
        elif count is not None:  # calls overlap: the tasks do not wait on each other
            depth += _decoupling(ch, count, compiled, slowest)
        depths[ch.result] = depth
    return depths


# -- the calls in flight ------------------------------------------------------------------------


def longest_paths(tasks, channels) -> list[list[int | None]]:
    """paths[a][b]: the most channels on a path from task a to task b (None: no path).
    Tasks are in program order, producers first."""
    index = {t.task_name.data: i for i, t in enumerate(tasks)}
    preds: list[list[int]] = [[] for _ in tasks]
    for ch in channels:
        preds[index[ch.consumer.data]].append(index[ch.producer.data])
    paths: list[list[int | None]] = []
    for a in range(len(tasks)):
        row: list[int | None] = [None] * len(tasks)
        row[a] = 0
        for b in range(a + 1, len(tasks)):
            reach = [row[p] + 1 for p in preds[b] if row[p] is not None]
            row[b] = max(reach) if reach else None
        paths.append(row)
    return paths


def pingpong_banks(tasks, channels) -> dict[SSAValue, int]:
    """The banks of each ping-pong channel: two, and one more per further channel on the
    longest path from its producer to its consumer. In steady state a task starts a call
    at most one interval after the producer it waits on, so a consumer ``h`` channels down
    from the producer starts a call up to ``h`` intervals after it, and the bank of that
    call is busy from the producer's start to the consumer's end: ``h + 1`` calls' banks
    at once. A bypassed channel with only two banks would hold its producer back, and so
    every call, to half the rate."""
    index = {t.task_name.data: i for i, t in enumerate(tasks)}
    paths = longest_paths(tasks, channels)
    return {ch.result: 1 + max(1, paths[index[ch.producer.data]][index[ch.consumer.data]])
            for ch in channels if ch.kind.data == "pingpong"}


def call_queues(tasks, channels) -> tuple[list[int], list[int]]:
    """Per task, the calls its vichls_task_ctrl queues (accepted by the top, not started by
    the task) and keeps (finished by the task, not yet by every task), so that neither
    holds back a chain of any length in steady state.

    Calls accepted but not started by a task are those not started by one of its producers
    plus those between the two: a ping-pong buffer lets its producer start at most two
    calls its consumer has not started (one bank being written, one full), and a FIFO, in
    the calls that fill it, about as many. So a task ``h`` channels down from the first
    tasks (the longest such path) queues ``1 + 2 h`` calls; the first tasks queue one (the
    top takes the next call while they run the current one). Likewise a task ``h``
    channels up from the last tasks keeps ``1 + 2 h`` finished calls (at least 3). A
    smaller queue would only make the top wait (never a deadlock): the top takes a call
    when every queue has room."""
    index = {t.task_name.data: i for i, t in enumerate(tasks)}
    edges = [(index[ch.producer.data], index[ch.consumer.data]) for ch in channels]
    down = [0] * len(tasks)  # tasks are in program order, producers first
    for t in range(len(tasks)):
        down[t] = max((down[p] + 1 for p, c in edges if c == t), default=0)
    up = [0] * len(tasks)
    for t in reversed(range(len(tasks))):
        up[t] = max((up[c] + 1 for p, c in edges if p == t), default=0)
    return [1 + 2 * h for h in down], [max(3, 1 + 2 * h) for h in up]


# -- the top component ------------------------------------------------------------------------


class TopBuilder:
    def __init__(self, signature: KernelSignature, tasks, channels, compiled, depths,
                 chain: bool = False, flushed: set[SSAValue] = frozenset(),
                 banks: dict[SSAValue, int] | None = None):
        self.signature = signature
        self.banks = banks or {}  # per ping-pong channel (pingpong_banks)
        # fifo channels emptied between calls (_fifo_counts): calls do not overlap
        self.flushed = flushed
        self.flushed_resets: list[SSAValue] = []
        self.chain = chain  # ap_ctrl_chain top: a call retires only with ap_continue
        self.tasks = tasks
        self.channels = channels
        self.compiled = compiled
        self.depths = depths
        self.component = st.ComponentOp.create(
            properties={"sym_name": StringAttr(signature.name)}, regions=[Region(Block())])
        self.top = self.component.body.block
        self.ports: dict[str, SSAValue] = {}
        self.constants: dict[tuple[int, int], SSAValue] = {}
        self.taken: set[str] = set()
        self.param_users: dict[tuple[int, int], object] = {}  # (task, arg) -> array parameter

    # -- helpers ---------------------------------------------------------------------
    def emit(self, op, hint: str | None = None):
        self.top.add_op(op)
        if hint is not None:
            op.results[0].name_hint = hint
        return op.results[0] if op.results else None

    def const(self, value: int, width: int) -> SSAValue:
        key = (value & ((1 << width) - 1), width)
        if key not in self.constants:
            self.constants[key] = self.emit(hw.ConstantOp(key[0], IntegerType(width), truncate_bits=True))
        return self.constants[key]

    def port(self, name: str, direction: str, width: int) -> SSAValue:
        op = st.PortOp.create(properties={"port_name": StringAttr(name), "direction": StringAttr(direction)},
                              result_types=[IntegerType(width)])
        self.ports[name] = self.emit(op, name)
        return self.ports[name]

    def cell(self, name: str, primitive: str, params: dict, cell_ports: list[tuple[str, str, int]]
             ) -> st.CellOp:
        if name in VERILOG_KEYWORDS:
            name += "_inst"
        base, k = name, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        op = st.CellOp.instance(name, primitive, params, cell_ports)
        self.top.add_op(op)
        return op

    def assign(self, dest: SSAValue, src: SSAValue, guard: SSAValue | None = None):
        self.top.add_op(st.AssignOp.of(dest, src, guard))

    def and_(self, values: list[SSAValue], hint: str) -> SSAValue:
        if not values:
            return self.const(1, 1)
        return values[0] if len(values) == 1 else self.emit(comb.AndOp(values), hint)

    def or_(self, values: list[SSAValue], hint: str) -> SSAValue:
        if not values:
            return self.const(0, 1)
        return values[0] if len(values) == 1 else self.emit(comb.OrOp(values), hint)

    def not_(self, value: SSAValue, hint: str) -> SSAValue:
        return self.emit(comb.XorOp([value, self.const(1, 1)]), hint)

    # -- the build -------------------------------------------------------------------
    def build(self) -> st.ComponentOp:
        sig = self.signature
        for name in ports.CONTROL_INPUTS:
            self.port(name, "in", 1)
        for name in ports.CONTROL_OUTPUTS:
            self.port(name, "out", 1)
        if self.chain:
            self.port(ports.CONTINUE, "in", 1)
        if sig.ret is not None:
            self.port(ports.RETURN, "out", sig.ret.width)
        params = list(sig.params)
        # which task port names each kernel parameter connects to
        users: dict[int, list[tuple[int, int]]] = {}
        for t, task in enumerate(self.tasks):
            for k, v in enumerate(task.args):
                if v.owner is not None and isinstance(v.owner, Block):
                    users.setdefault(v.index, []).append((t, k))
        self.instances = []
        for t, task in enumerate(self.tasks):
            component, _ = self.compiled[task.task_name.data]
            cell_ports = [(p.port_name.data, p.direction.data, p.result.type.width.data)
                          for p in component.body.block.ops if isinstance(p, st.PortOp)
                          and p.port_name.data != ports.CLOCK]
            self.instances.append((component, self.cell(task.task_name.data, component.sym_name.data,
                                                        {}, cell_ports)))
        # the kernel's ports, in the contract's order
        for index, p in enumerate(params):
            uses = users.get(index, [])
            if p.is_array:
                self.array_ports(p, uses)
            elif p.is_stream:
                self.stream_ports(p, uses)
            else:
                self.port(p.name, "in", p.scalar.width)
        self.controls = []
        self.control_sizes: list[tuple[int, int, int]] = []  # (DEPTH, KEEP, ARGW) per task
        queues, keeps = call_queues(self.tasks, self.channels)
        for t, task in enumerate(self.tasks):
            width = max(1, sum(params[v.index].scalar.width for _, v in self.scalar_args(t, params)))
            ctrl = self.cell(f"{task.task_name.data}_ctrl", "vichls_task_ctrl",
                             {"DEPTH": queues[t], "KEEP": keeps[t], "ARGW": width}, [
                ("rst", "in", 1), ("call", "in", 1), ("args_in", "in", width),
                ("deps_ok", "in", 1), ("t_ready", "in", 1), ("t_done", "in", 1),
                ("retire", "in", 1), ("t_start", "out", 1), ("args_out", "out", width),
                ("t_continue", "out", 1), ("pending", "out", 1), ("room", "out", 1),
                ("finished", "out", 1)])
            self.controls.append(ctrl)
            self.control_sizes.append((queues[t], keeps[t], width))
        self.wire_tasks(params)
        self.channel_cells()
        self.handshake()
        return self.component

    def task_port(self, t: int, name: str) -> SSAValue | None:
        cell = self.instances[t][1]
        names = [n.data for n in cell.port_names.data]
        return cell.ports[names.index(name)] if name in names else None

    def array_ports(self, p, uses):
        if len(uses) > 1:
            raise FpgaError(f"internal: parameter '{p.name}' is used by several tasks")
        words = p.type.size
        aw, w = address_width(words), p.scalar.width
        if not uses:  # no task touches it: an idle port set (neither read nor written)
            for name, direction, width in ports.memory_ports(p.name, 0, aw, w, reads=False,
                                                             writes=False):
                port = self.port(name, direction, width)
                if direction == "out":
                    self.assign(port, self.const(0, width))
            return
        t, k = uses[0]
        self.param_users[(t, k)] = p
        pname = self.task_param(t, k)
        _, design = self.compiled[self.tasks[t].task_name.data]
        banks = design.report["interface"]["arrays"][pname].get("banks")
        bank_names = [""] if banks is None else [f"_{b}" for b in range(banks)]
        for bank in bank_names:
            for n in (0, 1):
                if self.task_port(t, ports.memory_port(f"{pname}{bank}", "address", n)) is None:
                    continue
                for suffix, direction in ports.MEMORY_SIGNALS:
                    inner = self.task_port(t, ports.memory_port(f"{pname}{bank}", suffix, n))
                    if inner is None:  # (the task only reads it, or only writes it)
                        continue
                    outer = self.port(ports.memory_port(f"{p.name}{bank}", suffix, n), direction,
                                      inner.type.width.data)
                    if direction == "out":
                        self.assign(outer, inner)
                    else:
                        self.assign(inner, outer)

    def stream_ports(self, p, uses):
        if len(uses) != 1:
            raise FpgaError(f"internal: stream '{p.name}' is not used by exactly one task")
        t, k = uses[0]
        pname = self.task_param(t, k)
        for suffix, direction in ports.STREAM_SIGNALS[p.direction]:
            inner = self.task_port(t, ports.stream_port(pname, suffix))
            outer = self.port(ports.stream_port(p.name, suffix), direction, inner.type.width.data)
            if direction == "out":
                self.assign(outer, inner)
            else:
                self.assign(inner, outer)

    def task_param(self, t: int, k: int) -> str:
        _, design = self.compiled[self.tasks[t].task_name.data]
        return design.signature.params[k].name

    def scalar_args(self, t: int, params) -> list[tuple[int, SSAValue]]:
        """The arguments of task ``t`` that are scalar parameters of the kernel: (argument
        index, the parameter's block argument), in argument order."""
        return [(k, v) for k, v in enumerate(self.tasks[t].args)
                if isinstance(v.owner, Block)
                and not (params[v.index].is_array or params[v.index].is_stream)]

    def wire_tasks(self, params):
        for t, task in enumerate(self.tasks):
            ctrl = self.controls[t]
            scalars = self.scalar_args(t, params)
            # the scalar arguments of each call wait in the task's queue until it starts
            # the call (vichls_task_ctrl): packed side by side, the first argument highest
            if scalars:
                values = [self.ports[params[v.index].name] for _, v in scalars]
                packed = values[0] if len(values) == 1 else self.emit(
                    comb.ConcatOp(values, IntegerType(sum(v.type.width.data for v in values))),
                    f"{task.task_name.data}_args")
                self.assign(ctrl.port("args_in"), packed)
                low = sum(v.type.width.data for v in values)
                for k, v in scalars:
                    width = params[v.index].scalar.width
                    low -= width
                    inner = self.task_port(t, self.task_param(t, k))
                    if len(values) == 1:
                        self.assign(inner, ctrl.port("args_out"))
                    else:
                        self.assign(inner, self.emit(
                            comb.ExtractOp(ctrl.port("args_out"), IntegerAttr(low, 32),
                                           IntegerType(width)),
                            f"{task.task_name.data}_{params[v.index].name}"))
            else:
                self.assign(ctrl.port("args_in"), self.const(0, 1))
            for k, v in enumerate(task.args):
                if isinstance(v.owner, (Block, graph.ChannelOp)):
                    continue  # parameters: above, and the top's ports; channels: channel_cells
                attr = v.owner.value  # a constant argument
                inner = self.task_port(t, self.task_param(t, k))
                self.assign(inner, self.const(attr.value.data, inner.type.width.data))

    def channel_cells(self):
        ends = {}
        for t, task in enumerate(self.tasks):
            for k, v in enumerate(task.args):
                if isinstance(v.owner, graph.ChannelOp):
                    ends.setdefault(v, []).append((t, k))
        self.deps: dict[int, list[SSAValue]] = {}
        self.commits: list[tuple[st.CellOp, int, int]] = []
        # per ping-pong channel: its memories (one per bank of a partitioned one), words each
        self.pingpong_split: dict[SSAValue, tuple[int, int]] = {}
        for ch in self.channels:
            v = ch.result
            names = {self.tasks[t].task_name.data: (t, k) for t, k in ends.get(v, [])}
            pt, pk = names[ch.producer.data]
            ct, ck = names[ch.consumer.data]
            pname, cname = self.task_param(pt, pk), self.task_param(ct, ck)
            if ch.kind.data == "fifo":
                width = v.type.width
                fifo = self.cell(ch.channel_name.data, "vichls_fifo",
                                 {"WIDTH": width, "DEPTH": self.depths[v]}, [
                    ("rst", "in", 1), ("din", "in", width), ("write", "in", 1), ("full_n", "out", 1),
                    ("dout", "out", width), ("read", "in", 1), ("empty_n", "out", 1)])
                if v in self.flushed:  # emptied while every task is idle (handshake)
                    self.flushed_resets.append(fifo.port("rst"))
                else:
                    self.assign(fifo.port("rst"), self.ports[ports.RESET])
                put, get = (lambda s: self.task_port(pt, ports.stream_port(pname, s)),
                            lambda s: self.task_port(ct, ports.stream_port(cname, s)))
                self.assign(fifo.port("din"), put("din"))
                self.assign(fifo.port("write"), put("write"))
                self.assign(put("full_n"), fifo.port("full_n"))
                self.assign(get("dout"), fifo.port("dout"))
                self.assign(get("empty_n"), fifo.port("empty_n"))
                self.assign(fifo.port("read"), get("read"))
                continue
            shape = v.type.get_shape()
            words = 1
            for d in shape:
                words *= d
            width = v.type.element_type.width.data
            # partitioned (the same request on both tasks' parameters): one ping-pong per bank
            pentry = self.compiled[self.tasks[pt].task_name.data][1].report["interface"][
                "arrays"].get(pname, {})
            centry = self.compiled[self.tasks[ct].task_name.data][1].report["interface"][
                "arrays"].get(cname, {})
            split = pentry.get("partition"), pentry.get("banks")
            if split != (centry.get("partition"), centry.get("banks")):
                raise FpgaError(f"internal: the two tasks of ping-pong buffer "
                                f"'{ch.channel_name.data}' partition it differently", ch.location)
            if split[1] is not None:
                suffixes, words = [f"_{b}" for b in range(split[1])], pentry["words"]
            else:
                suffixes = [""]
            self.pingpong_split[v] = (len(suffixes), words)
            aw = address_width(words)
            for suffix in suffixes:
                self.pingpong_cell(ch, suffix, width, words, aw, (pt, pname), (ct, cname))

    def pingpong_cell(self, ch, suffix: str, width: int, words: int, aw: int, producer,
                      consumer) -> None:
        """One ``vichls_pingpong`` of channel ``ch`` (of one of its banks: ``suffix``),
        wired to the producer's and the consumer's memory ports of that bank."""
        v = ch.result
        (pt, pname), (ct, cname) = producer, consumer
        cell_ports = [("rst", "in", 1)]
        for side in ("p", "c"):
            for n in (0, 1):
                cell_ports += [(f"{side}_address{n}", "in", aw), (f"{side}_ce{n}", "in", 1),
                               (f"{side}_we{n}", "in", 1), (f"{side}_d{n}", "in", width),
                               (f"{side}_q{n}", "out", width)]
        cell_ports += [("p_commit", "in", 1), ("c_release", "in", 1),
                       ("p_may_start", "out", 1), ("c_may_start", "out", 1)]
        buf = self.cell(ch.channel_name.data + suffix, "vichls_pingpong",
                        {"WIDTH": width, "WORDS": words, "AW": aw,
                         "BANKS": self.banks.get(v, 2)}, cell_ports)
        self.assign(buf.port("rst"), self.ports[ports.RESET])
        for side, t, name in (("p", pt, pname + suffix), ("c", ct, cname + suffix)):
            for n in (0, 1):
                if self.task_port(t, ports.memory_port(name, "address", n)) is None:
                    for port, width_ in (("address", aw), ("ce", 1), ("we", 1), ("d", width)):
                        self.assign(buf.port(f"{side}_{port}{n}"), self.const(0, width_))
                    continue
                for port, width_ in (("address", aw), ("ce", 1), ("we", 1), ("d", width)):
                    inner = self.task_port(t, ports.memory_port(name, port, n))
                    self.assign(buf.port(f"{side}_{port}{n}"),
                                inner if inner is not None else self.const(0, width_))
                q = self.task_port(t, ports.memory_port(name, "q", n))
                if q is not None:  # (a task that only writes the buffer has no q)
                    self.assign(q, buf.port(f"{side}_q{n}"))
        self.deps.setdefault(pt, []).append(buf.port("p_may_start"))
        self.deps.setdefault(ct, []).append(buf.port("c_may_start"))
        self.commits.append((buf, pt, ct))

    def register(self, name: str, width: int) -> st.CellOp:
        return self.cell(name, "vichls_reg", {"WIDTH": width},
                         [("in", "in", width), ("en", "in", 1), ("out", "out", width)])

    def return_value(self, t: int, ctrl: st.CellOp, retire: SSAValue) -> SSAValue:
        """The kernel's value comes from task ``t``: held from its done until the top
        retires the call (the task keeps its done while an older value waits), and read
        straight from the task when both happen in one cycle. Returns the done handshake."""
        width = self.signature.ret.width
        task_return, task_done = self.task_port(t, ports.RETURN), self.task_port(t, ports.DONE)
        held = self.register("return_held", width)
        full = self.register("return_waiting", 1)
        empty = self.not_(full.port("out"), "return_free")
        done = self.and_([task_done, empty], "return_done")
        self.assign(ctrl.port("t_done"), done)
        self.assign(self.task_port(t, ports.CONTINUE), self.and_([ctrl.port("t_continue"), empty],
                                                                 "return_continue"))
        taken = self.and_([done, ctrl.port("t_continue")], "return_taken")
        self.assign(held.port("in"), task_return)
        self.assign(held.port("en"), taken)
        self.assign(full.port("in"), self.and_([taken, self.not_(retire, "not_retiring")], "return_kept"))
        self.assign(full.port("en"), self.or_([taken, retire], "return_update"))
        self.assign(self.ports[ports.RETURN], self.emit(comb.MuxOp(full.port("out"), held.port("out"),
                                                                  task_return), "return_value"))
        return taken

    def handshake(self):
        finished = [c.port("finished") for c in self.controls]
        # a call is taken when every task's queue has room for it: in steady state only the
        # first tasks' queues fill (call_queues sizes the others for the calls in flight)
        may_accept = [self.ports[ports.START], self.and_([c.port("room") for c in self.controls],
                                                         "queues_have_room")]
        if self.flushed:  # a call starts once the one before has ended and the FIFOs emptied
            quiet = self.emit(st.WireOp.create(properties={"wire_name": StringAttr("tasks_quiet")},
                                               result_types=[IntegerType(1)]), "tasks_quiet")
            may_accept.append(quiet)
            one = self.const(1, 1)
            for reset in self.flushed_resets:
                self.assign(reset, one, self.ports[ports.RESET])
                self.assign(reset, one, quiet)
        accept = self.and_(may_accept, "accept")
        all_finished = self.and_(finished, "all_finished")
        self.assign(self.ports[ports.READY], accept)
        self.assign(self.ports[ports.DONE], all_finished)
        if self.chain:  # ap_done stays high (the tasks keep their counts) until continued
            all_finished = self.and_([all_finished, self.ports[ports.CONTINUE]], "retire")
        idle_terms, blocked, waits = [], [], []
        taken = []
        returning = len(self.tasks) - 1 if self.signature.ret is not None else None
        for t, ctrl in enumerate(self.controls):
            name = self.tasks[t].task_name.data
            inst = lambda port, t=t: self.task_port(t, port)  # noqa: E731
            self.assign(ctrl.port("rst"), self.ports[ports.RESET])
            self.assign(ctrl.port("call"), accept)
            self.assign(ctrl.port("deps_ok"), self.and_(self.deps.get(t, []), f"{name}_deps_ok"))
            self.assign(ctrl.port("t_ready"), inst(ports.READY))
            self.assign(ctrl.port("retire"), all_finished)
            self.assign(inst(ports.RESET), self.ports[ports.RESET])
            self.assign(inst(ports.START), ctrl.port("t_start"))
            if t == returning:
                done_taken = self.return_value(t, ctrl, all_finished)
            else:
                self.assign(ctrl.port("t_done"), inst(ports.DONE))
                self.assign(inst(ports.CONTINUE), ctrl.port("t_continue"))
                done_taken = self.and_([inst(ports.DONE), ctrl.port("t_continue")], f"{name}_done_taken")
            taken.append(done_taken)
            idle_terms.append(self.and_([inst(ports.IDLE), self.not_(ctrl.port("pending"), f"{name}_not_pending"),
                                         self.not_(ctrl.port("finished"), f"{name}_not_finished")],
                                        f"{name}_idle"))
            held = self.and_([inst(ports.DONE), self.not_(ctrl.port("t_continue"), f"{name}_held")],
                             f"{name}_holds_done")
            idle_unstarted = self.and_([inst(ports.IDLE), self.not_(ctrl.port("t_start"), f"{name}_not_starting")],
                                       f"{name}_cannot_start")
            waits.append(inst(WAITS_PORT))
            blocked.append(self.or_([inst(WAITS_PORT), held, idle_unstarted], f"{name}_blocked"))
        for buf, pt, ct in self.commits:
            self.assign(buf.port("p_commit"), taken[pt])
            self.assign(buf.port("c_release"), taken[ct])
        all_idle = self.and_(idle_terms, "all_idle")
        self.assign(self.ports[ports.IDLE], all_idle)
        if self.flushed:
            self.assign(quiet, all_idle)
        stalled = st.WireOp.create(properties={"wire_name": StringAttr(STALL_WIRE)},
                                   result_types=[IntegerType(1)])
        self.emit(stalled, STALL_WIRE)
        self.assign(stalled.result, self.and_([self.or_(waits, "some_task_waits"),
                                               self.and_(blocked, "no_task_moves")], "deadlocked"))


# -- the report ---------------------------------------------------------------------------------


def _report(signature, tasks, channels, compiled, depths, top_component, clock,
            flushed=frozenset(), banks=None, controls=None, split=None) -> dict:
    task_entries = []
    latency_of: dict[str, int | None] = {}
    longest_of: dict[str, int | None] = {}  # the tasks' longest latencies
    loops, warnings = [], []
    resources, operators = Counter(), Counter()
    for task in tasks:
        component, design = compiled[task.task_name.data]
        name = task.task_name.data
        rep = design.report
        latency_of[name] = rep["latency"]["min"]
        longest_of[name] = rep["latency"]["max"]
        task_entries.append({"name": name, "module": component.sym_name.data,
                             "latency": rep["latency"]["min"],
                             "interval": _task_interval(rep["latency"]["min"]),
                             "loops": rep["loops"], "resources": rep["resources"],
                             "timing": rep["timing"]})
        loops += [{**loop, "task": name} for loop in rep["loops"]]
        whole = set(oplib.over_capacity(rep["resources"]))  # said once, for the design
        warnings += [f"task '{name}': {w}" for w in rep["warnings"] if w not in whole]
        resources.update(rep["resources"])
        operators.update(rep["operators"])
    channel_entries = []
    for ch in channels:
        entry = {"name": ch.channel_name.data, "kind": ch.kind.data,
                 "producer": ch.producer.data, "consumer": ch.consumer.data}
        if ch.kind.data == "fifo":
            entry["depth"] = depths[ch.result]
            entry["width"] = ch.result.type.width
            if "bypass" in ch.attributes:  # the consumer also hears the producer through others
                entry["bypass"] = True
            if ch.result in flushed:
                entry["emptied_between_calls"] = True
            resources["ff"] += 2 * ch.result.type.width + 8
            resources["lut"] += ch.result.type.width * max(1, ceil(depths[ch.result] / 32)) + 8
        else:
            words = 1
            for d in ch.result.type.get_shape():
                words *= d
            width = ch.result.type.element_type.width.data
            entry["words"] = words
            entry["banks"] = (banks or {}).get(ch.result, 2)
            memories, each = (split or {}).get(ch.result, (1, words))
            if memories > 1:  # partitioned: a ping-pong per bank of the partition
                entry["partition_banks"] = memories
            ram = oplib.ram_cost(entry["banks"] * each, width)
            for key in ("lut", "ff", "bram18"):
                resources[key] += memories * ram[key]
        channel_entries.append(entry)
    # the task controllers: counts and queue pointers, and the queued scalar arguments
    for depth, keep, argw in controls or [(1, 3, 1)] * len(tasks):
        pointers = 2 * max(1, (depth - 1).bit_length()) + depth.bit_length() + keep.bit_length()
        resources["ff"] += pointers + (argw * depth if argw > 1 or depth > 1 else 0)
        resources["lut"] += 6 + pointers + (argw if depth > 1 else 0)
    known = [v for v in latency_of.values() if v is not None]
    bottleneck = max(latency_of, key=lambda n: latency_of[n] or 0) if known else None
    latency = _call_latency(tasks, channels, latency_of)
    if flushed:  # a call starts when the one before has ended (the FIFOs emptied)
        interval = None if latency is None else latency + 1
    elif len(known) == len(latency_of) and bottleneck is not None:
        # the bottleneck task's: in steady state every task takes a call per interval
        interval = _task_interval(latency_of[bottleneck])
    else:
        interval = None  # (unknown when some task's latency is)
    port_entries = [{"name": op.port_name.data, "direction": op.direction.data,
                     "width": op.result.type.width.data}
                    for op in top_component.body.block.ops if isinstance(op, st.PortOp)]
    names = {q["name"] for q in port_entries}
    arrays = {p.name: {"ports": 2 if ports.memory_port(p.name, "address", 1) in names else 1,
                       "words": p.type.size, "width": p.scalar.width, "partition": None}
              for p in signature.params if p.is_array}
    interface = {"ports": port_entries, "arrays": arrays}
    streams = {p.name: {"direction": p.direction, "width": p.scalar.width}
               for p in signature.params if p.is_stream}
    if streams:
        interface["streams"] = streams
    totals = {k: int(resources[k]) for k in ("lut", "ff", "dsp", "bram18")}
    warnings += oplib.over_capacity(totals)
    return {
        "top": signature.name,
        "warnings": warnings,
        "clock_period_ns": clock,
        "device": oplib.current_device().name,
        "interface": interface,
        "latency": {"min": latency, "max": None},
        "loops": loops,
        "resources": totals,
        "operators": dict(sorted(operators.items())),
        # the slowest task's longest chained path (the top adds control logic only)
        "timing": _slowest([t["timing"] for t in task_entries]),
        "dataflow": {
            "tasks": task_entries,
            "channels": channel_entries,
            "bottleneck": bottleneck,
            # the bottleneck task's: every task runs a call per interval in steady state
            # (with a FIFO emptied between calls, a call starts when the one before ended)
            "interval": interval,
            # the most it can be when tasks take longer on some data (None: unbounded)
            "interval_max": None if interval is None or flushed
            or any(v is None for v in longest_of.values())
            else max(interval, max(_task_interval(v) for v in longest_of.values())),
        },
    }


def _task_interval(latency: int | None) -> int | None:
    """Cycles between a task's consecutive starts when it has work: its latency and the
    cycle it spends idle after its done (a task module takes a call only in its idle state,
    structural/compile_control.py)."""
    return None if latency is None else latency + 1


def _slowest(timings: list[dict]) -> dict:
    """A copy of the timing entry with the longest estimate (none: nothing chained)."""
    worst = max(timings, key=lambda t: t["estimated_ns"],
                default={"estimated_ns": 0.0, "critical_chain": []})
    return {"estimated_ns": worst["estimated_ns"], "critical_chain": list(worst["critical_chain"])}


def _call_latency(tasks, channels, latency_of) -> int | None:
    """Cycles of one call without stalls: a pingpong's consumer starts when its producer
    ends, a fifo's consumer ends no earlier than its producer (plus the handshakes)."""
    if any(v is None for v in latency_of.values()):
        return None
    start = {t.task_name.data: 0 for t in tasks}
    end = {}
    for t in tasks:  # tasks are in program order, producers first
        name = t.task_name.data
        for ch in channels:
            if ch.consumer.data == name and ch.kind.data == "pingpong":
                start[name] = max(start[name], end[ch.producer.data] + 1)
        end[name] = start[name] + latency_of[name] + 1
        for ch in channels:
            if ch.consumer.data == name and ch.kind.data == "fifo":
                end[name] = max(end[name], end[ch.producer.data] + 1)
    return max(end.values())
