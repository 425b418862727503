"""Loop bounds read as linear forms over index values (a helper of loop_reorder's interchange
of triangular bands).

What: a result of an ``affine.for`` bound map, over the loop's bound operands, becomes a
``Form``: integer coefficients keyed by a value's position in a shared ``Space`` (a numbering
of every index value the forms mention), by a non-linear atom (an ``AffineExpr`` over the
space's dimensions: a ``floordiv``, a ``mod``, a product of two values), or by ``None`` for the
constant term. Forms add and scale exactly, so constraints derived from them (Fourier–Motzkin
elimination) cancel without an expression simplifier; ``divide`` gives the ceiling or floor
of a form divided by a positive integer (exact when every coefficient divides, else a
``ceildiv``/``floordiv`` atom); ``to_map`` turns forms back into one bound map and its
operands.

Assumes bound maps with dimensions only (no symbols), as the front end and the loop passes
make them.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

Form = dict  # None | int (a Space position) | AffineExpr (non-linear atom) -> coefficient


class Space:
    """A numbering of index values: a form's integer keys and an atom's dimensions."""

    def __init__(self) -> None:
        self.values: list[SSAValue] = []

    def dim(self, value: SSAValue) -> int:
        for k, v in enumerate(self.values):
            if v is value:
                return k
        self.values.append(value)
        return len(self.values) - 1


def _linear(e: AffineExpr) -> Form:
    if isinstance(e, AffineConstantExpr):
        return {None: e.value} if e.value else {}
    if isinstance(e, AffineDimExpr):
        return {e.position: 1}
    if isinstance(e, AffineBinaryOpExpr):
        if e.kind == AffineBinaryOpKind.Add:
            return combine(_linear(e.lhs), 1, _linear(e.rhs), 1)
        if e.kind == AffineBinaryOpKind.Mul:
            lhs, rhs = _linear(e.lhs), _linear(e.rhs)
            for factor, other in ((rhs, lhs), (lhs, rhs)):
                if set(factor) <= {None}:
                    return scale(other, factor.get(None, 0))
    return {e: 1}


def form_of(expr: AffineExpr, operands: Sequence[SSAValue], space: Space) -> Form:
    """The form of one bound-map result over its loop's bound operands."""
    dims = [AffineExpr.dimension(space.dim(v)) for v in operands]
    return _linear(expr.replace_dims_and_symbols(dims, []))


def combine(f: Form, a: int, g: Form, b: int) -> Form:
    """``a * f + b * g``."""
    out: Form = {}
    for form, c in ((f, a), (g, b)):
        for k, v in form.items():
            out[k] = out.get(k, 0) + c * v
    return {k: v for k, v in out.items() if v}


def scale(f: Form, c: int) -> Form:
    return combine(f, c, {}, 0)


def in_atom(f: Form, position: int) -> bool:
    """Whether a non-linear atom of ``f`` uses the value at ``position``."""
    return any(isinstance(k, AffineExpr) and position in k.used_dims() for k in f)


def to_expr(f: Form) -> AffineExpr:
    expr = AffineExpr.constant(f.get(None, 0))
    for k, c in sorted(((k, c) for k, c in f.items() if k is not None), key=lambda kc: str(kc[0])):
        term = AffineExpr.dimension(k) if isinstance(k, int) else k
        expr = expr + term * c
    return expr


def divide(f: Form, d: int, ceil: bool) -> Form:
    """``ceil(f / d)`` or ``floor(f / d)`` for ``d > 0``."""
    if all(c % d == 0 for c in f.values()):
        return {k: c // d for k, c in f.items()}
    expr = to_expr(f)
    return {expr.ceil_div(d) if ceil else expr // d: 1}


def constant(f: Form) -> int | None:
    return f.get(None, 0) if set(f) <= {None} else None


def to_map(forms: Sequence[Form], space: Space) -> tuple[AffineMap, list[SSAValue]]:
    """One bound map with a result per form, over the space's values it uses."""
    exprs = [to_expr(f) for f in forms]
    used = sorted(set().union(*(e.used_dims() for e in exprs)))
    renumber = [AffineExpr.dimension(used.index(k)) if k in used else AffineExpr.constant(0)
                for k in range(len(space.values))]
    results = tuple(e.replace_dims_and_symbols(renumber, []) for e in exprs)
    return AffineMap(len(used), 0, results), [space.values[k] for k in used]
