"""Loads from a constant array at constant indices become constants.

Why: a constant array (``vichls.const``) is a ROM, and a read of a ROM costs a port cycle
and a cycle of latency. Where the indices are known at compile time (after unrolling, or
every read of a completely partitioned table, whose banks are 0-d), the value is known
too: a constant, which costs nothing and lets the arithmetic around it simplify (a
multiplication by a constant coefficient becomes shifts and adds).

What: a ``memref.load`` whose memref is a ``memref.get_global`` of a constant
``memref.global`` with dense values, and whose indices are all ``arith.constant`` index
values within the shape, is replaced by an ``arith.constant`` of that element (an f32
constant for a float32 table). An index out of range (undefined in the language) is left
alone. Dead ``get_global``s go with remove-dead-ops.

Assumes the loop level after lower-affine-fpga (loads are ``memref.load`` with ``index``
operands).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.passes import ModulePass


def _constant_index(value) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) \
            and isinstance(op.value.type, IndexType):
        return op.value.value.data
    return None


def fold_constant_loads(module: ModuleOp) -> None:
    tables = {g.sym_name.data: g for g in module.ops if isinstance(g, memref.GlobalOp)
              and g.constant is not None
              and isinstance(g.initial_value, DenseIntOrFPElementsAttr)}
    values: dict[str, tuple] = {}
    for op in list(module.walk()):
        if not isinstance(op, memref.LoadOp) or not isinstance(op.memref.owner,
                                                                memref.GetGlobalOp):
            continue
        name = op.memref.owner.name_.root_reference.data
        table = tables.get(name)
        if table is None:
            continue
        indices = [_constant_index(v) for v in op.indices]
        shape = table.type.get_shape()
        if any(i is None for i in indices) or any(
                not 0 <= i < d for i, d in zip(indices, shape)):
            continue
        offset = 0
        for i, d in zip(indices, shape):
            offset = offset * d + i
        if name not in values:
            values[name] = tuple(table.initial_value.get_values())
        element = table.type.element_type
        if isinstance(element, Float32Type):  # (a float32 table: its value, an f32)
            constant = arith.ConstantOp(FloatAttr(float(values[name][offset]), element))
        else:
            width = element.width.data
            raw = int(values[name][offset]) & ((1 << width) - 1)
            if width > 1 and raw >> (width - 1):
                raw -= 1 << width
            constant = arith.ConstantOp(IntegerAttr(raw, IntegerType(width)))
        constant.location = op.location
        op.parent_block().insert_op_before(constant, op)
        op.res.replace_all_uses_with(constant.result)
        op.detach()
        op.erase()


@dataclass(frozen=True)
class FoldConstantLoadsPass(ModulePass):
    """Loads from a constant array at constant indices become constants."""

    name = "fold-constant-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_constant_loads(op)
