"""Store-to-load forwarding and dead-store removal for array elements with identical
indices, inside one straight-line block.

Why: ``s[i] = 0`` followed by ``s[i] += a`` and ``s[i] += b`` (PolyBench's way of writing a
reduction into an array element) is a store, then a load and a store, twice, all of one
element: in a pipelined loop every one of them takes a port slot and orders the next
(store, then load a cycle later), so the iteration's recurrence grows with each
statement. The loads can take the stored values directly and every store but the last is
overwritten before anything reads it, leaving one store per element.

What: walking each block in order, after a ``memref.store v, A[idx]`` a ``memref.load
A[idx]`` with the very same index values (SSA identity, so value numbering must have run)
is replaced by ``v``; a store to A with other indices may alias and forgets what was known
of A. A store to ``A[idx]`` that a later store to ``A[idx]`` overwrites with no load of A
(any index) in between is removed. Any op with regions ends what is known (it may access
A inside). 0-d memrefs are transforms/fpga/forward_scalar_stores' business.

Assumes the IR after lower-affine (memref.load/store on index values) and that arrays are
not aliased (docs/ir.md: distinct memrefs are distinct arrays).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass


def _is_array(value) -> bool:
    return isinstance(value.type, MemRefType) and len(value.type.get_shape()) > 0


def forward_array_stores(module: ModuleOp) -> None:
    for op in list(module.walk()):
        for region in op.regions:
            for block in region.blocks:
                _forward_in_block(block)


def _forward_in_block(block: Block) -> None:
    known: dict = {}  # (memref, indices) -> value last stored there in this block
    unread: dict = {}  # (memref, indices) -> its last store, if no load of memref since
    for op in list(block.ops):
        if isinstance(op, memref.StoreOp) and _is_array(op.memref):
            key = (op.memref, tuple(op.indices))
            for other in [k for k in known if k[0] is op.memref and k != key]:
                del known[other]  # another index of the array may be the same element
            dead = unread.pop(key, None)
            if dead is not None:
                dead.detach()
                dead.erase()
            for other in [k for k in unread if k[0] is op.memref]:
                del unread[other]  # it may overwrite them: they are not dead for sure
            known[key] = op.value
            unread[key] = op
        elif isinstance(op, memref.LoadOp) and _is_array(op.memref):
            key = (op.memref, tuple(op.indices))
            if key in known:  # forwarded: the memory is not read at all
                op.res.replace_all_uses_with(known[key])
                op.detach()
                op.erase()
                continue
            for other in [k for k in unread if k[0] is op.memref]:
                del unread[other]  # read (or maybe read) before being overwritten
        elif op.regions:
            known.clear()
            unread.clear()


@dataclass(frozen=True)
class ForwardArrayStoresPass(ModulePass):
    """Forward array elements stored and loaded at identical indices."""

    name = "forward-array-stores"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        forward_array_stores(op)
