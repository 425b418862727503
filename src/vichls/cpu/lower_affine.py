"""Lower the affine dialect to scf + arith on `index` (the CPU back end's first pass).

What: `affine.for` → `scf.for`, `affine.yield` → `scf.yield`, `affine.load`/`affine.store`
→ `memref.load`/`memref.store` with explicitly computed indices, `affine.apply` /
`affine.min` → arith. Bound maps with several results become the max of
the lower bounds and the min of the upper bounds, as the affine dialect defines.

Why our own and not xDSL's `lower-affine`: xDSL 0.74's pass evaluates loop-bound maps with
no operands (so `range(n)` and triangular `range(i + 1)` loops break), drops the symbol
operands of load/store maps, and lowers `mod` to `remsi`, whose sign differs from the
affine `mod` for negative operands. Here every map is evaluated with its dims and symbols
and `mod`/`floordiv`/`ceildiv` follow their affine (floor-based) definitions.

Assumes: the loop-level IR of docs/ir.md. The right operand of `mod`, `floordiv` and
`ceildiv` is a positive constant (the affine dialect's rule); anything else, and
`affine.if`/`affine.parallel`, raise CpuError.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from vichls.cpu.errors import unsupported


class _IndexArith:
    """Collects the arith ops that evaluate affine expressions on `index` values."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        self.ops: list[Operation] = []

    def _emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def const(self, value: int) -> SSAValue:
        return self._emit(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def select_less(self, a: SSAValue, b: SSAValue, take_smaller: bool) -> SSAValue:
        a_less = self._emit(arith.CmpiOp(a, b, "slt"))
        return self._emit(arith.SelectOp(a_less, a, b) if take_smaller else arith.SelectOp(a_less, b, a))

    def expr(self, e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue]) -> SSAValue:
        if isinstance(e, AffineConstantExpr):
            return self.const(e.value)
        if isinstance(e, AffineDimExpr):
            return dims[e.position]
        if isinstance(e, AffineSymExpr):
            return syms[e.position]
        assert isinstance(e, AffineBinaryOpExpr)
        lhs = self.expr(e.lhs, dims, syms)
        if e.kind == AffineBinaryOpKind.Add:
            return self._emit(arith.AddiOp(lhs, self.expr(e.rhs, dims, syms)))
        if e.kind == AffineBinaryOpKind.Mul:
            return self._emit(arith.MuliOp(lhs, self.expr(e.rhs, dims, syms)))
        if not isinstance(e.rhs, AffineConstantExpr) or e.rhs.value <= 0:
            raise unsupported(self.anchor, f"affine {e.kind.name} by a non-positive-constant {e.rhs}")
        divisor = self.const(e.rhs.value)
        zero = self.const(0)
        # Truncating div/rem, then a correction towards -inf (floor) or +inf (ceil).
        quotient = self._emit(arith.DivSIOp(lhs, divisor))
        remainder = self._emit(arith.RemSIOp(lhs, divisor))
        if e.kind == AffineBinaryOpKind.Mod:
            negative = self._emit(arith.CmpiOp(remainder, zero, "slt"))
            shifted = self._emit(arith.AddiOp(remainder, divisor))
            return self._emit(arith.SelectOp(negative, shifted, remainder))
        one = self.const(1)
        if e.kind == AffineBinaryOpKind.FloorDiv:
            needs_fix = self._emit(arith.CmpiOp(remainder, zero, "slt"))
            fixed = self._emit(arith.SubiOp(quotient, one))
        else:  # CeilDiv
            needs_fix = self._emit(arith.CmpiOp(remainder, zero, "sgt"))
            fixed = self._emit(arith.AddiOp(quotient, one))
        return self._emit(arith.SelectOp(needs_fix, fixed, quotient))

    def map_results(self, amap: AffineMap, operands: Sequence[SSAValue]) -> list[SSAValue]:
        dims = operands[: amap.num_dims]
        syms = operands[amap.num_dims :]
        return [self.expr(e, dims, syms) for e in amap.results]

    def reduce(self, values: list[SSAValue], take_smaller: bool) -> SSAValue:
        result = values[0]
        for v in values[1:]:
            result = self.select_less(result, v, take_smaller)
        return result


class _LowerFor(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ForOp, rewriter: PatternRewriter):
        b = _IndexArith(op)
        lower = b.reduce(b.map_results(op.lowerBoundMap.data, op.lowerBoundOperands), take_smaller=False)
        upper = b.reduce(b.map_results(op.upperBoundMap.data, op.upperBoundOperands), take_smaller=True)
        step = b.const(op.step.value.data)
        rewriter.insert(b.ops, InsertPoint.before(op))
        body = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, scf.ForOp(lower, upper, step, op.inits, body))


class _LowerYield(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.YieldOp, rewriter: PatternRewriter):
        rewriter.replace(op, scf.YieldOp(*op.arguments))


class _LowerLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter):
        b = _IndexArith(op)
        indices = b.map_results(op.map.data, op.indices)
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, memref.LoadOp.get(op.memref, indices))


class _LowerStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter):
        b = _IndexArith(op)
        indices = b.map_results(op.map.data, op.indices)
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, memref.StoreOp.get(op.value, op.memref, indices))


class _LowerApply(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter):
        b = _IndexArith(op)
        (value,) = b.map_results(op.map.data, op.mapOperands)
        rewriter.replace(op, b.ops, [value])


class _LowerMin(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.MinOp, rewriter: PatternRewriter):
        b = _IndexArith(op)
        value = b.reduce(b.map_results(op.map.data, op.arguments), take_smaller=True)
        rewriter.replace(op, b.ops, [value])


class _RefuseOtherAffine(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if op.dialect_name() == "affine" and not isinstance(
            op, (affine.ForOp, affine.YieldOp, affine.LoadOp, affine.StoreOp, affine.ApplyOp, affine.MinOp)
        ):
            raise unsupported(op, "the CPU back end lowers affine.for/yield/load/store/apply/min only")


class LowerAffineForCpu(ModulePass):
    """affine → scf + memref + arith on index, with correct map evaluation."""

    name = "vichls-cpu-lower-affine"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [_RefuseOtherAffine(), _LowerFor(), _LowerYield(), _LowerLoad(), _LowerStore(), _LowerApply(), _LowerMin()]
            )
        ).rewrite_module(op)
