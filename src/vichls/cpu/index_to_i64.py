"""Replace the `index` type by i64 everywhere, and index casts by integer extends/truncates.

What: every result, block argument and attribute of type `index` becomes i64 (so an
`arith.constant 4 : index` becomes `arith.constant 4 : i64` and loop counters become i64
block arguments); then `arith.index_cast` from a narrower integer becomes `arith.extsi`,
`arith.index_castui` becomes `arith.extui`, a cast to a narrower integer becomes
`arith.trunci`, and a cast between equal widths disappears.

Why: the llvm dialect has no `index`; on a 64-bit host an address-sized integer is i64.
docs/ir.md promises that index values fit in 32 signed bits, so i64 arithmetic on them never
wraps.

Assumes: a 64-bit host, and that memrefs are already lowered (vichls.cpu.memref_to_llvm),
so no memref op needs `index` operands any more.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, IntegerType, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import Rewriter

from vichls.cpu.errors import unsupported

_INDEX_CASTS = ("arith.index_cast", "arith.index_castui")


def _retype_index_values(module: builtin.ModuleOp) -> None:
    """Give every `index`-typed value, constant and function type the type i64, in place."""
    for op in list(module.walk()):
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    if isinstance(arg.type, IndexType):
                        Rewriter.replace_value_with_new_type(arg, i64)
        if isinstance(op, func.FuncOp):
            inputs = [i64 if isinstance(t, IndexType) else t for t in op.function_type.inputs.data]
            outputs = [i64 if isinstance(t, IndexType) else t for t in op.function_type.outputs.data]
            op.function_type = FunctionType.from_lists(inputs, outputs)
        elif isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
            assert isinstance(op.value, IntegerAttr)
            Rewriter.replace_op(op, arith.ConstantOp(IntegerAttr(op.value.value.data, i64)))
        else:
            for result in list(op.results):
                if isinstance(result.type, IndexType):
                    Rewriter.replace_value_with_new_type(result, i64)


class _IndexCastToIntegerCast(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if op.name not in _INDEX_CASTS:
            return
        source, result_type = op.operands[0], op.results[0].type
        if not isinstance(source.type, IntegerType) or not isinstance(result_type, IntegerType):
            raise unsupported(op, f"cast from {source.type} to {result_type}")
        source_width, result_width = source.type.width.data, result_type.width.data
        if source_width == result_width:
            rewriter.replace(op, [], [source])
        elif source_width > result_width:
            rewriter.replace(op, arith.TruncIOp(source, result_type))
        elif op.name == "arith.index_castui":
            rewriter.replace(op, arith.ExtUIOp(source, result_type))
        else:
            rewriter.replace(op, arith.ExtSIOp(source, result_type))


class IndexToI64(ModulePass):
    """index → i64; index casts → extsi / extui / trunci / nothing."""

    name = "vichls-cpu-index-to-i64"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        _retype_index_values(op)
        PatternRewriteWalker(_IndexCastToIntegerCast(), apply_recursively=False).rewrite_module(op)
