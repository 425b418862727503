"""Loop-invariant code motion out of ``scf.for`` loops.

Why: in hardware every op inside a loop body costs schedule time on every iteration; an
address computation or a load whose value cannot change across iterations (gemm's
``alpha * A[i, k]`` inside the ``j`` loop) is computed once before the loop instead.

What moves: ops directly in the loop body (not inside a nested if or loop; nested loops
are processed first, so their invariants bubble up level by level) whose operands are all
defined outside the loop, and that are either arith ops or ``memref.load`` from a memref
that nothing inside the loop stores to. Assumes loops are ``scf.for`` over values (after
lower-affine). Division is hoisted too: the front end guards every divisor, and the
hardware divider is total. A hoisted load runs even when the loop runs zero times; unless
the bounds show that the loop runs, its indices become ``lb < ub ? index : 0`` so that the
read stays inside the array (the ap_memory contract forbids reads out of range).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.analysis.loop_utils import defined_inside


def hoist_loop_invariants(module: ModuleOp) -> None:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    # walk() is pre-order; reversed visits inner loops before the loops around them.
    for loop in reversed(loops):
        _hoist_from(loop)



def _hoist_from(loop: scf.ForOp) -> None:
    stored = {
        op.memref for op in loop.walk() if isinstance(op, memref.StoreOp)
    }
    body = loop.body.blocks.first
    for op in list(body.ops):
        if op.regions or not op.results:
            continue
        if isinstance(op, memref.LoadOp):
            if op.memref in stored:
                continue
        elif op.dialect_name() != "arith":
            continue
        if any(defined_inside(v, loop) for v in op.operands):
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(loop))
        if isinstance(op, memref.LoadOp) and not runs_at_least_once(loop):
            _guard_indices(op, loop)


def _constant(value) -> int | None:
    if isinstance(value.owner, arith.ConstantOp):
        return value.owner.value.value.data
    return None


def runs_at_least_once(loop: scf.ForOp) -> bool:
    """Whether the bounds of ``loop`` are constants that let it run at least once."""
    lb, ub = _constant(loop.lb), _constant(loop.ub)
    return lb is not None and ub is not None and lb < ub


def _guard_indices(load: memref.LoadOp, loop: scf.ForOp) -> None:
    """Read index 0 instead when the loop will not run, so that the hoisted read stays
    inside the array whatever the indices were meant for."""
    point = InsertPoint.before(load)
    enters = arith.CmpiOp(loop.lb, loop.ub, "slt")
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    Rewriter.insert_op([enters, zero], point)
    for i, index in enumerate(list(load.indices)):
        select = arith.SelectOp(enters.result, index, zero.result)
        Rewriter.insert_op(select, point)
        load.operands[1 + i] = select.result


@dataclass(frozen=True)
class HoistLoopInvariantsPass(ModulePass):
    """Move loop-invariant arithmetic and loads out of scf.for loops."""

    name = "hoist-loop-invariants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_loop_invariants(op)
