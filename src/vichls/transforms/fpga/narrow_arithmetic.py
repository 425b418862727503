"""Integer sums, differences and products computed in as few bits as their results need.

Why: kernels compute loop bounds and block offsets in ``int32`` (``low = block * 2 *
width`` in a merge sort) whose values the loops keep small. At full width such a product
takes three multiplier blocks and two pipeline stages on the ECP5 and its sum a 32-bit
carry chain, on the path into the loop's bound compare; at the 12 bits the values need
it is one block, or a few LUTs.

What: an ``arith.addi`` / ``subi`` / ``muli`` on integers (not ``index``) whose exact
result provably lies in the range of a K-bit signed integer (analysis/value_ranges.py),
K below the type's width, becomes the same operation on the operands truncated to K bits,
sign-extended back. This is exact: the K-bit operation gives the exact result modulo
2**K whatever the operands' upper bits were, and the result fits K signed bits, so the
extension restores it. Operations whose result may wrap are left alone, as are those
that would lose fewer than ``MIN_SAVING`` bits (nothing to gain).

Assumes the loop-level IR of the FPGA preparation, just before scheduling (after the
passes that pattern-match full-width arithmetic: division by constants, shift-and-add
products, reassociation); value numbering and the removal of dead ops clean up after it.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp

from vichls.analysis.value_ranges import ValueRanges, signed_bits, truncated_before

#: only narrow when at least this many bits go
MIN_SAVING = 4


def narrow_arithmetic(module: ModuleOp, ranges: ValueRanges | None = None) -> ValueRanges:
    """Returns the range analysis, which stays valid for the rewritten module (the
    narrowed results keep their ranges): transforms/fpga/narrow_compares.py reuses it."""
    ranges = ranges or ValueRanges()
    for op in list(module.walk()):
        if isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp)) \
                and isinstance(op.result.type, IntegerType):
            _narrow(op, ranges)
    return ranges


def _narrow(op, ranges: ValueRanges) -> None:
    known = ranges.known(op.result)
    if known is None:
        return
    bits = signed_bits(*known)
    if op.result.type.width.data - bits < MIN_SAVING:
        return
    narrow = IntegerType(bits)
    small = type(op)(truncated_before(op.lhs, narrow, op), truncated_before(op.rhs, narrow, op))
    wide = arith.ExtSIOp(small.result, op.result.type)
    for new in (small, wide):
        new.location = op.location
        new.result.name_hint = op.result.name_hint
        op.parent_block().insert_op_before(new, op)
    ranges.remember(wide.result, known)  # (its users keep their tight ranges)
    op.result.replace_all_uses_with(wide.result)
    op.detach()
    op.erase()
