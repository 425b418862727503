"""If-conversion of scalar code: conditional register updates become unconditional
selects, in pipelined loops, in the conditions of while loops, and where the code after the
update reads the register back.

Why: in a pipelined iteration an ``scf.if`` is predicated, not branched (scheduling/
modulo_schedule), but a conditional store to a 0-d memref (a scalar in a register) still
orders every access to that register after the condition, and a store under a condition
cannot be forwarded to the loads that follow it. ``acc = 0`` under ``if first`` (what
transforms/loop/loop_flatten_guarded makes of a flattened ``acc = 0; for k: acc += ...``) then
splits the accumulation into a guarded write and a read one cycle later: II=2. As a
select, ``acc = first ? 0 : acc`` forwards into the accumulation and the loop reaches
II=1.

What: in the body of every pipelined ``scf.for`` (``vichls.pipeline``), each ``scf.if``
without results whose regions hold only arith ops, 0-d loads and stores, array stores and
nested ifs of the same kind (innermost first) is taken apart: its arith ops and 0-d loads
move in front of it, in order (they have no side effect: the front end guards division);
each 0-d store ``r = v`` becomes ``r = cond ? v : r`` (``!cond`` in the else region) in
front of it; array stores stay under the condition, in their order. An array load moves in
front too when it cannot leave its memory's range: a memory of 2^n words has an n-bit
address, so any index names one of its words, and an index whose value range
(analysis/value_ranges) lies inside its dimension, a loop counter over the array, names one
too. The load then runs speculatively (a pipelined iteration holds the port for it
anyway); its value is used only where the condition holds. That is the initialisation of a
flattened reduction, ``acc = bias[m]`` under ``if k == 0``: as a select the accumulation
reads it at once, and the loop reaches II=1. In a pipeline that is done only for an if
that writes registers alone, one of which the code after it reads back (elsewhere a
predicated register update is cheaper than a select on the recurrence); any other array
load keeps its if as it is, and so does a load after a store to its own array in the same
if (moved in front, it would read the element before the store).

The condition code of a ``while`` loop outside pipelines (its ``before`` region) is
converted the same way, array loads included. That is the short-circuit ``while k > 0 and p[k] != t[i]`` (the front end gives ``and`` a
flag register written under ``if k > 0``): converted, the condition is one expression
the loop tests in the cycle its loads return, instead of a flag written and read back a
cycle later. (An if holding a divider or a multiplier stays guarded there, and below:
unconditional, it would cost its latency where the branch would not have run.)

Elsewhere outside pipelines, an if whose regions hold only arith ops and 0-d loads and
stores is converted when the code after it in its block reads a register it writes:
``if p[m] == t[i]: m += 1`` followed by ``if m >= 4``. The select then forwards into
that read (transforms/fpga/forward_scalar_stores), where a predicated write would be read back a
cycle later. An update nothing reads back in the block (``if c < best: best = c``) stays
predicated: a select would only add a multiplexer.

Assumes the IR after lower-affine (scf/arith/memref only).
"""

from __future__ import annotations

from dataclasses import dataclass

from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.analysis.loop_utils import in_pipeline, pipeline_ii
from vichls.transforms.fpga.predicate_ifs import PREDICABLE_KINDS
from vichls.scheduling.list_schedule import is_scalar_memref, op_cost, op_kind
from vichls.analysis.value_ranges import ValueRanges


def if_convert_scalars(module: ModuleOp) -> None:
    for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
        if pipeline_ii(loop) is None:
            continue
        ifs = [op for op in loop.body.walk() if isinstance(op, scf.IfOp)]
        for branch in reversed(ifs):  # innermost first
            if _convertible(branch, in_condition=False):
                _convert(branch)
    for loop in [op for op in module.walk() if isinstance(op, scf.WhileOp)]:
        if in_pipeline(loop):
            continue  # the pipelined body's own rule above applies
        ifs = [op for op in loop.before_region.walk() if isinstance(op, scf.IfOp)]
        for branch in reversed(ifs):
            if _convertible(branch, in_condition=True):
                _convert(branch)
    for branch in reversed([op for op in module.walk() if isinstance(op, scf.IfOp)]):
        if not in_pipeline(branch) and _scalar_only(branch) and _read_back(branch):
            _convert(branch)


def _scalar_only(branch: scf.IfOp) -> bool:
    if branch.results:
        return False
    for region in (branch.true_region, branch.false_region):
        for block in region.blocks:
            for op in block.ops:
                if isinstance(op, scf.YieldOp) or (op.dialect_name() == "arith" and _cheap(op)):
                    continue
                if isinstance(op, (memref.LoadOp, memref.StoreOp)) and is_scalar_memref(op.memref):
                    continue
                return False
    return True


