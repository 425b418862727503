"""Remove operations whose results are never used and that have no side effect.

Why: after inlining, forwarding and hoisting, loads and arithmetic can be left without a
use; a dead op in hardware would still lengthen a schedule (a dead multi-cycle divide
keeps its block running until its result is ready). Side-effect-free here means: arith
ops, ``memref.load``, ``memref.alloca`` (an alloca with no remaining use is storage
nobody reads or writes) and ``memref.get_global`` (a constant array nobody reads: no ROM).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


def _removable(op) -> bool:
    if isinstance(op, (memref.LoadOp, memref.AllocaOp, memref.GetGlobalOp)):
        return True
    return op.dialect_name() == "arith"


def remove_dead_ops(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk())):
            if op.results and _removable(op) and all(not r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True
        # An alloca only ever stored to is dead too, together with its stores.
        for op in list(module.walk()):
            if isinstance(op, memref.AllocaOp) and all(
                isinstance(use.operation, memref.StoreOp) and use.index == 1
                for use in op.memref.uses
            ):
                for use in list(op.memref.uses):
                    use.operation.detach()
                    use.operation.erase()
                op.detach()
                op.erase()
                changed = True


@dataclass(frozen=True)
class RemoveDeadOpsPass(ModulePass):
    """Remove side-effect-free operations whose results nothing uses."""

    name = "remove-dead-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        remove_dead_ops(op)
