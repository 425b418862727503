"""The IR builder: typed kernel tree → loop-level IR (docs/ir.md).

It emits xDSL's func/affine/scf/arith/memref in the subset docs/ir.md promises: affine
loops and accesses where bounds and indices are affine in loop variables, constants and
parameters, scf elsewhere; locals as 0-d allocas; break, continue and early return as flags
that guard the rest of a block and end a loop through ``scf.while``; the language's rules
for division, remainder and shifts as explicit guards, so the IR has no undefined
behaviour. Every operation carries the source location of the construct it implements.
Streams are ``!stream.stream`` function arguments or ``stream.create`` ops placed with the
allocas; ``get``/``put`` are ``stream.get``/``stream.put`` in program order (they have
effects, so nothing here evaluates them speculatively or merges them).
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np

from typing import Optional

from xdsl.dialects import affine, arith, builtin, func, math, memref, scf
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseArrayBase,
    Float32Type,
    FloatAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce

from vichls.limits import deep
from vichls.dialects import stream as ir_stream
from vichls.frontend import tree as T
from vichls.signature import KernelSignature, Param, annotate, ir_type
from vichls.dialects.attributes import LABEL_ATTR, NAME_ATTR, TOP_ATTR, TYPE_ATTR
from vichls.types import ArrayType, FloatType, ScalarType, bool_, int64, type_name

_SIGNED_CMP = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq", "ne": "ne"}
_UNSIGNED_CMP = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge", "eq": "eq", "ne": "ne"}
_INDEX = IndexType()


def _signless(value: int, width: int) -> int:
    """An int in the signed range of ``width`` bits, as IntegerAttr wants it."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _needs_guard(e: T.Expr) -> bool:
    """Does evaluating ``e`` load memory, call a kernel or get from a stream (so it must not
    run speculatively)?"""
    return T.contains(e, (T.Load, T.CallExpr, T.StreamGet))


def _contains(stmts: list[T.Stmt], kinds: tuple, into_loops: bool) -> bool:
    for s in stmts:
        if isinstance(s, kinds):
            return True
        if isinstance(s, T.If) and (_contains(s.then, kinds, into_loops)
                                    or _contains(s.orelse, kinds, into_loops)):
            return True
        if isinstance(s, (T.For, T.While)) and into_loops and _contains(s.body, kinds, into_loops):
            return True
    return False


class _Loop:
    """Flags of the loop being built (None where the loop needs none)."""

    def __init__(self, brk: Optional[SSAValue], cont: Optional[SSAValue]):
        self.brk = brk
        self.cont = cont


class _Affine:
    """Operands collected while building affine maps: dims (loop IVs) and symbols."""

    def __init__(self):
        self.dims: list[SSAValue] = []
        self.syms: list[SSAValue] = []

    def dim(self, v: SSAValue) -> AffineExpr:
        if v not in self.dims:
            self.dims.append(v)
        return AffineExpr.dimension(self.dims.index(v))

    def sym(self, v: SSAValue) -> AffineExpr:
        if v not in self.syms:
            self.syms.append(v)
        return AffineExpr.symbol(self.syms.index(v))

    def map(self, exprs: list[AffineExpr]) -> builtin.AffineMapAttr:
        return builtin.AffineMapAttr(AffineMap(len(self.dims), len(self.syms), tuple(exprs)))

    def operands(self) -> list[SSAValue]:
        return [*self.dims, *self.syms]


@functools.lru_cache(maxsize=256)
def _memref_type(t: ScalarType, shape: tuple[int, ...]) -> MemRefType:
    """``memref<shape x iW>`` or ``memref<shape x f32>`` (made once: building a type
    verifies it)."""
    return MemRefType(ir_type(t), list(shape))


@functools.lru_cache(maxsize=256)
def _file_attr(filename: str) -> StringAttr:
    return StringAttr(filename)


_FLOAT_ARITH = {"add": arith.AddfOp, "sub": arith.SubfOp, "mul": arith.MulfOp,
                "div": arith.DivfOp}
