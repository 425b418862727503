"""Unroll an ``affine.for`` with constant bounds, fully or by a factor.

Why: copies of a loop body in one basic block let the FPGA list scheduler overlap them
(independent multiplies and loads issue in the same cycle where the memory ports allow),
and remove the loop's per-iteration control.

What: a full unroll (``factor`` None, or a factor at least the trip count) replaces the
loop by ``trip`` copies of its body with the induction variable replaced by the constants
``lb, lb + step, ...``. Unrolling by ``F`` leaves a main loop stepping ``F * step`` over the
first ``F * (trip // F)`` iterations, whose body is ``F`` copies with the induction
variable replaced by ``iv + k * step``, followed by the ``trip % F`` remaining iterations as
constant copies. Iteration order is unchanged, so the result is the same for any body.
Constant offsets are folded into the maps of affine loads and stores; every copied op keeps
its source location.

Assumes: the loop-level IR of docs/ir.md (no ``iter_args``).
"""

from __future__ import annotations

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr
from xdsl.ir.affine import AffineExpr, AffineMap

from vichls.passes.loop_utils import LoopTransformError, body_ops, constant_bounds
from vichls.passes.loop_utils import copy_ops_before


def unroll_loop(loop: affine.ForOp, factor: int | None = None) -> affine.ForOp | None:
    """Unroll ``loop`` fully (``factor`` None) or by ``factor``; returns the main loop
    left in place, or None when the loop was unrolled away completely."""
    bounds = constant_bounds(loop)
    if bounds is None:
        raise LoopTransformError("its bounds are not constants (it is not an affine.for "
                                 "with constant bounds), so its trip count is not known")
    if factor is not None and factor < 1:
        raise LoopTransformError("the factor must be a positive integer")
    trip = bounds.trip_count
    if factor is None or factor >= trip:
        factor = max(trip, 1)
    if factor == 1:
        return loop
    main_trips = trip // factor * factor
    block = loop.parent_block()
    original = body_ops(loop)
    iv = loop.body.block.args[0]
    if main_trips == factor:  # a single main iteration: unroll completely
        main_loop = None
        remainder_from = 0
    else:
        main_loop = loop
        remainder_from = main_trips
    if main_loop is None or remainder_from < trip:
        anchor = loop.next_op
        assert anchor is not None  # a loop is never a block's terminator
        for k in range(remainder_from, trip):
            copy_ops_before(original, iv, anchor,
                            AffineExpr.constant(bounds.lower + k * bounds.step), [],
                            loop.location)
    if main_loop is None:
        block.erase_op(loop)
        return None
    # Main loop: F copies at iv, iv + step, ... then the new step and upper bound.
    terminator = loop.body.block.last_op
    for k in range(1, factor):
        copy_ops_before(original, iv, terminator, AffineExpr.dimension(0) + k * bounds.step,
                        [iv], loop.location)
    loop.properties["upperBoundMap"] = AffineMapAttr(
        AffineMap.constant_map(bounds.lower + main_trips * bounds.step))
    loop.properties["step"] = IntegerAttr.from_index_int_value(bounds.step * factor)
    return loop
