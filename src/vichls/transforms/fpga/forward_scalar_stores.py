"""Store-to-load forwarding of 0-d memrefs (kernel locals) inside straight-line code
(one block, and the branches of the ifs in it).

Why: the front end keeps every mutable local in a 0-d ``memref.alloca`` and reads it back
with ``memref.load``. Inside one block, a load that follows a store of the same 0-d memref
can use the stored value directly, which removes a register round trip (and a cycle) from
the schedule. Likewise a store that a later store of the same 0-d memref overwrites, with
no load in between, is dead (``acc: int32 = 0`` right after the declaration's own
initialisation) and would cost a cycle of its own. Assumes docs/ir.md: 0-d memrefs are only accessed by ``memref.load`` and
``memref.store`` (never passed whole to a call once calls are inlined). Any op with regions
(a loop) may store inside, so it ends what is known. An ``scf.if`` does not: the values
known before it are known inside its branches (which forward among their own ops the same
way), and after it for every 0-d memref neither branch stores.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass

from vichls.analysis.memory_effects import memory_effects


def _is_scalar_memref(value) -> bool:
    return isinstance(value.type, MemRefType) and len(value.type.get_shape()) == 0


def forward_scalar_stores(module: ModuleOp) -> None:
    # what the loops below each op touch, as of now (they are forwarded into later, in
    # walk order, so an if around a loop sees the loop as it is now)
    effects = memory_effects(module)
    for op in list(module.walk()):
        if isinstance(op, scf.IfOp):
            continue  # forwarded into from the block around it
        for region in op.regions:
            for block in region.blocks:
                _forward_in_block(block, {}, effects)


def _forward_in_block(block: Block, known: dict, effects: dict) -> tuple[set, set]:
    """``known``: 0-d memref -> the value it holds on entry (from the blocks around).
    Returns the memrefs the block accesses and stores after forwarding (an if's branches
    tell the block around them, so that no subtree is walked twice)."""
    known = dict(known)  # 0-d memref value -> last value stored to it
    unread_store = {}  # 0-d memref value -> its last store, if nothing read it since
    inner_effects: dict = {}
    for op in list(block.ops):
        if isinstance(op, scf.IfOp):
            accessed, stored = set(), set()
            for region in op.regions:
                for inner in region.blocks:
                    a, st = _forward_in_block(inner, known, effects)
                    accessed |= a
                    stored |= st
            inner_effects[op] = (accessed, stored)
            for mem in accessed:
                unread_store.pop(mem, None)
            for mem in stored:
                known.pop(mem, None)
            continue
        if isinstance(op, memref.StoreOp) and _is_scalar_memref(op.memref):
            known[op.memref] = op.value
            dead = unread_store.get(op.memref)
            if dead is not None:
                dead.detach()
                dead.erase()
            unread_store[op.memref] = op
        elif isinstance(op, memref.LoadOp) and _is_scalar_memref(op.memref):
            if op.memref in known:
                op.res.replace_all_uses_with(known[op.memref])
                op.detach()
                op.erase()
        elif op.regions:
            known.clear()
            unread_store.clear()
    accessed, stored = set(), set()
    for op in block.ops:
        if op in inner_effects:
            accessed |= inner_effects[op][0]
            stored |= inner_effects[op][1]
        elif op.regions:
            accessed |= effects[op].accessed
            stored |= effects[op].stored
        elif isinstance(op, (memref.LoadOp, memref.StoreOp)):
            accessed.add(op.memref)
            if isinstance(op, memref.StoreOp):
                stored.add(op.memref)
    return accessed, stored


@dataclass(frozen=True)
class ForwardScalarStoresPass(ModulePass):
    """Forward stores of 0-d memrefs to later loads; drop overwritten stores."""

    name = "forward-scalar-stores"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        forward_scalar_stores(op)
