"""Scoped value numbering: common arith expressions and redundant memory reads.

Why: the front end emits what the source says; ``s[j] = s[j] + r[i] * A[i, j]`` followed
by ``q[i] = q[i] + A[i, j] * p[j]`` loads ``A[i, j]`` twice and computes ``i * 8 + j``
twice. In hardware a second load of the same array costs a port cycle and every duplicate
operator costs area. This pass, walking each block in order with the tables of the
enclosing blocks in scope (SSA dominance makes earlier values reusable):

- replaces an arith op by an earlier identical one (same name, operands, properties);
- replaces a ``memref.load`` by the value last loaded from or stored to the same memref at
  the same index values, as long as no store to that memref came in between (a store to
  other indices may alias, so it forgets the whole memref) and no loop or if that stores
  to it ran in between.

Assumes distinct memref values never alias (distinct parameters are distinct arrays, as
Vitis HLS assumes too) and that arith ops have no side effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from vichls.analysis.memory_effects import memory_effects


def _expression_key(op: Operation):
    # attributes are immutable values, equal when they print alike: no need to print them
    props = tuple(sorted(op.properties.items(), key=lambda kv: kv[0]))
    return (op.name, tuple(op.operands), props, tuple(r.type for r in op.results))


class _Scoped:
    """A table whose changes inside a block are undone when the block ends (a scoped
    hash table: a nested block sees the entries of the blocks around it without copying
    them, which keeps the pass linear in deep nests). A memory table's keys are
    ``(memref, indices)``, and ``forget(memref)`` drops every entry of one memref."""

    def __init__(self, memory: bool = False):
        self.entries: dict = {}
        self.memory = memory
        self.by_memref: dict = {}  # memref -> its keys in entries (memory tables)
        self.log: list[list] = []  # per open scope: (key, previous value or _ABSENT)

    def enter(self) -> None:
        self.log.append([])

    def leave(self) -> None:
        for key, previous in reversed(self.log.pop()):
            self._set(key, previous)

    def _set(self, key, value) -> None:
        if value is _ABSENT:
            del self.entries[key]
            if self.memory:
                self.by_memref[key[0]].discard(key)
        else:
            self.entries[key] = value
            if self.memory:
                self.by_memref.setdefault(key[0], set()).add(key)

    def put(self, key, value) -> None:
        self.log[-1].append((key, self.entries.get(key, _ABSENT)))
        self._set(key, value)

    def forget(self, mem) -> None:
        for key in list(self.by_memref.get(mem, ())):
            self.log[-1].append((key, self.entries[key]))
            self._set(key, _ABSENT)

    def get(self, key):
        return self.entries.get(key)


_ABSENT = object()


def value_numbering(module: ModuleOp) -> None:
    # what each loop or if stores (numbering erases loads and arith only, so the sets hold)
    stored = {op: e.stored for op, e in memory_effects(module).items()}
    for op in module.ops:
        for region in op.regions:
            for block in region.blocks:
                _number_block(block, _Scoped(), _Scoped(memory=True), stored)


def _number_block(block: Block, expressions: _Scoped, memory: _Scoped, stored_below: dict
                  ) -> None:
    expressions.enter()
    memory.enter()
    for op in list(block.ops):
        if op.regions:
            stored = stored_below[op]
            memory.enter()  # inside: what the region may store is unknown from the start
            for mem in stored:
                memory.forget(mem)
            for region in op.regions:
                for inner in region.blocks:
                    _number_block(inner, expressions, memory, stored_below)
            memory.leave()
            for mem in stored:  # after: likewise
                memory.forget(mem)
        elif isinstance(op, memref.StoreOp):
            memory.forget(op.memref)
            memory.put((op.memref, tuple(op.indices)), op.value)
        elif isinstance(op, memref.LoadOp):
            key = (op.memref, tuple(op.indices))
            known = memory.get(key)
            if known is not None:
                op.res.replace_all_uses_with(known)
                op.detach()
                op.erase()
            else:
                memory.put(key, op.res)
        elif op.dialect_name() == "arith" and len(op.results) == 1 and not op.regions:
            key = _expression_key(op)
            known = expressions.get(key)
            if known is not None:
                op.results[0].replace_all_uses_with(known)
                op.detach()
                op.erase()
            else:
                expressions.put(key, op.results[0])
    memory.leave()
    expressions.leave()


@dataclass(frozen=True)
class ValueNumberingPass(ModulePass):
    """Merge equal arith expressions and redundant memory reads (scoped)."""

    name = "value-numbering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        value_numbering(op)
