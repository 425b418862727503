"""Integer compares in as few bits as their operands can need.

Why: the front end carries loop bounds and induction variables in 64 bits (a ``range``
over ``int32`` values sign-extends them), so the guards that loop rotation and prefetching
build (``i + 1 < high``) compare 64-bit values whose upper half only repeats the sign. A
64-bit compare is a 64-bit carry chain plus its sign logic: on the ECP5 it takes most of a
150 MHz cycle before any control or datapath logic that reads it, and synthesis cannot
shorten it because it does not know the ranges.

What: every ``arith.cmpi`` on integers (not ``index``) whose two operands provably lie in
the range of a K-bit signed integer, K below the type's width, compares their truncations
to K bits instead, with the same predicate. Truncation is wiring in hardware; the values
it reads keep their width (synthesis drops the unused upper bits of their adders). The
ranges come from analysis/value_ranges.py. Signed and unsigned predicates are both kept:
when both operands fit K signed bits their order is the same at K bits for either
reading; unsigned predicates are narrowed only when both ranges are non-negative. A compare whose
outcome the ranges decide (``r < 0`` of a remainder that a loop steps, in the floor
adjustment of ``i % 3``) becomes that constant.

Assumes two's-complement wrapping integer arithmetic (the kernel language's) and runs on
the loop-level IR of the FPGA preparation, just before scheduling; value numbering and
the removal of dead ops afterwards clean up what it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.passes import ModulePass

from vichls.transforms.fpga.narrow_arithmetic import narrow_arithmetic
from vichls.analysis.value_ranges import ValueRanges, signed_bits, truncated_before

#: arith.cmpi's unsigned predicates (ult, ule, ugt, uge)
_UNSIGNED = range(6, 10)


def narrow_compares(module: ModuleOp, ranges: ValueRanges | None = None) -> None:
    """``ranges``: an analysis of ``module`` to reuse (transforms/fpga/narrow_arithmetic.py's)."""
    ranges = ranges or ValueRanges()
    for op in list(module.walk()):
        if isinstance(op, arith.CmpiOp) and isinstance(op.lhs.type, IntegerType):
            _narrow(op, ranges)


def _decided(predicate: int, a: tuple[int, int], b: tuple[int, int]) -> bool | None:
    """The outcome of ``a <predicate> b`` for every value of the two ranges, if one."""
    (a_lo, a_hi), (b_lo, b_hi) = a, b
    if predicate in _UNSIGNED:
        if min(a_lo, b_lo) < 0:
            return None
        predicate -= 4  # on non-negative ranges, as the signed predicate
    less = {2: (a_hi < b_lo, a_lo >= b_hi), 3: (a_hi <= b_lo, a_lo > b_hi),
            4: (a_lo > b_hi, a_hi <= b_lo), 5: (a_lo >= b_hi, a_hi < b_lo)}
    if predicate in less:
        always, never = less[predicate]
    else:  # eq, ne
        disjoint = a_hi < b_lo or b_hi < a_lo
        same = a_lo == a_hi == b_lo == b_hi
        always, never = (same, disjoint) if predicate == 0 else (disjoint, same)
    return True if always else (False if never else None)


def _narrow(op: arith.CmpiOp, ranges: ValueRanges) -> None:
    predicate = op.predicate.value.data
    (a_lo, a_hi), (b_lo, b_hi) = ranges.of(op.lhs), ranges.of(op.rhs)
    outcome = _decided(predicate, (a_lo, a_hi), (b_lo, b_hi))
    if outcome is not None:
        new = arith.ConstantOp(IntegerAttr(-1 if outcome else 0, IntegerType(1)))
        new.location = op.location
        op.parent_block().insert_op_before(new, op)
        op.result.replace_all_uses_with(new.result)
        op.detach()
        op.erase()
        return
    bits = signed_bits(min(a_lo, b_lo), max(a_hi, b_hi))
    if bits >= op.lhs.type.width.data or (predicate in _UNSIGNED and min(a_lo, b_lo) < 0):
        return
    narrow = IntegerType(bits)
    new = arith.CmpiOp(truncated_before(op.lhs, narrow, op),
                       truncated_before(op.rhs, narrow, op), predicate)
    new.attributes.update(op.attributes)
    new.location = op.location
    op.parent_block().insert_op_before(new, op)
    op.result.replace_all_uses_with(new.result)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class NarrowPass(ModulePass):
    """Compute sums, products and compares in the bits the value ranges need."""

    name = "narrow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        narrow_compares(op, narrow_arithmetic(op))
