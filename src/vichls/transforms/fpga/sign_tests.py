"""Compares of a value with zero that only need its sign bit read the sign bit.

Why: ``x < 0`` on a W-bit signed value is its top bit, a wire; built as a compare it is a
W-bit carry chain (about 1.7 ns for 28 bits on the xc7) that the scheduler must fit in a
cycle. A ReLU, ``acc if acc > 0 else 0``, is the common case: its compare sits between the
adder tree of one layer of a network and the products of the next, where it decides
whether the ReLU and the next products share a cycle.

What, on integer ``arith.cmpi`` whose other operand is provably 0 (analysis/value_ranges):

- ``x < 0`` (``slt x, 0`` or ``sgt 0, x``) becomes the sign bit of ``x``
  (``trunci (shrui x, W-1)`` to ``i1``); ``x >= 0`` (``sge x, 0``, ``sle 0, x``) becomes
  its complement, or, where every user is an ``arith.select``, the sign bit with each
  select's two arms exchanged;
- ``x > 0`` (``sgt x, 0``, ``slt 0, x``) and ``x <= 0`` (``sle x, 0``, ``sge 0, x``) when
  they only choose, in ``arith.select``s, between a value that is 0 whenever ``x`` is 0
  (``x`` itself, or extensions and truncations of it) and a
  provable 0: at ``x == 0`` both arms are 0, so the strict and the non-strict test give
  the same result and the select reads the sign bit instead (``select(x > 0, x, 0)`` is
  ``select(x < 0, 0, x)``). Compares used otherwise are left alone.

Exact for every value: two's-complement ``x < 0`` is the top bit. Assumes the loop-level
IR of the FPGA preparation after narrowing (transforms/fpga/narrow_compares.py, which
leaves compares at the width their operands need, so the top bit is the true sign);
value numbering and the removal of dead ops clean up after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, i1
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.analysis.value_ranges import ValueRanges

# arith.cmpi predicates
_SLT, _SLE, _SGT, _SGE = 2, 3, 4, 5
#: the predicate of ``b <p> a`` for ``a <p> b``
_SWAPPED = {_SLT: _SGT, _SLE: _SGE, _SGT: _SLT, _SGE: _SLE}


def sign_tests(module: ModuleOp, ranges: ValueRanges | None = None) -> None:
    ranges = ranges or ValueRanges()
    for op in list(module.walk()):
        if isinstance(op, arith.CmpiOp) and isinstance(op.lhs.type, IntegerType) \
                and op.lhs.type.width.data > 1:
            _rewrite(op, ranges)


def _is_zero(value: SSAValue, ranges: ValueRanges) -> bool:
    return ranges.of(value) == (0, 0)


def _zero_with(value: SSAValue, x: SSAValue) -> bool:
    """Is ``value`` 0 whenever ``x`` is: ``x``, or extensions and truncations of it."""
    while value is not x:
        owner = value.owner
        if not isinstance(owner, (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)):
            return False
        value = owner.input
    return True


def _rewrite(cmp: arith.CmpiOp, ranges: ValueRanges) -> None:
    predicate = cmp.predicate.value.data
    if predicate not in _SWAPPED:
        return
    if _is_zero(cmp.rhs, ranges):
        x = cmp.lhs
    elif _is_zero(cmp.lhs, ranges):
        x, predicate = cmp.rhs, _SWAPPED[predicate]
    else:
        return
    # now ``x <predicate> 0``
    selects = [u.operation for u in cmp.result.uses]
    all_selects = bool(selects) and all(
        isinstance(s, arith.SelectOp) and s.cond is cmp.result and s.lhs is not cmp.result
        and s.rhs is not cmp.result for s in selects)
    if predicate in (_SGT, _SLE):
        # true arm when x > 0 (sgt) / x <= 0 (sle): the other must be 0 with x, this one 0
        if not all_selects or not all(_zero_at_zero(s, x, ranges) for s in selects):
            return
    sign = _sign_bit(x, cmp)
    if predicate == _SLT:
        cmp.result.replace_all_uses_with(sign)
    elif predicate == _SGE and not all_selects:
        one = arith.ConstantOp(IntegerAttr(1, i1))
        inverted = arith.XOrIOp(sign, one.result)
        for new in (one, inverted):
            new.location = cmp.location
            cmp.parent_block().insert_op_before(new, cmp)
        cmp.result.replace_all_uses_with(inverted.result)
    else:
        # sge: x >= 0 is "not negative"; sgt / sle: equal to sge / slt on these selects.
        # Selects on "x >= 0" (sge, sgt) exchange their arms to read "x < 0".
        swap = predicate in (_SGE, _SGT)
        for s in selects:
            true_arm, false_arm = (s.rhs, s.lhs) if swap else (s.lhs, s.rhs)
            new = arith.SelectOp(sign, true_arm, false_arm)
            new.location = s.location
            new.result.name_hint = s.result.name_hint
            s.parent_block().insert_op_before(new, s)
            s.result.replace_all_uses_with(new.result)
            s.detach()
            s.erase()
    if not cmp.result.uses:
        cmp.detach()
        cmp.erase()


def _zero_at_zero(select: Operation, x: SSAValue, ranges: ValueRanges) -> bool:
    """Are both arms of ``select`` 0 when ``x`` is 0 (one of them a provable 0)?"""
    a, b = select.lhs, select.rhs
    return (_is_zero(a, ranges) and _zero_with(b, x)) or (_is_zero(b, ranges)
                                                          and _zero_with(a, x))


def _sign_bit(x: SSAValue, before: Operation) -> SSAValue:
    width = x.type.width.data
    amount = arith.ConstantOp(IntegerAttr(width - 1, x.type))
    shifted = arith.ShRUIOp(x, amount.result)
    bit = arith.TruncIOp(shifted.result, i1)
    for new in (amount, shifted, bit):
        new.location = before.location
        before.parent_block().insert_op_before(new, before)
    return bit.result


@dataclass(frozen=True)
class SignTestsPass(ModulePass):
    """Compares with zero that need only the sign bit read it (see the module docstring)."""

    name = "sign-tests"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sign_tests(op)
