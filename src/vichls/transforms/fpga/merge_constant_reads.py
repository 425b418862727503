"""One read of each constant array per function, at its start.

Why: a kernel that reads a constant array (``vichls.const``) reads it with a
``memref.get_global`` at its start; inlining a callee that reads one puts that read where
each call was, so a function can hold several reads of one array, inside loops too. Each
would become a ROM of its own in hardware (the scheduler sees distinct memories), and a
partition directive would split only one of them.

What: in every function, the ``memref.get_global``s of one global are replaced by the first
one, moved to the start of the function's entry block.

Assumes ``memref.get_global`` has no effect (it reads an address, not memory) and that
calls were inlined first (transforms/fpga/inline_calls.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


def merge_constant_reads(module: ModuleOp) -> None:
    for f in module.ops:
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        entry = f.body.blocks[0]
        first: dict[str, memref.GetGlobalOp] = {}
        last = None  # the reads moved so far keep their order
        for op in list(f.walk()):
            if not isinstance(op, memref.GetGlobalOp):
                continue
            name = op.name_.root_reference.data
            if name not in first:
                first[name] = op
                op.detach()
                if last is not None:
                    entry.insert_op_after(op, last)
                elif entry.first_op is None:
                    entry.add_op(op)
                else:
                    entry.insert_op_before(op, entry.first_op)
                last = op
                continue
            op.memref.replace_all_uses_with(first[name].memref)
            op.detach()
            op.erase()


@dataclass(frozen=True)
class MergeConstantReadsPass(ModulePass):
    """One read of each constant array per function, at its start."""

    name = "merge-constant-reads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        merge_constant_reads(op)
