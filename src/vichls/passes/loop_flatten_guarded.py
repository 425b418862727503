"""Flatten a loop into the loop around it when the nest is only semi-perfect, guarding the
code around the inner loop (what Vitis HLS does for a pipelined innermost loop).

Why: a pipelined inner loop of N iterations fills and drains its pipeline once per outer
iteration, and the statements around it (``acc = 0`` before, ``C[i, j] = acc`` after) take
cycles of their own; one flat pipelined loop over both levels overlaps all of it, so the
nest runs in about (outer × inner) cycles at II=1 instead of outer × (inner + depth + 2).

What: for ``outer`` (trip No) whose body is ``pre; inner; post`` with ``inner`` (trip Ni)
the only loop in it, both ``affine.for`` with constant bounds, the result is one loop ``t``
over No × Ni iterations whose body is

    pure ops of pre that depend on nothing guarded    (unguarded: recomputed, harmless;
                                                        affine.apply counts as pure)
    scf.if (t mod Ni == 0)      { the rest of pre }
    the inner body
    scf.if (t mod Ni == Ni - 1) { post }

with ``outer``'s variable ``(t floordiv Ni) * step + lb`` and ``inner``'s
``(t mod Ni) * step + lb``. Iteration order is unchanged, so the results are too. It gives
up (returns None) when the inner trip count is not a power of two (the outer variable would
need a division by it in every iteration; powers of two are shifts), when ``pre`` or
``post`` holds a loop, when a value computed under a guard is used outside it (the
guarded part of ``pre`` and ``post`` are two separate guards), when either trip count is zero, and when ``pre`` or ``post``
accesses an array that the inner loop also accesses (the guarded accesses would still take
a port slot in every iteration of the pipeline, which could raise its II).

Assumes the loop-level IR of docs/ir.md (0-d memrefs carry values between statements).
"""

from __future__ import annotations

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, IndexType, MemRefType
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineExpr

from vichls.passes.loop_utils import (
    ConstantBounds,
    body_ops,
    constant_bounds,
    is_pure,
    materialise,
    new_affine_for,
    replace_induction_variable,
)

_LOOPS = (affine.ForOp, scf.ForOp, scf.WhileOp)


def _arrays(ops: list[Operation]) -> set:
    found = set()
    for op in ops:
        for inner in op.walk():
            if isinstance(inner, (affine.LoadOp, affine.StoreOp, memref.LoadOp, memref.StoreOp)):
                mtype = inner.memref.type
                if isinstance(mtype, MemRefType) and mtype.get_shape():
                    found.add(inner.memref)
    return found


def _guarded_if(condition, ops: list[Operation], location) -> scf.IfOp:
    block = Block()
    for op in ops:
        if op.parent is not None:
            op.detach()
        block.add_op(op)
    block.add_op(scf.YieldOp())
    branch = scf.IfOp(condition, [], Region(block))
    branch.location = location
    return branch


def flatten_guarded(outer: affine.ForOp, inner: affine.ForOp) -> affine.ForOp | None:
    outer_bounds, inner_bounds = constant_bounds(outer), constant_bounds(inner)
    if outer_bounds is None or inner_bounds is None:
        return None
    n_outer, n_inner = outer_bounds.trip_count, inner_bounds.trip_count
    if n_outer == 0 or n_inner == 0 or n_inner & (n_inner - 1):
        return None  # (a trip count not a power of two would need a divider per iteration)
    ops = body_ops(outer)
    if inner not in ops:
        return None
    position = ops.index(inner)
    pre, post = ops[:position], ops[position + 1:]
    if any(isinstance(x, _LOOPS) for op in pre + post for x in op.walk()):
        return None
    if _arrays(pre + post) & _arrays([inner]):
        return None
    guarded: list[Operation] = []
    unguarded: list[Operation] = []
    for op in pre:
        depends = any(isinstance(v.owner, Operation) and v.owner in guarded for v in op.operands)
        movable = is_pure(op) or isinstance(op, affine.ApplyOp)
        (unguarded if movable and not depends else guarded).append(op)
    for group in (guarded, post):  # each becomes its own scf.if
        inside = set(group)
        for op in group:
            for result in op.results:
                if any(use.operation not in inside and
                       not any(a in inside for a in _ancestors(use.operation))
                       for use in result.uses):
                    return None  # a value computed under a guard is needed outside it
    inner_ops = body_ops(inner)
    for op in unguarded + guarded + inner_ops + post:
        op.detach()
    flat = new_affine_for(ConstantBounds(0, n_outer * n_inner, 1), [], outer, None,
                          "_".join(loop.body.block.args[0].name_hint or "t" for loop in (outer, inner)))
    body = flat.body.block
    terminator = body.last_op
    t = body.args[0]
    # the inner position, for the two guards, at the top of the body
    place = AffineExpr.dimension(0) % n_inner if n_outer > 1 else AffineExpr.dimension(0)
    inner_position = materialise(place, [t], terminator, outer.location)
    for op in unguarded:
        body.insert_op_before(op, terminator)
    if guarded:
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        first = arith.CmpiOp(inner_position, zero.result, "eq")
        for op in (zero, first):
            op.location = outer.location
            body.insert_op_before(op, terminator)
        body.insert_op_before(_guarded_if(first.result, guarded, outer.location), terminator)
    for op in inner_ops:
        body.insert_op_before(op, terminator)
    if post:
        last_value = arith.ConstantOp(IntegerAttr(n_inner - 1, IndexType()))
        last = arith.CmpiOp(inner_position, last_value.result, "eq")
        for op in (last_value, last):
            op.location = outer.location
            body.insert_op_before(op, terminator)
        body.insert_op_before(_guarded_if(last.result, post, outer.location), terminator)
    # index arithmetic goes in front of an anchor: the first op may be an access that the
    # replacement rewrites (and erases)
    first_op = arith.ConstantOp(IntegerAttr(0, IndexType()))
    body.insert_op_before(first_op, body.first_op)
    replace_induction_variable(
        outer.body.block.args[0],
        (AffineExpr.dimension(0) // n_inner if n_inner > 1 else AffineExpr.dimension(0))
        * outer_bounds.step + outer_bounds.lower,
        [t], first_op, outer.location)
    replace_induction_variable(inner.body.block.args[0],
                               place * inner_bounds.step + inner_bounds.lower,
                               [t], first_op, inner.location)
    body.erase_op(first_op)
    flat.attributes.update(inner.attributes)
    outer.parent_block().insert_op_before(flat, outer)
    outer.parent_block().erase_op(outer)
    return flat


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
