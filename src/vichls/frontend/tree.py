"""The typed kernel tree: a checked kernel, with every name resolved and every type known.

The checker (``check.py``) builds it from the Python AST; the golden reference
(``reference.py``) and the IR builder (``to_ir.py``) both walk it, so the two agree by
construction on what a kernel means. Every conversion is explicit (``Convert``), so the
walkers never apply typing rules of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from vichls.types import ArrayType, ScalarType, StreamType


@dataclass(frozen=True)
class Loc:
    filename: str
    line: int
    col: int  # 1-based


# -- symbols -----------------------------------------------------------------------------


@dataclass(eq=False)
class Sym:
    """A named storage location: a parameter, a local, a local array, a stream or a loop
    variable."""

    name: str
    # "scalar_param" | "array_param" | "stream_param" | "local" | "local_array" |
    # "local_stream" | "loopvar" | "temp" (bound by a Let) | "const_array" (vichls.const)
    kind: str
    type: Union[ScalarType, ArrayType, StreamType]
    uid: str  # unique, valid identifier
    assigned: bool = False  # a scalar parameter that the body writes becomes a local copy
    # streams: where the kernel (or a kernel it passes the stream to) first gets / puts
    first_get: Optional[Loc] = None
    first_put: Optional[Loc] = None
    loc: Optional[Loc] = None  # where it is declared

    @property
    def scalar(self) -> ScalarType:
        return self.type if isinstance(self.type, ScalarType) else self.type.element

    @property
    def is_array(self) -> bool:
        return isinstance(self.type, ArrayType)

    @property
    def is_stream(self) -> bool:
        return isinstance(self.type, StreamType)

    @property
    def direction(self) -> Optional[str]:
        """For a stream parameter: "in" (only got from) or "out" (only put to)."""
        if self.kind != "stream_param":
            return None
        return "in" if self.first_get is not None else ("out" if self.first_put else None)


# -- expressions ---------------------------------------------------------------------------


@dataclass(eq=False)
class Expr:
    ty: ScalarType
    loc: Loc


@dataclass(eq=False)
class Const(Expr):
    value: int  # already wrapped into ty


@dataclass(eq=False)
class Read(Expr):
    sym: Sym


@dataclass(eq=False)
class Load(Expr):
    array: Sym
    indices: list[Expr]


@dataclass(eq=False)
class Convert(Expr):
    """Value of ``arg`` converted (wrapped, sign- or zero-extended) to ``ty``."""

    arg: Expr


@dataclass(eq=False)
class Unary(Expr):
    op: str  # "neg" | "invert" | "not" | "truthy" | "abs" | "sqrt" | "bits" (float32 -> uint32)
    arg: Expr


@dataclass(eq=False)
class Binary(Expr):
    """Both operands have type ``ty`` (arithmetic) or a common operand type (compare)."""

    op: str  # add sub mul floordiv mod and or xor shl shr | lt le gt ge eq ne | min max
    lhs: Expr
    rhs: Expr


@dataclass(eq=False)
class Logical(Expr):
    """Python ``and`` / ``or`` on values converted to ``ty``; ``rhs`` runs only if needed."""

    op: str  # "and" | "or"
    lhs: Expr
    rhs: Expr


@dataclass(eq=False)
class Cond(Expr):
    """``a if c else b``; only the chosen branch runs."""

    cond: Expr  # bool_
    then: Expr
    orelse: Expr


@dataclass(eq=False)
class CallExpr(Expr):
    kernel: object  # vichls.frontend.kernel.Kernel
    args: list  # Expr for scalar params, Sym for array and stream params


@dataclass(eq=False)
class StreamGet(Expr):
    """``s.get()``: removes the oldest element of stream ``s`` (a side effect)."""

    stream: Sym


@dataclass(eq=False)
class Let(Expr):
    """``body``, in which ``sym`` (a temporary: kind "temp") reads the value of ``value``,
    evaluated once, before ``body``: how the front end uses one operand several times
    (fixed-point conversions do) without evaluating it, or its effects, again."""

    sym: Sym
    value: Expr
    body: Expr


def contains(e: Expr, kinds: tuple) -> bool:
    """Does expression ``e`` hold a node of one of ``kinds`` (``e`` itself included)?"""
    if isinstance(e, kinds):
        return True
    for v in vars(e).values():
        if isinstance(v, Expr) and contains(v, kinds):
            return True
        if isinstance(v, list) and any(isinstance(x, Expr) and contains(x, kinds) for x in v):
            return True
    return False


# -- statements ------------------------------------------------------------------------------


@dataclass(eq=False)
class Stmt:
    loc: Loc


@dataclass(eq=False)
class Assign(Stmt):
    sym: Sym
    value: Expr  # of sym.type


@dataclass(eq=False)
class Store(Stmt):
    array: Sym
    indices: list[Expr]
    value: Expr  # of the element type


@dataclass(eq=False)
class InitArray(Stmt):
    array: Sym
    value: int  # wrapped into the element type


@dataclass(eq=False)
class For(Stmt):
    var: Sym  # a loopvar of type iv_type
    start: Expr  # of iv_type
    stop: Expr  # of iv_type
    step: int  # non-zero constant
    body: list[Stmt]
    label: Optional[str] = None


@dataclass(eq=False)
class While(Stmt):
    cond: Expr  # bool_
    body: list[Stmt]


@dataclass(eq=False)
class If(Stmt):
    cond: Expr  # bool_
    then: list[Stmt]
    orelse: list[Stmt]


@dataclass(eq=False)
class Break(Stmt):
    pass


@dataclass(eq=False)
class Continue(Stmt):
    pass


@dataclass(eq=False)
class Return(Stmt):
    value: Optional[Expr]  # of the kernel's return type


@dataclass(eq=False)
class CallStmt(Stmt):
    call: CallExpr


@dataclass(eq=False)
class StreamPut(Stmt):
    stream: Sym
    value: Expr  # of the stream's element type


@dataclass(eq=False)
class Discard(Stmt):
    """An expression statement whose value is dropped (``s.get()`` on its own)."""

    value: Expr


@dataclass(eq=False)
class InitStream(Stmt):
    """``q = stream[T, depth]()``: a local stream (declared at the top level only)."""

    stream: Sym


# -- a whole kernel ---------------------------------------------------------------------


@dataclass(eq=False)
class KernelTree:
    name: str
    loc: Loc
    params: list[Sym]
    ret: Optional[ScalarType]
    body: list[Stmt]
    locals: list[Sym] = field(default_factory=list)  # locals, local arrays and streams, in order
    callees: list = field(default_factory=list)  # Kernel objects, in first-call order
    #: the module-level constant arrays the kernel reads: (symbol, vichls.types.ConstArray)
    consts: list = field(default_factory=list)

    def loop_names(self) -> dict[str, str]:
        """The source name of every ``for`` loop's variable, by the unique id the loop-level
        IR carries as its induction variable's name hint (loops under whiles and ifs too)."""
        names: dict[str, str] = {}
        todo = list(self.body)
        while todo:
            s = todo.pop()
            if isinstance(s, For):
                names[s.var.uid] = s.var.name
                todo += s.body
            elif isinstance(s, While):
                todo += s.body
            elif isinstance(s, If):
                todo += s.then + s.orelse
        return names
