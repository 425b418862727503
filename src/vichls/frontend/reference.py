"""The golden reference: a typed kernel tree → a plain Python function with exact semantics.

Calling a ``@kernel`` runs this function on numpy arrays in place. It is generated Python
source (not a tree walker) so it runs at Python speed: every value is a Python int,
every operation is followed by an explicit wrap into its type, division and shifts go
through small helpers that implement the contract's rules (floor division, division by
zero, shift amounts at or above the width), and every array access checks its bounds so
that an out-of-range index raises ``IndexError`` (negative indices included, which numpy
would otherwise wrap).

Stream parameters take ``vichls.Stream`` objects: ``get`` consumes their oldest element and
``put`` appends, in place; local streams are new ``Stream`` objects. Streams are unbounded
here (depth only matters in hardware); a ``get`` from an empty stream raises
``StreamUnderflowError`` at the kernel's source position.

``bounded_reference(kernel, max_steps)`` is the same function with a budget of loop
iterations (every iteration of every ``for`` and ``while``, callees included), for callers
that must not hang on a kernel that never terminates (``vichls sim``, ``vichls fuzz``): it
raises ``ReferenceStepLimit`` when the budget runs out. Counting iterations rather than
seconds makes the limit deterministic and lets it work in any thread (a signal-based time
limit only works in the main thread); the language has no recursion, so every
non-terminating run iterates some loop for ever.
"""

from __future__ import annotations

import ast

import numpy as np

from vichls.limits import deep
from vichls.errors import StreamUnderflowError, VichlsError
from vichls.frontend import tree as T
from vichls.signature import call_on_raw
from vichls.types import ArrayType, FloatType, ScalarType, Stream, float32_of


def _stream_get(s: Stream, name: str, filename: str, line: int, col: int):
    if s.empty():
        raise StreamUnderflowError(name, filename, line, col)
    return s.get_raw()


class ReferenceStepLimit(VichlsError):
    """A bounded reference ran more loop iterations than its budget allows."""

    def __init__(self, kernel_name: str, max_steps: int):
        super().__init__(f"the Python reference of '{kernel_name}' did not finish within "
                         f"{max_steps:,} loop iterations: the kernel may not terminate on "
                         "these inputs")
        self.kernel_name = kernel_name
        self.max_steps = max_steps


def _wrap(code: str, t: ScalarType) -> str:
    if t.signed:
        half = 1 << (t.width - 1)
        return f"(((({code}) + {half}) & {t.mask}) - {half})"
    return f"(({code}) & {t.mask})"


def _check(i: int, n: int) -> int:
    if 0 <= i < n:
        return i
    raise IndexError(f"index {i} is out of range for a dimension of size {n}")


def _wrapv(v: int, width: int, signed: bool) -> int:
    v &= (1 << width) - 1
    if signed and v >> (width - 1):
        v -= 1 << width
    return v


