"""A pipelined loop's variable divided by constants becomes counters that step.

Why: a flattened nest recovers its loops' variables from the one counted loop with
division and remainder (``c = t // (H * W)``, ``h = (t % (H * W)) // W``, ``w = t % W``),
and so does a kernel that indexes with ``i // 3``. div-by-constant turns each into a
multiply by a magic number: a DSP block and two or three cycles of pipeline depth per
level, for values that only ever count up by one and wrap. The way a designer writes a
flattened loop by hand is one register per variable that steps: no multiplier, no depth.

What: in every pipelined ``scf.for`` whose bounds are constants, lower bound >= 0 and step 1,
the divisions (``divui``/``divsi``/``floordivsi``) and remainders (``remui``/``remsi``) of
the induction variable by a constant ``d`` >= 2 that is not a power of two (those are wiring
already) are replaced by registers that step with the iteration, and so on down, for the
divisions of those values (the next level of the flattened nest):

- ``r = x % d``: one register, starting at ``x0 % d``; it steps when ``x`` steps, back to 0
  after ``d - 1``;
- ``q = x // d``: a register starting at ``x0 // d``; it steps when ``x`` steps while ``r``
  is at ``d - 1`` (the remainder's register is made for it even when nothing else reads
  it); it wraps at ``M / d`` when ``x`` is itself a remainder by ``M`` (and where the
  loop's bounds allow, below, when ``x`` is the loop's variable).

A value that wraps at ``M`` is divided only by a ``d`` that divides ``M`` (otherwise its
quotient does not step by one: the division stays, for div-by-constant). The registers
(0-d allocas at the function's entry, given the divisions' names) are read at the top of
the body, where their next values are written at once (the recurrence is an add, a
compare and a select). Nothing is set before the loop (a store there would cost a cycle
each time the loop starts):

- where the loop's bounds are multiples of every divisor of its variable (a flattened
  nest: ``0 .. H * W`` divided by ``W``), each counter wraps at its last value back to its
  first, so that a run of the loop leaves every counter where it started: they are set
  once, at the function's entry;
- otherwise the first iteration (the variable at its lower bound) takes the first values
  instead of the registers' (a compare and a select more on the way to the counters).

The value that replaces a division carries ``vichls.stepped`` = [kind (0 quotient, 1
remainder), d, id, parent id (-1: the loop's induction variable), largest value]:
``analysis/floor_division.py`` reads it back, so that the dependence analysis still sees
``t // W`` and ``t % W`` (a flattened nest's accesses stay exact), and
``analysis/value_ranges.py`` gives it the range 0 .. largest value.

Assumes the loop-level IR after lower-affine-fpga (scf and arith; 0-d memrefs are
registers, allocas at the top of the function's entry block) and runs before
div-by-constant, which would otherwise take these divisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.analysis.loop_utils import function_entry, pipeline_ii
from vichls.dialects.attributes import STEPPED_ATTR

_QUOTIENTS = (arith.DivUIOp, arith.DivSIOp, arith.FloorDivSIOp)
_REMAINDERS = (arith.RemUIOp, arith.RemSIOp)


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass
class _Node:
    """A value that steps with the loop: the induction variable or a division of a node."""

    value: SSAValue  # the value in the loop's body that the node's register replaces
    init: int  # its value in the first iteration
    largest: int
    last: int | None  # it steps from here to ``restart`` (None: it only counts up)
    restart: int = 0
    tag: int = -1  # -1: the induction variable
    parent: "_Node | None" = None
    kind: int = 0  # 0: quotient of the parent, 1: remainder
    divisor: int = 0
    uses: list[Operation] = field(default_factory=list)  # the division ops it replaces
    register: SSAValue | None = None
    current: SSAValue | None = None  # its value in this iteration
    steps: SSAValue | None = None  # i1: it steps in this iteration (None: always)
    wraps: SSAValue | None = None  # i1, of a remainder: it is at d - 1 (its quotient steps)


def _divisions_of(values: list[SSAValue]) -> dict[tuple[int, int], list[Operation]]:
    """(kind, d) -> the division ops of ``values`` (one value, in one or more types), or
    of an ``index_cast`` of them (a loop variable the kernel divides as an integer), by
    the constant ``d`` (2 or more, not a power of two)."""
    found: dict[tuple[int, int], list[Operation]] = {}
    casts = [u.operation.results[0] for value in values for u in value.uses
             if isinstance(u.operation, arith.IndexCastOp)]
    for view in (*values, *casts):
        for use in view.uses:
            op = use.operation
            if use.index != 0 or not isinstance(op, (*_QUOTIENTS, *_REMAINDERS)):
                continue
            d = _constant(op.operands[1])
            if d is None or d < 2 or d & (d - 1) == 0 or op.results[0].type != view.type:
                continue
            kind = 0 if isinstance(op, _QUOTIENTS) else 1
            found.setdefault((kind, d), []).append(op)
    return found


def _nodes(loop: scf.ForOp, cyclic: bool) -> list[_Node]:
    """The induction variable's tree of divisions that become counters, parents first.
    ``cyclic``: the variable counts as running round from its upper bound back to its
    lower one, so that a division is taken only where every counter ends a run of the
    loop at its first value again."""
    lower, upper, step = (_constant(v) for v in (loop.lb, loop.ub, loop.step))
    if lower is None or upper is None or step != 1 or lower < 0 or upper <= lower:
        return []
    root = _Node(loop.body.block.args[0], lower, upper - 1, upper - 1 if cyclic else None,
                 lower)
    out, work = [root], [root]
    while work:
        x = work.pop(0)
        groups = _divisions_of([x.value] if not x.uses else
                               [op.results[0] for op in x.uses])
        for d in sorted({d for _, d in groups}):
            if x.last is not None and (x.restart % d or (x.last + 1) % d):
                continue  # its quotient would not step by one, or not come round
            remainder = _Node(x.value, x.init % d, min(d - 1, x.largest), d - 1, 0, -1, x, 1,
                              d, groups.get((1, d), []))
            out.append(remainder)
            nodes = [remainder]
            if (0, d) in groups:
                quotient = _Node(x.value, x.init // d, x.largest // d,
                                 None if x.last is None else (x.last + 1) // d - 1,
                                 x.restart // d, -1, x, 0, d, groups[(0, d)])
                out.append(quotient)
                nodes.append(quotient)
            for node in nodes:
                if node.uses:
                    node.value = node.uses[0].results[0]
                    work.append(node)
    kept = [n for n in out[1:] if n.uses or any(
        m.parent is n.parent and m.divisor == n.divisor and m.kind == 0 for m in out)]
    for tag, node in enumerate(kept):
        node.tag = tag
    return kept


class _Emitter:
    def __init__(self, before: Operation):
        self.before = before

    def add(self, op: Operation) -> SSAValue | None:
        op.location = self.before.location
        self.before.parent_block().insert_op_before(op, self.before)
        return op.results[0] if op.results else None

    def const(self, value: int, type_) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, type_)))


def _width(node: _Node) -> int:
    """Signed bits for every value the register holds or is compared with: one past the
    largest (the step after the last iteration) stays non-negative."""
    return max(node.largest + 1, node.last or 0, node.divisor - 1).bit_length() + 1


def _name(node: _Node) -> str | None:
    """The division's name; a remainder made only for its quotient's steps is named
    after what it divides (``jk_mod3``)."""
    if node.uses:
        return node.value.name_hint
    base = node.parent.value.name_hint
    return f"{base}_mod{node.divisor}" if base else None


def step_loop(loop: scf.ForOp) -> bool:
    """Replace ``loop``'s divisions of its variable by counters; False when there are none."""
    nodes = _nodes(loop, cyclic=True)
    opened = _nodes(loop, cyclic=False)
    cyclic = len(nodes) == len(opened)
    if not cyclic:
        nodes = opened
    if not nodes:
        return False
    entry = function_entry(loop)
    body = _Emitter(loop.body.block.first_op)
    setup = _Emitter(next(op for op in entry.ops if not isinstance(op, memref.AllocaOp)))
    at_start = None
    if not cyclic:  # the counters take their first values in the first iteration
        iv = loop.body.block.args[0]
        lower, upper = _constant(loop.lb), _constant(loop.ub)
        counted = IntegerType(max(lower, upper).bit_length() + 1)  # (a truncation: wiring)
        at_start = body.add(arith.CmpiOp(body.add(arith.IndexCastOp(iv, counted)),
                                         body.const(lower, counted), "eq"))
    for node in nodes:
        kind = IntegerType(_width(node))
        alloca = memref.AllocaOp.get(kind, shape=[])
        alloca.results[0].name_hint = _name(node)
        entry.insert_op_before(alloca, entry.first_op)
        node.register = alloca.results[0]
        held = body.add(memref.LoadOp.get(node.register, []))
        if cyclic:  # set once per call: every run of the loop leaves it there again
            setup.add(memref.StoreOp.get(setup.const(node.init, kind), node.register, []))
            node.current = held
        else:
            node.current = body.add(
                arith.SelectOp(at_start, body.const(node.init, kind), held))
    for node in nodes:  # parents first: a quotient's remainder sits before it
        kind = node.current.type
        parent_steps = node.parent.steps
        bumped = body.add(arith.AddiOp(node.current, body.const(1, kind)))
        if node.kind == 1:
            node.wraps = body.add(
                arith.CmpiOp(node.current, body.const(node.divisor - 1, kind), "eq"))
            steps = parent_steps
        else:
            sibling = next(m for m in nodes if m.parent is node.parent and m.kind == 1
                           and m.divisor == node.divisor)
            steps = sibling.wraps if parent_steps is None else \
                body.add(arith.AndIOp(parent_steps, sibling.wraps))
        stepped = bumped
        if node.last is not None:
            at_end = node.wraps if node.kind == 1 else body.add(
                arith.CmpiOp(node.current, body.const(node.last, kind), "eq"))
            stepped = body.add(arith.SelectOp(at_end, body.const(node.restart, kind), bumped))
        following = stepped if steps is None else \
            body.add(arith.SelectOp(steps, stepped, node.current))
        node.steps = steps
        body.add(memref.StoreOp.get(following, node.register, []))
    for node in (n for n in nodes if n.uses):  # the divisions' values, atop the body
        values: dict = {}
        for op in node.uses:
            type_ = op.results[0].type
            if type_ not in values:
                value = body.add(arith.IndexCastOp(node.current, type_)) \
                    if isinstance(type_, IndexType) else \
                    body.add(arith.ExtUIOp(node.current, type_))
                value.owner.attributes[STEPPED_ATTR] = ArrayAttr([IntegerAttr(x, 64) for x in (
                    node.kind, node.divisor, node.tag, node.parent.tag, node.largest)])
                value.name_hint = _name(node)
                values[type_] = value
            op.results[0].replace_all_uses_with(values[type_])
    for node in nodes:  # (after the inserts: the body's first op may be one of them)
        for op in node.uses:
            op.detach()
            op.erase()
    return True


def step_divided_ivs(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, scf.ForOp) and pipeline_ii(op) is not None:
            step_loop(op)


@dataclass(frozen=True)
class StepDividedIvsPass(ModulePass):
    """A pipelined loop's variable divided by constants becomes stepping counters."""

    name = "step-divided-ivs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        step_divided_ivs(op)