_FLOAT_CMP = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq", "ne": "une"}
_SIMPLE_BINARY = {"add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp,
                  "and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp}


@functools.lru_cache(maxsize=None)
def _default_properties(kind: type) -> dict:
    """The properties the constructor of the binary op ``kind`` gives (overflow flags):
    taken from one op built the slow way, shared after (attributes are immutable)."""
    one = arith.ConstantOp(IntegerAttr(1, IntegerType(8))).result
    return dict(kind(one, one).properties)


#: the operand segment sizes of an alloca with neither dynamic sizes nor symbols
_NO_ALLOCA_OPERANDS = DenseArrayBase.from_list(i32, [0, 0])


class FunctionBuilder:
    def __init__(self, kt: T.KernelTree, consts: "ConstGlobals"):
        self.kt = kt
        self.consts = consts
        self.loc = FileLineColLoc(StringAttr(kt.loc.filename), IntAttr(kt.loc.line),
                                  IntAttr(kt.loc.col))
        self.block: Block = Block()
        self.entry: Block = self.block
        self.first_non_alloca: Optional[Operation] = None
        self.slots: dict[T.Sym, SSAValue] = {}  # 0-d allocas of locals, arrays' memrefs
        self.values: dict[T.Sym, SSAValue] = {}  # SSA values: unassigned params, loop vars
        self.affine_ivs: dict[T.Sym, SSAValue] = {}  # loop vars of affine.for: their index IV
        # the values each affine loop variable's index can take (interval arithmetic on its
        # bounds), so that affine bounds in it are known to fit in 32 signed bits
        self.iv_ranges: dict[SSAValue, tuple[int, int]] = {}
        self.loops: list[_Loop] = []
        self.ret_slot: Optional[SSAValue] = None
        self.ret_flag: Optional[SSAValue] = None

    # -- emission -------------------------------------------------------------------------
    @staticmethod
    @functools.lru_cache(maxsize=65536)
    def loc_of(loc: T.Loc) -> FileLineColLoc:
        # (a location is an immutable attribute: the ops of one source place share it)
        return FileLineColLoc(_file_attr(loc.filename), IntAttr(loc.line), IntAttr(loc.col))

    def set_loc(self, loc: T.Loc) -> None:
        self.loc = self.loc_of(loc)

    def add(self, op: Operation) -> Operation:
        op.location = self.loc
        self.block.add_op(op)
        return op

    # The builders below make the most frequent ops with ``create``, which skips the
    # generic handling of arguments that ``build`` and the ops' constructors do (three
    # times as slow; a kernel of thousands of statements noticed); the ops are the same.
    def alloca(self, ty: ScalarType, shape: tuple[int, ...] = ()) -> SSAValue:
        op = memref.AllocaOp.create(properties={"operandSegmentSizes": _NO_ALLOCA_OPERANDS},
                                    result_types=[_memref_type(ty, tuple(shape))])
        op.location = self.loc
        if self.first_non_alloca is None:
            self.entry.add_op(op)
        else:
            self.entry.insert_op_before(op, self.first_non_alloca)
        return op.results[0]

    def const(self, value: int, ty: ScalarType) -> SSAValue:
        if isinstance(ty, FloatType):
            return self.add(arith.ConstantOp(FloatAttr(float(value), Float32Type()))).results[0]
        return self.add(arith.ConstantOp(IntegerAttr(_signless(value, ty.width),
                                                     IntegerType(ty.width)))).results[0]

    def index_const(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, _INDEX))).results[0]

    def load0(self, slot: SSAValue) -> SSAValue:
        return self.add(memref.LoadOp.create(
            operands=[slot], result_types=[slot.type.element_type])).results[0]

    def store0(self, value: SSAValue, slot: SSAValue) -> None:
        self.add(memref.StoreOp.create(operands=[value, slot]))

    def nested(self, fill) -> Region:
        """A single-block region filled by ``fill()``, ending in scf.yield."""
        saved = self.block
        self.block = Block()
        try:
            fill()
            self.add(scf.YieldOp())
            return Region(self.block)
        finally:
            self.block = saved

    def if_(self, cond: SSAValue, then_fill, else_fill=None) -> None:
        then_r = self.nested(then_fill)
        else_r = self.nested(else_fill) if else_fill is not None else Region()
        self.add(scf.IfOp(cond, [], then_r, else_r))

    # -- the function -------------------------------------------------------------------------
    def build(self) -> func.FuncOp:
        kt = self.kt
        sig = KernelSignature(kt.name, tuple(Param(p.name, p.type, p.direction)
                                             for p in kt.params), kt.ret)
        self.entry = self.block = Block(arg_types=sig.ir_arg_types())
        # allocas first, in declaration order, then their initial values
        for p, arg in zip(kt.params, self.entry.args):
            arg.name_hint = p.uid
            if p.is_array or p.is_stream or not p.assigned:
                (self.slots if p.is_array or p.is_stream else self.values)[p] = arg
            else:
                self.slots[p] = self.alloca(p.type)
        for sym in kt.locals:
            if sym.is_stream:
                create = self.add(ir_stream.CreateOp(ir_type(sym.type), sym.type.depth))
                create.attributes[NAME_ATTR] = StringAttr(sym.name)
                create.location = self.loc_of(sym.loc)
                self.slots[sym] = create.results[0]
                continue
            self.slots[sym] = self.alloca(sym.scalar, sym.type.shape if sym.is_array else ())
            self.slots[sym].name_hint = sym.uid  # (the II report names the register)
            if sym.is_array:  # so that directives (s.partition) can find the local array
                self.slots[sym].owner.attributes[NAME_ATTR] = StringAttr(sym.name)
        for sym, c in kt.consts:  # constant arrays: their globals, read like arrays
            loc = self.loc_of(sym.loc)
            name = self.consts.name_of(c, sym.name, loc)
            get = memref.GetGlobalOp(name, _memref_type(c.type.element, c.type.shape))
            get.location = loc
            get.attributes[NAME_ATTR] = StringAttr(sym.name)
            self.entry.add_op(get)
            self.slots[sym] = get.memref
        if kt.ret is not None:
            self.ret_slot = self.alloca(kt.ret)
        if _contains(kt.body[:-1], (T.Return,), True) or (
                kt.body and not isinstance(kt.body[-1], T.Return)
                and _contains(kt.body, (T.Return,), True)):
            self.ret_flag = self.alloca(bool_)
        for p, arg in zip(kt.params, self.entry.args):
            if not p.is_array and p.assigned:
                self.store0(arg, self.slots[p])
        # scalars start at 0, as in the reference (one zero per width: the clean-up would
        # merge them, at a cost in a kernel of thousands of locals)
        zeros: dict[tuple, SSAValue] = {}

        def zero(ty: ScalarType) -> SSAValue:
            key = (ty.width, isinstance(ty, FloatType))
            if key not in zeros:
                zeros[key] = self.const(0, ty)
            return zeros[key]

        for sym in kt.locals:
            if not sym.is_array and not sym.is_stream:
                self.store0(zero(sym.type), self.slots[sym])
        if self.ret_flag is not None:
            self.store0(zero(bool_), self.ret_flag)
        self.first_non_alloca = self.entry.first_op
        while self.first_non_alloca is not None and isinstance(
                self.first_non_alloca, (memref.AllocaOp, ir_stream.CreateOp,
                                        memref.GetGlobalOp)):
            self.first_non_alloca = self.first_non_alloca.next_op
        if self.first_non_alloca is None:
            marker = self.add(arith.ConstantOp(IntegerAttr(0, _INDEX)))
            self.first_non_alloca = marker
        self.stmts(kt.body)
        self.set_loc(kt.loc)
        if kt.ret is not None:
            self.add(func.ReturnOp(self.load0(self.ret_slot)))
        else:
            self.add(func.ReturnOp())
        f = func.FuncOp(kt.name, (sig.ir_arg_types(), sig.ir_result_types()),
                        Region(self.entry))
        f.location = FileLineColLoc(StringAttr(kt.loc.filename), IntAttr(kt.loc.line),
                                    IntAttr(kt.loc.col))
        annotate(f, sig)
        return f

    # -- statements ------------------------------------------------------------------------------
    def active_flags(self) -> list[SSAValue]:
        flags = []
        if self.loops:
            loop = self.loops[-1]
            flags += [f for f in (loop.brk, loop.cont) if f is not None]
        if self.ret_flag is not None:
            flags.append(self.ret_flag)
        return flags

    def stmts(self, stmts: list[T.Stmt]) -> None:
        for i, s in enumerate(stmts):
            self.stmt(s)
            rest = stmts[i + 1:]
            if rest and self.may_exit(s):
                flags = self.active_flags()
                if flags:
                    self.set_loc(rest[0].loc)
                    go = self.none_set(flags)
                    self.if_(go, lambda rest=rest: self.stmts(rest))
                return

    def may_exit(self, s: T.Stmt) -> bool:
        """Can ``s`` leave the rest of the current block (break, continue or return)?"""
        if isinstance(s, (T.Break, T.Continue, T.Return)):
            return True
        if isinstance(s, T.If):
            return _contains(s.then + s.orelse, (T.Break, T.Continue), False) or (
                self.ret_flag is not None and _contains(s.then + s.orelse, (T.Return,), True))
        if isinstance(s, (T.For, T.While)):
            return self.ret_flag is not None and _contains(s.body, (T.Return,), True)
        return False

    def none_set(self, flags: list[SSAValue]) -> SSAValue:
        """i1 true when none of the flags is set."""
        acc = None
        for f in flags:
            v = self.load0(f)
            acc = v if acc is None else self.add(arith.OrIOp(acc, v)).results[0]
        one = self.const(1, bool_)
        return self.add(arith.XOrIOp(acc, one)).results[0]

    def stmt(self, s: T.Stmt) -> None:
        self.set_loc(s.loc)
        if isinstance(s, T.Assign):
            v = self.expr(s.value)
            self.set_loc(s.loc)
            self.store0(v, self.slots[s.sym])
        elif isinstance(s, T.Store):
            v = self.expr(s.value)  # Python evaluates the value before the index
            self.set_loc(s.loc)
            self.access(s.array, s.indices, store=v)
        elif isinstance(s, T.InitArray):
            self.init_array(s)
        elif isinstance(s, T.For):
            self.for_(s)
        elif isinstance(s, T.While):
            self.while_(s)
        elif isinstance(s, T.If):
            cond = self.expr(s.cond)
            self.set_loc(s.loc)
            self.if_(cond, lambda: self.stmts(s.then),
                     (lambda: self.stmts(s.orelse)) if s.orelse else None)
        elif isinstance(s, T.Break):
            self.store0(self.const(1, bool_), self.loops[-1].brk)
        elif isinstance(s, T.Continue):
            self.store0(self.const(1, bool_), self.loops[-1].cont)
        elif isinstance(s, T.Return):
            if s.value is not None:
                v = self.expr(s.value)
                self.set_loc(s.loc)
                self.store0(v, self.ret_slot)
            if self.ret_flag is not None:
                self.store0(self.const(1, bool_), self.ret_flag)
        elif isinstance(s, T.CallStmt):
            self.call(s.call)
        elif isinstance(s, T.StreamPut):
            v = self.expr(s.value)
            self.set_loc(s.loc)
            self.add(ir_stream.PutOp(v, self.slots[s.stream]))
        elif isinstance(s, T.Discard):
            self.expr(s.value)
        elif isinstance(s, T.InitStream):
            pass  # its stream.create is at the top of the entry block
        else:
            raise AssertionError(type(s).__name__)

    def init_array(self, s: T.InitArray) -> None:
        at: ArrayType = s.array.type
        target = self.slots[s.array]
        value = self.const(s.value, at.element)

        def nest(depth: int, ivs: list[SSAValue]):
            if depth == len(at.shape):
                self.add(affine.StoreOp(value, target, ivs))
                return
            body = Block(arg_types=[_INDEX])
            saved = self.block
            self.block = body
            nest(depth + 1, [*ivs, body.args[0]])
            self.add(affine.YieldOp.get())
            self.block = saved
            self.add(affine.ForOp.from_region([], [], [], [], 0, at.shape[depth], Region(body)))

        nest(0, [])

    # -- loops -------------------------------------------------------------------------------------
    def for_(self, s: T.For) -> None:
        own_exit = _contains(s.body, (T.Break, T.Continue), False)
        returns = self.ret_flag is not None and _contains(s.body, (T.Return,), True)
        if own_exit or returns:
            self.for_as_while(s)
            return
        bounds = self.affine_bounds(s.start, s.stop)
        if bounds is not None and s.step > 0:
            self.affine_for(s, *bounds)
            return
        if bounds is not None and all(isinstance(e, AffineConstantExpr) for e in bounds[1::2]):
            self.affine_for_downward(s, bounds[1].value, bounds[3].value)
            return
        self.scf_for(s)

    def loop_body(self, s, loop: _Loop, var_value: Optional[SSAValue]) -> None:
        if isinstance(s, T.For):
            self.values[s.var] = var_value
        self.loops.append(loop)
        try:
            self.stmts(s.body)
        finally:
            self.loops.pop()

    def affine_for(self, s: T.For, lb_acc: _Affine, lb_expr: AffineExpr, ub_acc: _Affine,
                   ub_expr: AffineExpr) -> None:
        """``range(start, stop, k)``, k > 0, with bounds affine in outer affine loop
        variables: one lower and one upper bound map, each over the values it uses. A loop
        whose upper bound is at most its lower bound runs zero times (scf.for semantics),
        as in Python, so no max/min is needed."""
        body = Block(arg_types=[_INDEX])
        iv = body.args[0]
        iv.name_hint = s.var.uid
        saved = self.block
        self.block = body
        self.affine_ivs[s.var] = iv
        low, high = self.expr_range(lb_expr, lb_acc), self.expr_range(ub_expr, ub_acc)
        self.iv_ranges[iv] = (low[0], max(low[0], high[1] - 1))
        value = self.add(arith.IndexCastOp(iv, IntegerType(s.var.type.width))).results[0]
        self.loop_body(s, _Loop(None, None), value)
        self.set_loc(s.loc)
        self.add(affine.YieldOp.get())
        self.block = saved
        op = affine.ForOp.from_region(lb_acc.operands(), ub_acc.operands(), [], [],
                                      lb_acc.map([lb_expr]), ub_acc.map([ub_expr]),
                                      Region(body), s.step)
        if s.label:
            op.attributes[LABEL_ATTR] = StringAttr(s.label)
        self.add(op)

    def affine_for_downward(self, s: T.For, start: int, stop: int) -> None:
        """``range(start, stop, -k)`` with constant bounds: an affine.for counting the
        iterations upward, the loop variable ``start - k * t`` an affine.apply of its
        counter, so that unrolling and the dependence analysis see affine indices."""
        trip = max(0, -(-(start - stop) // -s.step))
        body = Block(arg_types=[_INDEX])
        counter = body.args[0]
        counter.name_hint = s.var.uid
        saved = self.block
        self.block = body
        self.set_loc(s.loc)
        down = AffineMap(1, 0, (AffineExpr.dimension(0) * s.step + start,))
        iv = self.add(affine.ApplyOp([counter], builtin.AffineMapAttr(down))).results[0]
        self.affine_ivs[s.var] = iv
        self.iv_ranges[iv] = (start + max(trip - 1, 0) * s.step, start)
        value = self.add(arith.IndexCastOp(iv, IntegerType(s.var.type.width))).results[0]
        self.loop_body(s, _Loop(None, None), value)
        self.set_loc(s.loc)
        self.add(affine.YieldOp.get())
        self.block = saved
        op = affine.ForOp.from_region([], [], [], [], builtin.AffineMapAttr(AffineMap.constant_map(0)),
                                      builtin.AffineMapAttr(AffineMap.constant_map(trip)),
                                      Region(body), 1)
        if s.label:
            op.attributes[LABEL_ATTR] = StringAttr(s.label)
        self.add(op)

    def scf_for(self, s: T.For) -> None:
        """A counted loop over i64 (no overflow at int32 bounds), normalised to step > 0."""
        ty = s.var.type
        start = self.widen64(self.expr(s.start), ty)
        stop = self.widen64(self.expr(s.stop), ty)
        self.set_loc(s.loc)
        i64 = IntegerType(64)
        if s.step > 0:
            lb, ub, step = start, stop, self.const(s.step, int64)
        else:  # trip count = ceil((start - stop) / -step) when start > stop
            neg = self.const(-s.step, int64)
            diff = self.add(arith.SubiOp(start, stop)).results[0]
            diff = self.add(arith.AddiOp(diff, self.const(-s.step - 1, int64))).results[0]
            q = self.add(arith.DivSIOp(diff, neg)).results[0]
            pos = self.add(arith.CmpiOp(start, stop, "sgt")).results[0]
            ub = self.add(arith.SelectOp(pos, q, self.const(0, int64))).results[0]
            lb, step = self.const(0, int64), self.const(1, int64)
        body = Block(arg_types=[i64])
        t = body.args[0]
        t.name_hint = s.var.uid
        saved = self.block
        self.block = body
        if s.step > 0:
            v64 = t
        else:
            scaled = self.add(arith.MuliOp(t, self.const(s.step, int64))).results[0]
            v64 = self.add(arith.AddiOp(start, scaled)).results[0]
        value = v64 if ty.width == 64 else self.add(
            arith.TruncIOp(v64, IntegerType(ty.width))).results[0]
        self.loop_body(s, _Loop(None, None), value)
        self.set_loc(s.loc)
        self.add(scf.YieldOp())
        self.block = saved
        op = scf.ForOp(lb, ub, step, [], Region(body))
        if s.label:
            op.attributes[LABEL_ATTR] = StringAttr(s.label)
        self.add(op)

    def widen64(self, v: SSAValue, ty: ScalarType) -> SSAValue:
        if ty.width == 64:
            return v
        cls = arith.ExtSIOp if ty.signed else arith.ExtUIOp
        return self.add(cls(v, IntegerType(64))).results[0]

    def for_as_while(self, s: T.For) -> None:
        """A for loop that can break, continue or return: a counter in a slot and scf.while."""
        ty = s.var.type
        start = self.widen64(self.expr(s.start), ty)
        stop = self.widen64(self.expr(s.stop), ty)
        self.set_loc(s.loc)
        counter = self.alloca(int64)
        self.store0(start, counter)
        loop = self.new_loop_flags(s.body)

        def before():
            i = self.load0(counter)
            cmp = "slt" if s.step > 0 else "sgt"
            c = self.add(arith.CmpiOp(i, stop, cmp)).results[0]
            c = self.and_not_flags(c, loop)
            self.add(scf.ConditionOp(c))

        def after():
            if loop.cont is not None:
                self.store0(self.const(0, bool_), loop.cont)
            i = self.load0(counter)
            value = i if ty.width == 64 else self.add(
                arith.TruncIOp(i, IntegerType(ty.width))).results[0]
            self.loop_body(s, loop, value)
            self.set_loc(s.loc)
            i = self.load0(counter)
            self.store0(self.add(arith.AddiOp(i, self.const(s.step, int64))).results[0], counter)

        self.emit_while(before, after, s)

    def new_loop_flags(self, body: list[T.Stmt]) -> _Loop:
        brk = cont = None
        if _contains(body, (T.Break,), False):
            brk = self.alloca(bool_)
            self.store0(self.const(0, bool_), brk)
        if _contains(body, (T.Continue,), False):
            cont = self.alloca(bool_)
        return _Loop(brk, cont)

    def and_not_flags(self, c: SSAValue, loop: _Loop) -> SSAValue:
        flags = [f for f in (loop.brk, self.ret_flag) if f is not None]
        if not flags:
            return c
        return self.add(arith.AndIOp(c, self.none_set(flags))).results[0]

    def emit_while(self, before_fill, after_fill, s: T.Stmt) -> None:
        saved = self.block
        self.block = Block()
        before_fill()
        before = Region(self.block)
        self.block = Block()
        after_fill()
        self.add(scf.YieldOp())
        after = Region(self.block)
        self.block = saved
        op = scf.WhileOp([], [], before, after)
        if isinstance(s, T.For) and s.label:
            op.attributes[LABEL_ATTR] = StringAttr(s.label)
        self.set_loc(s.loc)
        self.add(op)

    def while_(self, s: T.While) -> None:
        loop = self.new_loop_flags(s.body)

        def before():
            # a loop that may have set its break flag stops before testing its condition
            flags = [f for f in (loop.brk, self.ret_flag) if f is not None]
            if flags and _needs_guard(s.cond):
                slot = self.alloca(bool_)
                go = self.none_set(flags)
                self.store0(self.const(0, bool_), slot)
                self.if_(go, lambda: self.store0(self.expr(s.cond), slot))
                self.add(scf.ConditionOp(self.load0(slot)))
                return
            c = self.expr(s.cond)
            self.set_loc(s.loc)
            self.add(scf.ConditionOp(self.and_not_flags(c, loop)))

        def after():
            if loop.cont is not None:
                self.store0(self.const(0, bool_), loop.cont)
            self.loop_body(s, loop, None)

        self.emit_while(before, after, s)

    # -- affine analysis ------------------------------------------------------------------------
    def affine_of(self, e: T.Expr, acc: _Affine) -> Optional[AffineExpr]:
        """``e`` as an affine expression of affine loop IVs and constants whose value cannot
        differ from the wrapped arithmetic the kernel asks for, or None. (Parameters as
        symbols wait for a lower-affine that handles symbols.)"""
        if isinstance(e, T.Const):
            return AffineExpr.constant(e.value)
        if isinstance(e, T.Read):
            if e.sym in self.affine_ivs:
                return acc.dim(self.affine_ivs[e.sym])
            return None
        if isinstance(e, T.Convert):
            a = e.arg.ty
            widening = a.width < e.ty.width and (a.signed == e.ty.signed or not a.signed)
            if widening or (a.width == e.ty.width and isinstance(e.arg, T.Const)):
                return self.affine_of(e.arg, acc)
            return None
        if isinstance(e, T.Binary) and e.op in ("add", "sub", "mul") and e.ty.signed:
            if e.op == "mul" and not (isinstance(e.lhs, T.Const) or isinstance(e.rhs, T.Const)):
                return None
            a = self.affine_of(e.lhs, acc)
            b = self.affine_of(e.rhs, acc) if a is not None else None
            if a is None or b is None:
                return None
            return a + b if e.op == "add" else (a - b if e.op == "sub" else a * b)
        return None

    def affine_bounds(self, start: T.Expr, stop: T.Expr):
        """(lower operands, lower, upper operands, upper) when both bounds of a loop are
        affine in outer affine loop variables and constants and every intermediate value
        provably fits in 32 signed bits (so the index arithmetic computes what the kernel's
        wrapping arithmetic would, and an ``index`` holds it); else None."""
        if _needs_guard(start) or _needs_guard(stop):
            return None
        low_acc, high_acc = _Affine(), _Affine()
        lower = self.affine_of(start, low_acc)
        upper = self.affine_of(stop, high_acc) if lower is not None else None
        if (upper is None or self.expr_range(lower, low_acc) is None
                or self.expr_range(upper, high_acc) is None):
            return None
        return low_acc, lower, high_acc, upper

    def expr_range(self, e: AffineExpr, acc: _Affine) -> Optional[tuple[int, int]]:
        """The interval of values of ``e`` (+ and * only) over its dims' ranges, or None
        when some sub-expression may leave the signed 32-bit range."""
        if isinstance(e, AffineConstantExpr):
            low = high = e.value
        elif isinstance(e, AffineDimExpr):
            low, high = self.iv_ranges[acc.dims[e.position]]
        elif isinstance(e, AffineBinaryOpExpr) and e.kind in (AffineBinaryOpKind.Add,
                                                               AffineBinaryOpKind.Mul):
            a, b = self.expr_range(e.lhs, acc), self.expr_range(e.rhs, acc)
            if a is None or b is None:
                return None
            if e.kind == AffineBinaryOpKind.Add:
                low, high = a[0] + b[0], a[1] + b[1]
            else:
                corners = [x * y for x in a for y in b]
                low, high = min(corners), max(corners)
        else:
            return None
        if low < -(1 << 31) or high >= 1 << 31:
            return None
        return low, high

    def to_index(self, v: SSAValue, ty: ScalarType) -> SSAValue:
        if not ty.signed and ty.width < 64:  # a uint64 index is read as it is (values
            # of 2**63 and more are out of any array's range either way)
            v = self.add(arith.ExtUIOp(v, IntegerType(64))).results[0]
        return self.add(arith.IndexCastOp(v, _INDEX)).results[0]

    # -- memory ------------------------------------------------------------------------------------
    def access(self, arr: T.Sym, indices: list[T.Expr], store: Optional[SSAValue] = None):
        target = self.slots[arr]
        acc = _Affine()
        exprs = []
        for i in indices:
            x = None if _needs_guard(i) else self.affine_of(i, acc)
            if x is None:
                exprs = None
                break
            exprs.append(x)
        if exprs is not None:
            m = acc.map(exprs)
            if store is not None:
                return self.add(affine.StoreOp(store, target, acc.operands(), m))
            return self.add(affine.LoadOp(target, acc.operands(), m,
                                          ir_type(arr.scalar))).results[0]
        idx = [self.to_index(self.expr(i), i.ty) for i in indices]
        if store is not None:
            return self.add(memref.StoreOp.get(store, target, idx))
        return self.add(memref.LoadOp.get(target, idx)).results[0]

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, e: T.Expr) -> SSAValue:
        self.set_loc(e.loc)
        ty = e.ty
        if isinstance(e, T.Const):
            return self.const(e.value, ty)
        if isinstance(e, T.Read):
            if e.sym in self.values:
                return self.values[e.sym]
            return self.load0(self.slots[e.sym])
        if isinstance(e, T.Let):  # a temporary: the value once, read by the body
            self.values[e.sym] = self.expr(e.value)
            return self.expr(e.body)
        if isinstance(e, T.Load):
            return self.access(e.array, e.indices)
        if isinstance(e, T.Convert):
            return self.convert(self.expr(e.arg), e.arg.ty, ty)
        if isinstance(e, T.Unary):
            return self.unary(e)
        if isinstance(e, T.Binary):
            a = self.expr(e.lhs)
            b = self.expr(e.rhs)
            self.set_loc(e.loc)
            rhs_const = e.rhs.value if isinstance(e.rhs, T.Const) else None
            return self.binary(e.op, a, b, e.lhs.ty, rhs_const)
        if isinstance(e, T.Logical):
            return self.logical(e)
        if isinstance(e, T.Cond):
            return self.cond(e)
        if isinstance(e, T.CallExpr):
            return self.call(e)
        if isinstance(e, T.StreamGet):
            return self.add(ir_stream.GetOp(self.slots[e.stream])).results[0]
        raise AssertionError(type(e).__name__)

    def convert(self, v: SSAValue, src: ScalarType, dst: ScalarType) -> SSAValue:
        if isinstance(src, FloatType) and isinstance(dst, FloatType):
            return v
        if isinstance(dst, FloatType):  # rounded to nearest even
            cls = arith.SIToFPOp if src.signed else arith.UIToFPOp  # (int_(1): 0 and -1)
            return self.add(cls(v, Float32Type())).results[0]
        if isinstance(src, FloatType):  # toward zero (out of range: undefined)
            cls = arith.FPToSIOp if dst.signed and dst.width > 1 else arith.FPToUIOp
            return self.add(cls(v, IntegerType(dst.width))).results[0]
        if dst.width > src.width:
            cls = arith.ExtSIOp if src.signed else arith.ExtUIOp
            return self.add(cls(v, IntegerType(dst.width))).results[0]
        if dst.width < src.width:
            return self.add(arith.TruncIOp(v, IntegerType(dst.width))).results[0]
        return v

    def unary(self, e: T.Unary) -> SSAValue:
        a = self.expr(e.arg)
        self.set_loc(e.loc)
        t = e.arg.ty
        if isinstance(t, FloatType):
            if e.op == "neg":
                return self.add(arith.NegfOp(a)).results[0]
            if e.op == "abs":
                return self.add(math.AbsFOp(a)).results[0]
            if e.op == "sqrt":
                return self.add(math.SqrtOp(a)).results[0]
            if e.op == "bits":
                return self.add(arith.BitcastOp(a, IntegerType(32))).results[0]
            if e.op in ("not", "truthy"):  # (a NaN is true, as in Python)
                return self.add(arith.CmpfOp(a, self.const(0.0, t),
                                             "oeq" if e.op == "not" else "une")).results[0]
            raise AssertionError(e.op)
        if e.op == "neg":
            return self.add(arith.SubiOp(self.const(0, t), a)).results[0]
        if e.op == "invert":
            return self.add(arith.XOrIOp(a, self.const(-1, t))).results[0]
        if e.op in ("not", "truthy"):
            pred = "eq" if e.op == "not" else "ne"
            if t == bool_ and e.op == "truthy":
                return a
            return self.add(arith.CmpiOp(a, self.const(0, t), pred)).results[0]
        if e.op == "abs":
            if not t.signed:
                return a
            neg = self.add(arith.CmpiOp(a, self.const(0, t), "slt")).results[0]
            minus = self.add(arith.SubiOp(self.const(0, t), a)).results[0]
            return self.add(arith.SelectOp(neg, minus, a)).results[0]
        raise AssertionError(e.op)

    def select(self, c, a, b) -> SSAValue:
        return self.add(arith.SelectOp(c, a, b)).results[0]

    def cmp(self, a, b, pred: str) -> SSAValue:
        return self.add(arith.CmpiOp(a, b, pred)).results[0]

    def binary(self, op: str, a: SSAValue, b: SSAValue, t: ScalarType,
               rhs_const: Optional[int] = None) -> SSAValue:
        if isinstance(t, FloatType):
            return self.float_binary(op, a, b)
        if op in _SIMPLE_BINARY:
            kind = _SIMPLE_BINARY[op]
            return self.add(kind.create(operands=[a, b], result_types=[a.type],
                                        properties=dict(_default_properties(kind)))).results[0]
        if op in _SIGNED_CMP:
            pred = (_SIGNED_CMP if t.signed else _UNSIGNED_CMP)[op]
            return self.cmp(a, b, pred)
        if op in ("min", "max"):
            pred = ("slt" if t.signed else "ult") if op == "min" else ("sgt" if t.signed else "ugt")
            return self.select(self.cmp(a, b, pred), a, b)
        if op in ("floordiv", "mod"):
            if rhs_const is not None and rhs_const not in (0, -1):
                return self.divmod_const(op, a, b, t, rhs_const)
            return self.divmod(op, a, b, t)
        if op in ("shl", "shr"):
            if rhs_const is not None:
                return self.shift_const(op, a, t, rhs_const)
            return self.shift(op, a, b, t)
        raise AssertionError(op)

    def float_binary(self, op: str, a: SSAValue, b: SSAValue) -> SSAValue:
        """IEEE binary32, no fast-math: what numpy float32 computes."""
        if op in _FLOAT_ARITH:
            return self.add(_FLOAT_ARITH[op](a, b)).results[0]
        if op in _FLOAT_CMP:  # ordered (false with a NaN), except != (true with a NaN)
            return self.add(arith.CmpfOp(a, b, _FLOAT_CMP[op])).results[0]
        if op in ("min", "max"):  # Python's: b if b < a else a (a NaN first propagates)
            better = self.add(arith.CmpfOp(b, a, "olt" if op == "min" else "ogt")).results[0]
            return self.select(better, b, a)
        raise AssertionError(op)

    def divmod_const(self, op: str, a: SSAValue, b: SSAValue, t: ScalarType,
                     d: int) -> SSAValue:
        """Floor division by a constant other than 0 and -1: no guards; a power of two
        is a shift or a mask (floor semantics make these exact for negative dividends)."""
        if d > 0 and d & (d - 1) == 0 and d.bit_length() - 1 < t.width:
            k = d.bit_length() - 1
            if op == "floordiv":
                if k == 0:
                    return a
                shr = arith.ShRSIOp if t.signed else arith.ShRUIOp
                return self.add(shr(a, self.const(k, t))).results[0]
            return self.add(arith.AndIOp(a, self.const(d - 1, t))).results[0]
        if not t.signed:
            cls = arith.DivUIOp if op == "floordiv" else arith.RemUIOp
            return self.add(cls(a, b)).results[0]
        zero, one = self.const(0, t), self.const(1, t)
        q = self.add(arith.DivSIOp(a, b)).results[0]
        r = self.add(arith.RemSIOp(a, b)).results[0]
        r_nz = self.cmp(r, zero, "ne")
        r_sign_wrong = self.cmp(r, zero, "sgt" if d < 0 else "slt")
        adjust = self.add(arith.AndIOp(r_nz, r_sign_wrong)).results[0]
        if op == "floordiv":
            return self.select(adjust, self.add(arith.SubiOp(q, one)).results[0], q)
        return self.select(adjust, self.add(arith.AddiOp(r, b)).results[0], r)

    def shift_const(self, op: str, a: SSAValue, t: ScalarType, amount: int) -> SSAValue:
        amount &= t.mask  # read as unsigned, as in shift()
        if amount >= t.width:
            if op == "shr" and t.signed:
                return self.add(arith.ShRSIOp(a, self.const(t.width - 1, t))).results[0]
            return self.const(0, t)
        if amount == 0:
            return a
        cls = arith.ShLIOp if op == "shl" else (arith.ShRSIOp if t.signed else arith.ShRUIOp)
        return self.add(cls(a, self.const(amount, t))).results[0]

    def divmod(self, op: str, a: SSAValue, b: SSAValue, t: ScalarType) -> SSAValue:
        """Floor division and remainder with the language's rules, free of undefined behaviour:
        b == 0 gives all-ones (quotient) or the dividend (remainder); MIN // -1 wraps."""
        zero, one = self.const(0, t), self.const(1, t)
        bz = self.cmp(b, zero, "eq")
        if not t.signed:
            safe = self.select(bz, one, b)
            if op == "floordiv":
                q = self.add(arith.DivUIOp(a, safe)).results[0]
                return self.select(bz, self.const(-1, t), q)
            r = self.add(arith.RemUIOp(a, safe)).results[0]
            return self.select(bz, a, r)
        minus1 = self.const(-1, t)
        ovf = self.add(arith.AndIOp(self.cmp(a, self.const(t.min, t), "eq"),
                                    self.cmp(b, minus1, "eq"))).results[0]
        unsafe = self.add(arith.OrIOp(bz, ovf)).results[0]
        safe = self.select(unsafe, one, b)  # MIN // 1 = MIN = MIN // -1 wrapped; MIN % 1 = 0
        q = self.add(arith.DivSIOp(a, safe)).results[0]
        r = self.add(arith.RemSIOp(a, safe)).results[0]
        # floor: when the remainder is non-zero and its sign differs from the divisor's
        r_nz = self.cmp(r, zero, "ne")
        signs_differ = self.cmp(self.add(arith.XOrIOp(r, safe)).results[0], zero, "slt")
        adjust = self.add(arith.AndIOp(r_nz, signs_differ)).results[0]
        if op == "floordiv":
            q_floor = self.select(adjust, self.add(arith.SubiOp(q, one)).results[0], q)
            return self.select(bz, minus1, q_floor)
        r_floor = self.select(adjust, self.add(arith.AddiOp(r, safe)).results[0], r)
        return self.select(bz, a, r_floor)

    def shift(self, op: str, a: SSAValue, b: SSAValue, t: ScalarType) -> SSAValue:
        """Shifts by the amount read as unsigned; at or above the width: 0, or the sign."""
        width = self.const(t.width, ScalarType(t.width, False)) if t.width > 1 else self.const(1, t)
        big = self.cmp(b, width, "uge")
        if op == "shl":
            safe = self.select(big, self.const(0, t), b)
            return self.select(big, self.const(0, t),
                               self.add(arith.ShLIOp(a, safe)).results[0])
        if t.signed:
            safe = self.select(big, self.const(t.width - 1, t), b)
            return self.add(arith.ShRSIOp(a, safe)).results[0]
        safe = self.select(big, self.const(0, t), b)
        return self.select(big, self.const(0, t), self.add(arith.ShRUIOp(a, safe)).results[0])

    def logical(self, e: T.Logical) -> SSAValue:
        t = e.ty
        a = self.expr(e.lhs)
        self.set_loc(e.loc)
        if t == bool_:
            truthy = a
        elif isinstance(t, FloatType):
            truthy = self.add(arith.CmpfOp(a, self.const(0.0, t), "une")).results[0]
        else:
            truthy = self.cmp(a, self.const(0, t), "ne")
        if not _needs_guard(e.rhs):
            b = self.expr(e.rhs)
            self.set_loc(e.loc)
            if t == bool_:
                cls = arith.AndIOp if e.op == "and" else arith.OrIOp
                return self.add(cls(a, b)).results[0]
            return self.select(truthy, b, a) if e.op == "and" else self.select(truthy, a, b)
        slot = self.alloca(t)
        self.store0(a, slot)
        run_rhs = truthy if e.op == "and" else self.add(
            arith.XOrIOp(truthy, self.const(1, bool_))).results[0]
        self.if_(run_rhs, lambda: self.store0(self.expr(e.rhs), slot))
        return self.load0(slot)

    def cond(self, e: T.Cond) -> SSAValue:
        c = self.expr(e.cond)
        self.set_loc(e.loc)
        if not (_needs_guard(e.then) or _needs_guard(e.orelse)):
            a = self.expr(e.then)
            b = self.expr(e.orelse)
            self.set_loc(e.loc)
            return self.select(c, a, b)
        slot = self.alloca(e.ty)
        self.if_(c, lambda: self.store0(self.expr(e.then), slot),
                 lambda: self.store0(self.expr(e.orelse), slot))
        return self.load0(slot)

    def call(self, c: T.CallExpr) -> Optional[SSAValue]:
        args = [self.slots[a] if isinstance(a, T.Sym) else self.expr(a) for a in c.args]
        self.set_loc(c.loc)
        callee = c.kernel.tree()
        results = [] if callee.ret is None else [ir_type(callee.ret)]
        op = self.add(func.CallOp(callee.name, args, results))
        return op.results[0] if results else None


@contextlib.contextmanager
def _effects_remembered():
    """xDSL's dead-code elimination and CSE ask each op for its memory effects, and an
    ``scf.if`` answers with those of everything nested in it, again for every op that
    asks: quadratic in the nesting (an elif chain of 400 branches took 20 s). While they
    run, each op's answer is computed once. Removing dead ops and merging pure ones can
    only drop reads and pure ops, so an answer given earlier stays true enough for them:
    a write is never dropped."""
    import xdsl.traits as traits
    import xdsl.transforms.common_subexpression_elimination as cse_module
    import xdsl.transforms.dead_code_elimination as dce_module

    original = traits.get_effects
    known: dict = {}

    def remembered(op):
        if op not in known:
            known[op] = original(op)
        return known[op]

    modules = (traits, cse_module, dce_module)
    for m in modules:
        m.get_effects = remembered
    try:
        yield
    finally:
        for m in modules:
            m.get_effects = original


def _clean(f: func.FuncOp) -> None:
    """Remove what the builder made and nothing uses; merge identical pure values."""
    with _effects_remembered():
        region_dce(f.body)
        cse(f)


class ConstGlobals:
    """The ``memref.global`` of every constant array the kernels of one module read, one per
    ``vichls.const`` object, named after its module-level name (made unique)."""

    def __init__(self):
        self.names: dict[int, str] = {}  # id of the ConstArray -> its global's name
        self.ops: list[memref.GlobalOp] = []
        self._keep: list = []  # the ConstArrays themselves, so that their ids stay theirs

    def name_of(self, c, name: str, loc) -> str:
        if id(c) not in self.names:
            taken = set(self.names.values())
            unique, n = name, 1
            while unique in taken:
                n += 1
                unique = f"{name}_{n}"
            self.names[id(c)] = unique
            self._keep.append(c)
            t = c.type
            width = t.element.width
            if isinstance(t.element, FloatType):  # f32 values, bit for bit (NaNs too)
                data = DenseIntOrFPElementsAttr(
                    TensorType(Float32Type(), list(t.shape)),
                    BytesAttr(np.ascontiguousarray(c.raw, dtype="<f4").tobytes()))
            else:
                # (the signless attribute holds a raw value in the signed range of its width)
                values = [v - (1 << width) if width > 1 and v >= 1 << (width - 1) else v
                          for v in (int(x) & ((1 << width) - 1) for x in c.raw.reshape(-1))]
                data = DenseIntOrFPElementsAttr.from_list(
                    TensorType(IntegerType(width), list(t.shape)), values)
            op = memref.GlobalOp.get(StringAttr(unique), _memref_type(t.element, t.shape), data,
                                     constant=UnitAttr())
            op.attributes[NAME_ATTR] = StringAttr(name)
            op.attributes[TYPE_ATTR] = StringAttr(type_name(t.element))
            op.location = loc
            self.ops.append(op)
        return self.names[id(c)]


def build_function(kernel, consts: ConstGlobals | None = None) -> func.FuncOp:
    f = FunctionBuilder(kernel.tree(), consts or ConstGlobals()).build()
    _clean(f)
    return f


@deep
def build_module(kernel) -> ModuleOp:
    """The loop-level IR of ``kernel`` and every kernel it calls (callees first)."""
    order: list = []

    def visit(k):
        if k in order:
            return
        for c in k.tree().callees:
            visit(c)
        order.append(k)

    visit(kernel)
    consts = ConstGlobals()
    functions = [build_function(k, consts) for k in order]
    module = ModuleOp([*consts.ops, *functions])
    module.attributes[TOP_ATTR] = StringAttr(kernel.name)
    return module