def _floordiv(a: int, b: int, width: int, signed: bool) -> int:
    if b == 0:
        return -1 if signed else (1 << width) - 1
    return _wrapv(a // b, width, signed)


def _mod(a: int, b: int, width: int, signed: bool) -> int:
    if b == 0:
        return a
    return _wrapv(a % b, width, signed)


def _shl(a: int, b: int, width: int, signed: bool) -> int:
    b &= (1 << width) - 1  # the amount is read as an unsigned value of the type
    if b >= width:
        return 0
    return _wrapv(a << b, width, signed)


def _shr(a: int, b: int, width: int, signed: bool) -> int:
    b &= (1 << width) - 1
    if b >= width:
        return -1 if (signed and a < 0) else 0
    return a >> b


def _float_to_int(x, width: int, signed: bool) -> int:
    """float32 -> integer: toward zero, wrapped (NaN, infinities and values out of range are
    undefined in the language, as in C: 0 here)."""
    if not np.isfinite(x):
        return 0
    return _wrapv(int(x), width, signed)


def _fmin(a, b):
    return b if b < a else a  # Python's min(a, b): a NaN first propagates


def _fmax(a, b):
    return b if b > a else a


def _f32_literal(value: float) -> str:
    return f"_f32(float.fromhex({value.hex()!r}))"


_HELPERS = {
    "_f32": np.float32,
    "_i2f": lambda v: np.float32(float32_of(v)),
    "_f2i": _float_to_int,
    "_fmin": _fmin,
    "_fmax": _fmax,
    "_fsqrt": np.sqrt,
    "_fbits": lambda x: int(np.float32(x).view(np.uint32)),
    "_ck": _check,
    "_fdiv": _floordiv,
    "_mod": _mod,
    "_shl": _shl,
    "_shr": _shr,
    "_np": np,
    "_sget": _stream_get,
    "_Stream": Stream,
}

_CMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
_FLOAT_ARITH = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_ARITH = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^"}


class _Gen:
    def __init__(self, kt: T.KernelTree, count_steps: bool = False):
        self.kt = kt
        self.lines: list[str] = []
        self.callees: dict[str, object] = {}
        self.stream_types: dict[str, object] = {}
        self.count_steps = count_steps  # spend one unit of the budget ``_b`` per iteration
        self.level = 0  # nesting of the expression being written
        self.fragments: dict[str, str] = {}  # placeholder -> the text it stands for

    def stream_type(self, sym: T.Sym) -> str:
        """The name of a namespace entry holding the StreamType of a local stream."""
        name = f"_st_{sym.uid}"
        self.stream_types[name] = sym.type
        return name

    def callee_name(self, k) -> str:
        name = f"_k_{k.name}"
        self.callees[name] = k
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    # -- expressions --------------------------------------------------------------------
    def expr(self, e: T.Expr) -> str:
        """The Python text of ``e``. Python's tokenizer takes at most 200 nested
        parentheses, so every ``_FRAGMENT_LEVELS`` levels of a deep expression (a sum of a
        thousand terms) the text below becomes a placeholder name, put back as a syntax
        tree before compiling (``_compile``): the code is the same, only written in parts."""
        self.level += 1
        try:
            text = self._expr_text(e)
        finally:
            self.level -= 1
        if self.level and self.level % _FRAGMENT_LEVELS == 0:
            name = f"_vichls_part_{len(self.fragments)}"
            self.fragments[name] = text
            return name
        return text

    def _expr_text_general(self, e: T.Expr) -> str:
        """What float and integer expressions share (reads, lets, conditionals, calls)."""
        if isinstance(e, T.Read):
            return e.sym.uid
        if isinstance(e, T.Let):  # the value first, once; then the body reads it
            return f"(({e.sym.uid} := {self.expr(e.value)}), {self.expr(e.body)})[1]"
        if isinstance(e, T.Cond):
            return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.orelse)})"
        if isinstance(e, T.Logical):
            return f"({self.expr(e.lhs)} {e.op} {self.expr(e.rhs)})"
        if isinstance(e, T.CallExpr):
            return self.call(e)
        if isinstance(e, T.StreamGet):  # (a float32 stream holds numpy float32 values)
            loc = e.loc
            return (f"_sget({e.stream.uid}, {e.stream.name!r}, {loc.filename!r}, {loc.line}, "
                    f"{loc.col})")
        raise AssertionError(f"unknown expression {type(e).__name__}")

    def _expr_text(self, e: T.Expr) -> str:
        t = e.ty
        if isinstance(t, FloatType) or (isinstance(e, T.Convert) and
                                        isinstance(e.arg.ty, FloatType)):
            return self._float_text(e)
        if isinstance(e, T.Const):
            return f"({e.value})"
        if isinstance(e, (T.Read, T.Let, T.Cond, T.Logical, T.CallExpr, T.StreamGet)):
            return self._expr_text_general(e)
        if isinstance(e, T.Load):
            return f"{e.array.uid}.item({self.index(e.array, e.indices)})"
        if isinstance(e, T.Convert):
            a = e.arg.ty
            inner = self.expr(e.arg)
            if a.width <= t.width and (a.signed == t.signed or (not a.signed and a.width < t.width)):
                return inner  # every value of a fits in t unchanged
            return _wrap(inner, t)
        if isinstance(e, T.Unary):
            a = self.expr(e.arg)
            if e.op == "neg":
                return _wrap(f"-{a}", t)
            if e.op == "invert":
                return _wrap(f"~{a}", t)
            if e.op == "not":
                return f"(1 if {a} == 0 else 0)"
            if e.op == "truthy":
                return f"(1 if {a} != 0 else 0)"
            if e.op == "abs":
                return _wrap(f"abs({a})", t)
            if e.op == "bits":  # a float32's IEEE-754 bits
                return f"_fbits({a})"
        if isinstance(e, T.Binary):
            a, b = self.expr(e.lhs), self.expr(e.rhs)
            if e.op in _CMP:
                return f"(1 if {a} {_CMP[e.op]} {b} else 0)"
            if e.op in _ARITH:
                return _wrap(f"{a} {_ARITH[e.op]} {b}", t)
            if e.op in ("min", "max"):
                return f"{e.op}({a}, {b})"
            fn = {"floordiv": "_fdiv", "mod": "_mod", "shl": "_shl", "shr": "_shr"}[e.op]
            return f"{fn}({a}, {b}, {t.width}, {t.signed})"
        raise AssertionError(f"unknown expression {type(e).__name__}")

    def _float_text(self, e: T.Expr) -> str:
        """A float32 expression (or a conversion of one to an integer): numpy float32
        scalars, which compute in binary32 with IEEE rounding."""
        t = e.ty
        if isinstance(e, T.Const):
            return _f32_literal(float(e.value))
        if isinstance(e, T.Load):  # (indexing keeps the float32 scalar; .item() would not)
            return f"{e.array.uid}[{self.index(e.array, e.indices)}]"
        if isinstance(e, T.Convert):
            inner = self.expr(e.arg)
            if isinstance(e.arg.ty, FloatType) and isinstance(t, FloatType):
                return inner
            if isinstance(t, FloatType):
                return f"_i2f({inner})"
            return f"_f2i({inner}, {t.width}, {t.signed})"
        if isinstance(e, T.Unary):
            a = self.expr(e.arg)
            return {"neg": f"(-{a})", "abs": f"abs({a})", "sqrt": f"_fsqrt({a})"}[e.op]
        if isinstance(e, T.Binary):
            a, b = self.expr(e.lhs), self.expr(e.rhs)
            if e.op in ("min", "max"):
                return f"_f{e.op}({a}, {b})"
            return f"({a} {_FLOAT_ARITH[e.op]} {b})"
        return self._expr_text_general(e)

    def index(self, arr: T.Sym, indices: list[T.Expr]) -> str:
        shape = arr.type.shape
        return ", ".join(f"_ck({self.expr(i)}, {d})" for i, d in zip(indices, shape))

    def call(self, c: T.CallExpr) -> str:
        args = [a.uid if isinstance(a, T.Sym) else self.expr(a) for a in c.args]
        return f"{self.callee_name(c.kernel)}({', '.join(args)})"

    # -- statements -------------------------------------------------------------------------
    def block(self, stmts: list[T.Stmt], depth: int) -> None:
        if not stmts:
            self.emit(depth, "pass")
        for s in stmts:
            self.stmt(s, depth)

    def loop_body(self, stmts: list[T.Stmt], depth: int) -> None:
        if self.count_steps:
            self.emit(depth, "_b[0] -= 1")
            self.emit(depth, "if _b[0] < 0: _out_of_steps()")
        self.block(stmts, depth)

    def stmt(self, s: T.Stmt, depth: int) -> None:
        if isinstance(s, T.Assign):
            self.emit(depth, f"{s.sym.uid} = {self.expr(s.value)}")
        elif isinstance(s, T.Store):
            value = self.expr(s.value)
            self.emit(depth, f"_v = {value}")
            self.emit(depth, f"{s.array.uid}[{self.index(s.array, s.indices)}] = _v")
        elif isinstance(s, T.InitArray):
            at: ArrayType = s.array.type
            value = _f32_literal(float(s.value)) if isinstance(at.element, FloatType) \
                else s.value
            self.emit(depth, f"{s.array.uid} = _np.full({at.shape}, {value}, "
                             f"dtype=_np.dtype('{at.element.dtype.name}'))")
        elif isinstance(s, T.For):
            self.emit(depth, f"for {s.var.uid} in range({self.expr(s.start)}, "
                             f"{self.expr(s.stop)}, {s.step}):")
            self.loop_body(s.body, depth + 1)
        elif isinstance(s, T.While):
            self.emit(depth, f"while {self.expr(s.cond)}:")
            self.loop_body(s.body, depth + 1)
        elif isinstance(s, T.If):
            self.emit(depth, f"if {self.expr(s.cond)}:")
            self.block(s.then, depth + 1)
            while len(s.orelse) == 1 and isinstance(s.orelse[0], T.If):  # an elif chain
                s = s.orelse[0]  # stays flat, as Python nests no deeper than 100 blocks
                self.emit(depth, f"elif {self.expr(s.cond)}:")
                self.block(s.then, depth + 1)
            if s.orelse:
                self.emit(depth, "else:")
                self.block(s.orelse, depth + 1)
        elif isinstance(s, T.Break):
            self.emit(depth, "break")
        elif isinstance(s, T.Continue):
            self.emit(depth, "continue")
        elif isinstance(s, T.Return):
            self.emit(depth, "return" if s.value is None else f"return {self.expr(s.value)}")
        elif isinstance(s, T.CallStmt):
            self.emit(depth, self.call(s.call))
        elif isinstance(s, T.StreamPut):
            self.emit(depth, f"{s.stream.uid}.put_raw({self.expr(s.value)})")
        elif isinstance(s, T.Discard):
            self.emit(depth, self.expr(s.value))
        elif isinstance(s, T.InitStream):
            self.emit(depth, f"{s.stream.uid} = _Stream({self.stream_type(s.stream)})")
        else:
            raise AssertionError(f"unknown statement {type(s).__name__}")

    def function(self) -> str:
        kt = self.kt
        self.emit(0, f"def {kt.name}({', '.join(p.uid for p in kt.params)}):")
        for sym in kt.locals:
            if not sym.is_array and not sym.is_stream:
                zero = "_f32(0.0)" if isinstance(sym.type, FloatType) else "0"
                self.emit(1, f"{sym.uid} = {zero}")
        self.block(kt.body, 1)
        return "\n".join(self.lines) + "\n"


