"""Lower `cf.br` / `cf.cond_br` to `llvm.br` / `llvm.cond_br`.

What: a one-to-one renaming; block arguments stay block arguments, which the
xdsl.backend.llvm translation turns into phi nodes.

Why: the llvm dialect is the input of xdsl.backend.llvm; branch semantics are identical.

Assumes: control flow comes from vichls.cpu.scf_to_cf (no `cf.switch`, no `cf.assert`);
other cf ops raise CpuError.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, cf, llvm
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from vichls.cpu.errors import unsupported


class _CfToLlvm(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, cf.BranchOp):
            rewriter.replace(op, llvm.BrOp(op.successor, *op.arguments))
        elif isinstance(op, cf.ConditionalBranchOp):
            rewriter.replace(
                op,
                llvm.CondBrOp(op.cond, op.then_block, op.then_arguments, op.else_block, op.else_arguments),
            )
        elif op.dialect_name() == "cf":
            raise unsupported(op, "the CPU back end lowers cf.br and cf.cond_br only")


class CfToLlvm(ModulePass):
    """cf branches → llvm branches."""

    name = "vichls-cpu-cf-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(_CfToLlvm(), apply_recursively=False).rewrite_module(op)
