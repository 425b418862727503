"""The design space of a kernel: which directives a point sets, and the moves between points.

What: ``Space(kernel)`` reads the kernel's checked tree once and finds its loops (named by
the path of loop variables from the top, "i/k/j", the names ``customize(k)`` understands),
their constant trip counts, and the array dimensions each loop variable indexes directly
(``A[i, j + 1]``: loop j indexes dimension 2 of A). A ``Point`` is a choice of knobs:

- an unroll factor per loop with a constant trip count (divisors of the trip count; for
  loops of one name with different constant trip counts, divisors of any of them, the
  others keeping their remaining iterations as copies), or with bounds affine in outer
  loop variables (1, 2, 4, 8: a triangle is unrolled by a factor, its remainder in a loop);
- a tile size per innermost loop that is not unrolled (divisors of the trip count);
- the loops to pipeline with ii=1 (an innermost loop, or the loop right above one), only
  when the back end supports pipelining (``Space(..., pipeline=False)`` leaves them out);
- a layout per array: "cyclic" (default), "block" or "none", and which dimension.

Partition factors are not knobs of their own: as in ScaleHLS they follow from the unroll
factors (a loop inside a pipelined loop counts as fully unrolled, where no rolled loop
indexes the same dimension), so the array an unrolled loop indexes gets as many banks as the
loop has copies
(on the dimension that loop indexes; one partition per array, the largest factor wins
unless the layout names a dimension). ``directives(point)`` turns a point into the plain
directive calls (method, args, kwargs) that ``vichls.customize`` records, and
``python_of`` spells them as Python to paste into a kernel file.

Parallelism is bounded first (ScaleHLS): the product of the unroll factors along any
nesting path stays at most ``max_parallel``. ``seeds()`` gives a structured first sample
and ``neighbours(point)`` the points one knob away, which the search walks from the
Pareto frontier.

Assumes: loops named by a path shared by several loops (two sibling ``for j`` in one
``for i``) are one knob, as a directive on that name applies to each of them; while loops
and loops with other non-constant bounds are not unrolled or tiled (they may be
pipelined).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from vichls.frontend import tree as T

LAYOUT_KINDS = ("cyclic", "block", "none")
TRIANGLE_FACTORS = (1, 2, 4, 8)  # unroll factors of a loop whose trip count varies


@dataclass
class LoopKnob:
    """Every loop sharing one path name; a directive on the name applies to each."""

    path: str  # "i/k/j"
    depth: int  # 1 for a top-level loop
    parent: str | None  # the path of the enclosing loop knob, if any
    trip: int | None  # the constant trip count shared by every loop of this name, or None
    innermost: bool  # no loop inside any of them
    pipelinable: bool = True  # no while loop, break, continue or return inside
    #: bounds affine in outer loop variables (a triangle): unrolled by a factor only
    affine_bounds: bool = False
    # (array, dim) pairs this loop's variable indexes directly (dim counts from 1)
    indexes: set[tuple[str, int]] = field(default_factory=set)
    #: the constant trip counts of the loops of this name when they differ (``range(NI)``
    #: in one nest, ``range(NJ)`` in the next); empty when one is not constant
    trips: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Point:
    """One design: the knob settings, each a sorted tuple so that points compare and hash."""

    unroll: tuple[tuple[str, int], ...] = ()  # (loop path, factor > 1)
    tile: tuple[tuple[str, int], ...] = ()  # (loop path, size)
    pipeline: tuple[str, ...] = ()  # loop paths
    layout: tuple[tuple[str, str, int], ...] = ()  # (array, kind, dim or 0 = automatic)

    def with_unroll(self, path: str, factor: int) -> "Point":
        rest = dict(self.unroll)
        rest.pop(path, None)
        if factor > 1:
            rest[path] = factor
        return replace(self, unroll=tuple(sorted(rest.items())))

    def with_tile(self, path: str, size: int) -> "Point":
        rest = dict(self.tile)
        rest.pop(path, None)
        if size > 1:
            rest[path] = size
        return replace(self, tile=tuple(sorted(rest.items())))

    def with_pipeline(self, paths) -> "Point":
        return replace(self, pipeline=tuple(sorted(set(paths))))

    def with_layout(self, array: str, kind: str, dim: int) -> "Point":
        rest = {a: (k, d) for a, k, d in self.layout}
        rest[array] = (kind, dim)
        if (kind, dim) == ("cyclic", 0):
            del rest[array]  # the default
        return replace(self, layout=tuple(sorted((a, k, d) for a, (k, d) in rest.items())))

    def describe(self) -> str:
        parts = [f"unroll {p}×{f}" for p, f in self.unroll]
        parts += [f"tile {p}:{s}" for p, s in self.tile]
        parts += [f"pipeline {p}" for p in self.pipeline]
        parts += [f"{a} {k}" + (f" dim {d}" if d else "") for a, k, d in self.layout]
        return ", ".join(parts) or "no directives"


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _constant(e: T.Expr) -> int | None:
    while isinstance(e, T.Convert):
        e = e.arg
    return e.value if isinstance(e, T.Const) else None


def _affine_in_loops(e: T.Expr) -> bool:
    """Whether the front end can make ``e`` an affine bound: constants and loop variables
    under +, - and multiplication by a constant. (It also checks that the values fit in
    32 bits; a bound that does not is a point that fails to build, nothing worse.)"""
    while isinstance(e, T.Convert):
        e = e.arg
    if isinstance(e, T.Const):
        return True
    if isinstance(e, T.Read):
        return e.sym.kind == "loopvar"
    if isinstance(e, T.Binary) and e.op in ("add", "sub", "mul"):
        if e.op == "mul" and _constant(e.lhs) is None and _constant(e.rhs) is None:
            return False
        return _affine_in_loops(e.lhs) and _affine_in_loops(e.rhs)
    return False


def _direct_var(e: T.Expr) -> T.Sym | None:
    """The loop variable ``v`` when ``e`` is ``v``, ``v + c`` or ``v - c`` (so consecutive
    iterations touch consecutive elements), else None."""
    while isinstance(e, T.Convert):
        e = e.arg
    if isinstance(e, T.Read) and e.sym.kind == "loopvar":
        return e.sym
    if isinstance(e, T.Binary) and e.op in ("add", "sub"):
        lhs, rhs = e.lhs, e.rhs
        if _constant(rhs) is not None:
            return _direct_var(lhs)
        if e.op == "add" and _constant(lhs) is not None:
            return _direct_var(rhs)
    return None


def _nested(stmts: list[T.Stmt], into_loops: bool):
    """Every statement under ``stmts``, entering loop bodies only if ``into_loops``."""
    for s in stmts:
        yield s
        bodies = [getattr(s, "then", None), getattr(s, "orelse", None)]
        if into_loops or not isinstance(s, (T.For, T.While)):
            bodies.append(getattr(s, "body", None))
        for body in bodies:
            if body:
                yield from _nested(body, into_loops)


def _exits_early(body: list[T.Stmt]) -> bool:
    """Does a break or continue of this loop, or a return, sit in ``body``?"""
    return (any(isinstance(s, (T.Break, T.Continue)) for s in _nested(body, False))
            or any(isinstance(s, T.Return) for s in _nested(body, True)))


def _has_while(body: list[T.Stmt]) -> bool:
    return any(isinstance(s, T.While) for s in _nested(body, True))


def _exprs_of(stmt: T.Stmt):
    """The expressions a statement evaluates itself (not those of nested statements)."""
    for value in vars(stmt).values():
        if isinstance(value, T.Expr):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, T.Expr))


def _accesses(e: T.Expr):
    """(array, index expressions) of every load inside ``e``."""
    if isinstance(e, T.Load):
        yield e.array, e.indices
    for value in vars(e).values():
        if isinstance(value, T.Expr):
            yield from _accesses(value)
        elif isinstance(value, list):
            for v in value:
                if isinstance(v, T.Expr):
                    yield from _accesses(v)


class Space:
    """The knobs of one kernel and the moves between points (see the module docstring)."""

    def __init__(self, kernel, *, max_parallel: int = 64, pipeline: bool = True):
        self.kernel = kernel
        self.max_parallel = max(1, max_parallel)
        self.pipeline_enabled = pipeline
        tree = kernel.tree()
        self.array_shapes: dict[str, tuple[int, ...]] = {
            s.name: tuple(s.type.shape) for s in (*tree.params, *tree.locals) if s.is_array}
        self.loops: dict[str, LoopKnob] = {}
        self._trips: dict[str, set] = {}
        self._walk(tree.body, (), {})
        for path, trips in self._trips.items():
            known = {t for t in trips if t is not None}
            self.loops[path].trip = known.pop() if len(trips) == 1 and known else None
            if len(trips) > 1 and None not in trips:
                self.loops[path].trips = frozenset(trips)

    # -- reading the kernel ---------------------------------------------------------------------
    def _walk(self, stmts: list[T.Stmt], path: tuple[str, ...], var_paths: dict) -> bool:
        """Record the loops under ``stmts``; True when there is a loop among them."""
        has_loop = False
        for s in stmts:
            if isinstance(s, T.For):
                has_loop = True
                p = (*path, s.var.name)
                name = "/".join(p)
                start, stop = _constant(s.start), _constant(s.stop)
                trip = (len(range(start, stop, s.step))
                        if start is not None and stop is not None else None)
                knob = self.loops.setdefault(name, LoopKnob(
                    name, len(p), "/".join(path) or None, trip, True))
                if trip is None and s.step > 0 and _affine_in_loops(s.start) \
                        and _affine_in_loops(s.stop):
                    knob.affine_bounds = True
                if _exits_early(s.body):
                    # the front end makes it a while loop: no unroll, tile or pipeline
                    trip, knob.pipelinable = None, False
                    knob.affine_bounds = False
                elif _has_while(s.body):
                    knob.pipelinable = False
                self._trips.setdefault(name, set()).add(trip)
                inner = dict(var_paths)
                inner[s.var.uid] = name
                self._record_accesses(s.body, inner)
                if self._walk(s.body, p, inner):
                    knob.innermost = False
            else:
                children = []
                if isinstance(s, T.While):
                    children = [s.body]
                elif isinstance(s, T.If):
                    children = [s.then, s.orelse]
                for body in children:
                    has_loop |= self._walk(body, path, var_paths)
        return has_loop

    def _record_accesses(self, stmts: list[T.Stmt], var_paths: dict) -> None:
        """Note the array dimensions indexed directly by loop variables in ``stmts`` (the
        statements of one loop body, nested statements included)."""
        for s in stmts:
            accesses = [a for e in _exprs_of(s) for a in _accesses(e)]
            if isinstance(s, T.Store):
                accesses.append((s.array, s.indices))
            for array, indices in accesses:
                for dim, index in enumerate(indices, start=1):
                    var = _direct_var(index)
                    if var is not None and var.uid in var_paths:
                        self.loops[var_paths[var.uid]].indexes.add((array.name, dim))
            for body in (getattr(s, "then", None), getattr(s, "orelse", None)):
                if body:
                    self._record_accesses(body, var_paths)
            if isinstance(s, T.While):
                self._record_accesses(s.body, var_paths)

    # -- knob ranges --------------------------------------------------------------------------
    def unroll_factors(self, path: str) -> list[int]:
        knob = self.loops[path]
        trip = knob.trip
        if trip is None and knob.affine_bounds and knob.pipelinable:
            # a triangle: by a factor, the remainder in a loop after it
            return [f for f in TRIANGLE_FACTORS if f <= self.max_parallel]
        if trip is None and knob.trips and min(knob.trips) >= 2:
            # loops of one name with different trip counts: a factor dividing any of them
            # (the others keep their remaining iterations as copies after the main loop)
            divisors = set().union(*(_divisors(t) for t in knob.trips))
            return sorted(d for d in divisors if d <= self.max_parallel)
        if trip is None or trip < 2:
            return [1]
        return [d for d in _divisors(trip) if d <= self.max_parallel]

    def tile_sizes(self, path: str) -> list[int]:
        """Proper tile sizes (neither 1 nor the trip count) of an innermost loop."""
        knob = self.loops[path]
        if not knob.innermost or knob.trip is None:
            return []
        return [d for d in _divisors(knob.trip) if 1 < d < knob.trip]

    def pipeline_candidates(self) -> list[str]:
        if not self.pipeline_enabled:
            return []
        out = set()
        for path, knob in self.loops.items():
            if knob.innermost:
                out |= {path, knob.parent} - {None}
        return sorted(p for p in out if self.loops[p].pipelinable)

    def _ancestors(self, path: str) -> list[str]:
        out = []
        parent = self.loops[path].parent
        while parent is not None:
            out.append(parent)
            parent = self.loops[parent].parent
        return out

    def valid(self, point: Point) -> bool:
        """The bounded-parallelism and consistency rules every point of the space keeps."""
        unroll, tile = dict(point.unroll), dict(point.tile)
        for path, knob in self.loops.items():
            if knob.innermost:  # the product along each nesting path ending here
                total = unroll.get(path, 1)
                for a in self._ancestors(path):
                    total *= unroll.get(a, 1)
                if total > self.max_parallel:
                    return False
        if any(p in unroll for p in tile):
            return False  # a tiled loop is not unrolled as well (the space stays small)
        piped = set(point.pipeline)
        if any(set(self._ancestors(p)) & piped for p in piped):
            return False  # a pipelined loop inside another pipelined loop
        # a fully unrolled loop is gone: nothing in or at it is left to pipeline
        gone = {p for p, f in unroll.items() if f == self.loops[p].trip}
        return not any({p, *self._ancestors(p)} & gone for p in piped)

    # -- points to directives ---------------------------------------------------------------
    def copies(self, point: Point) -> dict[str, int]:
        """How many copies of each loop's body ``point`` puts side by side: its unroll
        factor, or its whole trip count inside a pipelined loop (pipelining unrolls the
        loops inside it fully)."""
        out = dict(point.unroll)
        for piped in point.pipeline:
            for path, knob in self.loops.items():
                if path.startswith(piped + "/"):
                    trip = knob.trip or max(knob.trips, default=None)
                    if trip:
                        out[path] = trip
        return out

    def without_implied_partitions(self, point: Point) -> Point:
        """``point`` with the arrays that only its pipelining partitions left whole."""
        explicit = {a for a, *_ in self.partitions(replace(point, pipeline=()))}
        for array, *_ in self.partitions(point):
            if array not in explicit:
                point = point.with_layout(array, "none", 0)
        return point

    def partitions(self, point: Point) -> list[tuple[str, int, int, str]]:
        """(array, dim, factor, kind) for every array the unrolled loops index. The loops
        inside a pipelined loop count as unrolled, but they only partition a dimension
        that no loop left rolled indexes (its accesses would have to reach any bank)."""
        unroll = dict(point.unroll)
        explicit = set(unroll)
        implied = self.copies(point)
        rolled = {(a, d) for path, knob in self.loops.items() if path not in implied
                  for a, d in knob.indexes}
        for path, factor in implied.items():
            if path not in unroll:
                unroll[path] = factor
        layout = {a: (k, d) for a, k, d in point.layout}
        wanted: dict[str, dict[int, int]] = {}  # array -> dim -> factor
        for path, factor in unroll.items():
            for array, dim in self.loops[path].indexes:
                if path not in explicit and (array, dim) in rolled:
                    continue
                size = self.array_shapes[array][dim - 1]
                banks = min(factor, size)
                if banks > 1:
                    dims = wanted.setdefault(array, {})
                    dims[dim] = max(dims.get(dim, 1), banks)
        out = []
        for array in sorted(wanted):
            kind, dim = layout.get(array, ("cyclic", 0))
            if kind == "none":
                continue
            dims = wanted[array]
            if dim not in dims:  # automatic (or a dimension no longer indexed): the largest
                dim = max(dims, key=lambda d: (dims[d], d))
            out.append((array, dim, dims[dim], kind))
        return out

    def canonical(self, point: Point) -> Point:
        """``point`` with its layouts spelled one way: an array no unrolled loop indexes
        has no layout, and a dimension equal to the automatic choice is spelled 0."""
        unroll = dict(point.unroll)
        layout = []
        auto = self.partitions(replace(point, layout=()))
        for array, kind, dim in point.layout:
            auto_dim = next((d for a, d, _, _ in auto if a == array), None)
            indexed = {d for p in unroll for a, d in self.loops[p].indexes if a == array}
            if auto_dim is None and not indexed:
                continue
            dim = 0 if dim == auto_dim or dim not in indexed else dim
            if (kind, dim) != ("cyclic", 0):
                layout.append((array, kind, dim))
        return replace(point, layout=tuple(sorted(layout)))

    def layout_choices(self, point: Point, array: str) -> list[tuple[str, int]]:
        dims = sorted({d for p in dict(point.unroll) for a, d in self.loops[p].indexes
                       if a == array})
        dims = dims if len(dims) > 1 else []  # one candidate dimension: "automatic" is it
        return [(k, d) for k in LAYOUT_KINDS for d in (0, *dims) if not (k == "none" and d)]

    def directives(self, point: Point) -> list[tuple[str, tuple, dict]]:
        """The directive calls (method, args, kwargs) of ``point``, in application order:
        tiles, unrolls, pipelines, then partitions."""
        out: list[tuple[str, tuple, dict]] = []
        for path, size in point.tile:
            out.append(("tile", (path,), {"size": size}))
        # innermost first: fully unrolling an outer loop first would rename the inner ones
        for path, factor in sorted(point.unroll, key=lambda u: -self.loops[u[0]].depth):
            out.append(("unroll", (path,), {"factor": factor}))
        tiled = dict(point.tile)
        for path in point.pipeline:
            out.append(("pipeline", (self.tiled_inner(path) if path in tiled else path,),
                        {"ii": 1}))
        for array, dim, factor, kind in self.partitions(point):
            out.append(("partition", (array,), {"dim": dim, "factor": factor, "kind": kind}))
        return out

    def tiled_inner(self, path: str) -> str:
        """The name of the inner loop that ``tile(path, size)`` makes."""
        *outer, var = path.split("/")
        return "/".join([*outer, f"{var}.outer", f"{var}.inner"])

    # -- sampling and moves ----------------------------------------------------------------------
    def seeds(self) -> list[Point]:
        """A structured first sample, pipelined points first (under a time budget the
        search may only get through part of it): no directives; each pipeline candidate
        alone, then over every innermost loop unrolled by a common factor (the loop above
        unrolled too or not), each with and without the partitions its pipelining implies;
        then the same uniform unrolls without pipelining; then each loop unrolled alone by
        each factor. Factors grow along the list: small points are quick to build, and the
        search moves on from the best of them."""
        base = Point()
        inner = [p for p, k in self.loops.items() if k.innermost and k.trip]
        factors = sorted({f for p in inner for f in self.unroll_factors(p) if f > 1})
        uniform = []
        for f in factors:
            pt = base
            for p in inner:
                pt = pt.with_unroll(p, max(d for d in self.unroll_factors(p) if d <= f))
            parents = {self.loops[p].parent for p in inner} - {None}
            uniform.append(pt)
            for g in sorted({g for q in parents for g in self.unroll_factors(q) if g > 1}):
                up = pt
                for q in parents:
                    up = up.with_unroll(q, max(d for d in self.unroll_factors(q) if d <= g))
                uniform.append(up)
        candidates = self.pipeline_candidates()
        piped = [u.with_pipeline([path]) for u in [base, *uniform] for path in candidates]
        out = [base]
        # the partitions pipelining implies make a point costlier to build and are
        # sometimes the worse design: both variants, the one with them first
        for p in piped:
            out += [p, self.without_implied_partitions(p)]
        out += uniform
        for path in self.loops:
            out += [base.with_unroll(path, f) for f in self.unroll_factors(path) if f > 1]
        seen, unique = set(), []
        for p in out:
            if p not in seen and self.valid(p):
                seen.add(p)
                unique.append(p)
        return unique

    def neighbours(self, point: Point) -> list[Point]:
        """The valid points that differ from ``point`` in one knob by one step."""
        out = []
        unroll, tile = dict(point.unroll), dict(point.tile)
        for path in self.loops:
            factors = self.unroll_factors(path)
            k = factors.index(unroll.get(path, 1)) if unroll.get(path, 1) in factors else 0
            for j in (k - 1, k + 1):
                if 0 <= j < len(factors):
                    out.append(point.with_unroll(path, factors[j]))
            sizes = [1] + self.tile_sizes(path)
            if len(sizes) > 1:
                k = sizes.index(tile.get(path, 1)) if tile.get(path, 1) in sizes else 0
                for j in (k - 1, k + 1):
                    if 0 <= j < len(sizes):
                        out.append(point.with_tile(path, sizes[j]))
        for path in self.pipeline_candidates():
            piped = set(point.pipeline)
            out.append(point.with_pipeline(piped ^ {path}))
        for array in sorted({a for a, _, _, _ in self.partitions(point)}
                            | {a for a, k, _ in point.layout if k == "none"}):
            current = next(((k, d) for a, k, d in point.layout if a == array), ("cyclic", 0))
            out += [point.with_layout(array, k, d)
                    for k, d in self.layout_choices(point, array) if (k, d) != current]
        seen, unique = {self.canonical(point)}, []
        for p in map(self.canonical, out):
            if p not in seen and self.valid(p):
                seen.add(p)
                unique.append(p)
        return unique


def python_of(directives: list[tuple[str, tuple, dict]], kernel_name: str) -> str:
    """The directives as Python to paste below the kernel in its file."""
    lines = ["import vichls", "", f"s = vichls.customize({kernel_name})"]
    for method, args, kwargs in directives:
        if method == "tile":  # tile's size is positional in Schedule.tile
            lines.append(f"s.tile({args[0]!r}, {kwargs['size']})")
            continue
        parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
        lines.append(f"s.{method}({', '.join(parts)})")
    return "\n".join(lines) + "\n"


def apply_directives(schedule, directives: list[tuple[str, tuple, dict]]):
    """Record ``directives`` on a ``vichls.customize`` schedule; returns the schedule."""
    for method, args, kwargs in directives:
        if method == "tile":
            schedule.tile(args[0], kwargs["size"])
        else:
            getattr(schedule, method)(*args, **kwargs)
    return schedule