#: expression levels written as one piece of text (each level adds up to 5 parentheses)
_FRAGMENT_LEVELS = 25


def _compile(src: str, filename: str, fragments: dict[str, str]):
    """Compile generated source whose placeholders stand for the texts in ``fragments``."""
    if not fragments:
        return compile(src, filename, "exec")
    parsed = {name: ast.parse(text, filename, mode="eval").body
              for name, text in fragments.items()}

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name):
            if node.id in parsed:
                return ast.copy_location(self.visit(parsed[node.id]), node)
            return node

    tree = Substitute().visit(ast.parse(src, filename))
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


def _consts(kt: T.KernelTree) -> dict:
    """The constant arrays the kernel reads, by the names its code gives them (raw bits)."""
    return {sym.uid: c.raw for sym, c in kt.consts}


def reference_source(kernel) -> str:
    """The Python source of a kernel's reference function (for reading and debugging)."""
    return _Gen(kernel.tree()).function()


@deep
def build_reference(kernel):
    gen = _Gen(kernel.tree())
    src = gen.function()
    namespace = dict(_HELPERS, **gen.stream_types, **_consts(gen.kt))
    for name, k in gen.callees.items():
        namespace[name] = k.reference()
    filename = f"<vichls reference of {kernel.name}>"
    exec(_compile(src, filename, gen.fragments), namespace)
    fn = namespace[kernel.tree().name]
    fn.__vichls_source__ = src
    return fn


