"""Value ranges of integer and index values: a small interval analysis for the FPGA passes.

What: ``ValueRanges().of(v)`` is an inclusive interval (lo, hi) holding every value ``v``
can take in hardware; ``known(v)`` is the same, or None when it is no better than the
whole range of ``v``'s type. It follows
- constants; ``extsi`` (the source's range); ``extui`` (the source's range when
  non-negative, else the source width's unsigned range);
- ``trunci`` and ``index_cast``: the source's range when it fits the new type;
- ``addi`` / ``subi`` / ``muli`` of two ranges, when the exact result cannot wrap in the
  type (otherwise: the whole type);
- shifts by a range of amounts below the width: left and arithmetic right shifts of any
  range (a left shift only when it cannot wrap), logical right shifts of non-negative ones;
- ``select``: the union of its two ranges;
- ``andi`` with an operand that is never negative: 0 up to that operand's top;
- ``divui`` / ``remui`` of a non-negative range by a positive one;
- a quotient or remainder of a loop's variable that step-divided-ivs steps in a register
  (``vichls.stepped``): 0 up to the largest value it records;
- the induction variable of an ``scf.for`` with a constant positive step: from the lowest
  lower bound to the highest upper bound minus one (the body runs only below the bound).
Anything else has its type's whole range.

Why: loop bounds and induction variables arrive as 64-bit (and ``index``) values, and the
compares and counters built from them need far fewer bits; synthesis cannot narrow them
itself because it does not know the loops' ranges.

Assumes two's-complement wrapping arithmetic at the hardware widths: ``index`` is 32 bits
in the datapath (docs/ir.md), so index arithmetic is ranged at 32 bits, and an ``i1`` is a
signed bit (true is -1 once sign-extended).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue

from vichls.analysis.floor_division import stepped_of

#: the width of ``index`` values in the datapath (scheduling/list_schedule.bit_width)
INDEX_WIDTH = 32


def signed_bits(lo: int, hi: int) -> int:
    """The width of the smallest two's-complement integer holding every value of lo..hi."""
    return max(hi.bit_length(), (-lo - 1).bit_length() if lo < 0 else 0) + 1


def type_width(type_) -> int | None:
    if isinstance(type_, IndexType):
        return INDEX_WIDTH
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def type_range(type_) -> tuple[int, int] | None:
    """The signed range of an integer or index type (None for other types)."""
    width = type_width(type_)
    if width is None:
        return None
    return (-(1 << (width - 1)), (1 << (width - 1)) - 1)


