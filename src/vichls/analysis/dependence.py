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
as partitioning makes). ``t // N`` and ``t % N`` of the iteration count itself (a
flattened nest's outer and inner variables) are terms of their own, keyed ``(QUOTIENT,
N)`` and ``(PERIOD, N)``; ``iteration_gap`` (at the end) solves the accesses that use them,
within one loop or between two consecutive loops (transforms/fpga/fuse_pipelines.py).
Anything else (a loaded value, another division, a select) makes
the index data-dependent.

For two accesses ``a`` and ``b`` of one memref, ``distance(a, b)`` answers for ``a`` in
iteration ``n`` and ``b`` in iteration ``n + d``:

- ``None``: they never touch the same element (some dimension differs by a constant, or
  the only distance is not an integer, or is beyond the trip count);
- an ``int`` d (possibly 0 or negative): they touch the same element only at that distance
  (or, for accesses under a flattened nest's first- or last-iteration guard, at distances
  from 0 up, of which 0 is the one that constrains a schedule; likewise, where the
  distances form a range on one side of 0, its end nearest 0);
- ``ANY``: possibly at every distance (identical invariant indices, data-dependent
  indices, or different coefficients, which this analysis does not solve).
- ``Every(p)``: possibly at every multiple of ``p`` (0 included): both accesses run only in
  iterations ``t`` with ``t % p == r`` for one ``r`` (a flattened nest's guards).

A 0-d memref (a scalar in a register) has one element: every pair is ``ANY``.

Indices that are all the counters of a flattened triangular band
(transforms/loop/loop_flatten_counters.py: loads of the 0-d memrefs tagged like the loop) differ in
every iteration of that loop, like an induction variable.

Assumes the IR after lower-affine (indices are ``index`` values computed by arith), a
constant step, and that index arithmetic does not overflow (indices stay within array
bounds, which are far below 2^31).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, SSAValue

from vichls.dialects.attributes import FLAT_COUNTERS_ATTR as FLAT_COUNTERS
from vichls.analysis.floor_division import floor_division_of
from vichls.analysis.loop_utils import function_entry

ANY = "any"
#: The key of ``t % N`` in a linear form (a value that repeats every N iterations).
PERIOD = "period"
#: The key of ``t // N`` in a linear form (a flattened nest's outer variable: it steps every
#: N iterations).
QUOTIENT = "quotient"


@dataclass(frozen=True)
class Every:
    """Two accesses that may touch the same element at any multiple of ``period``
    iterations, 0 included (both run only in iterations ``t`` with ``t % period == r``)."""

    period: int



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
        division = _division(value)
        if division is not None and not isinstance(
                owner, (arith.ShRUIOp, arith.DivUIOp, arith.FloorDivSIOp)):
            # remainders and magic quotients (plain quotient ops: the rule further down)
            kind, dividend, divisor = division
            form = self.linear(dividend)
            if form is not None and divisor > 1 and \
                    {key: c for key, c in form.items() if c} == {"n": 1}:
                # t % N of the iteration count (a value that repeats every N iterations),
                # or t // N (one that steps every N)
                return self._atom(PERIOD if kind == "remainder" else QUOTIENT, divisor)
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
            if divisor > 1 and {key: c for key, c in form.items() if c} == {"n": 1}:
                return self._atom(QUOTIENT, divisor)  # t // N of the iteration count
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

    def _atom(self, kind: str, divisor: int) -> dict:
        atom = (kind, divisor)
        self.order.setdefault(atom, len(self.order))
        return {atom: 1}

    def index(self, value: SSAValue) -> LinearIndex | None:
        form = self.linear(value)
        if form is None:
            return None
        symbols = tuple(sorted(((self.order[k], k), c) for k, c in form.items()
                               if k not in ("n", "k") and c != 0))
        return LinearIndex(form.get("n", 0), form.get("k", 0), symbols)


def _division(value: SSAValue) -> tuple[str, SSAValue, int] | None:
    """("quotient" | "remainder", x, N) when ``value`` is ``x // N`` or ``x % N`` by a
    constant: a shift, a mask (N a power of two), an unsigned or floor division, an
    unsigned remainder, or a magic product of transforms/fpga/div_by_constant."""
    division = floor_division_of(value)
    if division is not None:
        return division
    owner = value.owner
    if not isinstance(owner, Operation) or len(owner.operands) != 2 or \
            not isinstance(owner.operands[1].owner, arith.ConstantOp):
        return None
    c = owner.operands[1].owner.value.value.data
    x = owner.operands[0]
    if isinstance(owner, arith.ShRUIOp) and 0 <= c < 63:
        return "quotient", x, 1 << c
    if isinstance(owner, (arith.DivUIOp, arith.FloorDivSIOp)) and c > 0:
        return "quotient", x, c
    if isinstance(owner, arith.AndIOp) and c > 0 and c & (c + 1) == 0:
        return "remainder", x, c + 1
    if isinstance(owner, arith.RemUIOp) and c > 0:
        return "remainder", x, c
    return None


def _periods(index: "LinearIndex") -> list[int]:
    return [key[1] for (_, key), c in index.symbols
            if isinstance(key, tuple) and key[0] == PERIOD and c]


def _steps(index: "LinearIndex") -> bool:
    """Whether the form has a ``t // N`` term (not invariant, not linear in ``t``)."""
    return any(isinstance(key, tuple) and key[0] == QUOTIENT and c
               for (_, key), c in index.symbols)


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
            op.results[0] for op in function_entry(loop).ops
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
            division = _division(v)
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

    def _counter_split(self, value: SSAValue) -> tuple[str, int] | None:
        """("quotient" | "remainder", N) when ``value`` is ``t // N`` or ``t % N`` of
        the loop's own iteration count ``t`` (a flattened nest's outer and inner
        variables), as a shift, a mask, a division or a magic product."""
        division = _division(value)
        while division is None and isinstance(value.owner, arith.IndexCastOp):
            value = value.owner.input
            division = _division(value)
        if division is None:
            return None
        kind, dividend, divisor = division
        form = self.analysis.linear(dividend)
        if form is None or {key: c for key, c in form.items() if c} != {"n": 1}:
            return None
        return kind, divisor

    def _residue(self, access: Operation) -> tuple[int, int] | None:
        """(N, r) when ``access`` runs only in iterations ``t`` with ``t % N == r`` (inside
        an ``scf.if`` on that condition: the guards of a flattened nest)."""
        body = self.analysis.loop.body.block
        op, found = access, None
        while op.parent_block() is not body:
            parent = op.parent_op()
            if parent is None:
                return None
            if isinstance(parent, scf.IfOp) and op.parent_region() is parent.true_region:
                condition = parent.cond.owner
                if isinstance(condition, arith.CmpiOp) and condition.predicate.value.data == 0:
                    for x, c in ((condition.lhs, condition.rhs), (condition.rhs, condition.lhs)):
                        split = self._counter_split(x)
                        if isinstance(c.owner, arith.ConstantOp) and split is not None and \
                                split[0] == "remainder" and 0 <= c.owner.value.value.data < split[1]:
                            found = (split[1], c.owner.value.value.data)
            op = parent
        return found

    def _guarded_distance(self, a: Operation, b: Operation) -> int | None:
        """Two accesses at the same indices, one of them ``t // N``, each running only when
        ``t % N`` is a given residue (``ra``, ``rb``): they meet only inside one block of N
        iterations, at offsets ``ra`` and ``rb``, so only at distance ``rb - ra``. When
        only one of them is guarded so, the other may run at any offset of the block: a
        store-back in its last iteration (``rb = N - 1``) after a load in any, or a load in
        the first (``ra = 0``) before a store in any, meets it at distances 0 .. N - 1,
        and 0 binds. (A flattened nest's ``w[i]``: without this, the store-back and the
        next row's first load look like a recurrence of distance 1.)"""
        blocks = {split[1] for split in map(self._counter_split, a.indices)
                  if split is not None and split[0] == "quotient"}
        ra, rb = self._residue(a), self._residue(b)
        if any(r is not None and r[0] not in blocks for r in (ra, rb)):
            return None
        if ra is not None and rb is not None:
            return rb[1] - ra[1] if ra[0] == rb[0] else None
        # one of them in any iteration: the distances form a range; when none of them is
        # negative, the least (0) is the one that binds a schedule
        if rb is not None and rb[1] == rb[0] - 1:  # b in the last iteration of a block
            return 0
        if ra is not None and ra[1] == 0:  # a in the first one
            return 0
        return None

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
        if list(a.indices) == list(b.indices):
            if self._injective(a.indices):
                return 0  # the same element only in the same iteration
            guarded = self._guarded_distance(a, b)
            if guarded is not None:
                return guarded
        found = self._linear_distance(a, b)
        if found is ANY:  # a flattened nest's t // M and t % M, or a pinned dimension
            gap = iteration_gap(self, a, self, b)
            if gap is None:
                return None
            if gap is not ANY:
                low, high = gap
                if low is not None and low >= 0:
                    return low  # (the least distance binds a schedule)
                if high is not None and high < 0:
                    return high
        if found is ANY:
            ra, rb = self._residue(a), self._residue(b)
            if ra is not None and ra == rb:
                return Every(ra[0])
            period = self._period(a, b)
            if period is not None:
                return Every(period)
        return found

    def _period(self, a: Operation, b: Operation) -> int | None:
        """N when both accesses have the same index forms and one dimension is ``c * (t %
        N) + ...`` (c nonzero, the rest invariant): the element repeats only every N
        iterations (``y[j]`` of a flattened nest: ``j = t % N``)."""
        forms_a, forms_b = self.indices(a), self.indices(b)
        if any(x is None or x != y for x, y in zip(forms_a, forms_b)):
            return None
        periods = [p[0] for p in map(_periods, forms_a) if len(p) == 1]
        if not periods or any(form.coeff or _steps(form) for form in forms_a):
            return None
        return math.lcm(*periods)

    def _linear_distance(self, a: Operation, b: Operation):
        found = ANY
        for ia, ib in zip(self.indices(a), self.indices(b), strict=True):
            if ia is None or ib is None or ia.symbols != ib.symbols or _periods(ia) or \
                    _steps(ia):
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


# -- where two accesses meet, in iterations: flattened nests and pairs of loops -------------
#
# An access of a loop counted by ``t`` (``0 <= t < T``, the variable itself: lower bound 0,
# step 1) whose indices use ``t // M`` and ``t % M`` (a flattened nest: its outer and inner
# variables) is seen over ``q = t // M`` and ``r = t % M``, ``t = M q + r``, with
# ``0 <= q <= ceil(T / M) - 1`` and ``0 <= r <= M - 1``; an access without them over ``q =
# 0`` and ``r = t``. Each dimension of two accesses to one array equates an index of one
# with an index of the other: ``c x + k = c y + k'`` (``x`` one of the first access's
# variables, ``y`` of the second's, or a constant side) links ``x = y + (k' - k) / c`` or
# pins a variable to a value, and a contradiction (a fraction, a pin out of range, two
# links that disagree) means the accesses never meet. The linked variables form classes
# (``v = root + offset``); the iteration difference ``t_b - t_a`` is linear in the roots,
# and each root ranges over the intersection of its members' ranges, so its extremes are
# at the ends of those ranges. Dimensions the links cannot express (a data-dependent index,
# different invariants or coefficients, both variables on one side) make the answer ANY.


def _decompose(deps: "LoopDependences", access: Operation):
    """(M or None, [(cq, cr, const, invariants) per dimension]) of one access, or None
    when a dimension is data-dependent or mixes divisors."""
    divisor, dims = None, []
    for form in deps.indices(access):
        if form is None:
            return None
        atoms, invariants = {}, {}
        for (_, key), c in form.symbols:
            if isinstance(key, tuple):
                atoms[key] = c
            else:
                invariants[key] = c
        for kind, n in atoms:
            if divisor is None:
                divisor = n
            elif n != divisor:
                return None
        dims.append((form, atoms, frozenset(invariants.items())))
    out = []
    for form, atoms, invariants in dims:
        m = divisor or 0
        cq = atoms.get((QUOTIENT, m), 0) + form.coeff * m
        cr = atoms.get((PERIOD, m), 0) + form.coeff
        out.append((cq, cr, form.const, invariants))
    return divisor, out


def _ranges(deps: "LoopDependences", divisor: int | None):
    """The (low, high) ranges of ``q`` and ``r`` (high None: unbounded)."""
    trips = deps.trip_count
    if divisor is None:
        return (0, 0), (0, None if trips is None else trips - 1)
    return (0, None if trips is None else max(0, -(-trips // divisor) - 1)), (0, divisor - 1)


class _Links:
    """Variables equal to a root plus an offset, or pinned to a value (see above)."""

    def __init__(self, count: int):
        self.parent = list(range(count))
        self.offset = [0] * count
        self.pin: dict[int, int] = {}

    def find(self, x: int) -> tuple[int, int]:
        off = 0
        while self.parent[x] != x:
            off += self.offset[x]
            x = self.parent[x]
        return x, off

    def link(self, x: int, y: int, k: int) -> bool:
        """x = y + k; False on a contradiction."""
        (rx, ox), (ry, oy) = self.find(x), self.find(y)
        k = oy + k - ox  # rx = ry + k
        if rx == ry:
            return k == 0
        self.parent[rx], self.offset[rx] = ry, k
        if rx in self.pin:
            value = self.pin.pop(rx) - k
            if self.pin.setdefault(ry, value) != value:
                return False
        return True

    def fix(self, x: int, value: int) -> bool:
        r, o = self.find(x)
        return self.pin.setdefault(r, value - o) == value - o


def iteration_gap(deps_a: "LoopDependences", a: Operation, deps_b: "LoopDependences",
                  b: Operation):
    """The range ``(low, high)`` of ``t_b - t_a`` over the iterations ``t_a`` of ``a``'s
    loop and ``t_b`` of ``b``'s (the same loop or two) in which the two accesses touch one
    element (an end None: unbounded, the loop's trip count unknown); None when they never
    do; ANY when the indices are beyond this analysis. A superset of the true meetings:
    the ends are bounds, not necessarily reached."""
    if not a.indices or len(a.indices) != len(b.indices):
        return ANY
    da, db = _decompose(deps_a, a), _decompose(deps_b, b)
    if da is None or db is None:
        return ANY
    (ma, dims_a), (mb, dims_b) = da, db
    # variables 0, 1: q and r of a; 2, 3: those of b
    links = _Links(4)
    for (qa, ra, ka, ia), (qb, rb, kb, ib) in zip(dims_a, dims_b):
        if ia != ib:
            return ANY
        terms = [(v, c) for v, c in ((0, qa), (1, ra), (2, -qb), (3, -rb)) if c]
        gap = kb - ka  # sum of terms == gap
        if not terms:
            if gap:
                return None
        elif len(terms) == 1:
            (v, c), = terms
            if gap % c or not links.fix(v, gap // c):
                return None
        elif len(terms) == 2 and terms[0][0] < 2 <= terms[1][0] and \
                terms[0][1] == -terms[1][1]:
            (x, c), (y, _) = terms  # c x - c y = gap
            if gap % c or not links.link(x, y, gap // c):
                return None
        else:
            return ANY
    ranges = [*_ranges(deps_a, ma), *_ranges(deps_b, mb)]
    weights = [-(ma or 0), -1, mb or 0, 1]
    roots: dict[int, list] = {}
    for v in range(4):
        root, off = links.find(v)  # v = root + off
        low, high = ranges[v]
        high = math.inf if high is None else high
        entry = roots.setdefault(root, [0, 0, -math.inf, math.inf])  # weight, constant, range
        entry[0] += weights[v]
        entry[1] += weights[v] * off
        entry[2], entry[3] = max(entry[2], low - off), min(entry[3], high - off)
    least = most = 0
    for root, (weight, constant, low, high) in roots.items():
        if root in links.pin:
            if not low <= links.pin[root] <= high:
                return None
            low = high = links.pin[root]
        elif high < low:
            return None
        ends = sorted((weight * low, weight * high)) if weight else (0, 0)
        least, most = least + constant + ends[0], most + constant + ends[1]
    return (None if least == -math.inf else int(least),
            None if most == math.inf else int(most))
