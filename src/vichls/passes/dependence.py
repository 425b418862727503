"""Memory dependence analysis for one loop: which accesses may touch the same element, and
how many iterations apart.

Why: a pipelined loop overlaps iterations, so the modulo scheduler must know every pair of
accesses (one of them a store) that can reach the same memory element in different
iterations, and the distance in iterations between them: an exact distance lets it start
the next iterations as early as the dependence allows (``A[i] = A[i - 2] + x`` carries a
dependence of distance 2, which is twice as loose as distance 1), and an access it cannot
analyse must be assumed to depend at every distance.

What: an index is analysed as ``coeff * n + const + symbolic`` where ``n`` counts the
loop's iterations (``iv = lb + n * step``), ``symbolic`` is a linear combination of values
defined outside the loop (loop invariants: outer induction variables, parameters) and
``coeff``/``const`` are integers. It is built from the induction variable, constants,
invariants, ``addi``/``subi``, ``muli`` by a constant and sign-preserving casts. Anything
else (a loaded value, a division, a select) makes the index data-dependent.

For two accesses ``a`` and ``b`` of one memref, ``distance(a, b)`` answers for ``a`` in
iteration ``n`` and ``b`` in iteration ``n + d``:

- ``None``: they never touch the same element (some dimension differs by a constant, or
  the only distance is not an integer, or is beyond the trip count);
- an ``int`` d (possibly 0 or negative): they touch the same element only at that distance;
- ``ANY``: possibly at every distance (identical invariant indices, data-dependent
  indices, or different coefficients, which this analysis does not solve).

A 0-d memref (a scalar in a register) has one element: every pair is ``ANY``.

Assumes the IR after lower-affine (indices are ``index`` values computed by arith), a
constant step, and that index arithmetic does not overflow (indices stay within array
bounds, which are far below 2^31).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, SSAValue

ANY = "any"


@dataclass(frozen=True)
class LinearIndex:
    coeff: int  # per iteration of the analysed loop
    const: int
    symbols: tuple  # sorted ((id, value), coefficient) pairs of loop invariants


class _Analysis:
    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.iv = loop.body.block.args[0]
        step = loop.step.owner
        self.step = step.value.value.data if isinstance(step, arith.ConstantOp) else None
        self.cache: dict[SSAValue, dict | None] = {}
        self.order = {}  # a stable key for symbols: position of first sight

    def inside(self, value: SSAValue) -> bool:
        owner = value.owner
        op = owner.parent_op() if isinstance(owner, Block) else owner
        while op is not None:
            if op is self.loop:
                return True
            op = op.parent_op()
        return False

    def linear(self, value: SSAValue) -> dict | None:
        """{"n": c, "k": const, value: coeff...} or None when data-dependent."""
        if value in self.cache:
            return self.cache[value]
        self.cache[value] = None  # guards against cycles (none in SSA, but cheap)
        self.cache[value] = result = self._linear(value)
        return result

    def _linear(self, value: SSAValue) -> dict | None:
        owner = value.owner
        if value is self.iv:
            if self.step is None:
                return None
            return {"n": self.step, "k": 0}  # the lower bound is an invariant offset...
        if isinstance(owner, arith.ConstantOp):
            return {"k": owner.value.value.data}
        if not self.inside(value):
            self.order.setdefault(value, len(self.order))
            return {value: 1}
        if isinstance(owner, (arith.AddiOp, arith.SubiOp)):
            a, b = self.linear(owner.lhs), self.linear(owner.rhs)
            if a is None or b is None:
                return None
            sign = 1 if isinstance(owner, arith.AddiOp) else -1
            out = dict(a)
            for key, c in b.items():
                out[key] = out.get(key, 0) + sign * c
            return out
        if isinstance(owner, arith.MuliOp):
            a, b = self.linear(owner.lhs), self.linear(owner.rhs)
            if a is None or b is None:
                return None
            for x, y in ((a, b), (b, a)):
                if set(y) <= {"k"}:
                    factor = y.get("k", 0)
                    return {key: c * factor for key, c in x.items()}
            return None
        if owner is not None and getattr(owner, "name", "") in ("arith.index_cast", "arith.extsi"):
            return self.linear(owner.operands[0])
        return None

    def index(self, value: SSAValue) -> LinearIndex | None:
        form = self.linear(value)
        if form is None:
            return None
        symbols = tuple(sorted(((self.order[k], k), c) for k, c in form.items()
                               if k not in ("n", "k") and c != 0))
        return LinearIndex(form.get("n", 0), form.get("k", 0), symbols)


class LoopDependences:
    """Dependence queries for the accesses in one loop's body (see the module doc)."""

    def __init__(self, loop: scf.ForOp, trip_count: int | None = None):
        self.analysis = _Analysis(loop)
        self.trip_count = trip_count

    def indices(self, access: Operation) -> list[LinearIndex | None]:
        return [self.analysis.index(v) for v in access.indices]

    def distance(self, a: Operation, b: Operation):
        assert isinstance(a, (memref.LoadOp, memref.StoreOp))
        assert a.memref is b.memref
        if not a.indices:
            return ANY
        found = ANY
        for ia, ib in zip(self.indices(a), self.indices(b), strict=True):
            if ia is None or ib is None or ia.symbols != ib.symbols:
                continue  # this dimension may match at any distance
            if ia.coeff != ib.coeff:
                continue  # not solved here: assume it may match at any distance
            gap = ia.const - ib.const  # coeff * d == gap
            if ia.coeff == 0:
                if gap != 0:
                    return None  # this dimension never matches
                continue
            if gap % ia.coeff:
                return None
            d = gap // ia.coeff
            if self.trip_count is not None and abs(d) >= self.trip_count:
                return None
            if found is not ANY and found != d:
                return None
            found = d
        return found
