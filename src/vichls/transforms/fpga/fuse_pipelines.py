"""Fuse consecutive pipelined loops into one pipeline, the second running a few iterations
behind the first.

Why: two pipelined loops in a row (a stencil's two sweeps, a producer loop and its
consumer) each pay their pipeline's fill and drain, and the second starts only once the
first has drained. Short loops inside a time loop pay that every step: jacobi-1d's two
sweeps of 28 iterations at depth 4 spend a quarter of their cycles filling and draining.
One pipeline doing both bodies fills once, and its modulo schedule shares the memory
ports between the two bodies cycle by cycle, which is what overlapping the loops in
hardware would need anyway.

What: for ``L1; L2`` (two ``scf.for`` in one block, both pipelined at the same requested
II, constant bounds and equal constant positive steps, bodies without loops, streams or
local allocations, nothing between them but side-effect-free arithmetic, which moves
above L1), the loop::

    for n in [0, max(T1, T2 + d)):
        if n < T1:            body1(lb1 + n * step)
        if d <= n < T2 + d:   body2(lb2 + (n - d) * step)

(each guard left out where it always holds). The shift ``d`` is the least that keeps every
pair of accesses to one array (one of them a store) in its original order: body1's
iteration n1 ran before body2's n2, and stays before it iff ``n1 <= n2 + d`` (in the same
fused iteration body1 comes first), so ``d`` is the largest ``n1 - n2`` at which such a
pair meets: ``iteration_gap`` of analysis/dependence.py, which reads the linear forms of
the indices in each loop's iteration count, a flattened nest's row and column (``t // M``,
``t % M``) included: ``B[i][j]`` written by a flattened nest read as ``B[i + 1][j]`` by the
next one meets it one row, M iterations, later; rows of two lengths meet at a range of
gaps, whose largest binds. A pair the analysis cannot place (a loaded index, different
coefficients, a scalar) may meet at any iterations: the loops stay apart.

Where L2 divides its variable (a flattened nest: its row ``t // M`` and column ``t % M``),
``d`` is rounded up until L2's variable is the fused one moved by whole rows: its
quotients become the fused variable's plus a constant and its remainders the fused
variable's, so that one set of counters serves both bodies (transforms/fpga/
step_divided_ivs.py) and the dependence analysis reads the fused body's indices exactly
(where it could not, the modulo schedule would see a recurrence of every distance). That
needs the fused variable to count from 0 by 1 and L2 to divide its variable as an index:
otherwise the pair stays apart. Nests whose inner loops are pipelined without flattening
(two pipelines inside two outer loops) are not fused: only loops in one block are.

The fusion is made only when ``d < T1`` (the loops overlap), when the fused loop at the II
its memory ports allow (per array, the accesses of both bodies over two ports, dual-port
memories; at least the II asked) takes fewer cycles than the two loops one after the
other, or needs no larger an II than the slower of them (jacobi-2d's sweeps, five reads of
one array each: II 3 alone, and II 3 fused, the reads of A and of B side by side), and
when not both bodies multiply variables (one set of multipliers serves loops that run one
after the other, transforms/fpga/bind_multipliers.py; fused, both sets would be needed at
once: more DSPs for the cycles).

The fused loop keeps L1's attributes and names and records both loops and the shift in
``vichls.fused`` (the report shows it). Chains fuse pairwise, left to right.

Assumes the IR after lower-affine-fpga and unroll-in-pipelines (a pipelined loop's body
is straight-line code and ``scf.if``), and that distinct memrefs are distinct arrays
(docs/ir.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass

from vichls.analysis.dependence import ANY, LoopDependences, iteration_gap
from vichls.analysis.loop_utils import ConstantBounds, scf_constant_bounds
from vichls.dialects.attributes import (
    FUSED_ATTR,
    LABEL_ATTR,
    LOOP_NAME_ATTR,
    PIPELINE_ATTR,
)

#: loop attributes a fusion keeps (from L1) or may drop (L2's): anything else on either
#: loop (a flattened band's counters, a schedule) leaves the pair alone
KNOWN_LOOP_ATTRS = {PIPELINE_ATTR, LABEL_ATTR, LOOP_NAME_ATTR, FUSED_ATTR}
#: ports of a memory the modulo scheduler may use in one cycle (a dual-port memory)
PORTS = 2


def _fusable_body(loop: scf.ForOp) -> bool:
    for op in loop.body.block.walk():
        if op is loop:
            continue
        if isinstance(op, (scf.ForOp, scf.WhileOp, memref.AllocaOp, memref.AllocOp)):
            return False
        if op.dialect_name() not in ("arith", "memref", "scf", "math"):
            return False  # streams, calls, anything whose order matters beyond memory
    return True


def _pipelined(op: Operation) -> int | None:
    if not isinstance(op, scf.ForOp) or PIPELINE_ATTR not in op.attributes:
        return None
    if set(op.attributes) - KNOWN_LOOP_ATTRS:
        return None
    return op.attributes[PIPELINE_ATTR].value.data


def _accesses(loop: scf.ForOp) -> list[Operation]:
    return [op for op in loop.body.block.walk()
            if isinstance(op, (memref.LoadOp, memref.StoreOp))]


def least_shift(l1: scf.ForOp, l2: scf.ForOp, b1: ConstantBounds, b2: ConstantBounds) -> int | None:
    """The least ``d`` keeping every conflicting pair in order (see the module doc); None
    when a pair may meet at any iterations (the fused loop's schedule would see it as a
    recurrence of every distance, which costs more than the fill it saves)."""
    deps1 = LoopDependences(l1, b1.trip_count)
    deps2 = LoopDependences(l2, b2.trip_count)
    need = 0
    a2 = _accesses(l2)
    for op1 in _accesses(l1):
        for op2 in a2:
            if op1.memref is not op2.memref:
                continue
            if isinstance(op1, memref.LoadOp) and isinstance(op2, memref.LoadOp):
                continue
            gap = iteration_gap(deps1, op1, deps2, op2)  # n2 - n1 where they meet
            if gap is None:
                continue
            if gap is ANY or gap[0] is None:
                return None
            need = max(need, -gap[0])  # n1 <= n2 + d
    return need


def _divisions(iv) -> list[tuple[Operation, str, int]]:
    """The ops dividing ``iv`` by a constant: (op, "quotient" | "remainder", divisor)."""
    out = []
    for use in iv.uses:
        op = use.operation
        if use.index != 0 or len(op.operands) != 2 or \
                not isinstance(op.operands[1].owner, arith.ConstantOp):
            continue
        c = op.operands[1].owner.value.value.data
        if isinstance(op, (arith.DivUIOp, arith.DivSIOp, arith.FloorDivSIOp)) and c > 1:
            out.append((op, "quotient", c))
        elif isinstance(op, (arith.RemUIOp, arith.RemSIOp)) and c > 1:
            out.append((op, "remainder", c))
        elif isinstance(op, (arith.ShRUIOp, arith.ShRSIOp)) and 0 < c < 63:
            out.append((op, "quotient", 1 << c))
        elif isinstance(op, arith.AndIOp) and c > 0 and c & (c + 1) == 0:
            out.append((op, "remainder", c + 1))
    return out


def _aligned_shift(d: int, l2: scf.ForOp, b1: ConstantBounds, b2: ConstantBounds) -> int | None:
    """The least shift from ``d`` up that moves L2's variable by a multiple of every
    divisor it is divided by (a flattened nest's row length), so that its quotients and
    remainders are those of the fused loop's variable plus constants: counters that
    step-divided-ivs steps, and forms the dependence analysis reads (which needs the fused
    variable to count from 0 by 1). ``d`` itself when L2 divides nothing; None when no
    shift does."""
    iv = l2.body.block.args[0]
    if any(isinstance(use.operation, (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp))
           and _divisions(use.operation.results[0]) for use in iv.uses):
        return None  # (divided as an integer: not rebased, the fused forms would be lost)
    divisors = {m for _, _, m in _divisions(iv)}
    if not divisors:
        return d
    if b1.lower != 0 or b1.step != 1:
        return None
    period = math.lcm(*divisors)
    return d + (b2.lower - d) % period  # b2.lower - shift is a multiple of the period


def _rebase_divisions(iv2, iv, offset: int) -> None:
    """Divisions of ``iv2 = iv + offset`` by divisors of ``offset`` become divisions of
    ``iv``: a quotient plus ``offset / M``, the same remainder (exact where ``iv2 >= 0``,
    which the guard of L2's body ensures)."""
    for op, kind, m in _divisions(iv2):
        if offset % m:
            continue
        op.operands[0] = iv
        if kind == "quotient" and offset:
            c = arith.ConstantOp(IntegerAttr(offset // m, op.results[0].type))
            add = arith.AddiOp(op.results[0], c)
            block = op.parent_block()
            block.insert_ops_after([c, add], op)
            for use in list(op.results[0].uses):
                if use.operation is not add:
                    use.operation.operands[use.index] = add.result
            add.result.name_hint, op.results[0].name_hint = op.results[0].name_hint, None


def _port_demand(loop: scf.ForOp) -> dict:
    counts: dict = {}
    for op in _accesses(loop):
        if isinstance(op.memref.type, MemRefType) and op.memref.type.get_shape():
            counts[op.memref] = counts.get(op.memref, 0) + 1
    return counts


def _profitable(l1: scf.ForOp, l2: scf.ForOp, ii: int, t1: int, t2: int, trips: int) -> bool:
    """Whether the fused loop, at the II its memory ports allow, takes fewer cycles than
    the two loops one after the other (or no larger an II than the slower of them)."""
    d1, d2 = _port_demand(l1), _port_demand(l2)
    ii1 = max([ii] + [-(-c // PORTS) for c in d1.values()])
    ii2 = max([ii] + [-(-c // PORTS) for c in d2.values()])
    fused = max([ii] + [-(-(d1.get(m, 0) + d2.get(m, 0)) // PORTS) for m in {*d1, *d2}])
    return fused <= max(ii1, ii2) or fused * trips < ii1 * t1 + ii2 * t2


def _multiplies(loop: scf.ForOp) -> bool:
    """Whether the body multiplies two variables (a multiplier, usually DSPs, which
    transforms/fpga/bind_multipliers.py shares between loops that run one after the other:
    fused, the two bodies would need their multipliers at once)."""
    for op in loop.body.block.walk():
        if isinstance(op, (arith.MuliOp, arith.MulfOp)) and \
                not any(isinstance(v.owner, arith.ConstantOp) for v in op.operands):
            return True
    return False


def _between_is_pure(ops: list[Operation]) -> bool:
    return all(op.dialect_name() == "arith" and not op.regions for op in ops)


def _name(loop: scf.ForOp) -> str:
    if LOOP_NAME_ATTR in loop.attributes:
        return loop.attributes[LOOP_NAME_ATTR].data
    return loop.body.block.args[0].name_hint or "loop"


def _index(block: Block, before: Operation, value: int):
    c = arith.ConstantOp(IntegerAttr(value, IndexType()))
    block.insert_op_before(c, before)
    return c.result


def _guard(body: Block, ops: list[Operation], cond, before: Operation) -> None:
    """Move ``ops`` into an ``scf.if cond`` placed in ``body`` before ``before``."""
    guarded = Block()
    for op in ops:
        op.detach()
        guarded.add_op(op)
    guarded.add_op(scf.YieldOp())
    body.insert_op_before(scf.IfOp(cond, [], Region(guarded)), before)


def fuse(l1: scf.ForOp, l2: scf.ForOp, between: list[Operation]) -> bool:
    """Fuse ``l2`` into ``l1`` when legal and worth it; True when done."""
    ii = _pipelined(l1)
    if ii is None or _pipelined(l2) != ii:
        return False
    b1, b2 = scf_constant_bounds(l1), scf_constant_bounds(l2)
    if b1 is None or b2 is None or b1.step != b2.step or not b1.trip_count or not b2.trip_count:
        return False
    if not (_fusable_body(l1) and _fusable_body(l2) and _between_is_pure(between)):
        return False
    if _multiplies(l1) and _multiplies(l2):
        return False
    d = least_shift(l1, l2, b1, b2)
    if d is None:
        return False
    d = _aligned_shift(d, l2, b1, b2)
    if d is None:
        return False
    trips = max(b1.trip_count, b2.trip_count + d)
    if d >= b1.trip_count or not _profitable(l1, l2, ii, b1.trip_count, b2.trip_count, trips):
        return False
    parent = l1.parent_block()
    for op in between:  # (their operands come from above: nothing is defined in L1)
        op.detach()
        parent.insert_op_before(op, l1)
    step = b1.step
    upper = _index(parent, l1, b1.lower + trips * step)
    l1.operands[1] = upper
    body = l1.body.block
    iv = body.args[0]
    terminator = body.last_op
    # body1 behind ``iv < ub1`` where the fused loop runs longer
    ops1 = [op for op in body.ops if op is not terminator]
    if trips > b1.trip_count:
        at = ops1[0] if ops1 else terminator
        bound = _index(body, at, b1.lower + b1.trip_count * step)
        test = arith.CmpiOp(iv, bound, "slt")
        body.insert_op_before(test, at)
        _guard(body, ops1, test.result, terminator)
    # body2 at iv2 = iv + (lb2 - lb1 - d * step), behind d <= n < T2 + d where needed
    body2 = l2.body.block
    offset = b2.lower - b1.lower - d * step
    if offset:
        c = _index(body, terminator, offset)
        iv2_op = arith.AddiOp(iv, c)
        body.insert_op_before(iv2_op, terminator)
        iv2 = iv2_op.result
        iv2.name_hint = body2.args[0].name_hint
    else:
        iv2 = iv
    body2.args[0].replace_all_uses_with(iv2)
    if iv2 is not iv:
        _rebase_divisions(iv2, iv, offset)
        if not iv2.uses:  # (its divisions were all it was for)
            for dead in (iv2.owner, c.owner):
                dead.detach()
                dead.erase()
    ops2 = [op for op in body2.ops if op is not body2.last_op]
    tests = []
    if d > 0:
        low = _index(body, terminator, b1.lower + d * step)
        tests.append(arith.CmpiOp(iv, low, "sge"))
    if b2.trip_count + d < trips:
        high = _index(body, terminator, b1.lower + (b2.trip_count + d) * step)
        tests.append(arith.CmpiOp(iv, high, "slt"))
    for t in tests:
        body.insert_op_before(t, terminator)
    if tests:
        cond = tests[0].result
        if len(tests) == 2:
            both = arith.AndIOp(tests[0].result, tests[1].result)
            body.insert_op_before(both, terminator)
            cond = both.result
        _guard(body, ops2, cond, terminator)
    else:
        for op in ops2:
            op.detach()
            body.insert_op_before(op, terminator)
    earlier = l1.attributes.get(FUSED_ATTR)
    names = earlier.data if earlier is not None else _name(l1)
    l1.attributes[FUSED_ATTR] = StringAttr(f"{names}, {_name(l2)} (+{d})")
    l2.detach()
    l2.erase()
    return True


def fuse_pipelines(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
            if loop.parent is None or _pipelined(loop) is None:
                continue
            between, op = [], loop.next_op
            while op is not None and not isinstance(op, scf.ForOp) and \
                    op.dialect_name() == "arith":
                between.append(op)
                op = op.next_op
            if isinstance(op, scf.ForOp) and fuse(loop, op, between):
                changed = True
                break


@dataclass(frozen=True)
class FusePipelinesPass(ModulePass):
    """``fuse-pipelines``: see the module docstring."""

    name = "fuse-pipelines"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuse_pipelines(op)
