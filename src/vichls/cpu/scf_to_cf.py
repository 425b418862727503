"""Lower structured control flow (scf.for / scf.if / scf.while) to cf branches.

What: xDSL's own `convert-scf-to-cf` patterns lower `scf.if` and `scf.for` over `index`
(the body's first block becomes the header that compares the induction variable with the
upper bound, signed; index loops come from affine loops whose bounds fit in 32 bits, so the
increment cannot overflow in i64).

`scf.for` over i32/i64 (data-dependent bounds) is lowered here so that it also ends where
Python's `range` ends when the bounds are near the type's maximum: the latch leaves the
loop when `ub - iv <= step` (unsigned; exact because `iv < ub` there) instead of testing
`iv + step < ub`, which would wrap around and never exit:

    ^current:  ...; cf.br ^header(lb)
    ^header(iv):  cf.cond_br (iv < ub), ^body, ^exit
    ^body ... ^latch:  cf.cond_br (ub - iv <=u step), ^exit, ^header(iv + step)

xDSL 0.74 has no `scf.while` lowering, so this pass adds one with the same block structure
MLIR uses:

    ^current:   ...; cf.br ^before(inits)
    ^before:    <before region>; cf.cond_br %c, ^after(forwarded), ^continue(forwarded)
    ^after:     <after region>;  cf.br ^before(yielded)
    ^continue:  the ops that followed the loop

Why here: the llvm dialect has no structured control flow, and LLVM's own loop passes
(rotation, LICM, vectorisation) recognise these header/latch shapes.

Assumes: `affine` is already lowered (vichls.cpu.lower_affine). All scf ops of the
loop-level IR are handled; `scf.index_switch` goes to xDSL's
pattern too; other scf ops (parallel, reduce, ...) raise CpuError.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, scf
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from vichls.cpu.errors import unsupported


class _WhileLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter):
        current = op.parent_block()
        assert current is not None
        continuation = current.split_before(op)
        for i, result_type in enumerate(op.result_types):
            rewriter.insert_block_argument(continuation, i, result_type)

        before_entry = op.before_region.first_block
        after_entry = op.after_region.first_block
        before_last = op.before_region.last_block
        after_last = op.after_region.last_block
        assert before_entry and after_entry and before_last and after_last

        condition = before_last.last_op
        assert isinstance(condition, scf.ConditionOp)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(
                condition.condition, after_entry, condition.args, continuation, condition.args
            ),
        )
        loop_yield = after_last.last_op
        assert isinstance(loop_yield, scf.YieldOp)
        rewriter.replace(loop_yield, cf.BranchOp(before_entry, *loop_yield.arguments))

        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        # `current` lost its terminator when it was split; enter the loop from there.
        rewriter.insert(cf.BranchOp(before_entry, *op.arguments), InsertPoint.at_end(current))
        rewriter.replace(op, [], continuation.args)


class _IntegerForLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter):
        if not isinstance(op.lb.type, IntegerType):
            return  # index loops: xDSL's ForLowering
        if op.iter_args:
            raise unsupported(op, "scf.for with iter_args over an integer induction variable")
        current = op.parent_block()
        assert current is not None
        exit_block = current.split_before(op)
        header = op.body.first_block
        assert header is not None and header.first_op is not None
        body_entry = header.split_before(header.first_op)
        latch = op.body.last_block
        assert latch is not None and isinstance(latch.last_op, scf.YieldOp)
        rewriter.inline_region(op.body, BlockInsertPoint.before(exit_block))
        iv = header.args[0]

        remaining = arith.SubiOp(op.ub, iv)
        last_step = arith.CmpiOp(remaining, op.step, "ule")
        next_iv = arith.AddiOp(iv, op.step)
        rewriter.replace(
            latch.last_op,
            [remaining, last_step, next_iv, cf.ConditionalBranchOp(last_step, exit_block, (), header, (next_iv,))],
        )
        in_range = arith.CmpiOp(iv, op.ub, "slt")
        rewriter.insert([in_range, cf.ConditionalBranchOp(in_range, body_entry, (), exit_block, ())], InsertPoint.at_end(header))
        rewriter.insert(cf.BranchOp(header, op.lb), InsertPoint.at_end(current))
        rewriter.erase(op)


class _RefuseOtherScf(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if op.dialect_name() == "scf" and not isinstance(
            op, (scf.ForOp, scf.IfOp, scf.WhileOp, scf.YieldOp, scf.ConditionOp, scf.IndexSwitchOp)
        ):
            raise unsupported(op, "the CPU back end lowers scf.for/if/while only")


class ScfToCf(ModulePass):
    """scf.for / scf.if / scf.while → cf.br / cf.cond_br."""

    name = "vichls-cpu-scf-to-cf"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [_RefuseOtherScf(), _WhileLowering(), _IntegerForLowering(), SwitchLowering(), IfLowering(), ForLowering()]
            )
        ).rewrite_module(op)
