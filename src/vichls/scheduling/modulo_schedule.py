"""Modulo scheduling of pipelined loops (iterative modulo scheduling, with chaining).

Why: a loop marked ``vichls.pipeline = II`` (transforms/loop/loop_pipeline) starts an iteration
every II cycles. One iteration's operations get a schedule (cycle offsets from the
iteration's start) such that the overlapping iterations never use one memory port in the
same cycle, a non-pipelined unit (the divider) is free again when the next iteration needs
it, and every dependence holds, including those between iterations: through memory (from
analysis/dependence, exact for affine indices, conservative otherwise) and through scalars
kept in registers (0-d memrefs).

What, for each pipelined ``scf.for``:

1. the iteration's operations (ifs included: their operations are predicated by the
   conditions, which the memory and register accesses inside depend on) become nodes;
   edges carry a minimum cycle gap and an iteration distance: ``t(dst) + distance * II >=
   t(src) + gap``;
2. the minimum II is the larger of the resource bound (accesses per memory port, divider
   occupancy) and the recurrence bound (the smallest II without a positive cycle of
   ``gap - distance * II``); the II asked for is a floor;
3. Rau's iterative modulo scheduling from that II upward: operations by height, each at
   the first cycle from its earliest start where its port's modulo slot is free and its
   chained delay fits the clock period, evicting what conflicts when none is, within a
   step budget; a final check verifies every constraint;
4. a memory whose one port is what keeps the II above the target (the one asked for, or
   the recurrence bound if higher) gets its second port: capacity two accesses per slot;
   a division whose iterative divider would (busy W+1 cycles) gets a fully pipelined one
   (``vichls.pipelined_divider``), of the same latency;
5. results go on the IR: ``vichls.cycle``/``vichls.ready`` on every operation (as the
   list scheduler writes them), ``vichls.port`` (0 or 1) on every memory access and
   ``vichls.dual_port`` on a memory that uses port 1, and on the loop ``vichls.ii``
   (achieved), ``vichls.depth`` (cycles of one iteration, at least 2),
   ``vichls.ii_reason`` when the II is above the one asked for (which memory, recurrence
   or unit).

Chaining follows scheduling/list_schedule: a combinational operation may run in the cycle its
operands become ready while the path delay stays within the clock budget.

Assumes the IR after lower-affine and the loop-level preparation; the pipelined body holds
no loop (inner loops were unrolled) and the loop has no ``iter_args``.
"""

from __future__ import annotations

import heapq
import re

from dataclasses import dataclass, field
from math import ceil

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Block, Operation

from vichls.dialects.attributes import (
    DEPTH_ATTR,
    DUAL_PORT_ATTR,
    FORWARDED_ATTR,
    II_ATTR,
    NAME_ATTR,
    PORT_ATTR,
    REASON_ATTR,
)
from vichls.analysis.dependence import ANY, Every, LoopDependences
from vichls.analysis.memory_names import described, display_name
from vichls.analysis.loop_utils import pipeline_ii
from vichls.scheduling.list_schedule import (
    forwarding_store,
    is_control,
    is_scalar_memref,
    op_cost,
    op_kind,
    stream_port,
)
from vichls.dialects.attributes import CYCLE_ATTR, PIPELINED_DIVIDER_ATTR, READY_ATTR
from vichls.errors import FpgaError


#: Give up raising the II past the first feasible one plus this much (never reached in
#: practice: at II = the iteration's length every constraint holds).
MAX_II_STEPS = 4096


# -- the abstract problem ------------------------------------------------------------------


@dataclass
class MNode:
    latency: int
    delay: float
    out_delay: float = 0.0
    port: object = None  # a memory (one modulo slot per access)
    busy: int = 0  # cycles its own non-pipelined unit stays busy (a divider)


@dataclass(frozen=True)
class MEdge:
    src: int
    dst: int
    gap: int
    distance: int = 0
    data: bool = False  # dst reads src's result (chaining applies when gap is met exactly)
    why: str = ""