@deep
def bounded_reference(kernel, max_steps: int):
    """The reference of ``kernel`` with a budget of ``max_steps`` loop iterations per call
    (callees included): a call that needs more raises ``ReferenceStepLimit``. Otherwise it
    computes exactly what ``kernel.reference()`` computes."""
    if max_steps < 0:
        raise ValueError("max_steps must be non-negative")
    budget = [0]
    top = _bounded(kernel, budget, kernel.name, max_steps, {})

    def call(*args):
        budget[0] = max_steps
        return call_on_raw(kernel.signature, args, top)

    call.__name__ = kernel.name
    return call


def _bounded(kernel, budget: list, top_name: str, max_steps: int, built: dict):
    """The counting reference function of ``kernel`` and its callees, all spending
    ``budget``; ``built`` shares callees called from several places."""
    if kernel.name in built:
        return built[kernel.name]
    gen = _Gen(kernel.tree(), count_steps=True)
    src = gen.function()

    def out_of_steps():
        raise ReferenceStepLimit(top_name, max_steps)

    namespace = dict(_HELPERS, _b=budget, _out_of_steps=out_of_steps, **gen.stream_types,
                     **_consts(gen.kt))
    for name, k in gen.callees.items():
        namespace[name] = _bounded(k, budget, top_name, max_steps, built)
    exec(_compile(src, f"<vichls bounded reference of {kernel.name}>", gen.fragments), namespace)
    fn = built[kernel.name] = namespace[kernel.tree().name]
    return fn
