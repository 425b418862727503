"""Reorder (interchange) the loops of a perfectly nested band of ``affine.for`` loops whose
bounds are constants or affine in values defined outside the band.

Why: the loop order decides which loop is innermost (the one a pipeline or an unroll
works on) and the order of memory accesses; e.g. gemm's ``k, j`` order gives a reduction
over ``k`` in the innermost loop when swapped.

What: the band's loop headers (bounds, step, name, label, induction variable) are permuted
and the innermost body moved under the new innermost loop. Pure ``arith`` ops between the
loops (index casts of induction variables) are first sunk into the innermost body.

Legality (the Python call fixes the order of every memory effect, so a reorder must not
change any result): the pass refuses unless, for every memref stored to in the band, every
access to it in the band is an affine access with one and the same map and operands, and
the loops of the band whose induction variables that map does not use keep their relative
order. Two iterations then touch the same element only when they agree on the used
variables, and their relative order is decided by the unused ones, whose order is kept.
Reads of memrefs the band does not write are free. A memref whose only accesses are one
read-modify-write of one element with a commutative, associative wrapping operation
(``+= *= &= |= ^=``) may be updated in any order: integer reductions reorder freely. Calls
are refused (unknown effects). The argument holds for any iteration space, box or not.

Triangular bands (a loop's bounds use another band loop's variable): the iteration space is
not a box, so the headers cannot just be exchanged. The permutation is done as a sequence of
exchanges of adjacent loops; an exchange where the inner loop's bounds use the outer loop's
variable ``p`` rewrites both loops' bounds by Fourier–Motzkin elimination. Every bound is a
constraint ``a*p + b*q + rest >= 0``; the new inner loop ``p`` keeps every constraint that
mentions ``p`` (its bounds are the max of the lower and the min of the upper ones, with a
ceiling or floor division when ``|a| > 1``), and the new outer loop ``q`` gets the
constraints without ``p`` plus one per pair of a lower and an upper bound of ``p``. The
pairs imply nothing new, so the iteration space is exactly the same set; when the
coefficients are not all ±1 the outer range may hold values for which ``p`` runs no
iterations, which is harmless. Redundant bounds (a constant one dominated by another over
the known ranges of the variables) are dropped. Exchanges of this kind need both steps to be
1 and ``p`` to appear linearly in the inner bounds; otherwise the pass refuses.

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass

from vichls.analysis import linear_bounds as lb
from vichls.analysis.loop_names import answers_to, find_bands, on_named_loops
from vichls.analysis.loop_utils import LoopTransformError, constant_bounds, defined_inside
from vichls.analysis.loop_utils import loop_display_name, set_bounds, sink_pure_ops


def _accessed_memref(op: Operation) -> tuple[SSAValue, bool] | None:
    """(memref, is_store) of a memory access, else None."""
    if isinstance(op, (affine.LoadOp, memref.LoadOp)):
        return op.memref, False
    if isinstance(op, (affine.StoreOp, memref.StoreOp)):
        return op.memref, True
    return None


_COMMUTATIVE = (arith.AddiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp)


def _single_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _is_commutative_update(ops: list[Operation]) -> bool:
    """Whether the only accesses to a memref are ``x = load e; store (x op y), e`` on one
    element, with ``op`` commutative and associative in wrapping arithmetic (add, mul, and,
    or, xor; widened and truncated back is the same): such updates give the same result in
    any order, as long as nothing else reads the element inside the nest."""
    if len(ops) != 2:
        return False
    load, store = ops
    if not (isinstance(load, (affine.LoadOp, memref.LoadOp))
            and isinstance(store, (affine.StoreOp, memref.StoreOp))):
        return False
    if load.parent_block() is not store.parent_block() or list(load.indices) != list(
            store.indices) or getattr(load, "map", None) != getattr(store, "map", None):
        return False
    value = load.results[0]
    user = _single_user(value)
    if isinstance(user, (arith.ExtSIOp, arith.ExtUIOp)):
        value, user = user.results[0], _single_user(user.results[0])
    if not isinstance(user, _COMMUTATIVE) or value not in user.operands:
        return False
    other = [v for v in user.operands if v is not value]
    if len(other) != 1:  # x op x: the element read twice
        return False
    result = user.results[0]
    after = _single_user(result)
    if isinstance(after, arith.TruncIOp):
        result, after = after.results[0], _single_user(after.results[0])
    return after is store and store.value is result


def _check_legal(band: Sequence[affine.ForOp], order: Sequence[int]) -> None:
    ivs = [loop.body.block.args[0] for loop in band]
    accesses: dict[SSAValue, list[Operation]] = {}
    stored: set[SSAValue] = set()
    for op in band[-1].walk():
        if isinstance(op, func.CallOp):
            raise LoopTransformError(f"the nest calls '{op.callee.string_value()}', whose "
                                     "memory effects the reorder cannot see")
        found = _accessed_memref(op)
        if found is None:
            continue
        ref, is_store = found
        accesses.setdefault(ref, []).append(op)
        if is_store:
            stored.add(ref)
    for ref in stored:
        ops = accesses[ref]
        first = ops[0]
        name = ref.name_hint or "a local variable"
        if _is_commutative_update(ops):
            continue
        if not all(isinstance(op, (affine.LoadOp, affine.StoreOp)) for op in ops) or any(
                op.map != first.map or list(op.indices) != list(first.indices) for op in ops):
            raise LoopTransformError(
                f"it could change the result: '{name}' is written in the nest and not always "
                "at the same affine index")
        used = {v for k, v in enumerate(first.indices) if k in first.map.data.used_dims()}
        unused = [k for k, iv in enumerate(ivs) if iv not in used]
        kept = [k for k in order if k in unused]
        if kept != unused:
            names = ", ".join(loop_display_name(band[k]) for k in unused)
            raise LoopTransformError(
                f"it could change the result: the elements of '{name}' written in the nest "
                f"are updated in the order of loops {names}, which the new order changes")


def reorder_band(band: Sequence[affine.ForOp], order: Sequence[int]) -> list[affine.ForOp]:
    """Reorder the perfect band ``band`` (outermost first) so that the new k-th loop is
    ``band[order[k]]``'s header. Returns the new band, outermost first."""
    if sorted(order) != list(range(len(band))):
        raise LoopTransformError("the order is not a permutation of the nest's loops")
    for loop in band:
        if not isinstance(loop, affine.ForOp) or loop.results:
            raise LoopTransformError(f"loop '{loop_display_name(loop)}' is not an affine.for")
    if list(order) == list(range(len(band))):
        return list(band)
    _check_legal(band, order)
    sink_pure_ops(list(band))
    triangular = any(defined_inside(v, other) for loop in band for other in band
                     for v in loop.operands)
    if not triangular:
        _permute_headers(band, order)
        return list(band)
    # one adjacent exchange at a time, bringing each loop of the new order into place
    current = list(range(len(band)))
    for position, wanted in enumerate(order):
        k = current.index(wanted)
        while k > position:
            _exchange(band[k - 1], band[k])
            current[k - 1], current[k] = current[k], current[k - 1]
            k -= 1
    return list(band)


