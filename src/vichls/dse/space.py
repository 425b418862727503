"""The design space of a kernel: which directives a point sets, and the moves between points.

What: ``Space(kernel)`` reads the kernel's checked tree once and finds its loops (named by
the path of loop variables from the top, "i/k/j", the names ``customize(k)`` understands;
a labelled loop by its label, "i2/j2", when each name so made selects only its own loops),
their constant trip counts, and the array dimensions each loop variable indexes directly
(``A[i, j + 1]``: loop j indexes dimension 2 of A). A ``Point`` is a choice of knobs:

- an unroll factor per loop with a constant trip count (divisors of the trip count; for
  loops of one name with different constant trip counts, divisors of any of them, the
  others keeping their remaining iterations as copies), or with bounds affine in outer
  loop variables (1, 2, 4, 8: a triangle is unrolled by a factor, its remainder in a loop);
- a tile size per innermost loop that is not unrolled (divisors of the trip count);
- the loops to pipeline with ii=1 (an innermost loop, or a loop around one whose nest the
  parallelism bound lets unroll into it), only when the back end supports pipelining (``Space(..., pipeline=False)`` leaves them out);
- a layout per array: "cyclic" (default), "block" or "none", and which dimension.

Partition factors are not knobs of their own: as in ScaleHLS they follow from the unroll
factors (a loop inside a pipelined loop counts as fully unrolled, where no rolled loop
indexes the same dimension), so the array an unrolled loop indexes gets as many banks as the
loop has copies
(on the dimension that loop indexes; every dimension so indexed gets its own partition and
they compose, unless the layout names one dimension). A loop indexing a dimension beside
another loop (``x[h + kh]``) makes a window: cyclic banks of a power of two at least as
many as its copies, which the back end reads once each whatever the rolled loop's value. ``directives(point)`` turns a point into the plain
directive calls (method, args, kwargs) that ``vichls.customize`` records, and
``python_of`` spells them as Python to paste into a kernel file.

Parallelism is bounded first (ScaleHLS): the product of the unroll factors along any
nesting path stays at most ``max_parallel``, and the copies pipelining implies at most
``PIPELINE_SLACK`` times that. With a DSP budget (``dsp_budget``), each nest is bounded by
its own multipliers as well: a point's ``dsp_estimate`` (every product's DSP blocks, by its
operands' widths, times the copies of the loops whose variables it depends on) stays within
``DSP_SLACK`` times the budget; a multiply outside the inner loops of a nest (a
requantization) is not copied by unrolling them, and one in another nest does not bound
this one. ``seeds()`` gives a structured first sample
and ``neighbours(point)`` the points one knob away, which the search walks from the
Pareto frontier.

Assumes: loops named by a path shared by several loops (two sibling ``for j`` in one
``for i``) are one knob, as a directive on that name applies to each of them; while loops
and loops with other non-constant bounds are not unrolled or tiled (they may be
pipelined).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from vichls.frontend import tree as T
from vichls.frontend.customize import constant_arrays
from vichls.types import FloatType

LAYOUT_KINDS = ("cyclic", "block", "none")
#: How far the copies a pipeline implies (its inner loops fully unrolled) may exceed the
#: bound on explicit unrolling: that bound counts every multiplier of the kernel per copy,
#: while an unrolled body shares its invariant products (gemm's ``alpha * A[i][k]``); a
#: pipeline far beyond it (gemm's ``i``: 750 copies) only costs build time.
PIPELINE_SLACK = 4
TRIANGLE_FACTORS = (1, 2, 4, 8)  # unroll factors of a loop whose trip count varies
#: How far a point's multiplier estimate may exceed the DSP budget and still be built: the
#: estimate counts a product per copy where the back end may share it (an invariant
#: product, a multiplier bound to several products of a pipeline at II > 1)
DSP_SLACK = 1.5


@dataclass(frozen=True)
class Multiplier:
    """A product in the kernel: the DSP blocks of one copy, and the loops (paths) whose
    copies copy it: those around it whose variables it depends on."""

    dsp: int
    loops: tuple[str, ...]


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
    #: (array, dim) pairs this loop's variable indexes beside another loop's, ``h + kh``:
    #: a window, whose copies a cyclic partition of a power of two at least as wide puts
    #: in distinct banks whatever the other loop's value (transforms/loop/partition_arrays)
    windows: set[tuple[str, int]] = field(default_factory=set)
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
    #: perfect two-loop bands interchanged, each by its outer loop's path in the kernel as
    #: written; the other knobs name loops as they are after the interchanges
    reorder: tuple[str, ...] = ()

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
        parts = [f"interchange {p}" for p in self.reorder]
        parts += [f"unroll {p}×{f}" for p, f in self.unroll]
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


def _window_vars(e: T.Expr) -> list[T.Sym]:
    """The two loop variables of ``v + w`` (a constant may be added, and either may be
    multiplied by a constant: ``2 * h + dh``), else none."""
    terms: list[T.Expr] = []

    def split(x: T.Expr) -> bool:
        while isinstance(x, T.Convert):
            x = x.arg
        if isinstance(x, T.Binary) and x.op == "add":
            return split(x.lhs) and split(x.rhs)
        if isinstance(x, T.Binary) and x.op == "sub" and _constant(x.rhs) is not None:
            return split(x.lhs)
        terms.append(x)
        return True

    def loop_var(t: T.Expr) -> T.Sym | None:  # v, or c * v (a stride: 2 * h + dh)
        while isinstance(t, T.Convert):
            t = t.arg
        if isinstance(t, T.Binary) and t.op == "mul":
            for a, b in ((t.lhs, t.rhs), (t.rhs, t.lhs)):
                if _constant(a) is not None:
                    return loop_var(b)
            return None
        return t.sym if isinstance(t, T.Read) and t.sym.kind == "loopvar" else None

    split(e)
    syms = [loop_var(t) for t in terms if loop_var(t) is not None]
    others = [t for t in terms if loop_var(t) is None]
    if len(syms) == 2 and syms[0] is not syms[1] and all(_constant(t) is not None for t in others):
        return syms
    return []


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


def _subexpressions(e: T.Expr):
    """``e`` and every expression inside it."""
    yield e
    for value in vars(e).values():
        for v in (value if isinstance(value, list) else [value]):
            if isinstance(v, T.Expr):
                yield from _subexpressions(v)


def _accesses(e: T.Expr):
    """(array, index expressions) of every load inside ``e``."""
    return ((x.array, x.indices) for x in _subexpressions(e) if isinstance(x, T.Load))


def _reads(e: T.Expr, sym: T.Sym) -> bool:
    """Whether ``e`` reads the symbol ``sym``."""
    return any(isinstance(x, T.Read) and x.sym is sym for x in _subexpressions(e))


def _significant_bits(e: T.Expr) -> int:
    """Bits of ``e`` a product needs: a widened narrower value keeps its own width (what
    the back end's narrowing finds: ``int32(a) * int32(b)`` of int8 values is 16 bits)."""
    width = getattr(e.ty, "width", 64)
    if isinstance(e, T.Const):
        return min(width, max(1, abs(int(e.value)).bit_length() + 1))
    if isinstance(e, T.Convert):
        return min(width, _significant_bits(e.arg))
    return width


def _product_dsp(e: T.Binary) -> int:
    """DSP blocks of one copy of the product ``e`` (0 for a product by a constant: shifts
    and adds)."""
    from vichls.targets import oplib

    if isinstance(e.lhs, T.Const) or isinstance(e.rhs, T.Const):
        return 0
    if isinstance(e.ty, FloatType):
        return oplib.cost("fmul", 32).dsp
    width = min(getattr(e.ty, "width", 64),
                _significant_bits(e.lhs) + _significant_bits(e.rhs))
    return oplib.cost("mul", width).dsp


def _assigned(stmts: list[T.Stmt]) -> tuple[set[str], set[str]]:
    """(scalars, arrays) that ``stmts`` write, nested statements included (by uid)."""
    scalars, arrays = set(), set()
    for s in _nested(stmts, True):
        if isinstance(s, T.Assign):
            scalars.add(s.sym.uid)
        elif isinstance(s, (T.Store, T.InitArray)):
            arrays.add(s.array.uid)
    return scalars, arrays


def _multipliers(stmts: list[T.Stmt], path: tuple[str, ...], around: list, labels: bool
                 ) -> list[Multiplier]:
    """The products under ``stmts``; ``around``: (loop path, loop, scalars and arrays its
    body writes) of the loops around them, outermost first."""
    out = []
    for s in stmts:
        for e in _exprs_of(s):
            for x in _subexpressions(e):
                if not (isinstance(x, T.Binary) and x.op == "mul"):
                    continue
                dsp = _product_dsp(x)
                if not dsp:
                    continue
                reads = [y for y in _subexpressions(x) if isinstance(y, (T.Read, T.Load))]
                loops = tuple(
                    name for name, loop, (scalars, arrays) in around
                    if any((isinstance(y, T.Read) and (y.sym is loop.var
                                                       or y.sym.uid in scalars))
                           or (isinstance(y, T.Load) and y.array.uid in arrays)
                           for y in reads))
                out.append(Multiplier(dsp, loops))
        if isinstance(s, T.For):
            p = (*path, _name_of(s, labels))
            out += _multipliers(s.body, p, [*around, ("/".join(p), s, _assigned(s.body))],
                                labels)
        else:
            for body in (getattr(s, "then", None), getattr(s, "orelse", None),
                         s.body if isinstance(s, T.While) else None):
                if body:
                    out += _multipliers(body, path, around, labels)
    return out


def _labelled_names_are_unique(tree: T.KernelTree) -> bool:
    """Whether naming every loop by labels where it has them selects, in ``customize``,
    only the loops of that name (``i/j`` would also select a loop labelled ``i2/j2``)."""
    from vichls.analysis.loop_names import path_matches
    from vichls.frontend.customize import loop_paths

    entries = [(path, "/".join(label or var for var, label in path))
               for path, _, _ in loop_paths(tree.body)]
    return all(own == name for name in {n for _, n in entries}
               for path, own in entries if path_matches(path, name.split("/")))


def _name_of(loop: T.For, labels: bool) -> str:
    return (loop.label if labels and loop.label else None) or loop.var.name


def _interchanged(stmts: list[T.Stmt], path: tuple[str, ...], swaps: frozenset,
                  labels: bool) -> list[T.Stmt]:
    """``stmts`` with the loop at each path of ``swaps`` exchanged with its only child
    loop (new tree nodes along the way; the rest is shared)."""
    out = []
    for s in stmts:
        if isinstance(s, T.For):
            p = (*path, _name_of(s, labels))
            if "/".join(p) in swaps:
                (child,) = s.body
                inner = replace(s, body=child.body)
                s = replace(child, body=[inner])
                p = (*path, _name_of(s, labels))
            s = replace(s, body=_interchanged(s.body, p, swaps, labels))
        elif isinstance(s, T.While):
            s = replace(s, body=_interchanged(s.body, path, swaps, labels))
        elif isinstance(s, T.If):
            s = replace(s, then=_interchanged(s.then, path, swaps, labels),
                        orelse=_interchanged(s.orelse, path, swaps, labels))
        out.append(s)
    return out


def _toggled_path(path: str, band: str, inner_var: str, swapped: bool) -> str:
    """The name ``path`` takes when the band at ``band`` (its outer loop's path as
    written, ``inner_var`` its child's variable) is interchanged (``swapped`` False) or
    put back (True)."""
    *prefix, outer_var = band.split("/")
    first, second = (inner_var, outer_var) if swapped else (outer_var, inner_var)
    head = "/".join([*prefix, first])
    if path == head:
        return "/".join([*prefix, second, first])
    if path == f"{head}/{second}":
        return "/".join([*prefix, second])
    if path.startswith(f"{head}/{second}/"):
        return "/".join([*prefix, second, first]) + path[len(head) + len(second) + 1:]
    return path


def _per_variant(method):
    """Run a method taking a point on the space of that point's loop order."""
    def dispatch(self, point, *args, **kwargs):
        return method(self.at(point), point, *args, **kwargs)

    dispatch.__name__, dispatch.__doc__ = method.__name__, method.__doc__
    return dispatch


class Space:
    """The knobs of one kernel and the moves between points (see the module docstring)."""

    def __init__(self, kernel, *, max_parallel: int = 64, pipeline: bool = True,
                 swaps: tuple[str, ...] = (), root: "Space | None" = None,
                 dsp_budget: int | None = None):
        self.kernel = kernel
        self.max_parallel = max(1, max_parallel)
        self.dsp_budget = dsp_budget
        self.pipeline_enabled = pipeline
        self.swaps = tuple(sorted(swaps))
        self._root = root or self
        self._variants: dict[tuple[str, ...], Space] = {self.swaps: self}
        tree = kernel.tree()
        #: loops named by their labels where they have them (see the module docstring)
        self.labels = root.labels if root is not None else _labelled_names_are_unique(tree)
        self.array_shapes: dict[str, tuple[int, ...]] = {
            s.name: tuple(s.type.shape) for s in (*tree.params, *tree.locals) if s.is_array}
        # the constant tables it reads (vichls.const) are arrays a directive may partition
        self.array_shapes.update({name: tuple(sym.type.shape)
                                  for name, sym in constant_arrays(kernel).items()})
        self.loops: dict[str, LoopKnob] = {}
        self._trips: dict[str, set] = {}
        self._counts: dict[str, int] = {}
        #: outer loop path -> the variable of its only child loop, for every perfect band
        #: of two loops that the interchange knob may exchange (in the kernel as written)
        self.interchanges: dict[str, str] = {}
        body = _interchanged(tree.body, (), frozenset(swaps), self.labels) if swaps \
            else tree.body
        self._walk(body, (), {})
        #: every product of the kernel (as this variant orders its loops)
        self.multipliers: list[Multiplier] = _multipliers(body, (), [], self.labels)
        if root is not None:
            self.interchanges = root.interchanges  # named in the kernel as written
        else:  # a name shared by loops in several places is one knob: no interchange of it
            self.interchanges = {p: v for p, v in self.interchanges.items()
                                 if self._counts[p] == 1 and self._counts[f"{p}/{v}"] == 1}
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
                p = (*path, _name_of(s, self.labels))
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
                self._counts[name] = self._counts.get(name, 0) + 1
                self._note_band(s, name)
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

    def _note_band(self, loop: T.For, name: str) -> None:
        """Record ``loop`` as an interchange candidate when its body is one loop whose
        bounds do not read its variable (the band is a box: exchanging the headers is
        the whole transformation), both with affine bounds and no early exit."""
        if len(loop.body) != 1 or not isinstance(loop.body[0], T.For):
            return
        child = loop.body[0]
        if _reads(child.start, loop.var) or _reads(child.stop, loop.var):
            return
        if any(_exits_early(f.body) or _has_while(f.body) or f.step <= 0
               or not (_affine_in_loops(f.start) and _affine_in_loops(f.stop))
               for f in (loop, child)):
            return
        self.interchanges[name] = _name_of(child, self.labels)

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
                        continue
                    for var in _window_vars(index):
                        if var.uid in var_paths:
                            self.loops[var_paths[var.uid]].windows.add((array.name, dim))
            for body in (getattr(s, "then", None), getattr(s, "orelse", None)):
                if body:
                    self._record_accesses(body, var_paths)
            if isinstance(s, T.While):
                self._record_accesses(s.body, var_paths)

    # -- loop orders --------------------------------------------------------------------------
    def at(self, point: Point) -> "Space":
        """The space of ``point``'s loop order (its interchanges applied)."""
        if point.reorder == self.swaps:
            return self
        root = self._root
        if point.reorder not in root._variants:
            root._variants[point.reorder] = Space(
                self.kernel, max_parallel=self.max_parallel, pipeline=self.pipeline_enabled,
                swaps=point.reorder, root=root, dsp_budget=self.dsp_budget)
        return root._variants[point.reorder]

    def compatible_swaps(self, swaps) -> bool:
        """Interchange candidates, no band inside another's (their names stay put)."""
        swaps = list(swaps)
        return all(p in self._root.interchanges for p in swaps) and not any(
            a != b and b.startswith(a + "/") for a in swaps for b in swaps)

    def with_interchange_toggled(self, point: Point, band: str) -> Point:
        """``point`` with the band at ``band`` interchanged or put back, its other knobs
        renamed to follow the loops."""
        swapped = band in point.reorder
        inner = self._root.interchanges[band]

        def rename(path: str) -> str:
            return _toggled_path(path, band, inner, swapped)

        return replace(
            point,
            unroll=tuple(sorted((rename(p), f) for p, f in point.unroll)),
            tile=tuple(sorted((rename(p), n) for p, n in point.tile)),
            pipeline=tuple(sorted(rename(p) for p in point.pipeline)),
            reorder=tuple(sorted(set(point.reorder) ^ {band})))

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
            if knob.innermost:  # the loop, and the loops around it (valid() bounds the copies)
                out |= {path, *self._ancestors(path)}
        return sorted(p for p in out if self.loops[p].pipelinable)

    def _ancestors(self, path: str) -> list[str]:
        out = []
        parent = self.loops[path].parent
        while parent is not None:
            out.append(parent)
            parent = self.loops[parent].parent
        return out

    @_per_variant
    def valid(self, point: Point) -> bool:
        """The bounded-parallelism and consistency rules every point of the space keeps."""
        if not self.compatible_swaps(point.reorder):
            return False
        unroll, tile = dict(point.unroll), dict(point.tile)
        copies = self.copies(point)
        for path, knob in self.loops.items():
            if knob.innermost:  # the products along each nesting path ending here
                chain = [path, *self._ancestors(path)]
                if math.prod(unroll.get(p, 1) for p in chain) > self.max_parallel:
                    return False
                if math.prod(copies.get(p, 1) for p in chain) > \
                        PIPELINE_SLACK * self.max_parallel:
                    return False
        if any(p not in self.loops for p in (*unroll, *tile, *point.pipeline)):
            return False  # a loop of another loop order
        if self.dsp_budget is not None and \
                self.dsp_estimate(point) > DSP_SLACK * self.dsp_budget:
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
    @_per_variant
    def dsp_estimate(self, point: Point) -> int:
        """The DSP blocks of ``point``'s products: each product's, times the copies of the
        loops whose variables it depends on."""
        copies = self.copies(point)
        return sum(m.dsp * math.prod(copies.get(p, 1) for p in m.loops)
                   for m in self.multipliers)

    @_per_variant
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

    @_per_variant
    def without_implied_partitions(self, point: Point) -> Point:
        """``point`` with the arrays that only its pipelining partitions left whole."""
        explicit = {a for a, *_ in self.partitions(replace(point, pipeline=()))}
        for array, *_ in self.partitions(point):
            if array not in explicit:
                point = point.with_layout(array, "none", 0)
        return point

    @_per_variant
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
        windowed: set[tuple[str, int]] = set()
        for path, factor in unroll.items():
            for array, dim in self.loops[path].indexes:
                if path not in explicit and (array, dim) in rolled:
                    continue
                size = self.array_shapes[array][dim - 1]
                banks = min(factor, size)
                if banks > 1:
                    dims = wanted.setdefault(array, {})
                    dims[dim] = max(dims.get(dim, 1), banks)
            for array, dim in self.loops[path].windows:
                size = self.array_shapes[array][dim - 1]
                banks = min(1 << (factor - 1).bit_length(), size)  # a power of two, as wide
                if banks > 1:
                    dims = wanted.setdefault(array, {})
                    dims[dim] = max(dims.get(dim, 1), banks)
                    windowed.add((array, dim))
        out = []
        for array in sorted(wanted):
            kind, dim = layout.get(array, ("cyclic", 0))
            if kind == "none":
                continue
            dims = wanted[array]
            if dim in dims:  # the layout names one dimension: that one only
                out.append((array, dim, dims[dim], kind))
                continue
            # automatic: every dimension the copies index, each with its own partition
            # (they compose into a grid of banks); a window needs cyclic banks
            for d in sorted(dims):
                out.append((array, d, dims[d], "cyclic" if (array, d) in windowed else kind))
        return out

    @_per_variant
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

    @_per_variant
    def layout_choices(self, point: Point, array: str) -> list[tuple[str, int]]:
        dims = sorted({d for p in dict(point.unroll) for a, d in self.loops[p].indexes
                       if a == array})
        dims = dims if len(dims) > 1 else []  # one candidate dimension: "automatic" is it
        return [(k, d) for k in LAYOUT_KINDS for d in (0, *dims) if not (k == "none" and d)]

    @_per_variant
    def directives(self, point: Point) -> list[tuple[str, tuple, dict]]:
        """The directive calls (method, args, kwargs) of ``point``, in application order:
        interchanges, tiles, unrolls, pipelines, then partitions."""
        out: list[tuple[str, tuple, dict]] = []
        for band in point.reorder:  # first, by the names the kernel gives its loops
            out.append(("reorder", (f"{band}/{self._root.interchanges[band]}", band), {}))
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
        search may only get through part of it): no directives; the widest uniform unroll
        of the innermost loops whose multipliers fit the DSP budget, pipelined; every nest pipelined
        (``pipelined_outward``, then ``pipelined_innermost``), also after each interchange;
        then each pipeline candidate
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
        # every nest pipelined at once, each as far out as the copies allow; then the same
        # after each interchange (a reduction loop moved inside is then unrolled into the
        # pipeline, its accumulator a register)
        reordered = [Point(reorder=(band,)) for band in sorted(self.interchanges)]
        if len(reordered) > 1 and self.compatible_swaps(self.interchanges):
            reordered.append(Point(reorder=tuple(sorted(self.interchanges))))
        piped = [q for u in [base, *reordered, *uniform]
                 for q in (self.pipelined_outward(u), self.pipelined_innermost(u))
                 if q.pipeline] + piped
        # the widest uniform unroll whose multipliers fit the budget, pipelined, right
        # after the baseline: where the kernel's nests are regular it is often the best
        # point, and a search cut short by its time budget should not only have seen the
        # narrow ones
        outer_loops = {self.loops[p].parent for p in inner} - {None}
        widest = [q for u in reversed(uniform) if not outer_loops & set(dict(u.unroll))
                  for q in (self.pipelined_outward(u), self.pipelined_innermost(u))
                  if q.pipeline and self.valid(q)
                  and (self.dsp_budget is None or self.dsp_estimate(q) <= self.dsp_budget)][:1]
        piped = widest + piped
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

    @_per_variant
    def pipelined_outward(self, point: Point) -> Point:
        """``point`` with every innermost loop pipelined, or the loop right above it
        where that point stays valid (the whole nest below it unrolled into one pipeline).
        Loops an unroll of ``point`` removes entirely are left alone."""
        chosen: set[str] = set()
        candidates = self.pipeline_candidates()
        for path in candidates:
            knob = self.loops[path]
            if not knob.innermost:
                continue
            # the outermost loop around it whose pipeline (its nest unrolled) stays valid
            outward = [a for a in reversed(self._ancestors(path)) if a in candidates
                       and self.valid(point.with_pipeline(
                           {p for p in chosen if not p.startswith(a + "/")} | {a}))]
            if outward and not any(outward[0].startswith(p + "/") for p in chosen):
                top = outward[0]
                chosen = {p for p in chosen if not p.startswith(top + "/")} | {top}
            elif not any(path.startswith(p + "/") for p in chosen) and \
                    self.valid(point.with_pipeline(chosen | {path})):
                chosen.add(path)
        return point.with_pipeline(chosen)

    @_per_variant
    def pipelined_innermost(self, point: Point) -> Point:
        """``point`` with every innermost loop pipelined where that stays valid. (Beside
        ``pipelined_outward``: a pipelined innermost loop flattens into the loops around
        it where it can, so an unroll of the innermost loops alone is often the point.)"""
        chosen: set[str] = set()
        for path in self.pipeline_candidates():
            if self.loops[path].innermost and self.valid(point.with_pipeline(chosen | {path})):
                chosen.add(path)
        return point.with_pipeline(chosen)

    def smaller_neighbours(self, point: Point) -> list[Point]:
        """The neighbours of ``point`` with fewer copies side by side in all (a smaller
        unroll factor, a loop pipelined further in or not at all)."""
        size = sum(self.copies(point).values())
        return [n for n in self.neighbours(point) if sum(self.copies(n).values()) < size]

    @_per_variant
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
        for band in self.interchanges:
            out.append(self.with_interchange_toggled(point, band))
        for array in sorted({a for a, _, _, _ in self.partitions(point)}
                            | {a for a, k, _ in point.layout if k == "none"}):
            current = next(((k, d) for a, k, d in point.layout if a == array), ("cyclic", 0))
            out += [point.with_layout(array, k, d)
                    for k, d in self.layout_choices(point, array) if (k, d) != current]
        seen, unique = {self.canonical(point)}, []
        # (canonical names partitions by the point's loops: a move that leaves a knob on
        # a loop its loop order does not have, an interchange toggled past a full unroll,
        # is no point at all)
        for p in map(self.canonical, filter(self.valid, out)):
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