def _signed(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


class ValueRanges:
    """Ranges computed on demand and remembered (one instance per state of the IR)."""

    def __init__(self):
        self._memo: dict[SSAValue, tuple[int, int] | None] = {}

    def known(self, value: SSAValue) -> tuple[int, int] | None:
        """The range of ``value`` when it is narrower than its type's, else None."""
        r = self.of(value)
        return None if r is None or r == type_range(value.type) else r

    def remember(self, value: SSAValue, interval: tuple[int, int]) -> None:
        """Record the range of a value a pass made equal to one already ranged."""
        self._memo[value] = interval

    def of(self, value: SSAValue) -> tuple[int, int] | None:
        """The range of ``value`` (its type's whole range when nothing better is known;
        None for values that are not integers or indices)."""
        if value not in self._memo:
            self._memo[value] = type_range(value.type)  # (guards the recursion only)
            self._memo[value] = self._compute(value)
        return self._memo[value]

    def _compute(self, value: SSAValue) -> tuple[int, int] | None:
        full = type_range(value.type)
        if full is None:
            return None
        result = self._interval(value, type_width(value.type))
        if result is None or not full[0] <= result[0] <= result[1] <= full[1]:
            return full  # unknown, or the exact result may wrap in the type
        return result

    def _interval(self, value: SSAValue, width: int) -> tuple[int, int] | None:
        if isinstance(value, BlockArgument):
            return self._induction_variable(value)
        op = value.owner
        stepped = stepped_of(op)
        if stepped is not None:  # a loop's stepped quotient or remainder
            return (0, stepped[4])
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            v = _signed(op.value.value.data, width)
            return (v, v)
        if isinstance(op, (arith.ExtSIOp, arith.TruncIOp, arith.IndexCastOp)):
            return self.of(op.input)
        if isinstance(op, arith.ExtUIOp):
            source = self.of(op.input)
            if source is not None and source[0] >= 0:
                return source
            return (0, (1 << type_width(op.input.type)) - 1)
        if isinstance(op, arith.SelectOp):
            a, b = self.of(op.lhs), self.of(op.rhs)
            return (min(a[0], b[0]), max(a[1], b[1])) if a and b else None
        if isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp)):
            a, b = self.of(op.lhs), self.of(op.rhs)
            if not (a and b):
                return None
            if isinstance(op, arith.AddiOp):
                return (a[0] + b[0], a[1] + b[1])
            if isinstance(op, arith.SubiOp):
                return (a[0] - b[1], a[1] - b[0])
            corners = [x * y for x in a for y in b]
            return (min(corners), max(corners))
        if isinstance(op, arith.AndIOp):  # a mask that is never negative bounds it
            masks = [r[1] for r in (self.of(op.lhs), self.of(op.rhs)) if r and r[0] >= 0]
            return (0, min(masks)) if masks else None
        if isinstance(op, (arith.DivUIOp, arith.RemUIOp)):
            a, d = self.of(op.lhs), self.of(op.rhs)
            if not (a and d) or a[0] < 0 or d[0] <= 0:
                return None  # unsigned views of negative values are another range
            if isinstance(op, arith.DivUIOp):
                return (a[0] // d[1], a[1] // d[0])
            return (0, min(a[1], d[1] - 1))
        if isinstance(op, (arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)):
            a, s = self.of(op.lhs), self.of(op.rhs)
            if not (a and s) or s[0] < 0 or s[1] >= width:
                return None  # amounts whose shift is not a plain one
            if isinstance(op, arith.ShRUIOp) and a[0] < 0:
                return None  # the unsigned view of a negative value is another range
            # a left shift multiplies by 2**s (checked against the type above), an
            # arithmetic right shift floors the quotient (Python's >> on negative values
            # too): both are monotone in the value and in the amount, so the corners bound
            ends = [x << k if isinstance(op, arith.ShLIOp) else x >> k
                    for x in a for k in s]
            return (min(ends), max(ends))
        return None

    def _induction_variable(self, value: BlockArgument) -> tuple[int, int] | None:
        loop = value.owner.parent_op()
        if not isinstance(loop, scf.ForOp) or value.index != 0:
            return None
        step = self.of(loop.step)
        low, high = self.of(loop.lb), self.of(loop.ub)
        if not (step and low and high) or step[0] <= 0:
            return None
        return (low[0], max(low[0], high[1] - 1))


def truncated_before(value: SSAValue, type_: IntegerType, user: Operation) -> SSAValue:
    """``value`` truncated to ``type_`` by an op inserted before ``user`` (with its
    location); the source of an extension from exactly that type; or, for an
    extension from a narrower type, the same extension to ``type_`` (the low bits of an
    extension are the extension to fewer bits: the multipliers, adders and compares the
    narrowing passes build still see operands extended from their narrow sources, which
    list_schedule.mul_operand_width reads)."""
    owner = value.owner
    if isinstance(owner, (arith.ExtSIOp, arith.ExtUIOp)) \
            and owner.input.type.width.data <= type_.width.data:
        if owner.input.type == type_:
            return owner.input
        else:
            ext = type(owner)(owner.input, type_)
            ext.location = user.location
            ext.result.name_hint = value.name_hint
            user.parent_block().insert_op_before(ext, user)
            return ext.result
    trunc = arith.TruncIOp(value, type_)
    trunc.location = user.location
    trunc.result.name_hint = value.name_hint
    user.parent_block().insert_op_before(trunc, user)
    return trunc.result
