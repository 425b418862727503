"""Integer sums, differences and products computed in as few bits as their results need.

Why: kernels compute loop bounds and block offsets in ``int32`` (``low = block * 2 *
width`` in a merge sort) whose values the loops keep small. At full width such a product
takes three multiplier blocks and two pipeline stages on the ECP5 and its sum a 32-bit
carry chain, on the path into the loop's bound compare; at the 12 bits the values need
it is one block, or a few LUTs.

What: an ``arith.addi`` / ``subi`` / ``muli`` on integers (not ``index``) whose exact
result provably lies in the range of a K-bit signed integer (passes/value_ranges.py),
K below the type's width, becomes the same operation on the operands truncated to K bits,
sign-extended back. This is exact: the K-bit operation gives the exact result modulo
2**K whatever the operands' upper bits were, and the result fits K signed bits, so the
extension restores it. Operations whose result may wrap are left alone, as are those
already at most ``MIN_WIDTH`` bits narrower than their type (nothing to gain).

Assumes the loop-level IR of the FPGA preparation, just before scheduling (after the
passes that pattern-match full-width arithmetic: division by constants, shift-and-add
products, reassociation); value numbering and the removal of dead ops clean up after it.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp

from vichls.passes.value_ranges import ValueRanges, signed_bits

#: only narrow when at least this many bits go
MIN_SAVING = 4


def narrow_arithmetic(module: ModuleOp) -> None:
    ranges = ValueRanges()
    for op in list(module.walk()):
        if isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp)) \
                and isinstance(op.result.type, IntegerType):
            _narrow(op, ranges)


def _narrow(op, ranges: ValueRanges) -> None:
    width = op.result.type.width.data
    known = ranges.known(op.result)
    if known is None:
        return
    bits = signed_bits(*known)
    if width - bits < MIN_SAVING:
        return
    narrow = IntegerType(bits)
    block = op.parent_block()
    operands = []
    for value in (op.lhs, op.rhs):
        trunc = arith.TruncIOp(value, narrow)
        trunc.location = op.location
        block.insert_op_before(trunc, op)
        trunc.result.name_hint = value.name_hint
        operands.append(trunc.result)
    small = type(op)(operands[0], operands[1])
    small.location = op.location
    small.result.name_hint = op.result.name_hint
    wide = arith.ExtSIOp(small.result, op.result.type)
    wide.location = op.location
    wide.result.name_hint = op.result.name_hint
    block.insert_op_before(small, op)
    block.insert_op_before(wide, op)
    ranges.remember(wide.result, known)  # (its users keep their tight ranges)
    op.result.replace_all_uses_with(wide.result)
    op.detach()
    op.erase()
