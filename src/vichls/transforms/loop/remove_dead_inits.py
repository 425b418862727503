"""Drop the initialisation of a local array that the next statement overwrites whole.

Why: the front end gives every local array its declared value, ``t: int32[N] = 0`` being
a nest storing 0 in every element, which is a loop of N cycles (or, completely
partitioned, N register writes) in hardware even when the kernel's next statement writes
every element before anything reads one (``for i in range(N): t[i] = x[i] * 2``; an FIR's
copy of its taps).

What: in every function, a nest that stores one constant into every element of a local
array (an alloca of the function's entry block), followed (among the statements of the
entry block that touch the array) by a statement that writes every element exactly once
in row-major order and reads none, is erased (analysis/array_writes.py decides both).
A later statement reading the array then reads what that statement wrote, as before.

Assumes the loop-level IR of docs/ir.md (affine loops; local arrays are allocas of the
entry block). The graph level's task extraction applies the same rule (and moves a live
initialisation next to the array's first use).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from vichls.analysis.array_writes import Usage, dead_initialisations


def remove_dead_inits(module: ModuleOp) -> None:
    usage = Usage(module)
    for function in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        if not function.body.blocks:
            continue
        for nest in dead_initialisations(function.body.block, usage):
            nest.detach()
            nest.erase()


@dataclass(frozen=True)
class RemoveDeadInitsPass(ModulePass):
    """``remove-dead-inits``: drop a local array's initialisation overwritten whole next."""

    name = "remove-dead-inits"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        remove_dead_inits(op)
