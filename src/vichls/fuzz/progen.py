"""Random kernel programs for differential testing: a seeded generator and a hypothesis strategy.

``generate_program(seed)`` returns the Python source of a module with one or two ``@kernel``
functions: an optional helper kernel and the top kernel ``top``, which calls it. The top
takes 1 to 3 arrays (1 or 2 dimensions, sizes 2 to 8) and 1 to 3 scalars of random widths
and signedness, and returns a scalar. Bodies mix every operator, casts, ``min``/``max``/
``abs``, comparison chains, ``and``/``or``/``not``, conditional expressions, annotated and
unannotated locals, local arrays, every augmented assignment, nested, triangular and
data-dependent ``for`` loops (steps of both signs), bounded ``while`` loops, ``if``/``elif``/
``else``, ``break``, ``continue`` and early returns.

Fixed point, from a stream of draws of its own (so a seed's integer program stays what it
was): now and then the top takes a fixed-point array ``F0`` and ends with fixed-point locals
(``FIXED_TYPES``, every quantization and overflow mode among them) computed from the integers
(casts), the array, float and integer literals and each other (``+ - *``, unary minus,
``abs``, ``min``/``max``, shifts by constant, unsigned and signed amounts, comparisons,
conditional expressions, casts), a local stream of them left partly full, stores to ``F0``
and integer locals cast back, which the return value may read. Constant arrays likewise
(their own stream of draws): now and then the module holds one or two ``vichls.const``
tables (``K0``, ``K1``: integer or fixed-point, 1-d or 2-d, edge values among them) that the
top kernel reads where it would read an array, and that the schedule may partition. Every type on the way fits 64 bits: an operation that would not is
written on a cast of its operand. float32 likewise (its own stream of draws): now and then
the top takes a float32 array ``G0`` and ends with float32 locals (every operator, ``sqrt``,
``min``/``max``, literals up to the extremes, casts from the integers), a loop over ``G0``
carrying an accumulation (which the schedule may pipeline or unroll), stores to ``G0`` and
integer and bool locals cast or compared from float values.

Programs are valid by construction: every array index is either a loop variable whose range
is known to fit, a constant, or a value forced into range (``uint8(e) & (D - 1)``,
``uint8(e) % D``, ``int32(e) % D``); shift amounts are never negative; every loop has a
constant bound on its trip count and the product of enclosing trip counts is capped, so a
program does at most a few thousand operations. ``make_args(seed)`` builds matching
arguments (edge values mixed with random ones); ``build_program(seed)`` gives both plus the
parameter list. The same seed always gives the same program and arguments.

Directives: ``build_program(seed, directives=kinds)`` also writes (usually) a schedule of
1 to 4 random directives of those kinds after the kernels (``s = vichls.customize(top)``,
``s.unroll('i3', factor=2)``, ...), so that a program file carries its schedule wherever it
goes (replay, ``vichls sim``). They are valid by construction, from what the generator knows
of each loop it wrote: unroll, tile and pipeline only name ascending constant-range loops of
the top kernel without a break/continue of their own or a return inside (the loops that
become ``affine.for``); reorder and flatten only name the perfect nests written for them
(``band_statement``: every store at exactly the loop variables' element, no array read that
the nest writes, no conditional expression, so any order gives the same result, keeping
the order of the loops no index uses); partition stays within the array's shape (a second
dimension of an array may get a partition of its own, which composes), complete
partitioning on local arrays only. With directives the program text itself differs from
the one of the same seed without (the nests for reorder and flatten are drawn too, and
with pipeline, now and then, two 1-d sweeps or two 2-d nests in a row whose loops the
schedule pipelines: what fuse-pipelines fuses, or keeps apart).

It lives in the package (not only in tests/) so that ``vichls fuzz`` can use it; tests/progen.py
re-exports it for the test suite.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vichls.frontend import fixed_point as FX
from vichls.inputs import array, scalar
from vichls.types import (
    ArrayType,
    FixedType,
    FloatType,
    float32,
    ScalarType,
    bool_,
    common_type,
    int8,
    int16,
    int32,
    int64,
    int_,
    as_fixed,
    type_name,
    uint8,
    uint16,
    uint32,
    uint64,
    uint_,
    fixed,
    ufixed,
)

TYPES: list[ScalarType] = [
    int8, uint8, int16, uint16, int32, uint32, int64, uint64, bool_,
    int_(1), uint_(3), int_(5), int_(12), uint_(12), int_(17), int_(33), uint_(33), int_(63),
    uint_(63),
]
#: fixed-point types drawn (their own stream of draws: ``_Generator.fixed_extras``)
FIXED_TYPES: list[FixedType] = [
    fixed(8, 3), ufixed(8, 5), fixed(12, -2), fixed(16, 6, "rnd", "sat"),
    ufixed(10, 4, "rnd_conv", "sat_sym"), fixed(20, 10, "trn_zero", "sat_zero"),
    fixed(6, 9, "rnd_inf", "sat"), fixed(24, 4, "rnd_zero", "wrap"),
    ufixed(4, -1, "rnd_min_inf", "sat"), fixed(1, 1), fixed(32, 16, "rnd", "sat_sym"),
    fixed(13, 13, "trn_zero", "sat_sym"),
]
FLOAT_LITERALS = ["0.5", "0.375", "1.25", "3.0", "0.1", "1e-3", "2.75", "100.5", "0.0078125"]
BINARY_OPS = ["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>"]
AUG_OPS = ["+=", "-=", "*=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="]
COMPARE_OPS = ["<", "<=", ">", ">=", "==", "!="]
SIZES = [2, 4, 8]
MAX_LOOP_WORK = 32  # cap on the product of the trip counts of nested loops
MAX_STATEMENTS = 28
TOP = "top"


DIRECTIVE_KINDS = ("unroll", "tile", "reorder", "flatten", "partition", "pipeline", "dataflow")
# What ``vichls fuzz`` draws by default: every kind.
DEFAULT_DIRECTIVES = frozenset(DIRECTIVE_KINDS)


@dataclass
class GeneratedProgram:
    seed: int
    source: str
    top: str
    params: list[tuple[str, ScalarType | ArrayType]]
    kernels: list[str]
    directives: list[str] = field(default_factory=list)  # the schedule's calls, as spelled


@dataclass
class _ForLoop:
    """What the generator knows of one ``for`` loop of the top kernel, to direct it."""

    name: str
    trips: int | None  # None: bounds that are not constants (no loop directive applies)
    exits: bool = False  # break/continue of its own, or a return inside: a while loop in IR
    inner: bool = True  # no loop nested inside it
    band: tuple[str, ...] | None = None  # the perfect band it heads (outermost first)
    band_unused: tuple[str, ...] = ()  # band loops no array index uses: keep their order
    # per band loop, the band loop its bounds use (a triangle), else None
    band_uses: tuple[int | None, ...] = ()
    triangular: bool = False  # bounds over an outer loop's variable: only pipeline applies

    @property
    def directable(self) -> bool:
        """An affine.for with constant bounds in the IR: unroll and tile apply."""
        return self.trips is not None and not self.exits


@dataclass
class _LoopVar:
    name: str
    lo: int  # smallest value it takes
    hi: int  # one past the largest


@dataclass
class _Scope:
    scalars: dict[str, ScalarType] = field(default_factory=dict)  # params and locals
    arrays: dict[str, ArrayType] = field(default_factory=dict)
    loops: list[_LoopVar] = field(default_factory=list)
    in_loop: bool = False
    work: int = 1  # product of enclosing trip-count bounds
    # fixed-point locals and arrays: kept apart, the integer expressions never see them
    fixed: dict[str, FixedType] = field(default_factory=dict)
    fixed_arrays: dict[str, ArrayType] = field(default_factory=dict)
    consts: dict[str, ArrayType] = field(default_factory=dict)  # vichls.const tables, read only
    # float32 locals and arrays: apart too
    floats: set[str] = field(default_factory=set)
    float_arrays: dict[str, ArrayType] = field(default_factory=dict)
    # enclosing loops of the top kernel, innermost last (None for a while loop)
    enclosing: list[_ForLoop | None] = field(default_factory=list)

    def child(self) -> "_Scope":
        return _Scope(dict(self.scalars), dict(self.arrays), list(self.loops), self.in_loop,
                      self.work, fixed=dict(self.fixed), fixed_arrays=dict(self.fixed_arrays),
                      consts=dict(self.consts), floats=set(self.floats),
                      float_arrays=dict(self.float_arrays), enclosing=list(self.enclosing))


class _Generator:
    """Builds one program; all randomness comes from ``self.rng``."""

    def __init__(self, seed: int, directives: frozenset[str] = frozenset()):
        self.rng = random.Random(seed)
        # the draws added later (``extras``) come from a stream of their own, so that the
        # rest of a seed's program stays what earlier versions wrote
        self.extra_rng = random.Random(f"extras-{seed}")
        self.fixed_rng = random.Random(f"fixed-{seed}")  # fixed point, learnt later still
        self.uses_fixed = False
        self.const_rng = random.Random(f"consts-{seed}")  # constant arrays, likewise
        self.float_rng = random.Random(f"float32-{seed}")  # float32, later again
        # two sweeps in a row that a pipeline of each may fuse (fpga/fuse_pipelines.py)
        self.sweep_rng = random.Random(f"sweeps-{seed}")
        self.sweeps: tuple[str, str, int] | None = None  # their loops and the II to ask
        # two 2-d nests in a row whose inner loops a pipeline flattens (fused a row behind)
        self.nest_rng = random.Random(f"nests-{seed}")
        self.nests: tuple[str, str, int] | None = None  # their inner loops, the II to ask
        self.uses_float = False
        self.const_tables: dict[str, ArrayType] = {}  # module-level vichls.const tables
        self.consts_read: set[str] = set()  # the tables the top reads
        self.extra_names = 0
        self.uses_streams = False
        self.link_top: str | None = None  # the kernel the top calls at the end of a chain
        self.counter = 0
        self.statements = 0
        self.is_top = False
        self.directives = directives
        self.straight = False  # no conditional evaluation (it would write a temporary)
        self.top_loops: list[_ForLoop] = []  # every for loop of the top kernel
        self.top_local_arrays: dict[str, ArrayType] = {}

    # -- names and literals ------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        if self.rng is self.extra_rng:
            self.extra_names += 1
            return f"{prefix}x{self.extra_names}"
        self.counter += 1
        # every third name ends in "_<digits>", which xDSL takes for its own numbering of
        # SSA names (loops so named once answered to no directive)
        return f"{prefix}_{self.counter}" if self.counter % 3 == 0 else f"{prefix}{self.counter}"

    def literal(self, t: ScalarType, positive: bool = False) -> str:
        # t.min is left out: its magnitude does not fit t, so its spelling would not either
        choices = [0, 1, 2, 3, 5, 7, 9, 100, 1000, -1, -2, -7, t.max, t.min + 1, t.max - 1]
        ok = [c for c in choices if t.min <= c <= t.max and (c > 0 or not positive)]
        if not ok:
            ok = [t.max]
        v = self.rng.choice(ok)
        return f"({v})" if v < 0 else str(v)

    def pick_type(self) -> ScalarType:
        return self.rng.choice(TYPES)

    # -- expressions: each returns (source, type) -------------------------------------------
    def leaf(self, s: _Scope) -> tuple[str, ScalarType]:
        options = []
        if s.scalars:
            options.append("scalar")
        if s.arrays:
            options += ["load", "load"]
        if s.loops:
            options.append("loopvar")
        tables = sorted(n for n, t in s.consts.items()
                        if not isinstance(t.element, (FixedType, FloatType)))
        if tables:  # (only in programs with tables: the others draw as they did)
            options.append("const")
        kind = self.rng.choice(options)
        if kind == "const":
            name = self.rng.choice(tables)
            return self.read_const(s, name), s.consts[name].element
        if kind == "scalar":
            name = self.rng.choice(sorted(s.scalars))
            return name, s.scalars[name]
        if kind == "loopvar":
            return self.rng.choice(s.loops).name, int32
        name = self.rng.choice(sorted(s.arrays))
        return self.load(s, name), s.arrays[name].element

    def read_const(self, s: _Scope, name: str) -> str:
        self.consts_read.add(name)
        return f"{name}[{', '.join(self.index(s, d, 1) for d in s.consts[name].shape)}]"

    def load(self, s: _Scope, name: str, depth: int = 1) -> str:
        shape = s.arrays[name].shape
        idx = [self.index(s, d, depth) for d in shape]
        if len(idx) == 2 and self.rng.random() < 0.4:
            return f"{name}[{idx[0]}][{idx[1]}]"
        return f"{name}[{', '.join(idx)}]"

    def index(self, s: _Scope, size: int, depth: int) -> str:
        fitting = [lv for lv in s.loops if lv.lo >= 0 and lv.hi <= size]
        r = self.rng.random()
        if fitting and r < 0.45:
            return self.rng.choice(fitting).name
        if r < 0.55 or depth <= 0:
            return str(self.rng.randrange(size))
        e, _ = self.expr(s, depth - 1)
        form = self.rng.randrange(3)
        if form == 0:
            return f"(uint8({e}) & {size - 1})"
        if form == 1:
            return f"(uint8({e}) % {size})"
        return f"(int32({e}) % {size})"

    # -- extras: shapes the generator learnt later, drawn from their own random stream --------
    def extras(self, s: _Scope) -> tuple[list[str], list[str]]:
        """(declarations for the start of the top kernel's body, statements for its end):
        now and then a local stream that the call leaves partly full, a long elif chain, a
        sum of many terms, a store at a uint64 index. Straight code at the top level only,
        so no loop is added that a directive could name."""
        main, saved = self.rng, (self.statements, self.straight)
        self.rng = self.extra_rng
        head: list[str] = []
        tail: list[str] = []
        try:
            if self.rng.random() < 0.25:
                self.local_stream(s, head, tail)
            if self.rng.random() < 0.15:
                tail += self.elif_chain(s)
            if self.rng.random() < 0.15:
                tail += self.wide_sum(s)
            if self.link_top is not None:  # the last of a chain of kernels calling each other
                v = self.fresh("v")
                tail.append(f"    {v}: int32 = {self.link_top}(int32({self.expr(s, 1)[0]}))")
                s.scalars[v] = int32
            if s.arrays and self.rng.random() < 0.2:
                name = self.rng.choice(sorted(s.arrays))
                shape = s.arrays[name].shape
                idx = ", ".join(f"uint64({self.expr(s, 1)[0]}) % {d}" for d in shape)
                tail.append(f"    {name}[{idx}] = {self.expr(s)[0]}")
        finally:
            self.rng = main
            self.statements, self.straight = saved
        return head, tail

    def local_stream(self, s: _Scope, head: list[str], tail: list[str]) -> None:
        """Puts of up to ``depth`` elements, then fewer gets: the rest stays behind, and the
        next call must start with the stream empty."""
        t = self.pick_type()
        depth = self.rng.choice([1, 2, 4])
        q = self.fresh("q")
        head.append(f"    {q} = stream[{type_name(t)}, {depth}]()")
        self.uses_streams = True
        puts = self.rng.randint(1, depth)
        for _ in range(puts):
            tail.append(f"    {q}.put({self.expr(s)[0]})")
        for _ in range(self.rng.randint(0, puts - 1) if puts > 1 else 0):
            v = self.fresh("v")
            tail.append(f"    {v}: {type_name(t)} = {q}.get()")
            s.scalars[v] = t

    def elif_chain(self, s: _Scope) -> list[str]:
        v = self.fresh("v")
        t = self.pick_type()
        lines = [f"    {v}: {type_name(t)} = {self.literal(t)}"]
        for k in range(self.rng.randint(8, 24)):
            keyword = "if" if k == 0 else "elif"
            lines += [f"    {keyword} {self.compare(s, 1)}:", f"        {v} = {self.expr(s, 1)[0]}"]
        if self.rng.random() < 0.5:
            lines += ["    else:", f"        {v} = {self.expr(s, 1)[0]}"]
        s.scalars[v] = t
        return lines

    def wide_sum(self, s: _Scope) -> list[str]:
        v = self.fresh("v")
        terms = [self.leaf(s)[0] for _ in range(self.rng.randint(20, 60))]
        ops = [self.rng.choice(["+", "-", "^", "+"]) for _ in terms[1:]]
        text = terms[0] + "".join(f" {op} {term}" for op, term in zip(ops, terms[1:]))
        t = self.pick_type()
        s.scalars[v] = t
        return [f"    {v}: {type_name(t)} = {text}"]

    def shift_amount(self, s: _Scope, depth: int, left: ScalarType) -> tuple[str, ScalarType]:
        """A shift amount that is never negative, whatever the common type turns out to be:
        a positive literal of the shifted type, or a uint8 value (0..255, which is still
        non-negative in any wider signed type)."""
        if self.rng.random() < 0.3 and left.max >= 1:
            return self.literal(left, positive=True), left
        e, _ = self.expr(s, depth - 1)
        form = self.rng.randrange(3)
        if form == 0:
            return f"uint8({e})", uint8
        if form == 1:
            return f"(uint8({e}) & 7)", uint8
        return f"(uint8({e}) % 70)", uint8

    def expr(self, s: _Scope, depth: int = 2) -> tuple[str, ScalarType]:
        if depth <= 0 or self.rng.random() < 0.25:
            return self.leaf(s)
        kind = self.rng.choices(
            ["binary", "literal_binary", "unary", "compare", "cast", "select", "minmax", "abs"],
            weights=[6, 3, 1, 1, 2, 0 if self.straight else 1, 1, 1],
        )[0]
        if kind == "binary":
            op = self.rng.choice(BINARY_OPS)
            a, ta = self.expr(s, depth - 1)
            if op in ("<<", ">>"):
                amount, tamount = self.shift_amount(s, depth, ta)
                return f"({a} {op} {amount})", common_type(ta, tamount)
            b, tb = self.expr(s, depth - 1)
            return f"({a} {op} {b})", common_type(ta, tb)
        if kind == "literal_binary":
            op = self.rng.choice(BINARY_OPS)
            a, ta = self.expr(s, depth - 1)
            if op in ("<<", ">>"):
                if ta.max < 1:
                    return a, ta
                return f"({a} {op} {self.literal(ta, positive=True)})", ta
            lit = self.literal(ta)
            return (f"({a} {op} {lit})" if self.rng.random() < 0.7 else f"({lit} {op} {a})"), ta
        if kind == "unary":
            a, ta = self.expr(s, depth - 1)
            op = self.rng.choice(["-", "~", "not "])
            return f"({op}{a})", (bool_ if op == "not " else ta)
        if kind == "compare":
            return self.compare(s, depth), bool_
        if kind == "cast":
            t = self.pick_type()
            a, _ = self.expr(s, depth - 1)
            return f"{type_name(t)}({a})", t
        if kind == "select":
            a, ta = self.expr(s, depth - 1)
            b, tb = self.expr(s, depth - 1)
            return f"({a} if {self.cond(s, depth - 1)} else {b})", common_type(ta, tb)
        if kind == "minmax":
            a, ta = self.expr(s, depth - 1)
            b, tb = self.expr(s, depth - 1)
            return f"{self.rng.choice(['min', 'max'])}({a}, {b})", common_type(ta, tb)
        a, ta = self.expr(s, depth - 1)
        return f"abs({a})", ta

    def compare(self, s: _Scope, depth: int) -> str:
        a, ta = self.expr(s, depth - 1)
        parts = [a]
        # a chain (a < b < c) evaluates its rest only where the first holds: conditional
        # evaluation, which straight code avoids
        for _ in range(1 if self.straight else self.rng.choice([1, 1, 1, 2])):
            if self.rng.random() < 0.3:
                parts.append(self.literal(ta))
            else:
                parts.append(self.expr(s, depth - 1)[0])
        ops = [self.rng.choice(COMPARE_OPS) for _ in parts[1:]]
        text = parts[0]
        for op, p in zip(ops, parts[1:]):
            text += f" {op} {p}"
        return f"({text})"

    def cond(self, s: _Scope, depth: int = 2) -> str:
        r = self.rng.random()
        if r < 0.55 or depth <= 0:
            return self.compare(s, max(depth, 1))
        if r < 0.7:
            return self.expr(s, depth - 1)[0]  # an integer's truth value
        if r < 0.8:
            return f"(not {self.cond(s, depth - 1)})"
        op = self.rng.choice(["and", "or"])
        return f"({self.cond(s, depth - 1)} {op} {self.cond(s, depth - 1)})"

    # -- statements: each appends indented lines ---------------------------------------------
    def block(self, s: _Scope, indent: int, count: int) -> list[str]:
        lines: list[str] = []
        for _ in range(count):
            if self.statements >= MAX_STATEMENTS:
                break
            lines += self.statement(s, indent)
        if not lines:
            lines = self.filler(s, indent)
        return lines

    def filler(self, s: _Scope, indent: int) -> list[str]:
        """A harmless statement where a block would otherwise be empty (no ``pass``: the
        language does not promise it)."""
        name = self.fresh("v")
        s.scalars[name] = int32
        return ["    " * indent + f"{name}: int32 = {self.rng.randrange(10)}"]

    def statement(self, s: _Scope, indent: int) -> list[str]:
        self.statements += 1
        pad = "    " * indent
        kinds = ["declare", "assign", "augassign", "store", "store", "if", "for", "for", "while"]
        weights = [3, 2, 3, 4, 3, 2, 3, 1, 1]
        if s.in_loop:
            kinds += ["break", "continue"]
            weights += [1, 1]
            if self.is_top:
                kinds.append("return")
                weights.append(1)
        if self.directives and self.is_top and s.arrays:
            kinds.append("band")  # a perfect nest that reorder and flatten can work on
            weights.append(3)
        kind = self.rng.choices(kinds, weights=weights)[0]
        # locals and scalar parameters may be assigned (never loop variables or counters)
        locals_ = [n for n in s.scalars if n[0] in "vsy"]
        if kind in ("assign", "augassign") and not locals_:
            kind = "declare"
        if kind == "declare":
            name = self.fresh("v")
            e, te = self.expr(s)
            if self.rng.random() < 0.6 or "if" in e or "min(" in e or "max(" in e:
                t = self.pick_type()
                s.scalars[name] = t
                return [f"{pad}{name}: {type_name(t)} = {e}"]
            s.scalars[name] = te  # an unannotated first assignment takes the expression's type
            return [f"{pad}{name} = {e}"]
        if kind == "assign":
            return [f"{pad}{self.rng.choice(locals_)} = {self.expr(s)[0]}"]
        if kind == "augassign":
            name = self.rng.choice(locals_)
            return [f"{pad}{name} {self.aug_rhs(s, s.scalars[name])}"]
        if kind == "store":
            if not s.arrays:
                return self.filler(s, indent)
            name = self.rng.choice(sorted(s.arrays))
            target = self.load(s, name)
            if self.rng.random() < 0.5:
                return [f"{pad}{target} = {self.expr(s)[0]}"]
            return [f"{pad}{target} {self.aug_rhs(s, s.arrays[name].element)}"]
        if kind == "if":
            return self.if_statement(s, indent)
        if kind == "for":
            return self.for_statement(s, indent)
        if kind == "while":
            return self.while_statement(s, indent)
        if kind == "band":
            return self.band_statement(s, indent)
        if kind in ("break", "continue"):
            if s.enclosing and s.enclosing[-1] is not None:
                s.enclosing[-1].exits = True  # the front end makes that loop a while loop
            return [f"{pad}if {self.cond(s, 1)}:", f"{pad}    {kind}"]
        for loop in s.enclosing:
            if loop is not None:
                loop.exits = True
        return [f"{pad}if {self.cond(s, 1)}:", f"{pad}    return {self.expr(s)[0]}"]

    def aug_rhs(self, s: _Scope, target: ScalarType) -> str:
        op = self.rng.choice(AUG_OPS)
        if op in ("<<=", ">>="):
            return f"{op} {self.shift_amount(s, 2, target)[0]}"
        if self.rng.random() < 0.3:
            return f"{op} {self.literal(target)}"
        return f"{op} {self.expr(s)[0]}"

    def if_statement(self, s: _Scope, indent: int) -> list[str]:
        pad = "    " * indent
        lines = [f"{pad}if {self.cond(s)}:"] + self.block(s.child(), indent + 1, self.rng.randint(1, 3))
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            lines += [f"{pad}elif {self.cond(s)}:"] + self.block(s.child(), indent + 1, self.rng.randint(1, 2))
        if self.rng.random() < 0.5:
            lines += [f"{pad}else:"] + self.block(s.child(), indent + 1, self.rng.randint(1, 2))
        return lines

    def for_statement(self, s: _Scope, indent: int) -> list[str]:
        pad = "    " * indent
        name = self.fresh("i")
        outer = [lv for lv in s.loops if lv.lo >= 0 and lv.hi <= 8]
        form = self.rng.randrange(6 if outer else 4)
        if form == 0:
            n = self.rng.randint(1, 8)
            header, var, trips = f"range({n})", _LoopVar(name, 0, n), n
        elif form == 1:
            lo = self.rng.randint(-3, 4)
            hi = self.rng.randint(lo, 8)
            header, var, trips = f"range({lo}, {hi})", _LoopVar(name, lo, hi), max(1, hi - lo)
        elif form == 2:
            hi = self.rng.randint(-1, 7)
            lo = self.rng.randint(hi - 8, hi)
            step = self.rng.choice([-1, -1, -2, -3])
            header, var = f"range({hi}, {lo}, {step})", _LoopVar(name, lo + 1, hi + 1)
            trips = max(1, hi - lo)
        elif form == 3:
            e = self.expr(s, 1)[0]
            if self.rng.random() < 0.5:
                header, var, trips = f"range(uint8({e}) & 7)", _LoopVar(name, 0, 7), 7
            else:
                header, var, trips = f"range(uint8({e}) % 5, 6)", _LoopVar(name, 0, 6), 6
        elif form == 4:
            o = self.rng.choice(outer)
            header, var, trips = f"range({o.name} + 1)", _LoopVar(name, 0, o.hi), o.hi
        else:
            o = self.rng.choice(outer)
            top = self.rng.randint(max(o.hi, 1), 8)
            header, var, trips = f"range({o.name}, {top})", _LoopVar(name, o.lo, top), top
        if s.work * trips > MAX_LOOP_WORK:
            return self.filler(s, indent)
        body = s.child()
        body.loops.append(var)
        body.in_loop = True
        body.work = s.work * trips
        # only ascending constant ranges become affine.for (a negative step gives scf.for)
        body.enclosing.append(self.record_loop(s, name, trips if form <= 1 else None))
        return [f"{pad}for {name} in {header}:"] + self.block(body, indent + 1, self.rng.randint(1, 4))

    def record_loop(self, s: _Scope, name: str, trips: int | None) -> _ForLoop | None:
        """Note a for loop of the top kernel (the loops directives may name)."""
        if not self.is_top:
            return None
        loop = _ForLoop(name, trips)
        for outer in s.enclosing:
            if outer is not None:
                outer.inner = False
        self.top_loops.append(loop)
        return loop

    def band_statement(self, s: _Scope, indent: int) -> list[str]:
        """A perfect nest of 2 or 3 counted loops whose body stores to arrays at exactly the
        loop variables' element (``A[i, j] op= e`` with ``e`` reading no array stored in the
        band), so that reorder is legal for any order of the loops and flatten applies."""
        pad = "    " * indent
        targets = self.rng.sample(sorted(s.arrays), k=min(len(s.arrays),
                                                          self.rng.choice([1, 1, 2])))
        shape = s.arrays[targets[0]].shape
        targets = [t for t in targets if s.arrays[t].shape == shape]
        depth = max(len(shape), 2) + (1 if self.rng.random() < 0.25 else 0)
        names = [self.fresh("i") for _ in range(depth)]
        # loop k indexes dimension dim_of[k] (the first len(shape) loops, in a random order);
        # the other loops only repeat the update
        dim_of = list(range(len(shape)))
        self.rng.shuffle(dim_of)
        trips, headers, uses = [], [], []
        for k in range(depth):
            limit = shape[dim_of[k]] if k < len(shape) else 3
            # (work is 0 inside a loop that never runs: an empty triangular range)
            room = MAX_LOOP_WORK // (max(1, s.work) * _product(trips) * 2 ** (depth - k - 1))
            trips.append(self.rng.randint(1, max(1, min(limit, room))))
            headers.append(f"range({trips[-1]})")
            uses.append(None)
            # a triangle over an outer loop of the band, never empty (so that flatten's
            # counters apply): range(o + 1) or range(o, t) with t above every o
            m = self.rng.randrange(k) if k else None
            if m is not None and trips[m] <= limit and self.rng.random() < 0.35:
                if self.rng.random() < 0.5:
                    trips[-1], headers[-1] = trips[m], f"range({names[m]} + 1)"
                else:
                    trips[-1] = self.rng.randint(trips[m], limit)
                    headers[-1] = f"range({names[m]}, {trips[-1]})"
                uses[-1] = m
        if s.work * _product(trips) > MAX_LOOP_WORK:
            return self.filler(s, indent)
        loop_of_dim = {d: k for k, d in enumerate(dim_of)}
        body = s.child()
        body.in_loop = True
        body.work = s.work * _product(trips)
        for n, t in zip(names, trips):
            body.loops.append(_LoopVar(n, 0, t))
        outer_loops = []
        for n, t, m in zip(names, trips, uses):
            loop = self.record_loop(body, n, t if m is None else None)
            if loop is not None:
                loop.triangular = m is not None
            outer_loops.append(loop)
            body.enclosing.append(loop)
        readable = body.child()
        for t in targets:
            readable.arrays.pop(t)
        # a conditional expression that loads becomes an scf.if writing a temporary, which
        # reorder must refuse: the band's expressions have none
        self.straight = True
        lines = [f"{pad}{'    ' * k}for {n} in {h}:" for k, (n, h) in
                 enumerate(zip(names, headers))]
        inner_pad = pad + "    " * depth
        for t in targets:
            index = ", ".join(names[loop_of_dim[d]] for d in range(len(shape)))
            element = s.arrays[t].element
            if readable.scalars or readable.arrays or readable.loops:
                e = self.expr(readable)[0]
            else:
                e = self.literal(element)
            if self.rng.random() < 0.5:
                lines.append(f"{inner_pad}{t}[{index}] {self.aug_rhs(readable, element)}")
            elif self.rng.random() < 0.5:
                lines.append(f"{inner_pad}{t}[{index}] = ({t}[{index}] "
                             f"{self.rng.choice(BINARY_OPS[:3] + BINARY_OPS[5:8])} {e})")
            else:
                lines.append(f"{inner_pad}{t}[{index}] = {e}")
        self.straight = False
        if outer_loops[0] is not None:
            outer_loops[0].band = tuple(names)
            outer_loops[0].band_unused = tuple(names[len(shape):])
            outer_loops[0].band_uses = tuple(uses)
        return lines

    def while_statement(self, s: _Scope, indent: int) -> list[str]:
        pad = "    " * indent
        bound = self.rng.randint(1, 6)
        if s.work * bound > MAX_LOOP_WORK:
            return self.filler(s, indent)
        counter = self.fresh("w")
        cond = f"{counter} < {bound}"
        extra = None
        if self.rng.random() < 0.5:
            extra = self.cond(s, 1)
            cond += f" and {extra}"
        body = s.child()
        body.in_loop = True
        body.work = s.work * bound
        body.loops.append(_LoopVar(counter, 1, bound + 1))  # readable as a value in the body
        for outer in s.enclosing:
            if outer is not None:
                outer.inner = False  # not a candidate for pipelining: it holds a loop
        body.enclosing.append(None)  # a break in the body leaves the while loop
        lines = [f"{pad}{counter}: int32 = 0", f"{pad}while {cond}:", f"{pad}    {counter} += 1"]
        lines += self.block(body, indent + 1, self.rng.randint(1, 3))
        if extra is not None and self.rng.random() < 0.4:
            # the condition's reads again right after the loop (which the FPGA back end
            # may serve from registers the condition wrote: transforms/fpga/forward_while_exit_loads)
            lines += [f"{pad}if {extra}:"] + self.block(s.child(), indent + 1, 1)
        return lines

    # -- kernels -----------------------------------------------------------------------------
    # -- fixed point: statements at the end of the top kernel, from their own draws ----------
    def sweep_pair(self, s: _Scope) -> list[str]:
        """Now and then, when the schedule may pipeline: two loops in a row over 1-d
        arrays, each storing at ``loop var + c`` what it reads at ``loop var + c'`` (of
        the same or another array), which the schedule pipelines at one II: fused when the
        shift between them allows, kept apart otherwise (a loaded index, an expression of
        the draw's usual kind). From a stream of its own."""
        rng = self.sweep_rng
        ones = sorted(n for n, t in s.arrays.items() if len(t.shape) == 1 and t.shape[0] >= 4)
        if "pipeline" not in self.directives or not ones or rng.random() >= 0.3:
            return []
        lines: list[str] = []
        names = []
        # mostly a producer and its consumer over two arrays (x -> y, then y -> x): the
        # pattern fusion is for; else any arrays, the same one included
        chained = len(ones) >= 2 and rng.random() < 0.7
        first = rng.sample(ones, 2) if chained else None
        for k in range(2):
            if chained:
                src, dst = first if k == 0 else first[::-1]
            else:
                dst, src = rng.choice(ones), rng.choice(ones)
            n = min(s.arrays[dst].shape[0], s.arrays[src].shape[0])
            c_dst, c_src = rng.randint(-2, 2), rng.randint(-2, 2)
            lo = max(0, -c_dst, -c_src) + rng.randint(0, 1)
            hi = min(n - max(0, c_dst, c_src), lo + rng.randint(max(2, n // 2), n))
            if hi <= lo:
                continue
            self.extra_names += 1
            v = f"sw{self.extra_names}"
            names.append(v)
            at = lambda c: v if c == 0 else f"{v} {'+' if c > 0 else '-'} {abs(c)}"  # noqa: E731
            if rng.random() < 0.7:
                value = f"{src}[{at(c_src)}] * {rng.randint(-3, 3)} + {v}"
            else:  # whatever the usual draw reads (a loaded index keeps the loops apart)
                saved, self.rng = self.rng, rng
                try:
                    value = f"{src}[{at(c_src)}] + ({self.expr(s, 1)[0]})"
                finally:
                    self.rng = saved
            lines += [f"    for {v} in range({lo}, {hi}):", f"        {dst}[{at(c_dst)}] = {value}"]
        if len(names) == 2:
            self.sweeps = (names[0], names[1], rng.choice([1, 1, 2]))
        return lines

    def sweep_nests(self, s: _Scope) -> list[str]:
        """Now and then, when the schedule may pipeline: two nests in a row over 2-d
        arrays, each storing at ``[i + c][j + c']`` what it reads at other such offsets (of
        the same or another array) and its loop variables, whose inner loops the schedule
        pipelines at one II (each flattens with its outer loop): fused with a shift of
        whole rows when the dependences allow, kept apart otherwise. From a stream of its
        own."""
        rng = self.nest_rng
        twos = sorted(n for n, t in s.arrays.items() if len(t.shape) == 2 and min(t.shape) >= 2)
        if "pipeline" not in self.directives or not twos or rng.random() >= 0.3:
            return []
        lines: list[str] = []
        inner = []
        # mostly a producer and its consumer (x -> y, then y -> x; y a new local array of
        # x's shape where the top has one 2-d array): jacobi-2d's pattern, which fusion is
        # for; else any arrays, the same one included (in place: kept apart, or not
        # flattened)
        chained = rng.random() < 0.8
        if chained and len(twos) >= 2 and rng.random() < 0.5:
            first = rng.sample(twos, 2)
        elif chained:
            self.extra_names += 1
            src, local = rng.choice(twos), f"nt{self.extra_names}"
            rows, cols = s.arrays[src].shape
            lines.append(f"    {local}: int32[{rows}, {cols}] = 0")
            shapes = {**s.arrays, local: s.arrays[src]}
            first = [src, local]
        shapes = shapes if chained and first[1].startswith("nt") else s.arrays
        for k in range(2):
            if chained:
                src, dst = first if k == 0 else first[::-1]
            else:
                dst, src = rng.choice(twos), rng.choice(twos)
            bounds = []
            offsets = [(rng.randint(-1, 1), rng.randint(-1, 1)) for _ in range(2)]  # dst, src
            for d in range(2):
                n = min(shapes[dst].shape[d], shapes[src].shape[d])
                c_dst, c_src = offsets[0][d], offsets[1][d]
                lo = max(0, -c_dst, -c_src) + rng.randint(0, 1)
                hi = min(n - max(0, c_dst, c_src), lo + rng.randint(2, n))
                bounds.append((lo, hi))
            if any(hi <= lo for lo, hi in bounds):
                continue
            self.extra_names += 1
            vi, vj = f"nr{self.extra_names}", f"nc{self.extra_names}"
            inner.append(vj)

            def at(v, c):
                return v if c == 0 else f"{v} {'+' if c > 0 else '-'} {abs(c)}"

            read = f"{src}[{at(vi, offsets[1][0])}][{at(vj, offsets[1][1])}]"
            value = f"{read} * {rng.randint(-3, 3)} + {vi} - {vj}"
            if rng.random() < 0.5:  # a second read of the source, a row or column away
                ci, cj = rng.choice([(offsets[1][0], 0), (0, offsets[1][1])])
                value += f" + {src}[{at(vi, ci)}][{at(vj, cj)}]"
            (li, hi_), (lj, hj) = bounds
            lines += [f"    for {vi} in range({li}, {hi_}):",
                      f"        for {vj} in range({lj}, {hj}):",
                      f"            {dst}[{at(vi, offsets[0][0])}][{at(vj, offsets[0][1])}] = {value}"]
        if len(inner) == 2:
            self.nests = (inner[0], inner[1], rng.choice([1, 1, 2]))
        return lines

    def fixed_extras(self, s: _Scope) -> list[str]:
        """Now and then (always when the top takes a fixed-point array): fixed-point locals
        computed from the integers, the fixed array and literals, stores to the fixed array
        (converted with its modes), and integer locals cast back from fixed-point values,
        which the rest of the kernel (its return value) reads."""
        if not s.fixed_arrays and self.fixed_rng.random() >= 0.25:
            return []
        main, saved = self.rng, (self.statements, self.straight)
        self.rng = self.fixed_rng
        self.uses_fixed = True
        lines: list[str] = []
        try:
            for _ in range(self.rng.randint(1, 3)):
                t = self.rng.choice(FIXED_TYPES)
                v = self.fresh("f")
                lines.append(f"    {v}: {_spell(t)} = {self.fexpr(s, 2)[0]}")
                s.fixed[v] = t
            if self.rng.random() < 0.3:  # a stream of fixed-point values, left partly full
                t = self.rng.choice(FIXED_TYPES)
                depth = self.rng.choice([1, 2, 4])
                q = self.fresh("qf")
                lines.append(f"    {q} = stream[{_spell(t)}, {depth}]()")
                self.uses_streams = True
                puts = self.rng.randint(1, depth)
                for _ in range(puts):
                    lines.append(f"    {q}.put({self.fexpr(s, 2)[0]})")
                for _ in range(self.rng.randint(1, puts)):
                    v, vt = self.fresh("f"), self.rng.choice(FIXED_TYPES)
                    lines.append(f"    {v}: {_spell(vt)} = {q}.get()")
                    s.fixed[v] = vt
            for name, at in sorted(s.fixed_arrays.items()):
                for _ in range(self.rng.randint(1, 2)):
                    idx = self.index(s, at.shape[0], 1)
                    lines.append(f"    {name}[{idx}] = {self.fexpr(s, 2)[0]}")
            for _ in range(self.rng.randint(1, 2)):
                t = self.pick_type()
                v = self.fresh("v")
                lines.append(f"    {v}: {type_name(t)} = {type_name(t)}({self.fexpr(s, 2)[0]})")
                s.scalars[v] = t
        finally:
            self.rng = main
            self.statements, self.straight = saved
        return lines

    # -- float32: statements at the end of the top kernel, from their own draws ------------
    def float_extras(self, s: _Scope) -> list[str]:
        """Now and then (always when the top takes a float32 array or the module has a
        float32 table): float32 locals computed from the integers (casts), the float array,
        the tables, literals and each other; a counted loop
        over the float array (an accumulation carried from iteration to iteration, which
        the schedule may pipeline or unroll); stores to the array; integer and bool locals
        from casts and comparisons of float values, which the return value may read."""
        float_tables = any(isinstance(t.element, FloatType) for t in s.consts.values())
        if not s.float_arrays and not float_tables and self.float_rng.random() >= 0.2:
            return []
        main, saved = self.rng, (self.statements, self.straight)
        self.rng = self.float_rng
        self.uses_float = True
        lines: list[str] = []
        try:
            for _ in range(self.rng.randint(1, 3)):
                v = self.fresh("g")
                lines.append(f"    {v}: float32 = {self.gexpr(s, 2)}")
                s.floats.add(v)
            for name, at in sorted(s.float_arrays.items()):
                if self.rng.random() < 0.6:
                    lines += self.float_loop(s, name, at)
                for _ in range(self.rng.randint(0, 2)):
                    idx = self.index(s, at.shape[0], 1)
                    lines.append(f"    {name}[{idx}] = {self.gexpr(s, 2)}")
            for _ in range(self.rng.randint(1, 2)):
                v = self.fresh("v")
                if self.rng.random() < 0.3:
                    op = self.rng.choice(COMPARE_OPS)
                    lines.append(f"    {v}: bool_ = {self.gexpr(s, 1)} {op} {self.gexpr(s, 1)}")
                    s.scalars[v] = bool_
                else:
                    t = self.pick_type()
                    lines.append(f"    {v}: {type_name(t)} = {type_name(t)}({self.gexpr(s, 2)})")
                    s.scalars[v] = t
        finally:
            self.rng = main
            self.statements, self.straight = saved
        return lines

    def float_loop(self, s: _Scope, name: str, at: ArrayType) -> list[str]:
        """``acc`` carried through a counted loop over ``name`` (a float recurrence), the
        array updated in place; a loop the schedule may name."""
        acc, i = self.fresh("acc"), self.fresh("fi")
        n = at.shape[0]
        lines = [f"    {acc}: float32 = {self.gexpr(s, 1)}", f"    for {i} in range({n}):"]
        body = s.child()
        body.loops.append(_LoopVar(i, 0, n))
        body.in_loop = True
        body.enclosing.append(self.record_loop(s, i, n))
        op = self.rng.choice(["+", "+", "-", "*"])
        lines.append(f"        {acc} = {acc} {op} {name}[{i}] * {self.gexpr(body, 1)}")
        if self.rng.random() < 0.6:
            lines.append(f"        {name}[{i}] = {self.gexpr(body, 2)}")
        s.floats.add(acc)
        return lines

    def gleaf(self, s: _Scope) -> str:
        tables = sorted(n for n, t in s.consts.items() if isinstance(t.element, FloatType))
        options = ["cast", "literal"] + ["local"] * 2 * bool(s.floats) + \
            ["load"] * 3 * bool(s.float_arrays) + ["const"] * 2 * bool(tables)
        kind = self.rng.choice(options)
        if kind == "const":
            return self.read_const(s, self.rng.choice(tables))
        if kind == "local":
            return self.rng.choice(sorted(s.floats))
        if kind == "load":
            name = self.rng.choice(sorted(s.float_arrays))
            return f"{name}[{self.index(s, s.float_arrays[name].shape[0], 1)}]"
        if kind == "literal":
            lit = self.rng.choice(FLOAT_LITERALS + ["1e30", "3.0e38", "1e-40", "0.0"])
            return f"float32({'-' if self.rng.random() < 0.4 else ''}{lit})"
        return f"float32({self.expr(s, 1)[0]})"

    def gexpr(self, s: _Scope, depth: int = 2) -> str:
        """A float32 expression (every operand float32: integers come in through casts)."""
        if depth <= 0 or self.rng.random() < 0.25:
            return self.gleaf(s)
        kind = self.rng.choice(["arith", "arith", "arith", "literal", "neg", "abs", "minmax",
                                "sqrt", "select", "compare"])
        a = self.gexpr(s, depth - 1)
        if kind in ("arith", "literal"):
            op = self.rng.choice(["+", "-", "*", "/"])
            b = self.rng.choice(FLOAT_LITERALS) if kind == "literal" else \
                self.gexpr(s, depth - 1)
            if self.rng.random() < 0.3:
                a, b = b, a
            return f"({a} {op} {b})"
        if kind == "neg":
            return f"(-{a})"
        if kind == "abs":
            return f"abs({a})"
        if kind == "sqrt":
            return f"sqrt({a})"
        if kind == "minmax":
            return f"{self.rng.choice(['min', 'max'])}({a}, {self.gexpr(s, depth - 1)})"
        if kind == "select" and not self.straight:
            return f"({a} if {self.cond(s, 1)} else {self.gexpr(s, depth - 1)})"
        if kind == "compare":  # a bool as a float: 0.0 or 1.0
            op = self.rng.choice(COMPARE_OPS)
            return f"float32({a} {op} {self.gexpr(s, depth - 1)})"
        return f"float32({a})"

    def fleaf(self, s: _Scope) -> tuple[str, FixedType]:
        tables = sorted(n for n, t in s.consts.items() if isinstance(t.element, FixedType))
        options = ["cast", "literal"] + ["local"] * 2 * bool(s.fixed) + \
            ["load"] * 3 * bool(s.fixed_arrays) + ["const"] * 2 * bool(tables)
        kind = self.rng.choice(options)
        if kind == "const":
            name = self.rng.choice(tables)
            return self.read_const(s, name), s.consts[name].element
        if kind == "local":
            name = self.rng.choice(sorted(s.fixed))
            return name, s.fixed[name]
        if kind == "load":
            name = self.rng.choice(sorted(s.fixed_arrays))
            at = s.fixed_arrays[name]
            return f"{name}[{self.index(s, at.shape[0], 1)}]", at.element
        t = self.rng.choice(FIXED_TYPES)
        if kind == "literal":
            lit = self.rng.choice(FLOAT_LITERALS)
            return f"{_spell(t)}({'-' if self.rng.random() < 0.4 else ''}{lit})", t
        return f"{_spell(t)}({self.expr(s, 1)[0]})", t

    def fexpr(self, s: _Scope, depth: int = 2) -> tuple[str, FixedType]:
        """A fixed-point expression and its type; every type on the way fits 64 bits (an
        operation that would not is written on a cast of its operand instead)."""
        if depth <= 0 or self.rng.random() < 0.25:
            return self.fleaf(s)
        kind = self.rng.choice(["arith", "arith", "literal", "integer", "neg", "abs", "minmax",
                                "shift", "cast", "select", "compare"])
        a, ta = self.fexpr(s, depth - 1)
        try:
            if kind in ("arith", "literal", "integer", "minmax"):
                op = self.rng.choice(["+", "-", "*"])
                if kind == "arith" or kind == "minmax":
                    b, tb = self.fexpr(s, depth - 1)
                elif kind == "literal":
                    if self.rng.random() < 0.5:
                        b = self.rng.choice(FLOAT_LITERALS)
                        tb = FX.float_literal(float(b), ta)[0]
                    else:
                        n = self.rng.choice([0, 1, 2, 3, -1, -4, 100, 7])
                        b, tb = f"({n})", FX.literal_type(n)
                else:  # an integer operand takes part as fixed(W, W)
                    t = self.rng.choice([int8, uint8, int_(5), int16, bool_])
                    b, tb = f"{type_name(t)}({self.expr(s, 1)[0]})", t
                if kind == "minmax":
                    t = FX.common_fixed_type(ta, tb)
                    return f"{self.rng.choice(['min', 'max'])}({a}, {b})", t
                t = FX.product_type(ta, tb) if op == "*" else FX.sum_type(
                    ta, tb, "add" if op == "+" else "sub")
                if self.rng.random() < 0.3:
                    a, b = b, a
                return f"({a} {op} {b})", t
            if kind == "neg":
                f = as_fixed(ta)
                FX.negate_type(f)
                return f"(-{a})", FixedType(f.width + 1, True, f.int_bits + 1)
            if kind == "abs":
                f = as_fixed(ta)
                if not f.signed:
                    return f"abs({a})", ta
                FX.negate_type(f)
                return f"abs({a})", FixedType(f.width + 1, True, f.int_bits + 1)
            if kind == "shift":
                op = self.rng.choice(["<<", ">>"])
                r = self.rng.random()
                if r < 0.4:
                    amount = str(self.rng.choice([0, 1, 2, 5, -1, -3]))
                elif r < 0.7:
                    amount = f"(uint8({self.expr(s, 1)[0]}) % 12)"
                else:
                    amount = f"int8({self.expr(s, 1)[0]})"
                return f"({a} {op} {amount})", ta
            if kind == "select" and not self.straight:
                b, tb = self.fexpr(s, depth - 1)
                return f"({a} if {self.cond(s, 1)} else {b})", FX.common_fixed_type(ta, tb)
            if kind == "compare":
                b, tb = self.fexpr(s, depth - 1)
                FX.common_fixed_type(ta, tb)
                t = self.rng.choice(FIXED_TYPES)
                op = self.rng.choice(COMPARE_OPS)
                return f"{_spell(t)}({a} {op} {b})", t
            t = self.rng.choice(FIXED_TYPES)
            return f"{_spell(t)}({a})", t
        except FX.FixedWidthError:  # too wide: the operand, converted to a narrower type
            t = self.rng.choice(FIXED_TYPES)
            return f"{_spell(t)}({a})", t

    def array_type(self) -> ArrayType:
        t = self.pick_type()
        if self.rng.random() < 0.6:
            return ArrayType(t, (self.rng.choice(SIZES),))
        return ArrayType(t, (self.rng.choice([2, 4]), self.rng.choice(SIZES)))

    def kernel(self, name: str, params: list[tuple[str, object]], ret: ScalarType | None,
               callee: tuple[str, list[tuple[str, object]]] | None) -> list[str]:
        s = _Scope()
        for pname, ptype in params:
            if isinstance(ptype, ArrayType) and isinstance(ptype.element, FixedType):
                s.fixed_arrays[pname] = ptype
            elif isinstance(ptype, ArrayType) and isinstance(ptype.element, FloatType):
                s.float_arrays[pname] = ptype
            elif isinstance(ptype, ArrayType):
                s.arrays[pname] = ptype
            else:
                s.scalars[pname] = ptype
        self.is_top = ret is not None
        if self.is_top:
            s.consts.update(self.const_tables)
        self.statements = 0
        sig = ", ".join(f"{p}: {_spell(t)}" for p, t in params)
        arrow = f" -> {type_name(ret)}" if ret is not None else ""
        lines = ["@kernel", f"def {name}({sig}){arrow}:"]
        if self.rng.random() < 0.4:
            buf = self.fresh("buf")
            t = ArrayType(self.pick_type(), (self.rng.choice(SIZES),))
            lines.append(f"    {buf}: {_spell(t)} = {self.literal(t.element)}")
            s.arrays[buf] = t
            if self.is_top:
                self.top_local_arrays[buf] = t
        params_only = s.child()  # call arguments may only use what exists everywhere
        body = self.block(s, 1, self.rng.randint(3, 7))
        if callee is not None:
            cname, cparams = callee
            args = []
            for pname, ptype in cparams:
                if isinstance(ptype, ArrayType):
                    args.append(next(p for p, t in params if t == ptype))
                else:
                    args.append(self.expr(params_only, 1)[0])
            call = f"    {cname}({', '.join(args)})"
            at = self.rng.randrange(len(body) + 1)
            # calls go between top-level statements only (never inside a nested block)
            while at < len(body) and (
                body[at].startswith("     ") or body[at].lstrip().startswith(("elif", "else"))
            ):
                at += 1
            body = body[:at] + [call] + body[at:]
            if self.rng.random() < 0.5:
                body.append(call)  # the same kernel called twice
        if ret is not None:  # the top kernel
            head, tail = self.extras(s)
            lines[2:2] = head
            body += tail + self.fixed_extras(s) + self.float_extras(s) + self.sweep_pair(s) \
                + self.sweep_nests(s)
        lines += body
        if ret is not None:
            lines.append(f"    return {self.expr(s)[0]}")
        return lines


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _const_table(rng: random.Random, k: int) -> tuple[str, ArrayType, str]:
    """A module-level table: its name, type and values (a nested list literal): integers
    of an integer type (edges among them), or numbers a fixed-point type converts."""
    fixed_point = rng.random() < 0.4
    element = rng.choice(FIXED_TYPES if fixed_point else TYPES)
    shape = (rng.choice(SIZES),) if rng.random() < 0.7 else (2, rng.choice(SIZES))

    def value() -> str:
        if fixed_point:
            return repr(rng.choice([0.5, -0.75, 1.0, 3.1, -100.0, 0.0078125, 2.5, -0.1]))
        return str(rng.choice([0, 1, -1, 7, element.max, element.min, element.max - 1,
                               rng.randint(element.min, element.max)]))

    if len(shape) == 1:
        text = "[" + ", ".join(value() for _ in range(shape[0])) + "]"
    else:
        text = "[" + ", ".join("[" + ", ".join(value() for _ in range(shape[1])) + "]"
                               for _ in range(shape[0])) + "]"
    return f"K{k}", ArrayType(element, shape), text


def _float_table(rng: random.Random, k: int) -> tuple[str, ArrayType, str]:
    """A module-level float32 table (1-d), edge values among its numbers."""
    n = rng.choice(SIZES)
    values = [repr(rng.choice([0.5, -0.75, 1e-3, 3.0e38, -1e-40, 0.0, -0.0, 7.0, 0.1,
                               rng.uniform(-100, 100)])) for _ in range(n)]
    return f"K{k}", ArrayType(float32, (n,)), "[" + ", ".join(values) + "]"


def _spell(t) -> str:
    if isinstance(t, ArrayType):
        return f"{_spell(t.element)}[{', '.join(map(str, t.shape))}]"
    return type_name(t).replace("'", '"')


def build_program(seed: int, directives=None) -> GeneratedProgram:
    """The program of ``seed``: source text, top name, parameters and, given ``directives``
    (a collection of DIRECTIVE_KINDS), usually a schedule of random valid directives of
    those kinds, written at the end of the source as ``s = vichls.customize(top)`` and
    ``s.<directive>(...)`` lines. Without ``directives`` the program is the one earlier
    versions gave for the seed."""
    kinds = frozenset(directives or ())
    unknown = kinds - set(DIRECTIVE_KINDS)
    if unknown:
        raise ValueError(f"unknown directive kinds {sorted(unknown)} "
                         f"(known: {', '.join(DIRECTIVE_KINDS)})")
    g = _Generator(seed, kinds)
    arrays = [(f"A{k}", g.array_type()) for k in range(g.rng.randint(1, 3))]
    scalars = [(f"s{k}", g.pick_type()) for k in range(g.rng.randint(1, 3))]
    tables = []
    if g.const_rng.random() < 0.3:
        for k in range(g.const_rng.randint(1, 2)):
            name, t, text = _const_table(g.const_rng, k)
            g.const_tables[name] = t
            tables.append(f"{name} = vichls.const({text}, {_spell(t.element)})")
            if isinstance(t.element, FixedType):
                g.uses_fixed = True
    if g.float_rng.random() < 0.1:  # a float32 table, which the float32 draws read
        name, t, text = _float_table(g.float_rng, len(tables))
        g.const_tables[name] = t
        tables.append(f"{name} = vichls.const({text}, float32)")
        g.uses_float = True
    fixed_params = []
    if g.fixed_rng.random() < 0.3:
        fixed_params = [("F0", ArrayType(g.fixed_rng.choice(FIXED_TYPES),
                                         (g.fixed_rng.choice(SIZES),)))]
    float_params = []
    if g.float_rng.random() < 0.2:
        float_params = [("G0", ArrayType(float32, (g.float_rng.choice(SIZES),)))]
    params = arrays + scalars + fixed_params + float_params
    ret = g.pick_type()
    header = [
        f'"""Generated by vichls.fuzz.progen from seed {seed}; top kernel: {TOP}."""',
        "",
        "from vichls import bool_, int8, int16, int32, int64, int_, kernel, uint8, uint16, "
        "uint32, uint64, uint_",
        "",
    ]
    if kinds or tables:
        header[3:3] = ["import vichls"]
    if tables:
        header += [""] + tables
    kernels = []
    callee = None
    if g.rng.random() < 0.4:
        shared = g.rng.choice(arrays)
        cparams = [("X", shared[1]), ("y", g.pick_type())]
        header += [""] + g.kernel("helper", cparams, None, None) + [""]
        callee = ("helper", cparams)
        kernels.append("helper")
    if g.extra_rng.random() < 0.15:  # a chain of kernels, each calling the one before
        ops = ["+", "^", "-", "*"]
        for k in range(g.extra_rng.randint(2, 6)):
            inner = "x" if k == 0 else f"link{k - 1}(x)"
            op = g.extra_rng.choice(ops)
            header += ["", "", "@kernel", f"def link{k}(x: int32) -> int32:",
                       f"    return {inner} {op} {g.extra_rng.randint(1, 9)}"]
            kernels.append(f"link{k}")
        g.link_top = kernels[-1]
    header += [""] + g.kernel(TOP, params, ret, callee)
    kernels.append(TOP)
    imports = header.index(next(h for h in header if h.startswith("from vichls import")))
    if g.uses_streams:
        header[imports] += ", stream"
    if g.uses_fixed:
        header[imports] += ", fixed, ufixed"
    if g.uses_float:
        header[imports] += ", float32, sqrt"
    read = {n: t for n, t in g.const_tables.items() if n in g.consts_read}
    calls = _draw_schedule(g, dict(arrays), read) if kinds and g.rng.random() < 0.85 else []
    if g.sweeps is not None and "dataflow()" not in calls:
        a, b, ii = g.sweeps
        calls += [f"pipeline({a!r}, ii={ii})", f"pipeline({b!r}, ii={ii})"]
    if g.nests is not None and "dataflow()" not in calls:
        a, b, ii = g.nests
        calls += [f"pipeline({a!r}, ii={ii})", f"pipeline({b!r}, ii={ii})"]
    if calls:
        header += ["", "", f"s = vichls.customize({TOP})"] + [f"s.{c}" for c in calls]
    return GeneratedProgram(seed, "\n".join(header) + "\n", TOP, params, kernels, calls)


def _draw_schedule(g: _Generator, param_arrays: dict[str, ArrayType],
                   tables: dict[str, ArrayType] | None = None) -> list[str]:
    """1 to 4 directives of the allowed kinds, valid by construction: loop directives only
    on counted loops with constant bounds and no exits of their own (affine.for in the IR),
    reorder and flatten only on the perfect bands of ``band_statement`` (triangular ones
    too; flatten only on a sub-band it can count), pipeline and unroll by a factor also on
    a triangular loop, no loop directed
    twice (but a tile's new loops may be unrolled), partitions within the array's shape
    (complete ones on local arrays only)."""
    rng = g.rng
    loops = [lp for lp in g.top_loops if lp.directable]
    by_name = {lp.name: lp for lp in g.top_loops if lp.directable or lp.triangular}
    used: set[str] = set()
    partitioned: set[str] = set()
    calls: list[str] = []
    want = rng.choice([1, 1, 2, 2, 3, 4])
    kinds = sorted(g.directives)
    for _ in range(4 * want):
        if len(calls) >= want:
            break
        kind = rng.choice(kinds)
        free = [lp for lp in loops if lp.name not in used]
        triangles = [lp for lp in g.top_loops if lp.triangular and not lp.exits
                     and lp.name not in used]
        if kind == "unroll" and free + triangles:
            lp = rng.choice(free + triangles)
            used.add(lp.name)
            # (a triangular loop has no constant trip count: by a factor only)
            factor = (None if rng.random() < 0.4 and not lp.triangular
                      else rng.randint(2, 4))
            calls.append(f"unroll({lp.name!r})" if factor is None
                         else f"unroll({lp.name!r}, factor={factor})")
        elif kind == "tile" and free:
            lp = rng.choice(free)
            used.add(lp.name)
            calls.append(f"tile({lp.name!r}, {rng.randint(2, 4)})")
            follow = rng.random()
            if follow < 0.3:
                calls.append(f"unroll('{lp.name}.inner')")
            elif follow < 0.45:
                calls.append(f"unroll('{lp.name}.outer', factor=2)")
        elif kind in ("reorder", "flatten"):
            heads = [lp for lp in loops if lp.band
                     and not used & set(lp.band) and all(n in by_name for n in lp.band)]
            if not heads:
                continue
            head = rng.choice(heads)
            band = list(head.band)
            if kind == "reorder":
                # iterations that update the same elements differ only in the unused loops,
                # so those keep their relative order
                order = band[:]
                while order == band or [n for n in order if n in head.band_unused] != list(
                        head.band_unused):
                    rng.shuffle(order)
                used.update(band)
                calls.append(f"reorder({', '.join(map(repr, order))})")
            else:
                # a sub-band whose bounds use only its own loops, or whose loops below the
                # first have constant bounds (the first may then use an outer loop)
                uses = head.band_uses or (None,) * len(band)
                spans = [(lo, hi) for lo in range(len(band) - 1)
                         for hi in range(lo + 2, len(band) + 1)
                         if all(uses[k] is None for k in range(lo + 1, hi))
                         or (uses[lo] is None and all(
                             uses[k] is None or uses[k] >= lo for k in range(lo + 1, hi)))]
                if not spans:
                    continue
                lo, hi = rng.choice(spans)
                used.update(band[lo:hi])
                calls.append(f"flatten({', '.join(map(repr, band[lo:hi]))})")
        elif kind == "pipeline":
            inner = [lp for lp in free + triangles if lp.inner]
            if inner:
                lp = rng.choice(inner)
                used.add(lp.name)
                calls.append(f"pipeline({lp.name!r}, ii={rng.choice([1, 1, 2, 3])})")
        elif kind == "dataflow" and "dataflow()" not in calls:
            calls.append("dataflow()")  # the whole top kernel as a dataflow region
        elif kind == "partition":
            arrays = {**param_arrays, **g.top_local_arrays, **(tables or {})}
            names = [n for n in sorted(arrays) if n not in partitioned]
            if not names:
                continue
            name = rng.choice(names)
            partitioned.add(name)
            shape = arrays[name].shape
            local = name in g.top_local_arrays or name in (tables or {})
            part_kind = rng.choice(["cyclic", "block", "complete"] if local else
                                   ["cyclic", "block"])
            dims = list(range(0 if (local or len(shape) == 1) else 1, len(shape) + 1))
            dim = rng.choice(dims)
            if part_kind == "complete":
                calls.append(f"partition({name!r}, dim={dim}, kind='complete')")
                continue
            size = min(shape) if dim == 0 else shape[dim - 1]
            factor = rng.randint(1, size)
            calls.append(f"partition({name!r}, dim={dim}, factor={factor}, kind={part_kind!r})")
            if dim >= 1 and len(shape) >= 2 and rng.random() < 0.4:
                # a second dimension with a partition of its own: they compose into a grid
                other = rng.choice([d for d in range(1, len(shape) + 1) if d != dim])
                other_kind = rng.choice(["cyclic", "block"])
                other_factor = rng.randint(1, shape[other - 1])
                calls.append(f"partition({name!r}, dim={other}, factor={other_factor}, "
                             f"kind={other_kind!r})")
    return calls


def generate_program(seed: int, directives=None) -> str:
    """Python source of a module holding the random kernels of ``seed`` (top: ``top``)."""
    return build_program(seed, directives).source


def make_args(seed: int) -> tuple:
    """Arguments for the top kernel of ``generate_program(seed)``."""
    return args_for([t for _, t in build_program(seed).params], seed)


def args_for(param_types, seed: int) -> tuple:
    """Arguments of the given parameter types drawn from ``seed`` (edge values mixed with
    random ones); a shrunk program keeps its parameters, so it gets the same arguments."""
    rng = np.random.default_rng([seed, 0x5EED])
    return tuple(
        array(rng, t.element, t.shape) if isinstance(t, ArrayType) else scalar(rng, t)
        for t in param_types
    )


def load_program(seed: int, directory: Path, directives=None):
    """Write the program of ``seed`` to ``directory`` and import it (the front end reads
    kernel source from files); returns the module, whose ``top`` is the top kernel and,
    when the program has directives, ``s`` its schedule."""
    path = Path(directory) / f"progen_{seed}{'_d' if directives else ''}.py"
    path.write_text(generate_program(seed, directives))
    module_name = f"progen_{seed}_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def programs():
    """A hypothesis strategy of ``GeneratedProgram`` (shrinks towards small seeds)."""
    from hypothesis import strategies as st

    return st.integers(min_value=0, max_value=2**32 - 1).map(build_program)
