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

from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation


def _stored_memrefs(op: Operation) -> set:
    return {inner.memref for inner in op.walk() if isinstance(inner, memref.StoreOp)}


def _expression_key(op: Operation):
    props = tuple(sorted((k, str(v)) for k, v in op.properties.items()))
    return (op.name, tuple(op.operands), props, tuple(str(r.type) for r in op.results))


def value_numbering(module: ModuleOp) -> None:
    for op in module.ops:
        for region in op.regions:
            for block in region.blocks:
                _number_block(block, {}, {})


def _number_block(block: Block, expressions: dict, memory: dict) -> None:
    expressions = dict(expressions)
    memory = dict(memory)
    for op in list(block.ops):
        if op.regions:
            stored = _stored_memrefs(op)
            inner_memory = {k: v for k, v in memory.items() if k[0] not in stored}
            for region in op.regions:
                for inner in region.blocks:
                    _number_block(inner, expressions, inner_memory)
            memory = {k: v for k, v in memory.items() if k[0] not in stored}
        elif isinstance(op, memref.StoreOp):
            memory = {k: v for k, v in memory.items() if k[0] != op.memref}
            memory[(op.memref, tuple(op.indices))] = op.value
        elif isinstance(op, memref.LoadOp):
            key = (op.memref, tuple(op.indices))
            if key in memory:
                op.res.replace_all_uses_with(memory[key])
                op.detach()
                op.erase()
            else:
                memory[key] = op.res
        elif op.dialect_name() == "arith" and len(op.results) == 1 and not op.regions:
            key = _expression_key(op)
            if key in expressions:
                op.results[0].replace_all_uses_with(expressions[key])
                op.detach()
                op.erase()
            else:
                expressions[key] = op.results[0]