def _cheap(op: Operation) -> bool:
    """An arith op that costs no unit and at most a cycle (what transforms/fpga/predicate_ifs
    predicates): unconditional outside a pipeline, it adds no latency where the branch
    would not have run."""
    kind = op_kind(op)
    return kind is None or (kind in PREDICABLE_KINDS and op_cost(op).latency <= 1)


def _convertible(branch: scf.IfOp, in_condition: bool) -> bool:
    if branch.results:
        return False
    # an array load moves in front of the if while its array stores stay in it: not past a
    # store to its own array. In a pipeline only where the if writes registers alone and
    # the code after it reads one back (acc = bias[m], then acc += ...): elsewhere the
    # predicated update is cheaper than a select on a recurrence (a merge's
    # `if temp[i] <= temp[j]: a[k] = temp[i]; i += 1` went from II=2 to 3)
    stored = {op.memref for op in branch.walk()
              if isinstance(op, memref.StoreOp) and not is_scalar_memref(op.memref)}
    speculate = in_condition or (not stored and _read_back(branch))
    for region in (branch.true_region, branch.false_region):
        for block in region.blocks:
            for op in block.ops:
                if in_condition and op.dialect_name() == "arith" and not _cheap(op):
                    return False  # a divider would run on every evaluation of the condition
                if isinstance(op, scf.YieldOp) or op.dialect_name() == "arith":
                    continue
                if isinstance(op, memref.LoadOp) and is_scalar_memref(op.memref):
                    continue
                if (isinstance(op, memref.LoadOp) and speculate and op.memref not in stored
                        and _address_in_range(op)):
                    continue
                if isinstance(op, memref.StoreOp) and (
                        not in_condition or is_scalar_memref(op.memref)):
                    continue  # (array stores stay guarded; in a condition, none at all)
                if isinstance(op, scf.IfOp) and _convertible(op, in_condition):
                    continue  # converted already, or will stay guarded as a whole
                return False
    return True


def _read_back(branch: scf.IfOp) -> bool:
    """Whether the code after ``branch`` in its block reads a register the branch writes
    (then the select forwards into that read, transforms/fpga/forward_scalar_stores)."""
    written = {op.memref for op in branch.walk() if isinstance(op, memref.StoreOp)}
    after = branch.next_op
    while after is not None:
        for op in after.walk():
            if isinstance(op, memref.LoadOp) and op.memref in written:
                return True
        after = after.next_op
    return False


def _address_in_range(load: memref.LoadOp) -> bool:
    """Whether ``load`` reads a word of its memory whatever the condition around it: a
    memory of 2^n words (its n-bit address names a word whatever the index), or indices
    whose value ranges lie inside the dimensions (a loop counter over the array)."""
    if not isinstance(load.memref.type, MemRefType):
        return False
    shape = load.memref.type.get_shape()
    words = prod(shape)
    if words >= 2 and words & (words - 1) == 0:  # (one word still has a 1-bit address)
        return True
    ranges = ValueRanges()
    for index, size in zip(load.indices, shape):
        lo, hi = ranges.of(index)
        if lo < 0 or hi >= size:
            return False
    return True


def _convert(branch: scf.IfOp) -> None:
    parent = branch.parent_block()
    keep_then: list[Operation] = []
    keep_else: list[Operation] = []
    for region, polarity, keep in ((branch.true_region, True, keep_then),
                                   (branch.false_region, False, keep_else)):
        if not region.blocks:
            continue
        condition = branch.cond
        if not polarity:
            true = arith.ConstantOp(IntegerAttr(1, IntegerType(1)))
            negated = arith.XOrIOp(branch.cond, true.result)
            for op in (true, negated):
                op.location = branch.location
                parent.insert_op_before(op, branch)
            condition = negated.result
        for op in list(region.block.ops):
            if isinstance(op, scf.YieldOp):
                continue
            if isinstance(op, memref.StoreOp) and is_scalar_memref(op.memref):
                old = memref.LoadOp.get(op.memref, [])
                chosen = arith.SelectOp(condition, op.value, old.res)
                for new in (old, chosen):
                    new.location = op.location
                    parent.insert_op_before(new, branch)
                op.detach()
                op.operands[0] = chosen.result
                parent.insert_op_before(op, branch)
            elif isinstance(op, (memref.StoreOp, scf.IfOp)):
                op.detach()
                keep.append(op)
            else:
                op.detach()
                parent.insert_op_before(op, branch)
    if not keep_then and not keep_else:
        parent.erase_op(branch)
        return
    for region, keep in ((branch.true_region, keep_then), (branch.false_region, keep_else)):
        if not region.blocks:
            continue
        block: Block = region.block
        yield_op = block.last_op
        for op in keep:
            block.insert_op_before(op, yield_op)


@dataclass(frozen=True)
class IfConvertScalarsPass(ModulePass):
    """Turn ifs of cheap scalar updates into selects where that saves cycles."""

    name = "if-convert-scalars"
    device: str = "xc7"  # the operator library's device (its costs and choices)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            if_convert_scalars(op)
