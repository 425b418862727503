"""Lower `func.func` / `func.call` / `func.return` to their llvm dialect equivalents.

What: each `func.func` becomes an `llvm.func` with the same name, argument and result types
and body (the body region moves, so no op is copied); private functions get internal
linkage (LLVM may inline and then drop them), public ones external linkage. `func.call`
becomes `llvm.call` (calls stay calls: LLVM inlines at -O3), `func.return` `llvm.return`.

Why: the llvm dialect is the input of xdsl.backend.llvm.

Assumes: every other op is already in the llvm dialect (the earlier vichls.cpu passes), so
argument types are integers or `!llvm.ptr`, and a function has at most one result.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, func, llvm
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import Rewriter

from vichls.cpu.errors import unsupported


class _CallAndReturn(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, func.CallOp):
            results = op.result_types
            if len(results) > 1:
                raise unsupported(op, "calls with more than one result")
            call = llvm.CallOp(op.callee, *op.arguments, return_type=results[0] if results else None)
            rewriter.replace(op, call, call.results)
        elif isinstance(op, func.ReturnOp):
            if len(op.arguments) > 1:
                raise unsupported(op, "returning more than one value")
            rewriter.replace(op, llvm.ReturnOp(op.arguments[0] if op.arguments else None))


class FuncToLlvm(ModulePass):
    """func dialect → llvm.func / llvm.call / llvm.return."""

    name = "vichls-cpu-func-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(_CallAndReturn(), apply_recursively=False).rewrite_module(op)
        for f in list(op.ops):
            if not isinstance(f, func.FuncOp):
                if f.dialect_name() != "llvm":
                    raise unsupported(f, "a module may hold functions only")
                continue
            outputs = f.function_type.outputs.data
            if len(outputs) > 1:
                raise unsupported(f, "functions with more than one result")
            private = f.sym_visibility is not None and f.sym_visibility.data == "private"
            lowered = llvm.FuncOp(
                f.sym_name.data,
                llvm.LLVMFunctionType(f.function_type.inputs.data, outputs[0] if outputs else None),
                linkage=llvm.LinkageAttr("internal" if private else "external"),
                body=Rewriter.move_region_contents_to_new_regions(f.body),
            )
            Rewriter.replace_op(f, lowered)
