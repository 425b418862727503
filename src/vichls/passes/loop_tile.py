"""Tile (strip-mine) an ``affine.for`` with constant bounds into a tile loop and an
intra-tile loop.

Why: tiling exposes a fixed-size inner loop that later directives can unroll, reorder or
pipeline independently of the full trip count.

What: a loop ``i`` over ``trip`` iterations (``lb``, ``step`` constants) tiled by ``T``
becomes ``for t in 0..trip//T: for ii in 0..T: body[i := lb + (t*T + ii) * step]`` followed,
when ``T`` does not divide ``trip``, by a remainder loop ``for ii in 0..trip%T:
body[i := lb + (trip//T*T + ii) * step]``. Both new loops have constant bounds, as xDSL's
``lower-affine`` requires; iteration order is unchanged, so any body stays correct. The tile
loop is named ``<name>.outer``, the intra-tile and remainder loops ``<name>.inner``. A tile
size at least the trip count leaves one tile.

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from xdsl.dialects import affine
from xdsl.ir.affine import AffineExpr

from vichls.passes.loop_utils import LABEL, ConstantBounds, LoopTransformError
from vichls.passes.loop_utils import body_ops, constant_bounds, copy_ops_before
from vichls.passes.loop_utils import loop_display_name
from vichls.passes.loop_utils import new_affine_for, replace_induction_variable


def tile_loop(loop: affine.ForOp, size: int, name: str | None = None
              ) -> tuple[affine.ForOp, affine.ForOp]:
    """Tile ``loop`` by ``size``; returns (tile loop, intra-tile loop). ``loop`` is
    replaced (erased). The new loops are named after ``name`` (default: the loop's own)."""
    bounds = constant_bounds(loop)
    if bounds is None:
        raise LoopTransformError("its bounds are not constant (not an affine.for with "
                                 "constant bounds)")
    if size < 1:
        raise LoopTransformError("the tile size must be a positive integer")
    trip = bounds.trip_count
    size = max(1, min(size, trip))
    tiles, remainder = divmod(trip, size)
    name = name or loop_display_name(loop)
    iv = loop.body.block.args[0]
    hint = iv.name_hint or "t"
    block = loop.parent_block()

    if remainder:
        rem_loop = new_affine_for(ConstantBounds(0, remainder, 1), [], loop,
                                  f"{name}.inner", f"{hint}_in")
        block.insert_op_after(rem_loop, loop)
        rem_iv = rem_loop.body.block.args[0]
        copy_ops_before(body_ops(loop), iv, rem_loop.body.block.last_op,
                        (AffineExpr.dimension(0) + tiles * size) * bounds.step + bounds.lower,
                        [rem_iv], loop.location)

    ops = body_ops(loop)
    for op in ops:
        op.detach()
    inner = new_affine_for(ConstantBounds(0, size, 1), ops, loop, f"{name}.inner",
                           f"{hint}_in")
    outer = new_affine_for(ConstantBounds(0, tiles, 1), [inner], loop, f"{name}.outer",
                           f"{hint}_out")
    if LABEL in loop.attributes:
        outer.attributes[LABEL] = loop.attributes[LABEL]
    block.insert_op_before(outer, loop)
    t, ii = outer.body.block.args[0], inner.body.block.args[0]
    replace_induction_variable(
        iv, (AffineExpr.dimension(0) * size + AffineExpr.dimension(1)) * bounds.step
        + bounds.lower, [t, ii], inner.body.block.first_op, loop.location)
    block.erase_op(loop)
    return outer, inner