def _permute_headers(band: Sequence[affine.ForOp], order: Sequence[int]) -> None:
    """Swap headers in place: the ops stay, their bounds (maps and operands, all defined
    outside the band), steps, attributes and induction variables move. Fresh block
    arguments avoid aliasing during the exchange."""
    headers = [(dict(loop.properties), dict(loop.attributes), loop.body.block.args[0],
                list(loop.operands)) for loop in band]
    new_ivs = []
    for loop, src in zip(band, order):
        props, attrs, old_iv, operands = headers[src]
        loop.operands = operands
        loop.properties.update(props)
        loop.attributes.clear()
        loop.attributes.update(attrs)
        block = loop.body.block
        new_iv = block.insert_arg(old_iv.type, 1)
        new_iv.name_hint = old_iv.name_hint
        new_ivs.append((old_iv, new_iv))
    for old_iv, new_iv in new_ivs:
        old_iv.replace_all_uses_with(new_iv)
    for loop in band:
        loop.body.block.erase_arg(loop.body.block.args[0])
    # Locations follow the headers too.
    locations = [band[src].location for src in order]
    for loop, loc in zip(band, locations):
        loop.location = loc


def _exchange(outer: affine.ForOp, inner: affine.ForOp) -> None:
    """Exchange two adjacent loops of a perfect band; the inner one's bounds may use the
    outer one's variable (see the module doc)."""
    p, q = outer.body.block.args[0], inner.body.block.args[0]
    if p not in list(inner.operands):
        _permute_headers([outer, inner], [1, 0])
        return
    names = loop_display_name(outer), loop_display_name(inner)
    if outer.step.value.data != 1 or inner.step.value.data != 1:
        raise LoopTransformError(
            f"loops '{names[0]}' and '{names[1]}' form a triangle and one of them has a step "
            "other than 1: their bounds cannot be exchanged")
    space = lb.Space()
    P, Q = space.dim(p), space.dim(q)
    constraints = _constraints(outer, space) + _constraints(inner, space)  # each one >= 0
    facts = []  # what the loops around the pair guarantee
    around = outer.parent_op()
    while isinstance(around, affine.ForOp):
        facts += _constraints(around, space, strict=False)
        around = around.parent_op()
    for c in constraints:
        if lb.in_atom(c, P):
            raise LoopTransformError(
                f"the bounds of loop '{names[1]}' are not linear in '{names[0]}': the "
                "exchange cannot rewrite them")
    with_p = [c for c in constraints if c.get(P)]
    without_p = [c for c in constraints if not c.get(P)]
    lows_p = [c for c in with_p if c[P] > 0]
    highs_p = [c for c in with_p if c[P] < 0]
    eliminated = without_p + [lb.combine(a, -b[P], b, a[P]) for a in lows_p for b in highs_p]
    q_lower, q_upper = _bounds_on(Q, eliminated)
    if not q_lower or not q_upper:
        raise LoopTransformError(f"loop '{names[1]}' would have no bound once outermost")
    ranges = _known_ranges(space, P, Q)
    q_lower, q_upper = (_prune(q_lower, True, ranges, facts),
                        _prune(q_upper, False, ranges, facts))
    low = [lb.constant(f) for f in q_lower]
    high = [lb.constant(f) for f in q_upper]
    if None not in low and None not in high:
        ranges[Q] = (max(low), min(high) - 1)
    p_lower, p_upper = _bounds_on(P, with_p)
    facts += eliminated
    p_lower, p_upper = (_prune(p_lower, True, ranges, facts),
                        _prune(p_upper, False, ranges, facts))
    outer_maps = lb.to_map(q_lower, space), lb.to_map(q_upper, space)
    inner_maps = lb.to_map(p_lower, space), lb.to_map(p_upper, space)
    _permute_headers([outer, inner], [1, 0])
    new_q, new_p = outer.body.block.args[0], inner.body.block.args[0]

    def renamed(operands):
        return [new_q if v is q else new_p if v is p else v for v in operands]

    for loop, ((lower, lower_ops), (upper, upper_ops)) in ((outer, outer_maps),
                                                           (inner, inner_maps)):
        set_bounds(loop, lower, renamed(lower_ops), upper, renamed(upper_ops))


