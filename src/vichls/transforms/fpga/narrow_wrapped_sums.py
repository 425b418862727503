"""Sums truncated back to a narrower type computed in that type: ``trunci(addi)`` chains
become plain ``addi`` chains, which reassociation can balance.

Why: a fixed-point accumulation ``acc += x[i] * w[i]`` is, in ap_fixed's rules, a sum one
bit wider than ``acc`` converted back to ``acc``'s type (a wrap): on the loop level,
``trunci(addi(extsi(acc), extsi(p)))`` at every step. Unrolled, that is a chain of adders
with a truncation and an extension between each two, which transforms/fpga/reassociate.py
does not see as one sum: a fully parallel dense layer of 64 inputs took 64 adders in a row.

What: an ``arith.trunci`` to ``iw`` of an ``arith.addi`` whose only use it is becomes an
``addi`` on ``iw`` of the operands truncated to ``w`` bits, where the truncation of an
``extsi`` / ``extui`` from ``v <= w`` bits is the extension to ``w`` bits (or the value
itself), and of anything else a ``trunci``. Exact: the low ``w`` bits of a sum depend only
on the low ``w`` bits of its operands, and an extension's low ``w`` bits are the value's
extension to ``w`` bits. Extensions left without a use are erased. Run to a fixed point
over each block in order, so a chain narrows from its first link on.

Assumes the loop-level IR of the FPGA preparation (after lowering affine); runs just before
reassociate.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass


def _width(value: SSAValue) -> int | None:
    t = value.type
    return t.width.data if isinstance(t, IntegerType) else None


def _truncated(value: SSAValue, width: int, before: Operation) -> SSAValue:
    """``value``'s low ``width`` bits as an ``i<width>`` value (new ops before ``before``)."""
    if _width(value) == width:
        return value
    owner = value.owner
    if isinstance(owner, (arith.ExtSIOp, arith.ExtUIOp)):
        inner = owner.input
        w = _width(inner)
        if w == width:
            return inner
        if w is not None and w < width:
            ext = type(owner)(inner, IntegerType(width))
            ext.location = owner.location
            before.parent_block().insert_op_before(ext, before)
            return ext.result
    op = arith.TruncIOp(value, IntegerType(width))
    op.location = before.location
    before.parent_block().insert_op_before(op, before)
    return op.result


def _erase_if_dead(op: Operation) -> None:
    work = [op]
    while work:
        o = work.pop()
        if o.parent is None or any(r.uses for r in o.results):
            continue
        if not isinstance(o, (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.AddiOp)):
            continue
        producers = [v.owner for v in o.operands if isinstance(v.owner, Operation)]
        o.detach()
        o.erase()
        work += producers


def narrow_wrapped_sums(module: ModuleOp) -> bool:
    changed = False
    for trunc in [op for op in module.walk() if isinstance(op, arith.TruncIOp)]:
        add = trunc.input.owner
        width = _width(trunc.result)
        if not isinstance(add, arith.AddiOp) or width is None or _width(add.result) is None \
                or not add.result.has_one_use() or add.parent_block() is not trunc.parent_block():
            continue
        lhs = _truncated(add.lhs, width, trunc)
        rhs = _truncated(add.rhs, width, trunc)
        new = arith.AddiOp(lhs, rhs)
        new.location = add.location
        trunc.parent_block().insert_op_before(new, trunc)
        new.result.name_hint = trunc.result.name_hint
        trunc.result.replace_all_uses_with(new.result)
        trunc.detach()
        trunc.erase()
        _erase_if_dead(add)
        changed = True
    return changed


@dataclass(frozen=True)
class NarrowWrappedSumsPass(ModulePass):
    """A sum truncated to a narrower type computed in that type (fixed-point
    accumulations become adder chains that reassociate balances)."""

    name = "narrow-wrapped-sums"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        narrow_wrapped_sums(op)
