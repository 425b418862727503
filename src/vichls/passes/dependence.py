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
invariants, ``addi``/``subi``, ``muli`` by a constant, sign-preserving casts and divisions
by a constant that divide every coefficient exactly (``i // F`` of an ``i`` stepping by F,
as partitioning makes). Anything else (a loaded value, another division, a select) makes
the index data-dependent.

For two accesses ``a`` and ``b`` of one memref, ``distance(a, b)`` answers for ``a`` in
iteration ``n`` and ``b`` in iteration ``n + d``:

- ``None``: they never touch the same element (some dimension differs by a constant, or
  the only distance is not an integer, or is beyond the trip count);
- an ``int`` d (possibly 0 or negative): they touch the same element only at that distance;
- ``ANY``: possibly at every distance (identical invariant indices, data-dependent
  indices, or different coefficients, which this analysis does not solve).

A 0-d memref (a scalar in a register) has one element: every pair is ``ANY``.

Indices that are all the counters of a flattened triangular band
(passes/loop_flatten_counters.py: loads of the 0-d memrefs tagged like the loop) differ in
every iteration of that loop, like an induction variable.

Assumes the IR after lower-affine (indices are ``index`` values computed by arith), a
constant step, and that index arithmetic does not overflow (indices stay within array
bounds, which are far below 2^31).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, SSAValue

from vichls.passes.div_by_constant import floor_division_of

ANY = "any"
FLAT_COUNTERS = "vichls.flat_counters"  # (passes/loop_flatten_counters.py)