def _constraints(loop: affine.ForOp, space: lb.Space, strict: bool = True) -> list[lb.Form]:
    """The loop's bounds as forms that are >= 0: ``iv - lower`` and ``upper - 1 - iv``.
    Bounds with symbols are refused (``strict``) or skipped."""
    position = space.dim(loop.body.block.args[0])
    found = []
    for amap, operands, is_lower in (
            (loop.lowerBoundMap.data, loop.lowerBoundOperands, True),
            (loop.upperBoundMap.data, loop.upperBoundOperands, False)):
        if amap.num_symbols:
            if not strict:
                continue
            raise LoopTransformError(f"the bounds of loop '{loop_display_name(loop)}' "
                                     "use symbols, which the exchange does not read")
        for expr in amap.results:
            f = lb.form_of(expr, list(operands), space)
            if is_lower:
                found.append(lb.combine({position: 1}, 1, f, -1))
            else:
                found.append(lb.combine(f, 1, {position: 1, None: 1}, -1))
    return found


def _bounds_on(position: int, constraints: list[lb.Form]) -> tuple[list, list]:
    """The lower bounds (inclusive) and upper bounds (exclusive) the constraints put on the
    value at ``position``: ``a*x + rest >= 0`` is ``x >= ceil(-rest / a)`` for ``a > 0`` and
    ``x < floor(rest / -a) + 1`` for ``a < 0``."""
    lower, upper = [], []
    for c in constraints:
        a = c.get(position, 0)
        rest = {k: v for k, v in c.items() if k != position}
        if a > 0:
            lower.append(lb.divide(lb.scale(rest, -1), a, ceil=True))
        elif a < 0:
            upper.append(lb.combine(lb.divide(rest, -a, ceil=False), 1, {None: 1}, 1))
    return lower, upper


