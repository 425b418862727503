"""What an index value is always a multiple of: ``known_multiple(value)`` and
``expr_multiple(expr, operands)`` give a k >= 0 that the value (or an affine expression over
``operands``) equals k times some integer in every execution: 1 when nothing is known, 0
for the constant zero.

Why: two accesses ``y[k * e + c]`` and ``y[k * e' + c']`` with c and c' different modulo k
never touch one element, whatever e and e' are. Unrolling a loop by k and flattening it
into the loops around makes exactly such indices (``co = (t mod 2) * 4`` and the copies
``co + 1`` .. ``co + 3``), and a transform that must know the copies apart at any two
iterations (loop_flatten_guarded) needs this, not the dependence distance.

What it reads: constants; products by constants, sums (the gcd of both sides) in affine
expressions and in ``arith`` on ``index`` (muli, addi, shli by a constant, index_cast);
``affine.apply`` of one result; the variable of an ``affine.for`` with constant bounds (the
gcd of its lower bound and step). Anything else is a multiple of 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.ir.affine.affine_expr import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
)

from vichls.analysis.loop_utils import constant_bounds

_DEPTH = 16  # how far the operands' definitions are followed


def expr_multiple(expr: AffineExpr, operands: Sequence[SSAValue], depth: int = 0) -> int:
    """A k >= 0 that ``expr`` over ``operands`` is always a multiple of (see the module)."""
    if depth > _DEPTH:
        return 1
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind == AffineBinaryOpKind.Mul:
            for factor, other in ((expr.rhs, expr.lhs), (expr.lhs, expr.rhs)):
                if isinstance(factor, AffineConstantExpr):
                    return abs(factor.value) * expr_multiple(other, operands, depth + 1)
            return 1
        if expr.kind == AffineBinaryOpKind.Add:
            return math.gcd(expr_multiple(expr.lhs, operands, depth + 1),
                            expr_multiple(expr.rhs, operands, depth + 1))
        return 1
    if isinstance(expr, AffineDimExpr) and expr.position < len(operands):
        return known_multiple(operands[expr.position], depth + 1)
    return 1


def known_multiple(value: SSAValue, depth: int = 0) -> int:
    """A k >= 0 that ``value`` is always a multiple of (see the module)."""
    if depth > _DEPTH:
        return 1
    owner = value.owner
    if isinstance(owner, Block):
        loop = owner.parent_op()
        if isinstance(loop, affine.ForOp) and value is owner.args[0]:
            bounds = constant_bounds(loop)
            if bounds is not None:
                return math.gcd(abs(bounds.lower), abs(bounds.step))
        return 1
    if isinstance(owner, affine.ApplyOp) and len(owner.map.data.results) == 1:
        return expr_multiple(owner.map.data.results[0], tuple(owner.mapOperands), depth + 1)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return abs(owner.value.value.data)
    if isinstance(owner, arith.IndexCastOp):
        return known_multiple(owner.input, depth + 1)
    if isinstance(owner, arith.MuliOp):
        return known_multiple(owner.lhs, depth + 1) * known_multiple(owner.rhs, depth + 1)
    if isinstance(owner, arith.AddiOp):
        return math.gcd(known_multiple(owner.lhs, depth + 1), known_multiple(owner.rhs, depth + 1))
    if isinstance(owner, arith.ShLIOp):
        shift = owner.rhs.owner
        if isinstance(shift, arith.ConstantOp) and isinstance(shift.value, IntegerAttr) \
                and 0 <= shift.value.value.data < 63:
            return known_multiple(owner.lhs, depth + 1) << shift.value.value.data
    return 1