@dataclass
class ModuloSchedule:
    ii: int
    times: list[int]
    ready: list[int]
    depth: int


@dataclass
class Bounds:
    res_mii: int = 1
    rec_mii: int = 1
    res_reasons: list[str] = field(default_factory=list)
    rec_reason: str = ""


class _RecurrenceGraph:
    """The loop-carried edges plus, between their endpoints, the longest paths through
    same-iteration edges: the same cycles as the full graph on a much smaller one.
    Same-iteration edges always go forward in program order (node index)."""

    def __init__(self, n: int, edges: list[MEdge]):
        carried = [e for e in edges if e.distance > 0]
        self.ends = sorted({e.src for e in carried} | {e.dst for e in carried})
        index = {v: k for k, v in enumerate(self.ends)}
        forward: list[list[MEdge]] = [[] for _ in range(n)]
        for e in edges:
            if e.distance == 0:
                assert e.src < e.dst, "same-iteration dependences follow program order"
                forward[e.src].append(e)
        # (src, dst, gap, distance) on compact indices; the MEdge path behind each
        self.edges: list[tuple[int, int, int, int]] = []
        self.paths: list[object] = []
        for e in carried:
            self.edges.append((index[e.src], index[e.dst], e.gap, e.distance))
            self.paths.append([e])
        for start in self.ends:
            longest: dict[int, int] = {start: 0}
            via: dict[int, MEdge] = {}
            for u in range(start, n):
                if u not in longest:
                    continue
                for e in forward[u]:
                    if e.dst not in longest or longest[e.dst] < longest[u] + e.gap:
                        longest[e.dst] = longest[u] + e.gap
                        via[e.dst] = e
            for v, length in longest.items():
                if v in index and v != start:
                    self.edges.append((index[start], index[v], length, 0))
                    self.paths.append((via, start, v))

    def path(self, k: int) -> list[MEdge]:
        entry = self.paths[k]
        if isinstance(entry, list):
            return entry
        via, start, v = entry
        out = []
        while v != start:
            out.append(via[v])
            v = via[v].src
        return list(reversed(out))

    def single_edge_bound(self) -> tuple[int, list[int]]:
        """max over carried edges u->v of ceil((gap + longest same-iteration path v->u)
        / distance), a lower bound on the recurrence-constrained II, and the edge numbers
        of the cycle that gives it."""
        back = {(s, d): number for number, (s, d, g, k) in enumerate(self.edges) if k == 0}
        bound, witness = 1, []
        for number, (s, d, g, k) in enumerate(self.edges):
            if k > 0 and (s == d or (d, s) in back):
                cycle = [number] if s == d else [number, back[(d, s)]]
                total = sum(self.edges[c][2] for c in cycle)
                if -(-total // k) > bound:
                    bound, witness = -(-total // k), cycle
        return bound, witness

    def positive_cycle(self, ii: int) -> list[int] | None:
        """Edge numbers of a cycle of positive weight ``gap - distance * ii`` (Bellman-Ford
        from every node at once), or None."""
        n = len(self.ends)
        dist = [0] * n
        pred = [-1] * n
        changed = -1
        weighted = [(s, d, g - k * ii, number) for number, (s, d, g, k) in enumerate(self.edges)]
        for _ in range(n + 1):
            changed = -1
            for s, d, w, number in weighted:
                if dist[s] + w > dist[d]:
                    dist[d] = dist[s] + w
                    pred[d] = number
                    changed = d
            if changed < 0:
                return None
        v = changed  # walk back n steps to land on the cycle, then collect it
        for _ in range(n):
            v = self.edges[pred[v]][0]
        cycle, u = [], v
        while True:
            number = pred[u]
            cycle.append(number)
            u = self.edges[number][0]
            if u == v:
                break
        return list(reversed(cycle))


def resource_bound(nodes: list[MNode], capacity: dict, names: dict) -> Bounds:
    """The resource bound on II (accesses per memory port, busy dividers), with reasons."""
    b = Bounds()
    uses: dict = {}
    memories: list[tuple[int, str, int, int]] = []  # (II needed, name, ports, accesses)
    for node in nodes:
        if node.port is not None:
            uses[node.port] = uses.get(node.port, 0) + 1
    for port, count in uses.items():
        need = ceil(count / capacity.get(port, 1))
        if need > 1 and isinstance(port, tuple):  # a stream side: one element per cycle
            stream_value, side = port
            b.res_reasons.append(
                f"stream '{names.get(port, '?')}' moves one element per cycle and the loop "
                f"{'gets' if side == 'get' else 'puts'} {count} per iteration (II >= {need})")
        elif need > 1:
            memories.append((need, names.get(port, "?"), capacity.get(port, 1), count))
        b.res_mii = max(b.res_mii, need)
    b.res_reasons += _memory_reasons(memories)
    for i, node in enumerate(nodes):
        if node.busy > 1:
            b.res_reasons.append(f"{names.get(i, 'a divider')} is not pipelined: it is busy "
                                 f"{node.busy} cycles (II >= {node.busy})")
            b.res_mii = max(b.res_mii, node.busy)
    return b


#: memories named one by one in an II reason; the others are counted in one line
MEMORY_REASONS_SHOWN = 4


def _memory_reasons(memories: list[tuple[int, str, int, int]]) -> list[str]:
    """The reasons of the memories that bound II, those needing the largest II first; past
    ``MEMORY_REASONS_SHOWN`` one line counts the rest (a loop over a partitioned array can
    have hundreds of banks, each with the same story)."""
    def natural(name: str) -> list:   # 'A_2' before 'A_10'
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]

    memories = sorted(memories, key=lambda m: (-m[0], natural(m[1])))
    reasons = [f"memory '{name}' has {ports} port{'s' if ports > 1 else ''} and {count} "
               f"accesses per iteration (II >= {need})"
               for need, name, ports, count in memories[:MEMORY_REASONS_SHOWN]]
    rest = memories[MEMORY_REASONS_SHOWN:]
    if rest:
        low, high = rest[-1][0], rest[0][0]
        needs = f"II >= {low}" if low == high else f"II >= {low} to {high}"
        names = ", ".join(f"'{m[1]}'" for m in rest[:3])
        more = ", ..." if len(rest) > 3 else ""
        reasons.append(f"{len(rest)} more memories with more accesses per iteration than "
                       f"ports ({names}{more}; {needs})")
    return reasons


def recurrence_bound(n: int, edges: list[MEdge], asked: int = 1) -> tuple[int, str]:
    """The recurrence bound on II and the reason (the critical cycle's dependences); exact
    when above ``asked``, otherwise only known to be at most ``asked`` (then 1, "")."""
    graph = _RecurrenceGraph(n, edges)
    # Cycles made of one carried edge and a same-iteration path back give a lower bound
    # that is almost always the answer; a feasibility check (quick when feasible)
    # confirms it. Feasibility is monotonic in II: double until feasible, then bisect.
    single, witness = graph.single_edge_bound()
    if single <= asked and graph.positive_cycle(asked) is None:
        return 1, ""
    low = high = max(single, asked + 1)
    if graph.positive_cycle(low) is not None:
        low, high = low + 1, low * 2
        while graph.positive_cycle(high) is not None:
            low, high = high + 1, high * 2
    while low < high:
        mid = (low + high) // 2
        if graph.positive_cycle(mid) is None:
            high = mid
        else:
            low = mid + 1
    cycle = witness if low == single else (graph.positive_cycle(low - 1) or [])
    path = [e for number in cycle for e in graph.path(number)]
    whys = sorted({e.why for e in path if e.why})
    total = sum(e.gap for e in path)
    iterations = sum(e.distance for e in path)
    return low, (f"a recurrence of {total} cycles over {iterations} iteration"
                 f"{'s' if iterations != 1 else ''} (II >= {low})"
                 + (": " + "; ".join(whys) if whys else ""))


def bounds(nodes: list[MNode], edges: list[MEdge], capacity: dict, names: dict,
           asked: int = 1) -> Bounds:
    """Both lower bounds on II, with their reasons."""
    b = resource_bound(nodes, capacity, names)
    b.rec_mii, b.rec_reason = recurrence_bound(len(nodes), edges, asked)
    return b


class _Unscheduled(set):
    """The nodes left to place, which also gives the first of them in priority order (a
    heap of ranks; a node evicted again is pushed again)."""

    def __init__(self, nodes, rank: dict[int, int]):
        super().__init__(nodes)
        self.rank = rank
        self.heap = sorted(rank[i] for i in self)
        self.by_rank = {r: i for i, r in rank.items()}

    def add(self, i: int) -> None:
        if i not in self:
            super().add(i)
            heapq.heappush(self.heap, self.rank[i])

    def pop_first(self) -> int:
        while True:
            i = self.by_rank[heapq.heappop(self.heap)]
            if i in self:
                self.discard(i)
                return i


class _Ims:
    """One attempt of iterative modulo scheduling at a fixed II."""

    def __init__(self, nodes, edges, ii, budget_ns, capacity):
        self.nodes, self.edges, self.ii, self.budget = nodes, edges, ii, budget_ns
        self.capacity = capacity
        n = len(nodes)
        self.succs: list[list[MEdge]] = [[] for _ in range(n)]
        self.preds: list[list[MEdge]] = [[] for _ in range(n)]
        for e in edges:
            self.succs[e.src].append(e)
            self.preds[e.dst].append(e)
        self.time: list[int | None] = [None] * n
        self.last: list[int | None] = [None] * n
        self.slots: dict = {}  # (port, slot) -> set of nodes
        self.finish_cache: dict[int, float] = {}

    def heights(self) -> list[int]:
        h = [0] * len(self.nodes)
        # same-iteration edges go forward in program order: visiting sources from the last
        # node back settles them in one sweep, so few sweeps reach the fixed point
        edges = sorted(self.edges, key=lambda e: -e.src)
        for _ in range(len(self.nodes) + 1):
            changed = False
            for e in edges:
                w = h[e.dst] + e.gap - e.distance * self.ii
                if w > h[e.src]:
                    h[e.src] = w
                    changed = True
            if not changed:
                break
        return h

    def ready(self, i: int) -> int:
        return self.time[i] + self.nodes[i].latency

    def finish(self, i: int) -> float:
        """Time within its ready cycle at which node i's result is valid."""
        if i in self.finish_cache:
            return self.finish_cache[i]
        node = self.nodes[i]
        if node.latency > 0:
            value = node.out_delay
        else:
            value = self.arrival(i, self.time[i]) + node.delay
        self.finish_cache[i] = value
        return value

    def arrival(self, i: int, t: int) -> float:
        arrival = 0.0
        for e in self.preds[i]:
            p = e.src
            if e.data and e.distance == 0 and self.time[p] is not None and self.ready(p) == t:
                arrival = max(arrival, self.finish(p))
        return arrival

    def timing_ok(self, i: int, t: int) -> bool:
        arrival = self.arrival(i, t)
        return arrival == 0.0 or arrival + self.nodes[i].delay <= self.budget

    def slot_users(self, i: int, t: int) -> set:
        port = self.nodes[i].port
        return self.slots.get((port, t % self.ii), set()) if port is not None else set()

    def resource_ok(self, i: int, t: int) -> bool:
        port = self.nodes[i].port
        if port is None:
            return True
        return len(self.slot_users(i, t)) < self.capacity.get(port, 1)

    def place(self, i: int, t: int):
        self.time[i] = self.last[i] = t
        port = self.nodes[i].port
        if port is not None:
            self.slots.setdefault((port, t % self.ii), set()).add(i)
        self.finish_cache.clear()

    def evict(self, i: int, unscheduled: set):
        port = self.nodes[i].port
        if port is not None:
            self.slots[(port, self.time[i] % self.ii)].discard(i)
        self.time[i] = None
        unscheduled.add(i)
        self.finish_cache.clear()

    def violated(self, e: MEdge) -> bool:
        ts, td = self.time[e.src], self.time[e.dst]
        if ts is None or td is None:
            return False
        return td + e.distance * self.ii < ts + e.gap

    def run(self, max_steps: int) -> list[int] | None:
        n = len(self.nodes)
        height = self.heights()
        priority = sorted(range(n), key=lambda i: (-height[i], i))
        rank = {node: k for k, node in enumerate(priority)}
        unscheduled = _Unscheduled(range(n), rank)
        steps = 0
        while unscheduled:
            steps += 1
            if steps > max_steps:
                return None
            i = unscheduled.pop_first()
            estart = 0
            for e in self.preds[i]:
                if self.time[e.src] is not None:
                    estart = max(estart, self.time[e.src] + e.gap - e.distance * self.ii)
            chosen = None
            for t in range(estart, estart + self.ii):
                if self.resource_ok(i, t) and self.timing_ok(i, t):
                    chosen = t
                    break
            if chosen is None:
                t = estart
                if self.last[i] is not None and self.last[i] >= estart:
                    t = self.last[i] + 1
                while not self.timing_ok(i, t):
                    t += 1
                chosen = t
                users = sorted(self.slot_users(i, t))
                while users and not self.resource_ok(i, t):
                    self.evict(users.pop(0), unscheduled)
            self.place(i, chosen)
            # operations whose constraints with i broke, or whose chained path got too long
            for e in self.succs[i] + self.preds[i]:
                other = e.dst if e.src == i else e.src
                if other != i and self.time[other] is not None and self.violated(e):
                    self.evict(other, unscheduled)
            self._evict_slow_chains(i, unscheduled)
        return list(self.time)  # type: ignore[arg-type]

    def _evict_slow_chains(self, start: int, unscheduled: set):
        work, seen = [start], {start}
        while work:
            i = work.pop()
            for e in self.succs[i]:
                d = e.dst
                if not e.data or e.distance or d in seen or self.time[d] is None:
                    continue
                seen.add(d)
                if not self.timing_ok(d, self.time[d]):
                    self.evict(d, unscheduled)
                else:
                    work.append(d)

    def valid(self, times: list[int]) -> bool:
        for e in self.edges:
            if times[e.dst] + e.distance * self.ii < times[e.src] + e.gap:
                return False
        for i in range(len(self.nodes)):
            if not self.timing_ok(i, times[i]):
                return False
        used: dict = {}
        for i, node in enumerate(self.nodes):
            if node.port is not None:
                key = (node.port, times[i] % self.ii)
                used[key] = used.get(key, 0) + 1
                if used[key] > self.capacity.get(node.port, 1):
                    return False
        return True


def modulo_schedule(nodes: list[MNode], edges: list[MEdge], *, ii: int, budget_ns: float,
                    capacity: dict | None = None) -> ModuloSchedule:
    """The schedule at the smallest feasible II >= ``ii`` (callers pass max(asked, MII))."""
    capacity = capacity or {}
    for attempt in range(ii, ii + MAX_II_STEPS):
        ims = _Ims(nodes, edges, attempt, budget_ns, capacity)
        times = ims.run(max_steps=10 * len(nodes) + 100)
        if times is not None and ims.valid(times):
            ready = [t + nd.latency for t, nd in zip(times, nodes)]
            depth = max(2, max(ready, default=0) + 1)
            return ModuloSchedule(attempt, times, ready, depth)
    raise FpgaError(f"internal: no modulo schedule found up to II={ii + MAX_II_STEPS}")


# -- the IR side ---------------------------------------------------------------------------

#: On a memory access: which port of its memory (0 or 1) it uses.
#: On a memory (function argument attributes, or the alloca): it uses two ports.


def _assign_ports(ops: list[Operation], nodes: list[MNode], result: ModuloSchedule) -> None:
    """Accesses of one memory in one modulo slot take ports 0, 1 in program order; a
    memory with any access on port 1 is marked dual-port."""
    taken: dict = {}
    for op, node, t in zip(ops, nodes, result.times):
        if node.port is None or isinstance(node.port, tuple):  # streams have one side each
            continue
        key = (node.port, t % result.ii)
        port = taken.get(key, 0)
        taken[key] = port + 1
        op.attributes[PORT_ATTR] = IntegerAttr(port, i64)
        if port:
            mark_dual_port(node.port)


def mark_dual_port(memory) -> None:
    owner = memory.owner
    if isinstance(owner, Block):  # a function argument
        function = owner.parent_op()
        attrs = [dict(a.data) for a in function.arg_attrs.data]
        attrs[memory.index][DUAL_PORT_ATTR] = UnitAttr()
        function.arg_attrs = ArrayAttr([DictionaryAttr(a) for a in attrs])
    else:
        owner.attributes[DUAL_PORT_ATTR] = UnitAttr()


def _behind_m_axi(memory) -> bool:
    """An argument array an interface directive serves through m_axi: its adapter
    (interface/maxi.py) answers one access a cycle, so it keeps one port."""
    owner = memory.owner
    if not isinstance(owner, Block) or not isinstance(owner.parent_op(), func.FuncOp):
        return False
    from vichls.interface.spec import requested_interfaces  # (no cycle: spec is a leaf)

    function = owner.parent_op()
    attrs = function.arg_attrs.data[memory.index].data if function.arg_attrs is not None else {}
    name = attrs.get(NAME_ATTR)
    return name is not None and any(i.name == name.data and i.mode == "m_axi"
                                    for i in requested_interfaces(function))


def is_dual_port(memory) -> bool:
    owner = memory.owner
    if isinstance(owner, Block):
        function = owner.parent_op()
        return function.arg_attrs is not None and \
            DUAL_PORT_ATTR in function.arg_attrs.data[memory.index].data
    return DUAL_PORT_ATTR in owner.attributes


def _line(op: Operation) -> str:
    loc = getattr(op, "location", None)
    return f"line {loc.line.data}" if isinstance(loc, FileLineColLoc) else op.name


def iteration_ops(block: Block, predicate: tuple = ()) -> list[tuple[Operation, tuple]]:
    """The scheduled operations of a pipelined body with their predicates: tuples of
    (condition value, polarity) for every enclosing ``scf.if``, outermost first."""
    out = []
    for op in block.ops:
        if isinstance(op, scf.IfOp):
            out += iteration_ops(op.true_region.block, predicate + ((op.cond, True),))
            if op.false_region.blocks:
                out += iteration_ops(op.false_region.block, predicate + ((op.cond, False),))
        elif is_control(op):
            raise FpgaError.at(op, "a loop inside a pipelined loop was not unrolled")
        elif op_kind(op) is not None:
            out.append((op, predicate))
    return out


def _why(name: str, first: Operation, second: Operation, distance: int) -> str:
    """array 'a' written at line 6, read at line 6 one iteration later."""
    def verb(op):
        return "written" if isinstance(op, memref.StoreOp) else "read"

    later = {0: "", 1: " one iteration later"}.get(distance, f" {distance} iterations later")
    return f"{name} {verb(first)} at {_line(first)}, {verb(second)} at {_line(second)}{later}"


def _needs_predicate(op: Operation) -> bool:
    kind = op_kind(op)
    return kind in ("mem_read", "mem_write", "reg_write", "div", "stream_get", "stream_put")


def _access_gap(first: Operation, second: Operation, scalar: bool,
                carried: bool = False) -> int | None:
    """Minimum cycles from ``first`` to ``second`` (same memory); None if no order.
    ``carried``: ``second`` belongs to a later iteration."""
    first_store = isinstance(first, memref.StoreOp)
    second_store = isinstance(second, memref.StoreOp)
    if not first_store and not second_store:
        return None
    if first_store and carried and not second_store and forwarding_store(first):
        return 0  # a later iteration's load reads the value written in that cycle
    if first_store:
        return 1  # RAW / WAW: the write lands at the end of its cycle
    return 0 if scalar else 1  # WAR: a register read sees the old value in the write's cycle


def _mark_forwarded(ops: list[Operation], result) -> None:
    """``vichls.forwarded`` on each register load scheduled in the cycle where the previous
    iteration stores to that register (``forwarding_store``): it must read the value being
    written, not the register's old content."""
    times = {op: t for op, t in zip(ops, result.times)}
    for op in ops:
        if not (isinstance(op, memref.LoadOp) and is_scalar_memref(op.memref)):
            continue
        if any(forwarding_store(other) and other.memref is op.memref
               and times[other] == times[op] + result.ii for other in ops):
            op.attributes[FORWARDED_ATTR] = UnitAttr()


def build_problem(loop: scf.ForOp, trip_count: int | None):
    entries = iteration_ops(loop.body.block)
    ops = [op for op, _ in entries]
    index = {op: i for i, op in enumerate(ops)}
    nodes: list[MNode] = []
    names: dict = {}
    for op in ops:
        cost = op_cost(op)
        node = MNode(cost.latency, cost.delay_ns, cost.out_delay_ns)
        if isinstance(op, (memref.LoadOp, memref.StoreOp)) and not is_scalar_memref(op.memref):
            node.port = op.memref
            names[op.memref] = display_name(op.memref)
        elif stream_port(op) is not None:
            node.port = stream_port(op)
            names[node.port] = display_name(op.stream)
        if op_kind(op) == "div" and cost.latency > 1:
            node.busy = cost.latency
            names[len(nodes)] = f"the divider at {_line(op)}"
        nodes.append(node)
    edges: list[MEdge] = []
    for i, (op, predicate) in enumerate(entries):
        sources = list(op.operands)
        if _needs_predicate(op):
            sources += [cond for cond, _ in predicate]
        for v in sources:
            owner = v.owner
            if isinstance(owner, Operation) and owner in index:
                p = index[owner]
                # a multi-cycle unit on a recurrence is named in the II's reason
                why = (f"{owner.name} at {_line(owner)} takes {nodes[p].latency} cycles"
                       if nodes[p].latency > 1 else "")
                edges.append(MEdge(p, i, nodes[p].latency, 0, data=True, why=why))
    deps = LoopDependences(loop, trip_count)
    by_memory: dict = {}
    for i, op in enumerate(ops):
        if isinstance(op, (memref.LoadOp, memref.StoreOp)):
            by_memory.setdefault(op.memref, []).append(i)
    for mem, accesses in by_memory.items():
        scalar = is_scalar_memref(mem)
        name = described(mem)
        for x, a in enumerate(accesses):
            for b in accesses[x + 1:]:
                gap_ab = _access_gap(ops[a], ops[b], scalar)
                if gap_ab is None:
                    continue
                gap_ba = _access_gap(ops[b], ops[a], scalar, carried=True)
                d = ANY if scalar else deps.distance(ops[a], ops[b])
                if d is None:
                    continue
                if isinstance(d, Every):  # in program order, and a whole period later
                    edges.append(MEdge(a, b, gap_ab, 0, why=_why(name, ops[a], ops[b], 0)))
                    edges.append(MEdge(b, a, gap_ba, d.period,
                                       why=_why(name, ops[b], ops[a], d.period)))
                    continue
                if d is ANY or d == 0:
                    edges.append(MEdge(a, b, gap_ab, 0, why=_why(name, ops[a], ops[b], 0)))
                if d is ANY:
                    edges.append(MEdge(b, a, gap_ba, 1, why=_why(name, ops[b], ops[a], 1)))
                elif d > 0:
                    edges.append(MEdge(a, b, gap_ab, d, why=_why(name, ops[a], ops[b], d)))
                elif d < 0:
                    edges.append(MEdge(b, a, gap_ba, -d, why=_why(name, ops[b], ops[a], -d)))
    # the elements of a stream move in program order: within an iteration one cycle apart,
    # and every access of an iteration before the first of the next
    by_stream: dict = {}
    for i, op in enumerate(ops):
        if stream_port(op) is not None:
            by_stream.setdefault(op.stream, []).append(i)
    for value, accesses in by_stream.items():
        name = display_name(value)
        for a, b in zip(accesses, accesses[1:]):
            edges.append(MEdge(a, b, 1, 0, why=f"stream '{name}' accessed at {_line(ops[a])}, "
                                               f"then at {_line(ops[b])}"))
        edges.append(MEdge(accesses[-1], accesses[0], 1, 1,
                           why=f"stream '{name}' accessed at {_line(ops[accesses[-1]])}, then "
                               f"at {_line(ops[accesses[0]])} one iteration later"))
    return ops, nodes, edges, names


def schedule_pipelined_loop(loop: scf.ForOp, budget_ns: float, trip_count: int | None) -> None:
    asked = pipeline_ii(loop) or 1
    ops, nodes, edges, names = build_problem(loop, trip_count)
    capacity: dict = {}
    rec_mii, rec_reason = recurrence_bound(len(nodes), edges, asked)
    # A memory whose single port holds the II above the target gets its second port.
    target = max(asked, rec_mii)
    uses: dict = {}
    for node in nodes:
        if node.port is not None:
            uses[node.port] = uses.get(node.port, 0) + 1
    dual = sorted((m for m, count in uses.items() if count > target and not isinstance(m, tuple)
                   and not _behind_m_axi(m)),
                  key=lambda m: names.get(m, ""))
    capacity = {m: 2 for m in dual}
    # likewise a division whose iterative divider would hold the II up gets a pipelined one
    for op, node in zip(ops, nodes):
        if node.busy > target:
            node.busy = 0
            op.attributes[PIPELINED_DIVIDER_ATTR] = UnitAttr()
    b = resource_bound(nodes, capacity, names)
    b.rec_mii, b.rec_reason = rec_mii, rec_reason
    result = modulo_schedule(nodes, edges, ii=max(asked, b.res_mii, b.rec_mii),
                             budget_ns=budget_ns, capacity=capacity)
    for op, t, r in zip(ops, result.times, result.ready):
        op.attributes[CYCLE_ATTR] = IntegerAttr(t, i64)
        op.attributes[READY_ATTR] = IntegerAttr(r, i64)
    _mark_forwarded(ops, result)
    _assign_ports(ops, nodes, result)
    loop.attributes[II_ATTR] = IntegerAttr(result.ii, i64)
    loop.attributes[DEPTH_ATTR] = IntegerAttr(result.depth, i64)
    if result.ii > asked:
        reasons = []
        if b.res_mii > asked:
            reasons += [r for r in b.res_reasons if r not in reasons]
        if b.rec_mii > asked:
            reasons.append(b.rec_reason)
        if result.ii > max(b.res_mii, b.rec_mii):
            reasons.append("chained operations do not fit in the clock period at a smaller II")
        loop.attributes[REASON_ATTR] = StringAttr("; ".join(reasons))
