"""The checker: Python AST of a kernel → typed kernel tree (``tree.py``).

It resolves every name (parameters, locals, loop variables, module-level int constants,
types, other kernels), applies the typing rules of the kernel language contract
(common type of binary operations, literals taking the other operand's type, conversion
on assignment, ``bool_`` comparisons, loop variables ``int32`` unless their bounds need
more) and rejects everything the language does not allow with a ``KernelError`` naming
file, line and column. Constant expressions of literals and module constants fold to
literals with Python's arbitrary-precision meaning before they meet a type.

Streams (``stream[T, depth]``) are parameters or top-level locals used only through
``s.get()`` and ``s.put(e)`` and as arguments of called kernels; every other use is refused
here, so the walkers only ever see ``StreamGet``/``StreamPut``/``InitStream`` and stream
symbols passed whole to calls. A stream parameter's direction ("in" when got from, "out"
when put to, counting the uses of the kernels it is passed to) is decided here too.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import Optional

from vichls.errors import KernelError
from vichls.frontend import fixed_point as FX
from vichls.frontend import tree as T
from vichls.frontend.markers import KernelBase, loop, sqrt
from vichls.types import (
    MAX_WIDTH,
    OVERFLOW_MODES,
    QUANT_MODES,
    ArrayType,
    ConstArray,
    FixedType,
    FloatType,
    ScalarType,
    StreamType,
    bool_,
    common_type,
    fixed,
    float32,
    float32_of,
    int32,
    int64,
    int_,
    quantize,
    ufixed,
    uint_,
)

#: a name whose ending xDSL takes for its own numbering of SSA names (and drops)
_NUMBERED = re.compile(r".*_[0-9]+")
from vichls.types import stream as _stream_types

_BINOPS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
    ast.LShift: "shl",
    ast.RShift: "shr",
}
_CMPOPS = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
_PY_CMP = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}


class _Lit:
    """An integer constant that has not met a type yet."""

    __slots__ = ("value", "loc")

    def __init__(self, value: int, loc: T.Loc):
        self.value = int(value)
        self.loc = loc


class _FLit:
    """A float literal (``0.25``, ``-1.5e-3``, or arithmetic of literals folded as Python
    folds it) that has not met a type: it becomes a value only beside or as a fixed-point
    value."""

    __slots__ = ("value", "loc")

    def __init__(self, value: float, loc: T.Loc):
        self.value = float(value)
        self.loc = loc


_FLOAT_FOLD = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b,
               "mul": lambda a, b: a * b, "div": lambda a, b: a / b}

#: fixed-point operands: these operators are not defined on them
_INTEGER_ONLY_OPS = {"floordiv": "//", "mod": "%", "and": "&", "or": "|", "xor": "^"}


def _is_fixed(e) -> bool:
    return isinstance(e, T.Expr) and isinstance(e.ty, FixedType)


def _is_float(e) -> bool:
    return isinstance(e, T.Expr) and isinstance(e.ty, FloatType)


def _fold_binop(op: str, a: int, b: int, err) -> int:
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op in ("floordiv", "mod"):
        if b == 0:
            raise err("division by zero in a constant expression")
        return a // b if op == "floordiv" else a % b
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op in ("shl", "shr"):
        if b < 0:
            raise err("negative shift amount in a constant expression")
        if op == "shl" and b > 4096:
            raise err("shift amount too large in a constant expression")
        return a << b if op == "shl" else a >> b
    if op == "min":
        return min(a, b)
    if op == "max":
        return max(a, b)
    raise AssertionError(op)


def _literal_type(value: int) -> ScalarType:
    """Type of a literal with no typed context: int32, or int64 where int32 cannot hold it."""
    return int32 if int32.min <= value <= int32.max else int64


class Checker:
    def __init__(self, kernel, fn_ast: ast.FunctionDef, filename: str, line_offset: int,
                 col_offset: int):
        self.kernel = kernel
        self.fn_ast = fn_ast
        self.filename = filename
        self.line_offset = line_offset
        self.col_offset = col_offset
        self.globals = kernel.fn.__globals__
        self.scopes: list[dict[str, T.Sym]] = []
        self.locals: list[T.Sym] = []
        self.params: list[T.Sym] = []
        self.callees: list = []
        self.uids: set[str] = set()
        self.loop_depth = 0
        self.if_depth = 0
        self.ret: Optional[ScalarType] = None
        self.fx = FX.FixedPoint(self.new_uid)
        self.consts: dict[str, tuple[T.Sym, ConstArray]] = {}  # by module-level name

    # -- locations and errors ------------------------------------------------------------
    def loc(self, node: ast.AST) -> T.Loc:
        return T.Loc(
            self.filename,
            getattr(node, "lineno", 1) + self.line_offset,
            getattr(node, "col_offset", 0) + self.col_offset + 1,
        )

    def error(self, node: ast.AST, message: str) -> KernelError:
        loc = self.loc(node)
        return KernelError(message, loc.filename, loc.line, loc.col)

    # -- symbols ----------------------------------------------------------------------------
    def new_uid(self, name: str) -> str:
        """A name for the symbol unique in the kernel (``i``, then ``i_2``, ...). The IR
        keeps it as an SSA name hint, from which xDSL drops a ``_<digits>`` ending (its own
        numbering): ``i_2`` reads back as ``i``, which still names the same source variable,
        but a source name with such an ending (``i0_1``) would read back as another
        (``i0``), so its names end in ``_`` (``i0_1_``, ``i0_1_2_``)."""
        uid, n = name, 1
        numbered = _NUMBERED.fullmatch(name) is not None
        while (uid + "_" * numbered) in self.uids or uid.startswith("_v"):
            n += 1
            uid = f"{name}_{n}"
        uid += "_" * numbered
        self.uids.add(uid)
        return uid

    def const_array(self, name: str, node: ast.AST) -> Optional[T.Sym]:
        """The symbol of the module-level constant array ``name`` (``vichls.const``), or None
        when ``name`` is not one (a local name shadows it)."""
        if self.lookup(name) is not None or not isinstance(self.globals.get(name), ConstArray):
            return None
        if name not in self.consts:
            c = self.globals[name]
            sym = T.Sym(name, "const_array", c.type, self.new_uid(name), loc=self.loc(node))
            self.consts[name] = (sym, c)
        return self.consts[name][0]

    def lookup(self, name: str) -> Optional[T.Sym]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def declare(self, node, name: str, kind: str, ty) -> T.Sym:
        if name in _RESERVED:
            raise self.error(node, f"'{name}' cannot be used as a variable name")
        sym = T.Sym(name, kind, ty, self.new_uid(name), loc=self.loc(node))
        if kind in ("local", "local_array", "local_stream"):
            self.locals.append(sym)
            self.scopes[0][name] = sym  # Python locals are function-wide
        else:
            self.scopes[-1][name] = sym
        return sym

    # -- module-level values ------------------------------------------------------------------
    def global_value(self, node: ast.AST, name: str):
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(node, f"unknown name '{name}'")

    def const_int(self, node: ast.AST) -> Optional[int]:
        """The value of a constant integer expression, or None if it is not one."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or isinstance(node.value, int):
                return int(node.value)
            return None
        if isinstance(node, ast.Name):
            if self.lookup(node.id) is not None:
                return None
            if node.id in self.globals:
                v = self.globals[node.id]
                if isinstance(v, (bool, int)) and not isinstance(v, ScalarType):
                    return int(v)
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
            v = self.const_int(node.operand)
            if v is None:
                return None
            return -v if isinstance(node.op, ast.USub) else (~v if isinstance(node.op, ast.Invert) else v)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.const_int(node.left), self.const_int(node.right)
            if a is None or b is None:
                return None
            return _fold_binop(_BINOPS[type(node.op)], a, b, lambda m: self.error(node, m))
        return None

    def eval_type(self, node: ast.AST):
        """A type annotation: ``int32``, ``vichls.uint8``, ``int_(12)``, ``int32[N, M]``,
        ``stream[int32]``, ``vichls.stream[int32, 4]``."""
        if isinstance(node, ast.Subscript) and self.type_callee(node.value) is _stream_types:
            return self.stream_type(node)
        if isinstance(node, ast.Subscript):
            elem = self.eval_type(node.value)
            if isinstance(elem, StreamType):
                raise self.error(node, "arrays of streams are not supported")
            if not isinstance(elem, ScalarType):
                raise self.error(node, "array element type must be a scalar type")
            dims_node = node.slice
            dims = dims_node.elts if isinstance(dims_node, ast.Tuple) else [dims_node]
            shape = []
            for d in dims:
                v = self.const_int(d)
                if v is None:
                    raise self.error(d, "array dimensions must be constant integers "
                                        "(literals or module-level int constants)")
                if v < 1:
                    raise self.error(d, f"array dimension must be positive, got {v}")
                shape.append(v)
            if not 1 <= len(shape) <= 4:
                raise self.error(node, f"arrays have 1 to 4 dimensions, got {len(shape)}")
            try:
                return ArrayType(elem, tuple(shape))
            except ValueError as e:
                raise self.error(node, str(e)) from None
        if isinstance(node, ast.Call) and self.type_callee(node.func) in (fixed, ufixed):
            return self.fixed_type(node)
        if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1:
            f = self.type_callee(node.func)
            if f in (int_, uint_):
                w = self.const_int(node.args[0])
                if w is None or not 1 <= w <= 64:
                    raise self.error(node, "integer width must be a constant from 1 to 64")
                return f(w)
        if isinstance(node, (ast.Name, ast.Attribute)):
            v = self.resolve_global_expr(node)
            if isinstance(v, (ScalarType, StreamType)):
                return v
            if v is _stream_types:
                raise self.error(node, "a stream type names its element type: stream[int32] "
                                       "or stream[int32, depth]")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            raise self.error(node, "string annotations are not supported; write the type itself")
        raise self.error(node, "not a kernel type (expected int8..int64, uint8..uint64, bool_, "
                               "int_(w), uint_(w), or an array of one such as int32[N, M])")

    def fixed_type(self, node: ast.Call) -> FixedType:
        """``fixed(W, I)``, ``ufixed(W, I, quant="rnd", overflow="sat")`` (W and I constant
        integers, the modes string constants, by position or keyword)."""
        make = self.type_callee(node.func)
        name = make.__name__
        args = list(node.args)
        if not 2 <= len(args) <= 4:
            raise self.error(node, f"{name}(W, I) takes the width and the integer bits, then "
                                   "optionally quant= and overflow=")
        width, int_bits = self.const_int(args[0]), self.const_int(args[1])
        if width is None or not 1 <= width <= MAX_WIDTH:
            raise self.error(args[0], f"the width of {name}(W, I) must be a constant from 1 to "
                                      f"{MAX_WIDTH}")
        if int_bits is None or abs(int_bits) > 4096:
            raise self.error(args[1], f"the integer bits of {name}(W, I) must be a constant "
                                      "integer")
        modes = {"quant": "trn", "overflow": "wrap"}
        given = list(zip(("quant", "overflow"), args[2:])) + [(k.arg, k.value)
                                                             for k in node.keywords]
        for key, value in given:
            allowed = {"quant": QUANT_MODES, "overflow": OVERFLOW_MODES}.get(key)
            if allowed is None:
                raise self.error(value, f"{name}() takes quant= and overflow=, not {key}=")
            if not (isinstance(value, ast.Constant) and value.value in allowed):
                raise self.error(value, f"{key} must be one of "
                                        f"{', '.join(repr(m) for m in allowed)}")
            modes[key] = value.value
        return make(width, int_bits, modes["quant"], modes["overflow"])

    def stream_type(self, node: ast.Subscript) -> StreamType:
        """``stream[T]`` / ``stream[T, depth]`` (depth a positive constant, 2 by default)."""
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(parts) not in (1, 2):
            raise self.error(node, "a stream type is stream[T] or stream[T, depth]")
        elem = self.eval_type(parts[0])
        if not isinstance(elem, ScalarType):
            raise self.error(parts[0], "a stream holds scalars (streams of arrays or of "
                                       "streams are not supported)")
        depth = 2
        if len(parts) == 2:
            depth = self.const_int(parts[1])
            if depth is None or depth < 1:
                raise self.error(parts[1], "a stream's depth must be a positive constant")
        return StreamType(elem, depth)

    def stream_constructor(self, node: ast.AST) -> Optional[StreamType]:
        """The type of ``stream[T, depth]()`` (a new local stream), or None if ``node`` is
        not a call of a stream type."""
        if not isinstance(node, ast.Call):
            return None
        f = node.func
        if isinstance(f, ast.Subscript) and self.type_callee(f.value) is _stream_types:
            ty = self.stream_type(f)
        elif isinstance(f, (ast.Name, ast.Attribute)) and \
                isinstance(self.type_callee(f), StreamType):
            ty = self.type_callee(f)
        else:
            return None
        if node.args or node.keywords:
            raise self.error(node, "a local stream starts empty: write stream[T, depth]()")
        return ty

    def declare_stream(self, s: ast.stmt, target: ast.Name, ty: StreamType) -> list[T.Stmt]:
        if self.loop_depth or self.if_depth or len(self.scopes) > 1:
            raise self.error(s, "declare local streams at the top level of the kernel body, "
                                "not inside a loop or an if")
        sym = self.declare(target, target.id, "local_stream", ty)
        return [T.InitStream(self.loc(s), sym)]

    def stream_method(self, node: ast.AST) -> Optional[tuple[T.Sym, str]]:
        """(stream symbol, method name) if ``node`` is a call ``s.method(...)`` of a stream."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)):
            return None
        sym = self.lookup(node.func.value.id)
        if sym is None or not sym.is_stream:
            return None
        method = node.func.attr
        if method not in ("get", "put"):
            raise self.error(node, f"streams have get() and put(value) only, not {method}()")
        if node.keywords:
            raise self.error(node, f"{method}() takes no keyword arguments")
        return sym, method

    def use_stream(self, sym: T.Sym, how: str, loc: T.Loc) -> None:
        """Record that ``sym`` is got from (``how="get"``) or put to, for its direction."""
        if how == "get" and sym.first_get is None:
            sym.first_get = loc
        if how == "put" and sym.first_put is None:
            sym.first_put = loc

    def check_stream_directions(self) -> None:
        for p in self.params:
            if not p.is_stream:
                continue
            if p.first_get is None and p.first_put is None:
                raise KernelError(f"stream parameter '{p.name}' is never used: a stream "
                                  "parameter is either got from (x.get()) or put to (x.put(v))",
                                  p.loc.filename, p.loc.line, p.loc.col)
            if p.first_get is not None and p.first_put is not None:
                later = max(p.first_get, p.first_put, key=lambda l: (l.line, l.col))
                first = p.first_put if later is p.first_get else p.first_get
                raise KernelError(f"stream parameter '{p.name}' is both got from and put to "
                                  f"(also at line {first.line}): a stream parameter is an "
                                  "input (get) or an output (put), not both; use a local "
                                  "stream to pass values within a kernel",
                                  later.filename, later.line, later.col)

    def type_callee(self, node: ast.AST):
        if isinstance(node, (ast.Name, ast.Attribute)):
            try:
                return self.resolve_global_expr(node)
            except KernelError:
                return None
        return None

    def resolve_global_expr(self, node: ast.AST):
        if isinstance(node, ast.Name):
            return self.global_value(node, node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve_global_expr(node.value)
            if not hasattr(base, node.attr):
                raise self.error(node, f"unknown name '{ast.unparse(node)}'")
            return getattr(base, node.attr)
        raise self.error(node, f"unsupported expression '{ast.unparse(node)}'")

    # -- the kernel ---------------------------------------------------------------------------
    def run(self) -> T.KernelTree:
        fn = self.fn_ast
        a = fn.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults or a.kw_defaults:
            raise self.error(fn, "kernel parameters must be plain positional parameters "
                                 "without defaults")
        self.scopes.append({})
        for arg in a.args:
            if arg.annotation is None:
                raise self.error(arg, f"parameter '{arg.arg}' needs a type annotation")
            ty = self.eval_type(arg.annotation)
            kind = ("array_param" if isinstance(ty, ArrayType) else
                    "stream_param" if isinstance(ty, StreamType) else "scalar_param")
            if self.lookup(arg.arg):
                raise self.error(arg, f"duplicate parameter '{arg.arg}'")
            self.params.append(self.declare(arg, arg.arg, kind, ty))
        if fn.returns is not None and not (isinstance(fn.returns, ast.Constant)
                                           and fn.returns.value is None):
            rt = self.eval_type(fn.returns)
            if isinstance(rt, (ArrayType, StreamType)):
                what = "an array" if isinstance(rt, ArrayType) else "a stream"
                raise self.error(fn.returns, f"a kernel returns nothing or one scalar, not {what}")
            self.ret = rt
        body = list(fn.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        stmts = self.block(body)
        self.check_stream_directions()
        if self.ret is not None and not _always_returns(stmts):
            raise self.error(fn, f"kernel '{fn.name}' returns {self.ret!r} but can reach its "
                                 "end without a return statement")
        return T.KernelTree(fn.name, self.loc(fn), self.params, self.ret, stmts, self.locals,
                            self.callees, list(self.consts.values()))

    # -- statements -------------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[T.Stmt]:
        out: list[T.Stmt] = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s: ast.stmt) -> list[T.Stmt]:
        loc = self.loc(s)
        if isinstance(s, ast.AnnAssign):
            return self.ann_assign(s)
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1 or isinstance(s.targets[0], (ast.Tuple, ast.List)):
                raise self.error(s, "only single assignments are supported (no a = b = c, "
                                    "no tuple unpacking)")
            return self.assign(s, s.targets[0], s.value, None)
        if isinstance(s, ast.AugAssign):
            if type(s.op) not in _BINOPS:
                raise self.error(s, f"augmented assignment '{ast.unparse(s.op)}=' is not supported")
            return self.assign(s, s.target, s.value, _BINOPS[type(s.op)])
        if isinstance(s, ast.For):
            return [self.for_loop(s)]
        if isinstance(s, ast.While):
            if s.orelse:
                raise self.error(s, "'while ... else' is not supported")
            cond = self.truth(s.test)
            self.loop_depth += 1
            body = self.block(s.body)
            self.loop_depth -= 1
            return [T.While(loc, cond, body)]
        if isinstance(s, ast.If):
            cond = self.truth(s.test)
            self.if_depth += 1
            try:
                return [T.If(loc, cond, self.block(s.body), self.block(s.orelse))]
            finally:
                self.if_depth -= 1
        if isinstance(s, (ast.Break, ast.Continue)):
            if self.loop_depth == 0:
                raise self.error(s, f"'{type(s).__name__.lower()}' outside a loop")
            return [T.Break(loc) if isinstance(s, ast.Break) else T.Continue(loc)]
        if isinstance(s, ast.Return):
            if s.value is None:
                if self.ret is not None:
                    raise self.error(s, f"this kernel must return a {self.ret!r} value")
                return [T.Return(loc, None)]
            if self.ret is None:
                raise self.error(s, "this kernel has no return type; annotate it (-> int32) "
                                    "to return a value")
            return [T.Return(loc, self.convert(self.expr(s.value), self.ret, s.value))]
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return []  # a string statement is a comment
            method = self.stream_method(s.value)
            if method is not None and method[1] == "put":
                return [self.stream_put(s.value, method[0])]
            if method is not None:
                return [T.Discard(loc, self.expr(s.value))]
            if isinstance(s.value, ast.Call):
                call = self.kernel_call(s.value, want_value=False)
                if call is not None:
                    return [T.CallStmt(loc, call)]
                self.call(s.value)  # names the unsupported callee
            raise self.error(s, "an expression statement must be a call to another @kernel, "
                                "s.put(value) or s.get()")
        if isinstance(s, ast.Pass):
            return []
        raise self.error(s, f"'{_describe(s)}' is not supported in a kernel")

    def ann_assign(self, s: ast.AnnAssign) -> list[T.Stmt]:
        if not isinstance(s.target, ast.Name):
            raise self.error(s, "an annotated assignment must declare a plain name")
        name = s.target.id
        existing = self.lookup(name)
        if existing is not None:
            raise self.error(s.target, f"'{name}' is already declared")
        ty = self.eval_type(s.annotation)
        if s.value is None:
            raise self.error(s, f"'{name}' needs an initial value")
        if isinstance(ty, StreamType):
            made = self.stream_constructor(s.value)
            if made is None:
                raise self.error(s.value, f"a local stream is made with {ty!r}(), as in "
                                          f"'{name}: {ty!r} = {ty!r}()'")
            if made != ty:
                raise self.error(s.value, f"'{name}' is declared {ty!r} but made as {made!r}")
            return self.declare_stream(s, s.target, ty)
        if isinstance(ty, ArrayType):
            init = self.expr(s.value)
            if not isinstance(init, (_Lit, _FLit)):
                raise self.error(s.value, "a local array is initialised with a constant, as in "
                                          "'buf: int32[8] = 0'")
            raw = self.convert(init, ty.element, s.value).value
            sym = self.declare(s.target, name, "local_array", ty)
            return [T.InitArray(self.loc(s), sym, raw)]
        value = self.convert(self.expr(s.value), ty, s.value)
        sym = self.declare(s.target, name, "local", ty)
        return [T.Assign(self.loc(s), sym, value)]

    def assign(self, s: ast.stmt, target: ast.expr, value_node: ast.expr,
               op: Optional[str]) -> list[T.Stmt]:
        loc = self.loc(s)
        if isinstance(target, ast.Name):
            sym = self.lookup(target.id)
            if sym is None:
                if op is not None:
                    raise self.error(target, f"'{target.id}' is used before it is assigned")
                if self.is_global_name(target.id):
                    raise self.error(target, f"cannot assign to module-level name '{target.id}'")
                made = self.stream_constructor(value_node)
                if made is not None:
                    return self.declare_stream(s, target, made)
                value = self.expr(value_node)
                if isinstance(value, _FLit):
                    raise self.error(value_node, f"a float literal needs a fixed-point type: "
                                                 f"declare '{target.id}' with one, as in "
                                                 f"'{target.id}: fixed(16, 8) = "
                                                 f"{ast.unparse(value_node)}'")
                ty = value.ty if isinstance(value, T.Expr) else _literal_type(value.value)
                sym = self.declare(target, target.id, "local", ty)
                return [T.Assign(loc, sym, self.convert(value, ty, value_node))]
            if sym.kind == "loopvar":
                raise self.error(target, f"cannot assign to loop variable '{sym.name}'")
            if sym.is_array:
                raise self.error(target, f"cannot assign to array '{sym.name}' as a whole; "
                                         "assign its elements")
            if sym.is_stream:
                raise self.error(target, f"cannot assign to stream '{sym.name}': streams are "
                                         "declared once and used with get() and put()")
            if sym.kind == "scalar_param":
                sym.assigned = True
            rhs = self.expr(value_node)
            if op is not None:
                rhs = self.binary(s, op, T.Read(sym.type, self.loc(target), sym), rhs)
            return [T.Assign(loc, sym, self.convert(rhs, sym.type, value_node))]
        if isinstance(target, ast.Subscript):
            arr, indices = self.subscript(target)
            if arr.kind == "const_array":
                raise self.error(target, f"'{arr.name}' is a constant array (vichls.const): it "
                                         "cannot be written")
            rhs = self.expr(value_node)
            if op is not None:
                if any(T.contains(i, (T.CallExpr, T.StreamGet)) for i in indices):
                    raise self.error(target, "a kernel call or a stream get() inside the index "
                                             "of an augmented assignment is not supported")
                cur = T.Load(arr.scalar, self.loc(target), arr, indices)
                rhs = self.binary(s, op, cur, rhs)
            return [T.Store(loc, arr, indices, self.convert(rhs, arr.scalar, value_node))]
        raise self.error(target, "can only assign to a name or an array element")

    def is_global_name(self, name: str) -> bool:
        return name in self.globals

    def for_loop(self, s: ast.For) -> T.For:
        if s.orelse:
            raise self.error(s, "'for ... else' is not supported")
        if not isinstance(s.target, ast.Name):
            raise self.error(s.target, "a loop variable must be a plain name")
        it = s.iter
        label = None
        if isinstance(it, ast.Call) and self.type_callee(it.func) is _loop_marker():
            if len(it.args) != 1:
                raise self.error(it, "vichls.loop takes a range and an optional name=")
            for kw in it.keywords:
                if kw.arg != "name" or not isinstance(kw.value, ast.Constant) \
                        or not isinstance(kw.value.value, str):
                    raise self.error(kw, "vichls.loop takes only name='label'")
                label = kw.value.value
            it = it.args[0]
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and self.lookup("range") is None):
            raise self.error(it, "a for loop must iterate over range(...)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, "range takes 1 to 3 positional arguments")
        args = it.args
        start_n, stop_n = (None, args[0]) if len(args) == 1 else (args[0], args[1])
        step = 1
        if len(args) == 3:
            step = self.const_int(args[2])
            if step is None:
                raise self.error(args[2], "the step of a range must be a constant")
            if step == 0:
                raise self.error(args[2], "the step of a range must not be zero")
        start = self.expr(start_n) if start_n is not None else _Lit(0, self.loc(it))
        stop = self.expr(stop_n)
        for bound, bound_node in ((start, start_n), (stop, stop_n)):
            if not isinstance(bound, _Lit):
                self.integer(bound, bound_node, "a range bound")
        # int32 unless a bound needs more
        need64 = False
        for b in (start, stop):
            if isinstance(b, _Lit):
                need64 |= not int32.min <= b.value <= int32.max
            else:
                need64 |= not (b.ty.width < 32 or (b.ty.width == 32 and b.ty.signed))
        if not int32.min <= step <= int32.max:
            need64 = True
        iv_ty = int64 if need64 else int32
        start_e = self.convert(start, iv_ty, start_n or it)
        stop_e = self.convert(stop, iv_ty, stop_n)
        name = s.target.id
        existing = self.lookup(name)
        if existing is not None and existing.kind != "loopvar":
            raise self.error(s.target, f"loop variable '{name}' is already a "
                                       f"{'parameter' if 'param' in existing.kind else 'local'}")
        if existing is not None and existing.kind == "loopvar":
            raise self.error(s.target, f"loop variable '{name}' shadows an enclosing loop's")
        self.scopes.append({})
        var = self.declare(s.target, name, "loopvar", iv_ty)
        self.loop_depth += 1
        body = self.block(s.body)
        self.loop_depth -= 1
        self.scopes.pop()
        return T.For(self.loc(s), var, start_e, stop_e, step, body, label)

    # -- expressions ---------------------------------------------------------------------------
    def convert(self, e, ty: ScalarType, node: ast.AST) -> T.Expr:
        """``e`` as a value of ``ty`` (literals take it; typed values wrap to it; to or from
        a fixed-point type, as ap_fixed converts)."""
        if isinstance(ty, FloatType) and isinstance(e, (_Lit, _FLit)):
            return T.Const(ty, e.loc, float32_of(e.value))  # (np.float32(literal))
        if isinstance(e, _FLit):
            if not isinstance(ty, FixedType):
                raise self.error(node, f"a float literal becomes only a fixed-point or float32 "
                                       f"value, not {ty!r}")
            return T.Const(ty, e.loc, quantize(e.value, ty))
        if isinstance(e, _Lit):
            if isinstance(ty, FixedType):
                return T.Const(ty, e.loc, quantize(e.value, ty))
            return T.Const(ty, e.loc, ty.wrap(e.value))
        if e.ty == ty:
            return e
        if isinstance(ty, FloatType) or isinstance(e.ty, FloatType):
            return self.float_convert(e, ty, node)
        if isinstance(ty, FixedType) or isinstance(e.ty, FixedType):
            return self.fixed_op(node, lambda: self.fx.convert(e, ty))
        if isinstance(e, T.Const):
            return T.Const(ty, e.loc, ty.wrap(e.value))
        return T.Convert(ty, e.loc, e)

    def float_convert(self, e: T.Expr, ty: ScalarType, node: ast.AST) -> T.Expr:
        """A cast to or from float32: an integer or fixed value rounds to nearest even; a
        float32 becomes an integer rounded toward zero (as C converts; vichls wraps what is
        out of range), or a fixed value by the fixed type's quantization and overflow
        modes (exactly, as ap_fixed converts a float)."""
        fixed = ty if isinstance(ty, FixedType) else e.ty if isinstance(e.ty, FixedType) \
            else None
        if fixed is not None:
            why = FX.float32_range(fixed)
            if why is not None:
                raise self.error(node, f"cannot convert between float32 and {fixed!r}: {why}")
            if isinstance(ty, FixedType):
                return self.fx.from_float32(e, ty)
            return self.fx.to_float32(e)
        return T.Convert(ty, e.loc, e)

    def typed(self, e, node: ast.AST) -> T.Expr:
        if isinstance(e, _FLit):
            raise self.error(node, "a float literal needs a fixed-point or float32 type beside "
                                   "it or to convert to, as in 'x * 0.5' with x fixed-point or "
                                   "'float32(0.5)'")
        if isinstance(e, _Lit):
            return self.convert(e, _literal_type(e.value), node)
        return e

    def integer(self, e, node: ast.AST, what: str) -> T.Expr:
        """``e`` typed, where the language needs an integer (an index, a bound)."""
        e = self.typed(e, node)
        if isinstance(e.ty, (FixedType, FloatType)):
            raise self.error(node, f"{what} must be an integer, not {e.ty!r}; convert it, as "
                                   f"in int32(x)")
        return e

    def float_operand(self, e, node: ast.AST, op: str) -> T.Expr:
        """An operand beside a float32 value: a literal as a float32 constant; an integer or
        fixed-point value is refused (convert it explicitly)."""
        if isinstance(e, (_Lit, _FLit)):
            return T.Const(float32, e.loc, float32_of(e.value))
        if not _is_float(e):
            raise self.error(node, f"'{_SYMBOL_OF.get(op, op)}' of float32 and {e.ty!r}: "
                                   "convert the other operand, as in float32(x)")
        return e

    def float_binary(self, node, op: str, a, b) -> T.Expr:
        """A binary operation with a float32 operand: IEEE binary32, as numpy computes it."""
        if op in _INTEGER_ONLY_OPS or op in ("shl", "shr"):
            raise self.error(node, f"'{_SYMBOL_OF.get(op, op)}' is not defined for float32 "
                                   "values")
        fa, fb = self.float_operand(a, node, op), self.float_operand(b, node, op)
        return T.Binary(float32, self.loc(node), op, fa, fb)

    def fixed_op(self, node: ast.AST, build):
        """``build()`` (a fixed-point tree builder), its width errors at ``node``."""
        try:
            return build()
        except FX.FixedWidthError as e:
            raise self.error(node, str(e)) from None

    def fixed_operand(self, e, other, node: ast.AST) -> T.Expr:
        """An operand beside a fixed-point value: a literal as the smallest fixed type that
        holds it, a typed value as it is."""
        if isinstance(e, _Lit):
            return self.fixed_op(node, lambda: T.Const(FX.literal_type(e.value), e.loc,
                                                       e.value))
        if isinstance(e, _FLit):
            beside = other.ty if _is_fixed(other) else None
            t, raw = self.fixed_op(node, lambda: FX.float_literal(e.value, beside))
            return T.Const(t, e.loc, raw)
        return e

    def fixed_binary(self, node, op: str, a, b) -> T.Expr:
        """A binary operation with a fixed-point operand or a float literal."""
        if _is_float(a) or _is_float(b):
            return self.float_binary(node, op, a, b)
        loc = self.loc(node)
        literal = (_Lit, _FLit)
        if isinstance(a, literal) and isinstance(b, literal):
            if op not in _FLOAT_FOLD:
                raise self.error(node, f"'{_SYMBOL_OF.get(op, op)}' of float literals is not "
                                       "supported")
            return _FLit(_FLOAT_FOLD[op](float(a.value), float(b.value)), loc)
        if not (_is_fixed(a) or _is_fixed(b)):
            raise self.error(node, "a float literal is a fixed-point or float32 value: the "
                                   "other operand must be one too (convert it, as in "
                                   "fixed(32, 16)(x) or float32(x))")
        if op in ("shl", "shr"):
            if not _is_fixed(a):
                raise self.error(node, "the amount of a shift must be an integer")
            if isinstance(b, _Lit):
                return self.fx.shift(op, a, b.value, loc)
            if isinstance(b, _FLit) or _is_fixed(b):
                raise self.error(node, "the amount of a shift must be an integer")
            return self.fx.shift(op, a, b, loc)
        if op in _INTEGER_ONLY_OPS:
            raise self.error(node, f"'{_INTEGER_ONLY_OPS[op]}' is not defined for fixed-point "
                                   "values")
        if op == "div":
            raise self.error(node, "division of fixed-point values is not supported yet; "
                                   "multiply by the reciprocal (x * 0.25)")
        fa, fb = self.fixed_operand(a, b, node), self.fixed_operand(b, a, node)
        return self.fixed_op(node, lambda: self.fx.arith(op, fa, fb, loc))

    def truth(self, node: ast.AST) -> T.Expr:
        """A condition: any integer, true when non-zero."""
        e = self.typed(self.expr(node), node)
        if e.ty == bool_:
            return e
        return T.Unary(bool_, e.loc, "truthy", e)

    def expr(self, node: ast.AST):
        """A typed expression, or a ``_Lit`` for a constant that has not met a type."""
        loc = self.loc(node)
        v = self.const_int(node)
        if v is not None:
            return _Lit(v, loc)
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            return _FLit(node.value, loc)
        if isinstance(node, ast.Constant):
            raise self.error(node, f"{type(node.value).__name__} constants are not supported "
                                   "(integers and float literals only)")
        if isinstance(node, ast.Name):
            sym = self.lookup(node.id)
            if sym is None and self.const_array(node.id, node) is not None:
                raise self.error(node, f"constant array '{node.id}' used as a value; index it")
            if sym is None:
                if node.id in self.globals or hasattr(builtins, node.id):
                    val = self.global_value(node, node.id)
                    raise self.error(node, f"'{node.id}' is a {type(val).__name__}; kernels may "
                                           "only use module-level int constants")
                raise self.error(node, f"unknown name '{node.id}'")
            if sym.is_array:
                raise self.error(node, f"array '{sym.name}' used as a value; index it")
            if sym.is_stream:
                raise self.error(node, f"stream '{sym.name}' used as a value: a stream is used "
                                       f"only as {sym.name}.get(), {sym.name}.put(v) or as an "
                                       "argument of a kernel call")
            return T.Read(sym.type, loc, sym)
        if isinstance(node, ast.Subscript):
            arr, indices = self.subscript(node)
            return T.Load(arr.scalar, loc, arr, indices)
        if isinstance(node, ast.UnaryOp):
            a = self.expr(node.operand)
            if isinstance(a, _FLit) and isinstance(node.op, (ast.USub, ast.UAdd)):
                return _FLit(-a.value if isinstance(node.op, ast.USub) else a.value, loc)
            if isinstance(node.op, ast.Not):
                a = self.typed(a, node.operand)
                return T.Unary(bool_, loc, "not", a)
            a = self.typed(a, node.operand)
            if isinstance(node.op, ast.USub):
                if _is_float(a):
                    return T.Unary(float32, loc, "neg", a)
                if _is_fixed(a):
                    return self.fixed_op(node, lambda: self.fx.negate(a, loc))
                return T.Unary(a.ty, loc, "neg", a)
            if isinstance(node.op, ast.Invert):
                if _is_fixed(a) or _is_float(a):
                    raise self.error(node, f"'~' is not defined for {a.ty!r} values")
                return T.Unary(a.ty, loc, "invert", a)
            if isinstance(node.op, ast.UAdd):
                return a
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                left, right = self.expr(node.left), self.expr(node.right)
                if isinstance(left, (_Lit, _FLit)) and isinstance(right, (_Lit, _FLit)) \
                        and (isinstance(left, _FLit) or isinstance(right, _FLit)):
                    if float(right.value) == 0.0:
                        raise self.error(node, "division by zero in a constant expression")
                    return _FLit(float(left.value) / float(right.value), loc)
                if _is_fixed(left) or _is_fixed(right) or _is_float(left) or _is_float(right):
                    return self.fixed_binary(node, "div", left, right)
            if type(node.op) not in _BINOPS:
                symbol = _OPERATOR_SYMBOLS.get(type(node.op), type(node.op).__name__)
                raise self.error(node, f"operator '{symbol}' is not supported (no '/', '**' "
                                       "or '@': integers only; use '//' for division)")
            return self.binary(node, _BINOPS[type(node.op)], self.expr(node.left),
                               self.expr(node.right))
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            acc = self.expr(node.values[0])
            for rhs_node in node.values[1:]:
                rhs = self.expr(rhs_node)
                a, b = self.unify(acc, rhs, node)
                acc = T.Logical(a.ty, loc, op, a, b)
            return acc
        if isinstance(node, ast.IfExp):
            cond = self.truth(node.test)
            a, b = self.unify(self.expr(node.body), self.expr(node.orelse), node)
            return T.Cond(a.ty, loc, cond, a, b)
        if isinstance(node, ast.Call):
            method = self.stream_method(node)
            if method is not None:
                sym, name = method
                if name == "put":
                    raise self.error(node, f"{sym.name}.put(v) gives no value; use it as a "
                                           "statement")
                if node.args:
                    raise self.error(node, "get() takes no arguments")
                self.use_stream(sym, "get", loc)
                return T.StreamGet(sym.scalar, loc, sym)
            return self.call(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                (sym := self.lookup(node.value.id)) is not None and sym.is_stream:
            raise self.error(node, f"stream '{sym.name}' is used only as {sym.name}.get() or "
                                   f"{sym.name}.put(v)")
        raise self.error(node, f"'{_describe(node)}' is not supported in a kernel expression")

    def stream_put(self, node: ast.Call, sym: T.Sym) -> T.StreamPut:
        if len(node.args) != 1:
            raise self.error(node, "put() takes one value")
        value = self.convert(self.expr(node.args[0]), sym.scalar, node.args[0])
        loc = self.loc(node)
        self.use_stream(sym, "put", loc)
        return T.StreamPut(loc, sym, value)

    def unify(self, a, b, node) -> tuple[T.Expr, T.Expr]:
        """Both operands converted to their common type (with a fixed-point operand, the
        type that holds both exactly)."""
        if _is_float(a) or _is_float(b):
            return self.float_operand(a, node, "op"), self.float_operand(b, node, "op")
        if isinstance(a, _FLit) or isinstance(b, _FLit) or _is_fixed(a) or _is_fixed(b):
            if not (_is_fixed(a) or _is_fixed(b)):
                raise self.error(node, "a float literal needs a fixed-point value beside it")
            fa, fb = self.fixed_operand(a, b, node), self.fixed_operand(b, a, node)
            return self.fixed_op(node, lambda: self.fx.both_as(fa, fb, ""))
        if isinstance(a, _Lit) and isinstance(b, _Lit):
            ty = _literal_type(a.value) if _literal_type(a.value) == _literal_type(b.value) else int64
        elif isinstance(a, _Lit):
            ty = b.ty
        elif isinstance(b, _Lit):
            ty = a.ty
        else:
            ty = common_type(a.ty, b.ty)
        return self.convert(a, ty, node), self.convert(b, ty, node)

    def binary(self, node, op: str, a, b) -> T.Expr:
        if isinstance(a, _FLit) or isinstance(b, _FLit) or _is_fixed(a) or _is_fixed(b) \
                or _is_float(a) or _is_float(b):
            return self.fixed_binary(node, op, a, b)
        # typed constants are not folded here: the walkers' semantics stay the only semantics
        a, b = self.unify(a, b, node)
        return T.Binary(a.ty, self.loc(node), op, a, b)

    def compare(self, node: ast.Compare) -> T.Expr:
        loc = self.loc(node)
        if any(type(o) not in _CMPOPS for o in node.ops):
            raise self.error(node, "only < <= > >= == != comparisons are supported "
                                   "(no 'is', 'in')")
        operands = [self.expr(n) for n in [node.left, *node.comparators]]
        if all(isinstance(o, (_Lit, _FLit)) for o in operands):
            ok = all(_PY_CMP[_CMPOPS[type(op)]](operands[i].value, operands[i + 1].value)
                     for i, op in enumerate(node.ops))
            return _Lit(int(ok), loc)
        if len(node.ops) > 1 and any(_contains_call_expr(o) for o in operands[1:-1]):
            raise self.error(node, "a kernel call or a stream get() in the middle of a "
                                   "comparison chain is not supported")
        result = None
        for i, op in enumerate(node.ops):
            a, b = self.unify(operands[i], operands[i + 1], node)
            c = T.Binary(bool_, loc, _CMPOPS[type(op)], a, b)
            result = c if result is None else T.Logical(bool_, loc, "and", result, c)
        return result

    def call(self, node: ast.Call) -> T.Expr:
        loc = self.loc(node)
        f = self.type_callee(node.func)
        if isinstance(node.func, ast.Name) and self.lookup(node.func.id) is not None:
            raise self.error(node, f"'{node.func.id}' is not callable")
        if node.keywords:
            raise self.error(node, "keyword arguments are not supported in kernel calls")
        if f in (min, max):
            if len(node.args) < 2:
                raise self.error(node, f"{f.__name__}() takes at least 2 arguments")
            acc = self.expr(node.args[0])
            for arg in node.args[1:]:
                a, b = self.unify(acc, self.expr(arg), node)
                acc = T.Binary(a.ty, loc, f.__name__, a, b)
            return acc
        if f is abs:
            if len(node.args) != 1:
                raise self.error(node, "abs() takes 1 argument")
            a = self.expr(node.args[0])
            if isinstance(a, _FLit):
                return _FLit(abs(a.value), loc)
            a = self.typed(a, node.args[0])
            if _is_fixed(a):
                return self.fixed_op(node, lambda: self.fx.absolute(a, loc))
            return T.Unary(a.ty, loc, "abs", a)
        if f is sqrt:
            if len(node.args) != 1 or node.keywords:
                raise self.error(node, "sqrt() takes 1 argument")
            a = self.float_operand(self.expr(node.args[0]), node.args[0], "sqrt")
            return T.Unary(float32, loc, "sqrt", a)
        if isinstance(f, ScalarType) or (
                isinstance(node.func, ast.Call)
                and self.type_callee(node.func.func) in (int_, uint_, fixed, ufixed)):
            ty = f if isinstance(f, ScalarType) else self.eval_type(node.func)
            if len(node.args) != 1 or node.keywords:
                raise self.error(node, f"the cast {ty!r}(x) takes 1 argument")
            a = self.expr(node.args[0])
            if isinstance(a, _Lit) and not isinstance(ty, FixedType):
                a = self.typed(a, node.args[0])  # (a literal too wide for int64 wraps there)
            return self.convert(a, ty, node.args[0])
        if f in (fixed, ufixed):
            raise self.error(node, f"{f.__name__}(W, I) is a type; cast with "
                                   f"{f.__name__}(W, I)(x)")
        if f in (int_, uint_):
            raise self.error(node, f"{f.__name__}(w) is a type; cast with {f.__name__}(w)(x)")
        call = self.kernel_call(node, want_value=True)
        if call is not None:
            return call
        name = ast.unparse(node.func)
        raise self.error(node, f"call to '{name}' is not supported: kernels may call other "
                               "@kernel functions, min, max, abs and type casts")

    def kernel_call(self, node: ast.Call, want_value: bool) -> Optional[T.CallExpr]:
        f = self.type_callee(node.func)
        if not isinstance(f, KernelBase):
            return None
        if f is self.kernel or f._checking:
            raise self.error(node, f"call to kernel '{f.name}' is recursive: recursion is not "
                                   "supported")
        if node.keywords:
            raise self.error(node, "keyword arguments are not supported in kernel calls")
        callee = f.tree()  # checks the callee (and reports its own errors)
        if want_value and callee.ret is None:
            raise self.error(node, f"kernel '{f.name}' returns no value")
        if len(node.args) != len(callee.params):
            raise self.error(node, f"kernel '{f.name}' takes {len(callee.params)} arguments, "
                                   f"got {len(node.args)}")
        args = []
        for p, a in zip(callee.params, node.args):
            if p.is_stream:
                sym = self.lookup(a.id) if isinstance(a, ast.Name) else None
                if sym is None or not sym.is_stream:
                    raise self.error(a, f"argument '{p.name}' of '{f.name}' must be a stream "
                                        "variable")
                if sym.scalar != p.scalar:
                    raise self.error(a, f"argument '{p.name}' of '{f.name}' must be a stream "
                                        f"of {p.scalar!r}, got {sym.type!r}")
                self.use_stream(sym, "get" if p.direction == "in" else "put", self.loc(a))
                args.append(sym)
                continue
            if p.is_array:
                sym = self.lookup(a.id) if isinstance(a, ast.Name) else None
                if sym is None and isinstance(a, ast.Name) and self.const_array(a.id, a):
                    raise self.error(a, f"constant array '{a.id}' cannot be passed to a kernel; "
                                        f"'{f.name}' can read it by name")
                if sym is None or not sym.is_array:
                    raise self.error(a, f"argument '{p.name}' of '{f.name}' must be an array "
                                        "variable")
                if sym.type != p.type:
                    raise self.error(a, f"argument '{p.name}' of '{f.name}' must be "
                                        f"{p.type!r}, got {sym.type!r}")
                args.append(sym)
            else:
                args.append(self.convert(self.expr(a), p.type, a))
        if f not in self.callees:
            self.callees.append(f)
        ty = callee.ret if callee.ret is not None else bool_
        return T.CallExpr(ty, self.loc(node), f, args)

    def subscript(self, node: ast.Subscript) -> tuple[T.Sym, list[T.Expr]]:
        """``A[i, j]`` or ``A[i][j]`` → (array symbol, index expressions)."""
        chain = []
        base = node
        while isinstance(base, ast.Subscript):
            chain.append(base.slice)
            base = base.value
        chain.reverse()
        if not isinstance(base, ast.Name):
            raise self.error(node, "only named arrays can be indexed")
        sym = self.lookup(base.id) or self.const_array(base.id, base)
        if sym is None:
            if base.id in self.globals:
                raise self.error(base, f"'{base.id}' is not a kernel array: globals other than "
                                       "int constants are not supported")
            raise self.error(base, f"unknown name '{base.id}'")
        if sym.is_stream:
            raise self.error(node, f"stream '{sym.name}' cannot be indexed; use "
                                   f"{sym.name}.get()")
        if not sym.is_array:
            raise self.error(node, f"'{sym.name}' is a scalar and cannot be indexed")
        idx_nodes = []
        for part in chain:
            if isinstance(part, ast.Slice):
                raise self.error(part, "slices are not supported; index one element")
            idx_nodes.extend(part.elts if isinstance(part, ast.Tuple) else [part])
        shape = sym.type.shape
        if len(idx_nodes) != len(shape):
            raise self.error(node, f"'{sym.name}' has {len(shape)} dimension"
                                   f"{'s' if len(shape) > 1 else ''}, indexed with {len(idx_nodes)}")
        indices = []
        for d, n in zip(shape, idx_nodes):
            e = self.expr(n)
            if isinstance(e, _Lit):
                if not 0 <= e.value < d:
                    raise self.error(n, f"index {e.value} is out of range for dimension of size "
                                        f"{d} of '{sym.name}'")
            indices.append(self.integer(e, n, "an array index"))
        return sym, indices


_RESERVED = {"range", "min", "max", "abs", "int_", "uint_", "vichls"}


_SYMBOL_OF = {"floordiv": "//", "mod": "%", "and": "&", "or": "|", "xor": "^", "shl": "<<",
              "shr": ">>", "add": "+", "sub": "-", "mul": "*", "div": "/"}

# ast.unparse cannot print a bare operator node; the binary operators kernels refuse
_OPERATOR_SYMBOLS = {ast.Div: "/", ast.Pow: "**", ast.MatMult: "@"}


def _loop_marker():
    return loop


def _describe(node: ast.AST) -> str:
    names = {
        ast.FunctionDef: "nested function definition", ast.Lambda: "lambda (closure)",
        ast.ListComp: "list comprehension", ast.List: "list", ast.Dict: "dict",
        ast.Tuple: "tuple", ast.Set: "set", ast.With: "with statement",
        ast.Try: "try statement", ast.Raise: "raise statement", ast.Global: "global statement",
        ast.Nonlocal: "nonlocal statement", ast.Import: "import", ast.ImportFrom: "import",
        ast.Attribute: "attribute access", ast.Delete: "del statement",
        ast.JoinedStr: "f-string", ast.Await: "await", ast.Yield: "yield",
        ast.Assert: "assert statement", ast.ClassDef: "class definition",
        ast.Starred: "starred expression", ast.NamedExpr: "walrus assignment",
        ast.GeneratorExp: "generator expression", ast.DictComp: "dict comprehension",
        ast.SetComp: "set comprehension", ast.Slice: "slice", ast.Match: "match statement",
        ast.AsyncFor: "async for", ast.AsyncWith: "async with",
        ast.AsyncFunctionDef: "nested async function definition", ast.TryStar: "try statement",
        ast.YieldFrom: "yield",
    }
    for k, v in names.items():
        if isinstance(node, k):
            return v
    return type(node).__name__


def _always_returns(stmts: list[T.Stmt]) -> bool:
    for s in stmts:
        if isinstance(s, T.Return):
            return True
        if isinstance(s, T.If) and _always_returns(s.then) and _always_returns(s.orelse):
            return True
    return False


def _contains_call_expr(e) -> bool:
    """Calls and stream gets have effects: they must not be evaluated twice."""
    return isinstance(e, T.Expr) and T.contains(e, (T.CallExpr, T.StreamGet))
