"""Lower integer and float32 `arith` ops (and `math.sqrt`/`math.absf`) to the llvm dialect.

What: one llvm op per arith op (`addi` → `llvm.add`, `divsi` → `llvm.sdiv`, `shrsi` →
`llvm.ashr`, `cmpi` → `llvm.icmp` with the same predicate, `select`, `extsi`/`extui`/`trunci`
→ `sext`/`zext`/`trunc`, `constant` → `llvm.mlir.constant`); `minsi`/`maxsi`/`minui`/`maxui`
become `icmp` + `select`. No-wrap flags on `addi`/`subi`/`muli`/`shli` are kept.

Why: both dialects define these ops on signless integers of any width with the same
wrap-around semantics, so this is a one-to-one renaming; the front end has already made
every division and shift well defined (docs/ir.md, "Data").

float32: `addf`/`subf`/`mulf`/`divf`/`negf`/`cmpf` to their llvm ops without fast-math
flags, `sitofp` to `sitofp`, `uitofp` through a signed conversion (see `_unsigned_to_float`),
`fptosi`/`fptoui` toward zero and wrapped, from the bits (``_float_to_int_wrapped``),
`math.sqrt`/`math.absf` to `llvm.sqrt.f32`/`llvm.fabs.f32`.

Assumes: `index` is gone (vichls.cpu.index_to_i64). Other arith ops raise CpuError naming
the op.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, llvm, math
from xdsl.dialects.builtin import Float32Type, IntegerAttr, IntegerType, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from vichls.cpu.errors import unsupported

_BINARY = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}

_CASTS = {arith.ExtSIOp: llvm.SExtOp, arith.ExtUIOp: llvm.ZExtOp, arith.TruncIOp: llvm.TruncOp}

# arith.cmpi and llvm.icmp number their predicates in the same order (eq, ne, slt, sle,
# sgt, sge, ult, ule, ugt, uge); the names make that explicit.
_CMPI_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")

_MIN_MAX = {
    arith.MinSIOp: "slt",
    arith.MaxSIOp: "sgt",
    arith.MinUIOp: "ult",
    arith.MaxUIOp: "ugt",
}


def _icmp_predicate(name: str) -> IntegerAttr:
    return IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)


def _wrap_flags(op: Operation) -> llvm.OverflowAttr:
    flags = getattr(op, "overflowFlags", None)
    wanted = []
    if flags is not None:
        names = {f.value for f in flags.data}
        if "nsw" in names:
            wanted.append(llvm.OverflowFlag.NO_SIGNED_WRAP)
        if "nuw" in names:
            wanted.append(llvm.OverflowFlag.NO_UNSIGNED_WRAP)
    return llvm.OverflowAttr(tuple(wanted))


def _signed_constant(value: int, width: int) -> int:
    """A constant's bits as a signed value of its width (i1: 0 or 1), the forms llvmlite
    prints as valid LLVM constants."""
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >> (width - 1) else value


_FLOAT_BINARY = {arith.AddfOp: llvm.FAddOp, arith.SubfOp: llvm.FSubOp,
                 arith.MulfOp: llvm.FMulOp, arith.DivfOp: llvm.FDivOp}
#: the math ops of float32 kernels, as LLVM intrinsics (IEEE: correctly rounded)
_MATH = {math.SqrtOp: "llvm.sqrt.f32", math.AbsFOp: "llvm.fabs.f32"}


def _lower_float(op: Operation, rewriter: PatternRewriter) -> bool:
    """float32 ops, without fast-math flags (numpy's results, bit for bit)."""
    kind = type(op)
    f32 = Float32Type()
    if kind in _FLOAT_BINARY:
        rewriter.replace(op, _FLOAT_BINARY[kind](op.operands[0], op.operands[1]))
    elif isinstance(op, arith.NegfOp):
        rewriter.replace(op, llvm.FNegOp(op.operands[0]))
    elif isinstance(op, arith.CmpfOp):  # arith and llvm number the predicates alike
        rewriter.replace(op, llvm.FCmpOp(op.lhs, op.rhs,
                                         IntegerAttr(op.predicate.value.data, i64)))
    elif kind in _MATH:
        rewriter.replace(op, llvm.CallIntrinsicOp(_MATH[kind], [op.operands[0]], [f32]))
    elif isinstance(op, arith.SIToFPOp):
        rewriter.replace(op, llvm.SIToFPOp(op.operands[0], f32))
    elif isinstance(op, arith.UIToFPOp):
        rewriter.replace(op, _unsigned_to_float(op.operands[0]))
    elif isinstance(op, arith.BitcastOp):  # a float32's bits (or back)
        rewriter.replace(op, llvm.BitcastOp(op.operands[0], op.results[0].type))
    elif isinstance(op, (arith.FPToSIOp, arith.FPToUIOp)):
        rewriter.replace(op, _float_to_int_wrapped(op.operands[0], op.results[0].type.width.data))
    elif isinstance(op, arith.ConstantOp) and isinstance(op.result.type, Float32Type):
        rewriter.replace(op, llvm.ConstantOp(op.value, f32))
    elif isinstance(op, arith.SelectOp) and isinstance(op.lhs.type, Float32Type):
        rewriter.replace(op, llvm.SelectOp(op.cond, op.lhs, op.rhs))
    else:
        return False
    return True


def _unsigned_to_float(value) -> list[Operation]:
    """An unsigned integer to float32, rounded once (llvm's uitofp, which the llvm dialect
    here lacks): below 64 bits, zero-extended to i64 and converted as signed; a uint64 of
    2**63 or more is halved keeping its lowest bit (so that rounding sees it), converted
    and doubled, which is exact."""
    width = value.type.width.data
    f32 = Float32Type()
    if width < 64:
        wide = llvm.ZExtOp(value, i64)
        return [wide, llvm.SIToFPOp(wide.res, f32)]
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    zero = llvm.ConstantOp(IntegerAttr(0, i64), i64)
    half = llvm.LShrOp(value, one.result)
    low = llvm.AndOp(value, one.result)
    kept = llvm.OrOp(half.res, low.res)
    halved = llvm.SIToFPOp(kept.res, f32)
    doubled = llvm.FAddOp(halved.result, halved.result)
    direct = llvm.SIToFPOp(value, f32)
    big = llvm.ICmpOp(value, zero.result, _icmp_predicate("slt"))
    pick = llvm.SelectOp(big.res, doubled.res, direct.result)
    return [one, zero, half, low, kept, halved, doubled, direct, big, pick]


def _float_to_int_wrapped(value, width: int) -> list[Operation]:
    """float32 to a ``width``-bit integer as the golden reference and the FPGA's unit
    (rtl_templates/vichls_ftoi.v) convert: toward zero, then wrapped modulo 2**width, for
    every finite value however large; NaN and infinities give 0 (the language leaves those
    and out-of-range values undefined; one definition everywhere keeps the targets equal).
    From the bits: the significand (with its hidden bit) shifted by the exponent - 150,
    shifts of 64 or more giving 0 (LLVM's shifts that far are poison, hence the selects),
    negated for a negative value; signedness does not change the bits."""
    ops: list[Operation] = []

    def add(op: Operation):
        ops.append(op)
        return op.results[0]

    def const(v: int):
        return add(llvm.ConstantOp(IntegerAttr(v, i64), i64))

    def icmp(a, b, predicate: str):
        return add(llvm.ICmpOp(a, b, _icmp_predicate(predicate)))

    word = add(llvm.ZExtOp(add(llvm.BitcastOp(value, IntegerType(32))), i64))
    exponent = add(llvm.AndOp(add(llvm.LShrOp(word, const(23))), const(0xFF)))
    significand = add(llvm.OrOp(add(llvm.AndOp(word, const(0x7FFFFF))), const(0x800000)))
    shift = add(llvm.SubOp(exponent, const(150)))
    back = add(llvm.SubOp(const(0), shift))
    mask = const(63)
    left = add(llvm.ShlOp(significand, add(llvm.AndOp(shift, mask))))
    right = add(llvm.LShrOp(significand, add(llvm.AndOp(back, mask))))
    zero = const(0)
    left_ok = add(llvm.SelectOp(icmp(shift, const(64), "slt"), left, zero))
    right_ok = add(llvm.SelectOp(icmp(back, const(64), "slt"), right, zero))
    magnitude = add(llvm.SelectOp(icmp(shift, zero, "sge"), left_ok, right_ok))
    finite = add(llvm.SelectOp(icmp(exponent, const(0xFF), "eq"), zero, magnitude))
    negative = icmp(add(llvm.LShrOp(word, const(31))), zero, "ne")
    signed = add(llvm.SelectOp(negative, add(llvm.SubOp(zero, finite)), finite))
    if width < 64:
        add(llvm.TruncOp(signed, IntegerType(width)))
    return ops


class _ArithToLlvm(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if op.dialect_name() not in ("arith", "math"):
            return
        if _lower_float(op, rewriter):
            return
        for value in (*op.operands, *op.results):
            if not isinstance(value.type, IntegerType):
                raise unsupported(op, f"only integer and float32 arithmetic is supported, got "
                                      f"{value.type}")
        kind = type(op)
        if kind in _BINARY:
            new_kind = _BINARY[kind]
            if issubclass(new_kind, llvm.ArithmeticBinOpOverflow):
                rewriter.replace(op, new_kind(op.operands[0], op.operands[1], overflow=_wrap_flags(op)))
            else:
                rewriter.replace(op, new_kind(op.operands[0], op.operands[1]))
        elif kind in _CASTS:
            rewriter.replace(op, _CASTS[kind](op.operands[0], op.results[0].type))
        elif isinstance(op, arith.CmpiOp):
            name = _CMPI_NAMES[op.predicate.value.data]
            rewriter.replace(op, llvm.ICmpOp(op.lhs, op.rhs, _icmp_predicate(name)))
        elif isinstance(op, arith.SelectOp):
            rewriter.replace(op, llvm.SelectOp(op.cond, op.lhs, op.rhs))
        elif kind in _MIN_MAX:
            compare = llvm.ICmpOp(op.operands[0], op.operands[1], _icmp_predicate(_MIN_MAX[kind]))
            pick = llvm.SelectOp(compare.res, op.operands[0], op.operands[1])
            rewriter.replace(op, [compare, pick])
        elif isinstance(op, arith.ConstantOp):
            result_type = op.result.type
            assert isinstance(result_type, IntegerType) and isinstance(op.value, IntegerAttr)
            width = result_type.width.data
            bits = _signed_constant(op.value.value.data, width)
            rewriter.replace(op, llvm.ConstantOp(IntegerAttr(bits, result_type), result_type))
        else:
            raise unsupported(op)


class ArithToLlvm(ModulePass):
    """Integer arith → llvm dialect."""

    name = "vichls-cpu-arith-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(_ArithToLlvm(), apply_recursively=False).rewrite_module(op)