def _function_entry(op: Operation) -> Block:
    while op.parent_op() is not None and not op.parent_op().name == "func.func":
        op = op.parent_op()
    return op.parent_op().body.blocks[0]


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
            lower = self.linear(self.loop.lb)  # an invariant: a constant or a symbol
            if lower is None:
                return None
            out = dict(lower)
            out["n"] = out.get("n", 0) + self.step
            return out
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
        division = floor_division_of(value)
        if division is not None:
            kind, dividend, divisor = division
            form = self.linear(dividend)
            if form is None or any(c % divisor for key, c in form.items() if key != "k"):
                return None
            if kind == "remainder":
                return {"k": form.get("k", 0) % divisor}
            return {key: (c // divisor) for key, c in form.items()}
        if owner is not None and getattr(owner, "name", "") in ("arith.index_cast", "arith.extsi"):
            return self.linear(owner.operands[0])
        if isinstance(owner, arith.TruncIOp) and _counter_value(owner.operands[0]):
            # a loop variable fits its type: the front end counts in i64 only so that
            # computing the bounds cannot overflow
            return self.linear(owner.operands[0])
        if isinstance(owner, (arith.FloorDivSIOp, arith.CeilDivSIOp, arith.DivSIOp,
                              arith.DivUIOp, arith.ShRUIOp, arith.ShRSIOp)):
            # an exact division by a constant (what partitioning makes of i // F when i
            # steps by F) stays linear
            form, k = self.linear(owner.lhs), owner.rhs.owner
            if form is None or not isinstance(k, arith.ConstantOp):
                return None
            divisor = k.value.value.data
            if isinstance(owner, (arith.ShRUIOp, arith.ShRSIOp)):
                divisor = 1 << divisor if 0 <= divisor < 63 else 0
            if divisor <= 0 or any(c % divisor for key, c in form.items() if key != "k"):
                return None
            if isinstance(owner, (arith.DivUIOp, arith.ShRUIOp)) and form.get("k", 0) < 0:
                return None
            if form.get("k", 0) % divisor and not isinstance(
                    owner, (arith.FloorDivSIOp, arith.ShRSIOp)):
                return None  # (truncating or unsigned: exact divisions only)
            # floor((d X + c) / d) = X + floor(c / d) for an integer X
            return {key: c // divisor for key, c in form.items()}
        return None

    def index(self, value: SSAValue) -> LinearIndex | None:
        form = self.linear(value)
        if form is None:
            return None
        symbols = tuple(sorted(((self.order[k], k), c) for k, c in form.items()
                               if k not in ("n", "k") and c != 0))
        return LinearIndex(form.get("n", 0), form.get("k", 0), symbols)


def _counter_value(value: SSAValue) -> bool:
    """The front end's i64 loop counter, or ``start + counter * step`` (a downward loop)."""
    def is_counter(v):
        return isinstance(v.owner, Block) and isinstance(v.owner.parent_op(), scf.ForOp)

    if is_counter(value):
        return True
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        for term in (owner.lhs, owner.rhs):
            if isinstance(term.owner, arith.MuliOp) and any(
                    is_counter(x) for x in term.owner.operands):
                return True
    return False


class LoopDependences:
    """Dependence queries for the accesses in one loop's body (see the module doc)."""

    def __init__(self, loop: scf.ForOp, trip_count: int | None = None):
        self.analysis = _Analysis(loop)
        self.trip_count = trip_count
        # the registers of the flattened band this loop steps, if any (read once: the
        # distance queries come for every pair of accesses)
        group = loop.attributes.get(FLAT_COUNTERS)
        self.flat_counters = set() if group is None else {
            op.results[0] for op in _function_entry(loop).ops
            if isinstance(op, memref.AllocaOp) and op.attributes.get(FLAT_COUNTERS) == group}

    def indices(self, access: Operation) -> list[LinearIndex | None]:
        return [self.analysis.index(v) for v in access.indices]

    def _injective(self, indices) -> bool:
        """Whether these index values, together, differ between any two iterations: one
        of them moves linearly with the iteration, or two are the quotient and the
        remainder of one moving value by one constant (a flattened nest's i and j)."""
        for v in indices:
            form = self.analysis.index(v)
            if form is not None and form.coeff != 0:
                return True
        if self._all_flat_counters(indices):
            return True
        split: dict = {}
        for v in indices:
            owner = v.owner
            if not isinstance(owner, Operation) or len(owner.operands) != 2:
                continue
            k = owner.operands[1].owner
            if not isinstance(k, arith.ConstantOp):
                continue
            c = k.value.value.data
            if isinstance(owner, arith.ShRUIOp) and 0 <= c < 63:
                split.setdefault(owner.operands[0], set()).add(("quotient", 1 << c))
            elif isinstance(owner, (arith.DivUIOp, arith.FloorDivSIOp)) and c > 0:
                split.setdefault(owner.operands[0], set()).add(("quotient", c))
            elif isinstance(owner, arith.AndIOp) and c > 0 and c & (c + 1) == 0:
                split.setdefault(owner.operands[0], set()).add(("remainder", c + 1))
            elif isinstance(owner, arith.RemUIOp) and c > 0:
                split.setdefault(owner.operands[0], set()).add(("remainder", c))
        for v in indices:  # the magic-product forms (passes/div_by_constant.py)
            division = floor_division_of(v)
            if division is not None:
                kind, dividend, divisor = division
                split.setdefault(dividend, set()).add((kind, divisor))
        for value, parts in split.items():
            for _, c in parts:
                if {("quotient", c), ("remainder", c)} <= parts:
                    form = self.analysis.index(value)
                    if form is not None and form.coeff != 0:
                        return True
        return False

    def _all_flat_counters(self, indices) -> bool:
        counters = self.flat_counters
        if not counters:
            return False
        block = self.analysis.loop.body.block
        seen = set()
        for v in indices:
            if isinstance(v.owner, arith.IndexCastOp):
                v = v.owner.input
            load = v.owner
            if (isinstance(load, memref.LoadOp) and load.parent_block() is block
                    and load.memref in counters):
                seen.add(load.memref)
        return bool(counters) and seen == counters

    def distance(self, a: Operation, b: Operation):
        assert isinstance(a, (memref.LoadOp, memref.StoreOp))
        assert a.memref is b.memref
        if not a.indices:
            return ANY
        if list(a.indices) == list(b.indices) and self._injective(a.indices):
            return 0  # the same element only in the same iteration
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
