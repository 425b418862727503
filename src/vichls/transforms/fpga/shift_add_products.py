"""Products by a constant with few signed digits become shifts and adders.

Why: Yosys maps a product by a constant that is not a power of two onto a multiplier
block. On the ECP5 that block alone, operands routed in and product out, takes longer than
a 150 MHz cycle, and it cannot be split across cycles; ``7 * x`` as ``(x << 3) - x`` is one
carry chain that fits in a cycle with room to spare, and a longer sum is a tree of adders
the scheduler may spread over cycles.

What: every ``arith.muli`` (integer or index) with a constant operand whose canonical
signed-digit form (non-adjacent form) of the constant, reduced modulo 2**width, has at most
``max_digits`` nonzero digits is replaced by the sum of ``±(x << k)`` over those digits,
added as a balanced tree (subtractions where a digit is negative). Two's-complement
arithmetic wraps the same way as the product, so the result is bit-identical for every
width and signedness; a digit at a position of the width or above is dropped (its term is
zero modulo 2**width); a single negative digit (``x * -4``) is a subtraction from zero.
Products by 0 or a power of two are left alone (folded, or a shift to synthesis). New ops
take the product's location.

Assumes the loop-level IR of the FPGA preparation (after division by constants, whose
magic multipliers have many digits and stay products). ``max_digits`` comes from the
device table (vichls.targets.oplib); 0 leaves every product alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.targets import oplib

#: the width index values have in the FPGA datapath (only the low bits matter: the digits
#: are taken modulo a width at least as large, which leaves the product's low bits alone)
_INDEX_WIDTH = 64


def shift_add_products(module: ModuleOp, max_digits: int) -> None:
    if max_digits < 2:
        return
    for op in list(module.walk()):
        if isinstance(op, arith.MuliOp):
            _rewrite(op, max_digits)


def signed_digits(value: int, width: int) -> list[tuple[int, int]]:
    """(position, +1 or -1) of the non-adjacent form of ``value`` modulo 2**width, the
    positions below ``width`` only."""
    n = value % (1 << width)
    digits, position = [], 0
    while n:
        if n & 1:
            digit = 2 - (n & 3)  # +1 when n = 1 mod 4, -1 when n = 3 mod 4
            n -= digit
            if position < width:
                digits.append((position, digit))
        n >>= 1
        position += 1
    return digits


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _rewrite(op: arith.MuliOp, max_digits: int) -> None:
    lhs, rhs = op.operands
    c, x = _constant(rhs), lhs
    if c is None:
        c, x = _constant(lhs), rhs
    if c is None:
        return
    type_ = op.result.type
    if isinstance(type_, IntegerType):
        width = type_.width.data
    elif isinstance(type_, IndexType):
        width = _INDEX_WIDTH
    else:
        return
    digits = signed_digits(c, width)
    if not digits or len(digits) > max_digits or digits == [(digits[0][0], 1)]:
        return  # 0, a power of two (a shift: Yosys makes no multiplier of it), or too long
    new: list[Operation] = []

    def emit(o: Operation) -> SSAValue:
        o.location = op.location
        new.append(o)
        return o.results[0]

    terms: list[tuple[SSAValue, int]] = []
    for position, sign in digits:
        term = x
        if position:
            amount = emit(arith.ConstantOp(IntegerAttr(position, type_)))
            term = emit(arith.ShLIOp(x, amount))
        terms.append((term, sign))
    # a positive term first at each level keeps subtractions from needing a negation
    terms.sort(key=lambda t: -t[1])
    while len(terms) > 1:
        paired = []
        for k in range(0, len(terms) - 1, 2):
            (a, sa), (b, sb) = terms[k], terms[k + 1]
            if sa == sb:
                paired.append((emit(arith.AddiOp(a, b)), sa))
            elif sa > 0:
                paired.append((emit(arith.SubiOp(a, b)), 1))
            else:
                paired.append((emit(arith.SubiOp(b, a)), 1))
        if len(terms) % 2:
            paired.append(terms[-1])
        terms = sorted(paired, key=lambda t: -t[1])
    result, sign = terms[0]
    if sign < 0:  # every digit negative: 0 - sum
        zero = emit(arith.ConstantOp(IntegerAttr(0, type_)))
        result = emit(arith.SubiOp(zero, result))
    block = op.parent_block()
    for o in new:
        block.insert_op_before(o, op)
    op.result.replace_all_uses_with(result)
    block.erase_op(op)


@dataclass(frozen=True)
class ShiftAddProductsPass(ModulePass):
    """Products by constants of few signed digits become shifts and adds (per the device).

    Options: device: the operator library's device table (vichls.targets.oplib.DEVICES)."""

    name = "shift-add-products"
    device: str = "xc7"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        shift_add_products(op, oplib.device(self.device).shift_add_max_digits)
