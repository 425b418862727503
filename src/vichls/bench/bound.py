"""A resource-constrained lower bound on the cycles of a design, read from its IR.

What: ``cycle_bound(module)`` prepares a copy of the loop-level module exactly as the FPGA
back end does (``vichls.driver.component.prepare``: inlining, partitioning into banks, lower-affine,
store forwarding, value numbering, hoisting, scalar replacement, load rotation), so the
bound sees the accesses and operators the design really has, and returns the number of
cycles below which no schedule of those operations can finish, given the design's own
resources. ``bench`` divides simulated cycles by it: a ratio near 1 means the scheduler
leaves little on the table; a large ratio means pipelining, unrolling or partitioning have
something to win.

The model. The top function's body is a sequence of items: top-level loop nests (any
``scf.for``/``scf.if``/``scf.while`` with everything inside it) and straight-line segments
between them. Items execute one after the other (no dataflow between nests today), so
their bounds add up. The bound of one nest is the largest of:

- **ports**: accesses (loads and stores) to one memory, divided by its ports. Every array,
  bank of a partitioned array and local RAM has one port, or two where the modulo
  scheduler marked it dual-port (``vichls.dual_port``); a 0-d memref is a register;
- **units**: every operation of the IR is its own unit (the back end shares none), so an
  operation executed N times needs N issue cycles, and an operation of a non-pipelined unit
  (the iterative divider, unless marked ``vichls.pipelined_divider``) keeps it busy for its
  whole latency: N × latency. This also covers "a loop issues at most one iteration per
  cycle";
- **recurrences**: a loop whose body reads a value (a register, or an array element at an
  address that provably repeats) that the same body wrote ``d`` iterations earlier cannot
  start iteration ``t + d`` before the chain load → ... → store of iteration ``t`` is done:
  with ``C`` = the latencies along that chain + 1 (the store lands at the clock edge, the
  next load issues a cycle later; + 0 when that load reads the value being written:
  ``list_schedule.forwarding_store``), T iterations take at least ``(ceil(T / d) - 1) C + 1``;
  the instances of an inner loop run one after another, so theirs add up.

A straight-line segment between nests takes at least its longest latency path and its port
accesses. Counts come from an interpretation of the control skeleton: trip counts and branch
conditions computed from constants and enclosing induction variables are evaluated exactly
(triangular loops are enumerated); a data-dependent trip count is taken as zero iterations,
a data-dependent branch as the cheaper side per resource, and a ``while`` as one evaluation
of its condition. Those keep the figure a valid lower bound (``complete`` is then False:
the bound is weaker, not wrong). Given the inputs of one call (``cycle_bound(...,
inputs=...)``, as ``bench`` does for the call it simulates), a bound left incomplete is
computed again by running the function concretely on them (``bound_of_function``): row
starts read from an input, while loops over arrays the kernel fills itself, are then
counted for that call. Latencies and occupancies come from the operator library
through ``scheduling/list_schedule.op_kind``/``op_cost``; chaining delays are ignored (they can only
add cycles). Two scheduler facts are assumed: an iteration of a loop that stays in the IR
takes at least one cycle, and a memory serves one access per port per cycle. The ports and
dividers are the design's own (the scheduler's choices, read off the prepared IR), so the
bound says how close the schedule comes to what its resources allow.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
import math
from math import ceil

import numpy as np

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from vichls.analysis.loop_utils import defined_inside, pipeline_ii
from vichls.analysis.memory_names import display_name
from vichls.dialects.attributes import LOOP_NAME_ATTR as LOOP_NAME
from vichls.analysis.static_eval import KnownMemory, evaluate
from vichls.scheduling.modulo_schedule import is_dual_port
from vichls.scheduling.list_schedule import (
    forwarding_store,
    is_control,
    is_predicated,
    is_scalar_memref,
    op_cost,
    op_kind,
    predicated_ops,
)
from vichls.dialects.attributes import PIPELINED_DIVIDER_ATTR

__all__ = ["CycleBound", "NestBound", "cycle_bound", "bound_of_function"]

#: Iterations enumerated one by one (for loops whose inner bounds depend on their counter)
#: before the interpreter gives up and takes the inner trip counts as unknown.
ENUMERATION_LIMIT = 2_000_000

#: Operations a concrete run (every loop enumerated) may visit before it is abandoned for
#: the static bound (and executions the static count may reach for one to be tried): a
#: few seconds of interpretation.
CONCRETE_LIMIT = 300_000


@dataclass
class NestBound:
    name: str  # the outermost loop's name, or "straight-line"
    cycles: int
    limit: str  # what sets it: "port A", "unit arith.divsi", "recurrence j", "path"


@dataclass
class CycleBound:
    cycles: int
    nests: list[NestBound] = field(default_factory=list)
    #: every trip count and branch condition was known (else the bound is valid but weaker)
    complete: bool = True

    @property
    def limit(self) -> str:
        """What limits the costliest nest ("i: port C"), for a table cell."""
        if not self.nests or not self.cycles:
            return "-"
        worst = max(self.nests, key=lambda n: n.cycles)
        return f"{worst.name}: {worst.limit}"


def cycle_bound(module: ModuleOp, clock_period_ns: float = 10.0,
                inputs: dict | None = None) -> CycleBound:
    """The lower bound of the top kernel of ``module`` (left unchanged); for the call with
    ``inputs`` ({array parameter: its values}) when given: trip counts and conditions that
    depend on the data (spmv's row starts, kmp's while loops) are then counted for it."""
    from vichls.driver.fpga import prepare

    work = module.clone()
    top, _ = prepare(work, clock_period_ns)
    return bound_of_function(top, known_memories(top, inputs or {}))


def known_memories(top: Operation, inputs: dict) -> dict:
    """{memref argument: KnownMemory} for the arrays of ``inputs``, as the call starts,
    banks of partitioned arrays included (``top``: a prepared function)."""
    from vichls.flows.sim_harness import Partition, banks_of
    from vichls.transforms.loop.partition_arrays import original_signature, partitions_of
    from vichls.dialects.attributes import BANK_OF_ATTR
    from vichls.dialects.attributes import NAME_ATTR

    if not inputs:
        return {}
    params = {p.name: p for p in original_signature(top).params if p.is_array}
    records = partitions_of(top)
    out = {}
    for arg, attrs in zip(top.body.block.args, top.arg_attrs.data):
        entries = attrs.data
        if NAME_ATTR not in entries:
            continue
        owner = entries.get(BANK_OF_ATTR)
        array = owner.data if owner is not None else entries[NAME_ATTR].data
        if array not in inputs or array not in params:
            continue
        values = np.asarray(inputs[array]).reshape(-1)
        record = records.get(array)
        partition = None if record is None else tuple(
            Partition(kind, factor, dim) for kind, factor, dim in record["splits"])
        bank = next((b for b in banks_of(params[array], partition, False)
                     if owner is None or b.port == entries[NAME_ATTR].data), None)
        if bank is None:
            continue
        words = np.where(bank.index >= 0, values[np.maximum(bank.index, 0)], 0)
        out[arg] = KnownMemory([int(w) for w in words], tuple(arg.type.get_shape()))
    # local arrays: unknown until written (the kernel's own fill loops write them first)
    for op in top.walk():
        if isinstance(op, memref.AllocaOp) and not is_scalar_memref(op.memref):
            shape = tuple(op.memref.type.get_shape())
            out[op.memref] = KnownMemory([None] * math.prod(shape), shape)
    return out


def bound_of_function(func_op: Operation, memory: dict | None = None) -> CycleBound:
    """The lower bound of a prepared function (lowered loops, memref accesses). With a
    ``memory`` (``known_memories``: one call's input arrays), where the counts are not all
    known statically, the function is also run concretely on them: every iteration
    enumerated, while loops run while their condition is known, registers (0-d memrefs)
    and those arrays followed through their stores (a store of an unknown value or at an
    unknown address makes the register or the whole array unknown); the larger of the
    two bounds (both hold for that call) is returned."""
    counter = _Interpreter({})
    static = _bound_with(func_op, counter)
    if static.complete or not memory or counter.executions > CONCRETE_LIMIT:
        return static  # (a concrete run visits at least as many operations)
    memory = {m: KnownMemory(list(k.words), k.shape) for m, k in memory.items()}  # (written)
    try:
        concrete = _bound_with(func_op, _Interpreter(memory, concrete=True))
    except _TooLong:
        return static
    return concrete if concrete.cycles >= static.cycles else static


class _TooLong(Exception):
    """A concrete run went past CONCRETE_LIMIT operations."""


def _bound_with(func_op: Operation, counter: "_Interpreter") -> CycleBound:
    body = func_op.regions[0].blocks[0]
    nests: list[NestBound] = []
    segment: list[Operation] = []
    env: dict = {}
    for op in list(body.ops) + [None]:
        if is_predicated(op):  # part of the segment around it in the design
            segment += predicated_ops(op)
            counter.forget_registers(op, env)
            continue
        if op is None or is_control(op):
            if segment:
                nests.append(_segment_bound(segment))
                segment = []
            if op is not None:
                counts = _Counts()
                counter.count_op(op, env, 1, counts)
                nests.append(counts.nest_bound(_nest_name(op)))
        else:
            counter.track(op, env)
            if op_kind(op) is not None:
                segment.append(op)
    return CycleBound(sum(n.cycles for n in nests), nests, counter.complete)


# -- resource counts ----------------------------------------------------------------------------


def _ports(mem: SSAValue) -> int:
    """Ports of one memory: two where the modulo scheduler gave it a second one, else one."""
    return 2 if is_dual_port(mem) else 1


def _occupancy(op: Operation) -> int:
    """Cycles an execution of ``op`` keeps its unit busy: the iterative divider for its
    whole latency; a pipelined divider (in a pipelined loop) and every other unit take a
    new operation each cycle."""
    if op_kind(op) == "div" and PIPELINED_DIVIDER_ATTR not in op.attributes:
        return max(1, op_cost(op).latency)
    return 1


@dataclass
class _Counts:
    accesses: Counter = field(default_factory=Counter)  # memory -> loads + stores
    issues: Counter = field(default_factory=Counter)  # op -> executions x occupancy
    recurrences: Counter = field(default_factory=Counter)  # loop -> recurrence cycles

    def add(self, other: "_Counts") -> None:
        self.accesses.update(other.accesses)
        self.issues.update(other.issues)
        self.recurrences.update(other.recurrences)

    @staticmethod
    def cheaper(a: "_Counts", b: "_Counts") -> "_Counts":
        """Per resource, the smaller of two alternatives (a branch not known statically)."""
        def least(x: Counter, y: Counter) -> Counter:
            return Counter({k: min(x[k], y[k]) for k in x.keys() & y.keys() if min(x[k], y[k])})

        return _Counts(least(a.accesses, b.accesses), least(a.issues, b.issues),
                       least(a.recurrences, b.recurrences))

    def nest_bound(self, name: str) -> NestBound:
        candidates = [(0, "empty")]
        candidates += [(ceil(n / _ports(m)), f"port {display_name(m)}")
                       for m, n in self.accesses.items()]
        candidates += [(n, f"unit {op.name}") for op, n in self.issues.items()]
        candidates += [(n, f"recurrence {_nest_name(loop)}")
                       for loop, n in self.recurrences.items()]
        cycles, limit = max(candidates, key=lambda c: c[0])
        return NestBound(name, cycles, limit)


def _segment_bound(ops: list[Operation]) -> NestBound:
    """Straight-line code runs once: its port accesses and its longest latency path."""
    accesses: Counter = Counter()
    for op in ops:
        if op_kind(op) in ("mem_read", "mem_write"):
            accesses[op.memref] += 1
    candidates = [(_longest_path(ops), "path")]
    candidates += [(ceil(n / _ports(m)), f"port {display_name(m)}") for m, n in accesses.items()]
    cycles, limit = max(candidates, key=lambda c: c[0])
    return NestBound("straight-line", cycles, limit)


def _latency(op: Operation) -> int:
    return op_cost(op).latency if op_kind(op) is not None else 0


def _longest_paths(ops: list[Operation], source: Operation) -> dict[Operation, int]:
    """For every op of ``ops`` (in order) that depends on ``source`` through SSA values:
    the latency from issuing ``source`` to the op's result."""
    dist = {source: _latency(source)}
    for op in ops[ops.index(source) + 1:]:
        arrivals = [dist[v.owner] for v in op.operands if v.owner in dist]
        if arrivals:
            dist[op] = max(arrivals) + _latency(op)
    return dist


def _longest_path(ops: list[Operation]) -> int:
    """The longest latency path through ``ops`` from any op."""
    finish: dict[Operation, int] = {}
    for op in ops:
        start = max((finish[v.owner] for v in op.operands if v.owner in finish), default=0)
        finish[op] = start + _latency(op)
    return max(finish.values(), default=0)


def _nest_name(op: Operation) -> str:
    if LOOP_NAME in op.attributes:
        return op.attributes[LOOP_NAME].data
    if isinstance(op, scf.ForOp):
        return op.body.block.args[0].name_hint or "loop"
    return {scf.IfOp: "if", scf.WhileOp: "while"}.get(type(op), op.name)


# -- interpreting the control skeleton ------------------------------------------------------------


class _Interpreter:
    """Counts executions of every op under a nest, evaluating the trip counts and branch
    conditions that depend only on constants and enclosing loop counters."""

    def __init__(self, memory: dict, concrete: bool = False):
        self.memory = memory
        self.concrete = concrete  # enumerate every loop and follow the registers
        self.visits = 0
        self.executions = 0  # of operations with a unit, as counted
        self.complete = True
        self.enumerated = 0
        self._recurrences: dict[Operation, list[tuple[int, int]]] = {}
        self._needs_enumeration: dict[Operation, bool] = {}

    def count_block(self, block: Block, env: dict, mult: int, acc: _Counts) -> None:
        for op in block.ops:
            self.count_op(op, env, mult, acc)

    def count_op(self, op: Operation, env: dict, mult: int, acc: _Counts) -> None:
        self.visits += 1
        if self.concrete and self.visits > CONCRETE_LIMIT:
            raise _TooLong
        if isinstance(op, scf.ForOp):
            self._count_for(op, env, mult, acc)
        elif isinstance(op, scf.IfOp):
            self._count_if(op, env, mult, acc)
        elif isinstance(op, scf.WhileOp):
            self._count_while(op, env, mult, acc)
        else:
            self.track(op, env)
            kind = op_kind(op)
            if kind is None:
                return
            if kind in ("mem_read", "mem_write"):
                acc.accesses[op.memref] += mult
            acc.issues[op] += mult * _occupancy(op)
            self.executions += mult

    def track(self, op: Operation, env: dict) -> None:
        """Concretely: a register's value at its loads (as the load's result) and stores
        (unknown when the stored value is), and the stores to the known arrays."""
        if not self.concrete:
            return
        # unknown values are kept as None too: evaluate() then stops at them instead of
        # walking back over everything they were computed from, again for every use
        if isinstance(op, memref.LoadOp) and is_scalar_memref(op.memref):
            env[op.res] = env.get(op.memref)
        elif len(op.results) == 1 and not op.regions:
            # every value once, in program order: its operands are in ``env`` by then
            result = op.results[0]
            env.pop(result, None)
            env[result] = evaluate(result, env, self.memory)
        elif isinstance(op, memref.StoreOp) and is_scalar_memref(op.memref):
            env[op.memref] = evaluate(op.value, env, self.memory)
        elif isinstance(op, memref.StoreOp) and op.memref in self.memory:
            value = evaluate(op.value, env, self.memory)
            indices = [evaluate(v, env, self.memory) for v in op.indices]
            if value is None or None in indices or \
                    not self.memory[op.memref].write(indices, value):
                del self.memory[op.memref]

    def _count_while(self, op: scf.WhileOp, env: dict, mult: int, acc: _Counts) -> None:
        """Concretely, iteration by iteration while the condition is known (a run past
        CONCRETE_LIMIT visits is abandoned); otherwise the condition once and the body
        never."""
        before, after = op.before_region.blocks[0], op.after_region.blocks[0]
        condition = before.last_op
        if self.concrete and not before.args and not after.args and \
                isinstance(condition, scf.ConditionOp):
            while True:
                self.count_block(before, env, mult, acc)
                go = evaluate(condition.condition, env, self.memory)
                if go is None:
                    break
                if not go:
                    return
                self.count_block(after, env, mult, acc)
        else:
            self.count_block(before, env, mult, acc)
        # the condition is evaluated at least once; the rest of the loop may not run
        self.complete = False
        self.forget_registers(op, env)

    def _count_if(self, op: scf.IfOp, env: dict, mult: int, acc: _Counts) -> None:
        cond = evaluate(op.cond, env, self.memory)
        branches = [r.blocks[0] if r.blocks else None for r in (op.true_region, op.false_region)]
        if cond is not None:
            taken = branches[0] if cond else branches[1]
            if taken is not None:
                self.count_block(taken, env, mult, acc)
            return
        self.complete = False
        sides = []
        for block in branches:
            side = _Counts()
            if block is not None:
                self.count_block(block, env, mult, side)
            sides.append(side)
        acc.add(_Counts.cheaper(*sides))
        if self.concrete:
            self.forget_registers(op, env)

    def forget_registers(self, op: Operation, env: dict) -> None:
        """The registers and arrays ``op`` may store to have unknown values after it (a
        branch or a loop not followed concretely)."""
        for inner in op.walk():
            if isinstance(inner, memref.StoreOp):
                env[inner.memref] = None
                self.memory.pop(inner.memref, None)

    def _count_for(self, loop: scf.ForOp, env: dict, mult: int, acc: _Counts) -> None:
        lb, ub, step = (evaluate(v, env, self.memory) for v in (loop.lb, loop.ub, loop.step))
        if lb is None or ub is None or step is None or step <= 0:
            self.complete = False  # zero iterations: the only safe assumption
            return
        trips = max(0, -(-(ub - lb) // step))
        if trips == 0:
            return
        # instances of a loop run one after another (outer loops are not overlapped;
        # pipelining applies to the loop whose inner loops it unrolled), so they add up
        chains = [(ceil(trips / distance) - 1) * chain + 1
                  for chain, distance in self.recurrences(loop)]
        if chains:
            acc.recurrences[loop] += mult * max(chains)
        body = loop.body.block
        iv = body.args[0]
        if (self.concrete or self._needs_enumeration.setdefault(
                loop, _controls_depend_on(loop, iv))) and \
                self.enumerated + trips <= ENUMERATION_LIMIT:
            self.enumerated += trips
            for t in range(trips):
                env[iv] = lb + t * step
                self.count_block(body, env, mult, acc)
            del env[iv]
        else:
            self.count_block(body, env, mult * trips, acc)
            if self.concrete:
                self.forget_registers(loop, env)

    def recurrences(self, loop: scf.ForOp) -> list[tuple[int, int]]:
        if loop not in self._recurrences:
            self._recurrences[loop] = _loop_recurrences(loop)
        return self._recurrences[loop]


def _controls_depend_on(loop: scf.ForOp, iv: SSAValue) -> bool:
    """Does a bound or a branch condition nested in ``loop`` depend on its counter?"""
    for op in loop.body.block.walk():
        if isinstance(op, scf.ForOp) and any(_depends_on(v, iv) for v in (op.lb, op.ub, op.step)):
            return True
        if isinstance(op, scf.IfOp) and _depends_on(op.cond, iv):
            return True
    return False


def _depends_on(value: SSAValue, target: SSAValue, seen: set | None = None) -> bool:
    if value is target:
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.regions or isinstance(owner, memref.LoadOp):
        return False
    seen = set() if seen is None else seen
    if owner in seen:
        return False
    seen.add(owner)
    return any(_depends_on(v, target, seen) for v in owner.operands)


# -- recurrences ----------------------------------------------------------------------------------


def _loop_recurrences(loop: scf.ForOp) -> list[tuple[int, int]]:
    """(chain cycles C, distance d) of every recurrence carried by ``loop`` through a memory
    that the loop writes at exactly one place, directly in its body, from a value read
    directly in its body."""
    step = evaluate(loop.step, {})
    if step is None or step <= 0:
        return []
    body = loop.body.block
    ops = [op for op in body.ops if not op.regions]
    stores: Counter = Counter(op.memref for op in loop.body.block.walk()
                              if isinstance(op, memref.StoreOp))
    out = []
    for load in ops:
        if not isinstance(load, memref.LoadOp) or stores[load.memref] != 1:
            continue
        store = next((op for op in ops if isinstance(op, memref.StoreOp)
                      and op.memref is load.memref), None)
        if store is None or not load.is_before_in_block(store):
            continue
        dist = _longest_paths(ops, load)
        arrivals = [dist[v.owner] for v in store.operands if v.owner in dist]
        if not arrivals:
            continue  # the stored value does not come from the load: no chain
        if is_scalar_memref(load.memref):
            distance = 1
        else:
            distance = _distance(store, load, loop, step)
        if distance is not None:
            # the store lands at the clock edge and the next load issues a cycle later,
            # unless it reads the value being written (list_schedule.forwarding_store)
            # (in a pipelined loop)
            landing = 0 if forwarding_store(store) and pipeline_ii(loop) is not None else 1
            out.append((max(arrivals) + _latency(store) + landing, distance))
    return out


def _distance(store: memref.StoreOp, load: memref.LoadOp, loop: scf.ForOp, step: int
              ) -> int | None:
    """The iteration distance d >= 1 such that the load of iteration t + d reads the address
    the store wrote in iteration t, when the addresses prove it; else None."""
    iv = loop.body.block.args[0]
    distance = None
    for s_index, l_index in zip(store.indices, load.indices):
        s_form, l_form = _linear(s_index, loop), _linear(l_index, loop)
        if s_form is None or l_form is None:
            return None
        coeff = s_form.pop(iv, 0)
        if coeff != l_form.pop(iv, 0):
            return None
        s_const, l_const = s_form.pop(1, 0), l_form.pop(1, 0)
        if s_form != l_form:
            return None  # different invariant terms: not provably the same address
        diff = s_const - l_const
        if coeff == 0:
            if diff:
                return None
            continue
        if diff % (coeff * step):
            return None
        d = diff // (coeff * step)
        if distance is not None and d != distance:
            return None
        distance = d
    if distance is None:
        distance = 1  # the address does not move: each iteration reads the previous store
    return distance if distance >= 1 else None


def _linear(value: SSAValue, loop: scf.ForOp) -> dict | None:
    """``value`` as {term: coefficient} (term 1 for the constant part) over the loop's
    counter and values invariant in the loop, or None when it is not linear in them."""
    owner = value.owner
    if isinstance(owner, Operation):
        if isinstance(owner, arith.ConstantOp):
            return {1: owner.value.value.data}
        name = owner.name
        if name in ("arith.index_cast", "arith.extsi", "arith.trunci", "arith.extui",
                    "arith.index_castui"):
            return _linear(owner.operands[0], loop)
        if name in ("arith.addi", "arith.subi"):
            a, b = _linear(owner.operands[0], loop), _linear(owner.operands[1], loop)
            if a is None or b is None:
                return None
            sign = 1 if name == "arith.addi" else -1
            for k, v in b.items():
                a[k] = a.get(k, 0) + sign * v
            return {k: v for k, v in a.items() if v}
        if name == "arith.muli":
            for x, y in (owner.operands, reversed(owner.operands)):
                if isinstance(y.owner, arith.ConstantOp):
                    form = _linear(x, loop)
                    c = y.owner.value.value.data
                    return None if form is None else {k: v * c for k, v in form.items() if v * c}
    if value is loop.body.block.args[0]:
        return {value: 1}
    if defined_inside(value, loop):
        return None  # changes from one iteration to the next in an unknown way
    return {value: 1}
