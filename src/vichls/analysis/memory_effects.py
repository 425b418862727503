"""Which memrefs the operations below an op read and write: an analysis.

Why: passes that carry facts about memory across a block (value numbering, store-to-load
forwarding) must forget what a nested loop or if may write. Asking each nested op by
walking its subtree costs the subtree's size at every level of nesting: quadratic in the
depth (an ``elif`` chain of 400 branches is 400 ifs, each inside the one before), and
xDSL's recursive ``walk`` adds a factor of the depth again. Here the sets of a whole tree
come from one post-order traversal without recursion.

What: ``ops_in_post_order(root)`` lists the ops below ``root`` (``root`` last), innermost
first; ``memory_effects(root)`` maps every op with regions below ``root`` (and ``root``)
to the memrefs loaded and stored anywhere inside it, as of the moment it runs (a pass that
erases loads or stores afterwards sees the sets as they were).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref
from xdsl.ir import Operation


@dataclass(frozen=True)
class Effects:
    loaded: frozenset
    stored: frozenset

    @property
    def accessed(self) -> frozenset:
        return self.loaded | self.stored


def ops_in_post_order(root: Operation) -> list[Operation]:
    """Every op below ``root`` and ``root`` itself, each after the ops nested in it."""
    out: list[Operation] = []
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, expanded = stack.pop()
        if expanded:
            out.append(op)
            continue
        stack.append((op, True))
        children = [inner for region in op.regions for block in region.blocks
                    for inner in block.ops]
        stack.extend((inner, False) for inner in reversed(children))
    return out


def memory_effects(root: Operation) -> dict[Operation, Effects]:
    loaded: dict[Operation, set] = {}
    stored: dict[Operation, set] = {}
    for op in ops_in_post_order(root):
        if op.regions:
            mine_l, mine_s = loaded.setdefault(op, set()), stored.setdefault(op, set())
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.ops:
                        if inner.regions:
                            mine_l |= loaded[inner]
                            mine_s |= stored[inner]
                        elif isinstance(inner, memref.LoadOp):
                            mine_l.add(inner.memref)
                        elif isinstance(inner, memref.StoreOp):
                            mine_s.add(inner.memref)
    return {op: Effects(frozenset(loaded[op]), frozenset(stored[op])) for op in loaded}