def _known_ranges(space: lb.Space, *skip: int) -> dict[int, tuple[int, int]]:
    """The value ranges of the space's values that are counters of loops with constant
    bounds (the loops around the band)."""
    ranges = {}
    for k, v in enumerate(space.values):
        owner = v.owner
        loop = owner.parent_op() if hasattr(owner, "parent_op") else None
        if k in skip or not isinstance(loop, affine.ForOp) or v is not loop.body.block.args[0]:
            continue
        bounds = constant_bounds(loop)
        if bounds is not None and bounds.trip_count:
            ranges[k] = (bounds.lower, bounds.lower + (bounds.trip_count - 1) * bounds.step)
    return ranges


def _interval(e: AffineExpr, ranges: dict) -> tuple[int, int] | None:
    """The values an atom takes over the known ranges (interval arithmetic; divisions by a
    positive constant are monotonic), None when it uses another value."""
    if isinstance(e, AffineConstantExpr):
        return e.value, e.value
    if isinstance(e, AffineDimExpr):
        return ranges.get(e.position)
    if not isinstance(e, AffineBinaryOpExpr):
        return None
    a = _interval(e.lhs, ranges)
    b = _interval(e.rhs, ranges)
    if a is None or b is None:
        return None
    if e.kind == AffineBinaryOpKind.Add:
        return a[0] + b[0], a[1] + b[1]
    if e.kind == AffineBinaryOpKind.Mul:
        corners = [x * y for x in a for y in b]
        return min(corners), max(corners)
    if b[0] != b[1] or b[0] <= 0:
        return None
    d = b[0]
    if e.kind == AffineBinaryOpKind.FloorDiv:
        return a[0] // d, a[1] // d
    if e.kind == AffineBinaryOpKind.CeilDiv:
        return -(-a[0] // d), -(-a[1] // d)
    return 0, d - 1  # mod


def _minimum(f: lb.Form, ranges: dict) -> int | None:
    """The least value of ``f`` over the known ranges, None when it depends on others."""
    total = f.get(None, 0)
    for k, c in f.items():
        if k is None:
            continue
        span = _interval(k, ranges) if isinstance(k, AffineExpr) else ranges.get(k)
        if span is None:
            return None
        total += c * (span[0] if c > 0 else span[1])
    return total


def _never_negative(f: lb.Form, ranges: dict, facts: list[lb.Form]) -> bool:
    """Whether ``f >= 0`` always: over the known ranges, or as a fact plus something that
    is never negative over them."""
    for rest in [f] + [lb.combine(f, 1, fact, -1) for fact in facts]:
        least = _minimum(rest, ranges)
        if least is not None and least >= 0:
            return True
    return False


def _prune(forms: list[lb.Form], lower: bool, ranges: dict,
           facts: list[lb.Form]) -> list[lb.Form]:
    """Drop duplicate bounds and bounds another one always dominates (a lower bound never
    above another, an upper bound never below another)."""
    kept: list[lb.Form] = []
    for f in forms:
        if f not in kept:
            kept.append(f)
    changed = True
    while changed:
        changed = False
        for f in kept:
            for g in kept:
                if g is f:
                    continue
                gap = lb.combine(g, 1, f, -1) if lower else lb.combine(f, 1, g, -1)
                if _never_negative(gap, ranges, facts):
                    kept.remove(f)
                    changed = True
                    break
            if changed:
                break
    return kept


def reorder_named(function: Operation, names: Sequence[str]) -> None:
    """Reorder every perfect band of the loops ``names`` (analysis/loop_names.py) into
    that order, outermost first."""
    names = tuple(names)
    for band in find_bands(function, names, in_order=False):
        current = [next(n for n in names if answers_to(op, n)) for op in band]
        reorder_band(band, [current.index(n) for n in names])


@dataclass(frozen=True)
class LoopReorderPass(ModulePass):
    """``loop-reorder{loops=k,i}``: the reorder directive on IR text; the band's loops in
    their new order, outermost first, each named by its induction variable or label."""

    name = "loop-reorder"
    loops: tuple[str, ...]
    kernel: str = ""  # the kernel whose loops these are (default: the top)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        on_named_loops(op, lambda f: reorder_named(f, self.loops), self.kernel)
