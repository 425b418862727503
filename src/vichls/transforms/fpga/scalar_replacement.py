"""Scalar replacement: keep an array element that a loop accumulates into in a register.

Why: ``q[i] += A[i, j] * p[j]`` over ``j`` loads and stores ``q[i]`` on every iteration,
and in hardware each access costs a memory port cycle (reads have latency 1). The element
does not change address across the loop, so it can live in a register for the whole loop:

    before the loop:   reg = M[idx]
    in the loop:       every M[idx] access becomes a reg access
    after the loop:    M[idx] = reg

``reg`` is a 0-d ``memref.alloca`` (placed at the top of the function, as the front end
places every alloca), which the FPGA back end keeps in a register.

When a loop applies: an ``scf.for`` (never ``scf.while``: it may exit early, and its body
may not run at all), containing no ``func.call``, and an element of an N-d memref ``M``
defined outside the loop, named by indices defined outside the loop (one SSA value or
equal constants per position), whose accesses in the loop include a store and one access
directly in the loop body (so that the original surely accesses the element whenever the
loop runs). No other access to ``M`` in the loop may name that element: another fixed
element must differ from it in a constant index (``C[i][0]`` and ``C[i][1]``: gemm's row of
accumulators once ``j`` is unrolled, one register each), and an access whose index moves
in the loop must provably miss it, by a counter whose loop starts above the element's
index or stops at or below it (trmm's ``B[k][j]`` for ``k`` from ``i + 1`` against
``B[i][j]``; trisolv's ``x[j]`` for ``j`` below ``i`` against ``x[i]``) or by disjoint value
ranges (``analysis/value_ranges.py``). Such accesses stay in memory. ``M`` used any other way
(passed whole, stored as a value) blocks every element. Loops are visited inner first, so
an element that is invariant over a whole nest moves out level by level.

Profitability (``profitable_only``, the default): a pipelined loop always gains (its
accumulation becomes a recurrence through a register instead of through the memory's
port, which bounds the II by the load-add-store chain). In a loop that is not pipelined
the read before the loop costs a cycle each time the loop is entered, and the
body gets shorter only if the element's read latency was on its critical path, which is
not the case when the body reads another array anyway (read latency 1, rotated or not:
the body already lasts two cycles). So the default transforms such a loop only when the body
reads no other array, or when a store of the element just before the loop (``q[i] = 0``)
gives the register its start value, which also removes that store. Without it
(``profitable_only=False``) every qualifying element moves.

Zero-trip loops: unless the bounds are constants that make the loop run, the load before
and the store after sit in an ``scf.if`` on ``lb < ub``, so that a loop that does not run
neither reads nor writes the element (its index might be out of range then).

Assumes the IR after lower-affine (scf.for over index or i64, memref.load/store with
index operands, calls inlined) and, like value numbering, that distinct memref values
never alias. Runs after value numbering and loop-invariant hoisting, so that equal
invariant index expressions are one SSA value defined outside the loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.transforms.fpga.hoist_loop_invariants import runs_at_least_once
from vichls.analysis.loop_utils import pipeline_ii
from vichls.analysis.loop_utils import defined_inside, function_entry
from vichls.analysis.value_ranges import ValueRanges


def scalar_replacement(module: ModuleOp, *, profitable_only: bool = True) -> None:
    """Apply to every qualifying (loop, array element); with ``profitable_only``, only
    where the unpipelined schedule gets shorter (see the module docstring)."""
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    for loop in reversed(loops):  # inner loops first
        _replace_in(loop, profitable_only)



def _index_key(value: SSAValue):
    """Equal keys mean provably equal index values: one SSA value, or equal constants."""
    if isinstance(value.owner, arith.ConstantOp):
        return ("constant", value.owner.value.value.data)
    return value


def _candidate_accesses(loop: scf.ForOp) -> list[tuple[SSAValue, list[Operation]]]:
    """(memref, the accesses to one of its elements) for every element that qualifies
    (see the module docstring); empty when the loop contains a call."""
    uses: dict[SSAValue, list[Operation]] = {}
    for op in loop.walk():
        if isinstance(op, func.CallOp):
            return []
        for operand in op.operands:
            if isinstance(operand.type, MemRefType) and not defined_inside(operand, loop):
                uses.setdefault(operand, []).append(op)
    qualifying = []
    ranges = ValueRanges()
    for memory, accesses in uses.items():
        if len(memory.type.get_shape()) == 0:
            continue  # already a register
        qualifying += [(memory, element)
                       for element in _fixed_elements(memory, accesses, loop, ranges)]
    return qualifying


def _fixed_elements(memory: SSAValue, accesses: list[Operation], loop: scf.ForOp,
                    ranges: ValueRanges) -> list[list[Operation]]:
    """The accesses of ``memory`` in ``loop`` to elements named by indices defined outside
    the loop, grouped by element, for the elements that no other access can reach: two
    groups differ in a constant index (``C[i][0]`` and ``C[i][1]``), and an access whose
    index moves in the loop provably misses the element (``B[k][j]`` against ``B[i][j]``
    for ``k`` from ``i + 1``). Of those, the groups with a store and an access on every
    iteration. None when ``memory`` is used other than by loads and stores of elements."""
    elements: dict[tuple, list[Operation]] = {}
    moving: list[Operation] = []
    for op in accesses:
        if isinstance(op, memref.LoadOp) and op.memref is memory:
            indices = op.indices
        elif isinstance(op, memref.StoreOp) and op.memref is memory and op.value is not memory:
            indices = op.indices
        else:
            return []  # passed whole, or stored as a value: not an element access
        if any(defined_inside(index, loop) for index in indices):
            moving.append(op)
        else:
            elements.setdefault(tuple(_index_key(index) for index in indices), []).append(op)

    def apart(a: Operation, b: Operation) -> bool:
        return any(_differ(x, y, ranges) for x, y in zip(a.indices, b.indices))

    groups = list(elements.values())
    out = []
    for n, ops in enumerate(groups):
        others = [g[0] for g in groups[:n] + groups[n + 1:]] + moving
        if not all(apart(ops[0], other) for other in others):
            continue  # another access may name this element: it stays in memory
        # one access runs on every iteration: then the original touches the element too,
        # so its index is in range (one only under an if might never run, out of range)
        if any(isinstance(op, memref.StoreOp) for op in ops) and \
                any(op.parent_op() is loop for op in ops):
            out.append(ops)
    return out


def _constant(value: SSAValue) -> int | None:
    return value.owner.value.value.data if isinstance(value.owner, arith.ConstantOp) else None


def _offset_of(value: SSAValue, base: SSAValue) -> int | None:
    """``c`` when ``value`` is ``base + c`` or ``base - c`` for a constant ``c`` (0 for
    ``base`` itself), else None."""
    if value is base:
        return 0
    op = value.owner
    if isinstance(op, arith.AddiOp):
        for x, y in (op.operands, reversed(op.operands)):
            if x is base and _constant(y) is not None:
                return _constant(y)
    if isinstance(op, arith.SubiOp) and op.lhs is base and _constant(op.rhs) is not None:
        return -_constant(op.rhs)
    return None


def _below_or_above(counter: SSAValue, other: SSAValue) -> bool:
    """Whether the counter of an ``scf.for`` (constant positive step) is provably never
    ``other``: its loop starts above ``other`` or stops at or below it."""
    loop = counter.owner.parent_op() if isinstance(counter, BlockArgument) else None
    if not isinstance(loop, scf.ForOp) or counter is not loop.body.block.args[0]:
        return False
    step = _constant(loop.step)
    if step is None or step <= 0:
        return False
    start, stop = _offset_of(loop.lb, other), _offset_of(loop.ub, other)
    return (start is not None and start > 0) or (stop is not None and stop <= 0)


def _differ(x: SSAValue, y: SSAValue, ranges: ValueRanges) -> bool:
    """Whether two index values provably differ whenever both accesses run (distinct
    constants have disjoint ranges)."""
    if _below_or_above(x, y) or _below_or_above(y, x):
        return True
    a, b = ranges.of(x), ranges.of(y)
    return a is not None and b is not None and (a[1] < b[0] or b[1] < a[0])


def _reads_other_arrays(loop: scf.ForOp, memory: SSAValue) -> bool:
    return any(isinstance(op, memref.LoadOp) and op.memref is not memory
               and op.memref.type.get_shape() != () for op in loop.walk())


def _initialised_just_before(loop: scf.ForOp, memory: SSAValue, indices) -> bool:
    """Whether a store to the element precedes ``loop`` in its block with nothing in
    between that uses ``memory`` or has regions (what _absorb_earlier_store takes)."""
    key = tuple(_index_key(index) for index in indices)
    op = loop.prev_op
    while op is not None and not op.regions and memory not in op.operands:
        op = op.prev_op
    return (isinstance(op, memref.StoreOp) and op.memref is memory
            and tuple(_index_key(index) for index in op.indices) == key)


def _profitable(loop: scf.ForOp, memory: SSAValue, indices) -> bool:
    if pipeline_ii(loop) is not None:
        return True  # a recurrence through a register instead of a memory port
    if _initialised_just_before(loop, memory, indices) and runs_at_least_once(loop):
        return True  # the register starts from that value: no extra read at all
    # otherwise the read before the loop costs a cycle per entry, paid back per iteration
    # only when the element's read latency is on the body's critical path, i.e. when no
    # other array read (latency 1, rotated or not) keeps the body that long anyway
    return not _reads_other_arrays(loop, memory)


def _replace_in(loop: scf.ForOp, profitable_only: bool) -> None:
    for memory, accesses in _candidate_accesses(loop):
        if profitable_only and not _profitable(loop, memory, list(accesses[0].indices)):
            continue
        element_type = memory.type.get_element_type()
        register = memref.AllocaOp.get(element_type, shape=[])
        entry = function_entry(loop)
        Rewriter.insert_op(register, InsertPoint.at_start(entry))
        register.memref.name_hint = "sr_" + (memory.name_hint or "elem")
        indices = list(accesses[0].indices)
        for op in accesses:
            if isinstance(op, memref.LoadOp):
                new = memref.LoadOp.get(register.memref, [])
                Rewriter.replace_op(op, new)
            else:
                Rewriter.replace_op(op, memref.StoreOp.get(op.value, register.memref, []))
        initial = memref.LoadOp.get(memory, indices)
        setup = [initial, memref.StoreOp.get(initial.res, register.memref, [])]
        final = memref.LoadOp.get(register.memref, [])
        write_back = [final, memref.StoreOp.get(final.res, memory, indices)]
        if runs_at_least_once(loop):
            Rewriter.insert_op(setup, InsertPoint.before(loop))
            Rewriter.insert_op(write_back, InsertPoint.after(loop))
            _absorb_earlier_store(initial, memory, indices)
        else:
            # a loop that does not run must not touch the element: guard both ends
            enters = arith.CmpiOp(loop.lb, loop.ub, "slt")
            Rewriter.insert_op(
                [enters, scf.IfOp(enters.result, [], setup + [scf.YieldOp()])],
                InsertPoint.before(loop),
            )
            Rewriter.insert_op(
                scf.IfOp(enters.result, [], write_back + [scf.YieldOp()]),
                InsertPoint.after(loop),
            )


def _absorb_earlier_store(initial: memref.LoadOp, memory: SSAValue, indices) -> None:
    """``tmp[i] = 0`` just before the loop: the register starts from the stored value and
    the store itself is dead, since the write-back after the (running) loop overwrites it.
    Looks back over ops without regions that do not use ``memory``."""
    key = tuple(_index_key(index) for index in indices)
    op = initial.prev_op
    while op is not None and not op.regions and memory not in op.operands:
        op = op.prev_op
    if (isinstance(op, memref.StoreOp) and op.memref is memory
            and tuple(_index_key(index) for index in op.indices) == key):
        initial.res.replace_all_uses_with(op.value)
        initial.detach()
        initial.erase()
        op.detach()
        op.erase()


@dataclass(frozen=True)
class ScalarReplacementPass(ModulePass):
    """Keep array elements a loop reuses in registers.

    Options: profitable_only: only where the schedule gains (false: wherever legal)."""

    name = "scalar-replacement"
    profitable_only: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scalar_replacement(op, profitable_only=self.profitable_only)
