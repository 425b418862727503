"""Flatten a perfectly nested band of ``affine.for`` loops with constant bounds into one
loop.

Why: one loop over the whole iteration space has one loop control instead of one per
level (no cycles lost entering and leaving inner loops), and gives a pipeline one long
trip count instead of many short ones, as Vitis HLS's loop_flatten does.

What: loops ``l_0 .. l_{n-1}`` (outermost first) with trip counts ``N_0 .. N_{n-1}``
become one loop ``t`` over ``N_0 * ... * N_{n-1}`` iterations, with
``iv_k = lb_k + ((t floordiv (N_{k+1} * ... * N_{n-1})) mod N_k) * step_k``, computed with
unsigned arith on index (a shift and a mask when the divisors are powers of two, as they
are for most kernels). Pure ops between the loops are sunk into the body first. Iteration
order is unchanged, so every body stays correct. The new loop takes the outermost loop's
name, label and location.

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir.affine import AffineExpr

from vichls.passes.loop_utils import ConstantBounds, LoopTransformError, body_ops
from vichls.passes.loop_utils import constant_bounds, loop_display_name, new_affine_for
from vichls.passes.loop_utils import replace_induction_variable, sink_pure_ops


def flatten_band(band: Sequence[affine.ForOp]) -> affine.ForOp:
    """Flatten the perfect band ``band`` (outermost first); returns the new loop, which
    replaces the band."""
    bounds = []
    for loop in band:
        b = constant_bounds(loop)
        if b is None:
            raise LoopTransformError(
                f"loop '{loop_display_name(loop)}' does not have constant bounds (they are "
                "affine in another loop's variable, or it is not an affine.for): the "
                "flattened loop's trip count would not be a constant")
        bounds.append(b)
    if len(band) < 2:
        return band[0]
    sink_pure_ops(list(band))
    total = 1
    for b in bounds:
        total *= b.trip_count
    outer = band[0]
    ops = body_ops(band[-1])
    for op in ops:
        op.detach()
    flat = new_affine_for(ConstantBounds(0, total, 1), ops, outer, None,
                          "_".join(l.body.block.args[0].name_hint or "t" for l in band))
    flat.attributes.update(outer.attributes)
    outer.parent_block().insert_op_before(flat, outer)
    t = flat.body.block.args[0]
    # index arithmetic goes in front of this anchor: the body's first op itself may be an
    # access that the replacement rewrites (and erases)
    first = arith.ConstantOp(IntegerAttr(0, IndexType()))
    flat.body.block.insert_op_before(first, flat.body.block.first_op)
    inner_trips = total
    for k, (loop, b) in enumerate(zip(band, bounds)):
        if total == 0:  # the body never runs: any value will do
            position = AffineExpr.constant(0)
        else:
            inner_trips //= b.trip_count
            position = AffineExpr.dimension(0)
            if inner_trips > 1:
                position = position // inner_trips
            if k > 0:  # the outermost quotient is below its trip count already
                position = position % b.trip_count
        replace_induction_variable(loop.body.block.args[0],
                                   position * b.step + b.lower, [t], first, loop.location)
    flat.body.block.erase_op(first)
    outer.parent_block().erase_op(outer)
    return flat
