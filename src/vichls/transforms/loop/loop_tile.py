"""Tile (strip-mine) an ``affine.for`` into a tile loop and an intra-tile loop.

Why: tiling exposes a fixed-size inner loop that later directives can unroll, reorder or
pipeline independently of the full trip count.

What: a loop ``i`` over ``trip`` iterations (``lb``, ``step`` constants) tiled by ``T``
becomes ``for t in 0..trip//T: for ii in 0..T: body[i := lb + (t*T + ii) * step]`` followed,
when ``T`` does not divide ``trip``, by a remainder loop ``for ii in 0..trip%T:
body[i := lb + (trip//T*T + ii) * step]``. Both new loops have constant bounds, as xDSL's
``lower-affine`` requires; iteration order is unchanged, so any body stays correct. The tile
loop is named ``<name>.outer``, the intra-tile and remainder loops ``<name>.inner``. A tile
size at least the trip count leaves one tile.

A loop whose bounds are affine in outer loop variables (a triangular loop; its trip count
varies) is tiled without a remainder loop: the tile loop runs over the original bounds
with a stride of ``T * step`` and the intra-tile loop from the tile's start to the minimum
of ``start + T * step`` and the original upper bound (a two-result upper bound map, which
both lowerings read as a min). Its intra-tile loop has non-constant bounds, so it can be
pipelined but not unrolled.

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from vichls.analysis.loop_names import find_loops, on_named_loops

from vichls.analysis.loop_utils import ConstantBounds, LoopTransformError
from vichls.dialects.attributes import LABEL_ATTR as LABEL, LOOP_NAME_ATTR as LOOP_NAME
from vichls.analysis.loop_utils import body_ops, constant_bounds, copy_ops_before
from vichls.analysis.loop_utils import loop_display_name
from vichls.analysis.loop_utils import new_affine_for, replace_induction_variable


def tile_loop(loop: affine.ForOp, size: int, name: str | None = None
              ) -> tuple[affine.ForOp, affine.ForOp]:
    """Tile ``loop`` by ``size``; returns (tile loop, intra-tile loop). ``loop`` is
    replaced (erased). The new loops are named after ``name`` (default: the loop's own)."""
    if size < 1:
        raise LoopTransformError("the tile size must be a positive integer")
    if not isinstance(loop, affine.ForOp) or loop.results:
        raise LoopTransformError("its bounds are not constant or affine (it is not an "
                                 "affine.for)")
    bounds = constant_bounds(loop)
    if bounds is None:
        return _tile_affine_bounds(loop, size, name or loop_display_name(loop))
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


def _tile_affine_bounds(loop: affine.ForOp, size: int, name: str
                        ) -> tuple[affine.ForOp, affine.ForOp]:
    """Tile a loop whose bounds are affine in outer values (the trip count is unknown):
    ``for t = lb to ub step T*step: for i = t to min(t + T*step, ub) step step``, the last
    tile partial through the min. The intra-tile loop's variable is the original one, so
    the body is moved unchanged; the tile loop keeps the original bound maps."""
    step = loop.step.value.data
    stride = size * step
    iv = loop.body.block.args[0]
    hint = iv.name_hint or "t"
    ops = body_ops(loop)
    for op in ops:
        op.detach()
    outer = new_affine_for(ConstantBounds(0, 0, stride), [], loop, f"{name}.outer",
                           f"{hint}_out")
    outer.operands = list(loop.lowerBoundOperands) + list(loop.upperBoundOperands)
    outer.properties.update({k: loop.properties[k] for k in
                             ("lowerBoundMap", "upperBoundMap", "operandSegmentSizes")})
    t = outer.body.block.args[0]
    upper = loop.upperBoundMap.data
    # dims: (t, the original upper bound's dims), symbols: the original's symbols
    tile_end = AffineExpr.dimension(0) + stride
    shifted = [e.replace_dims_and_symbols(
        [AffineExpr.dimension(k + 1) for k in range(upper.num_dims)],
        [AffineExpr.symbol(k) for k in range(upper.num_symbols)]) for e in upper.results]
    inner_upper = AffineMap(upper.num_dims + 1, upper.num_symbols, (tile_end, *shifted))
    upper_operands = list(loop.upperBoundOperands)
    block = Block(arg_types=[IndexType()])
    block.args[0].name_hint = f"{hint}_in"
    for op in ops:
        block.add_op(op)
    block.add_op(affine.YieldOp.get())
    block.last_op.location = loop.location
    inner = affine.ForOp.from_region(
        [t], [t, *upper_operands[:upper.num_dims]] + upper_operands[upper.num_dims:], [], [],
        AffineMapAttr(AffineMap(1, 0, (AffineExpr.dimension(0),))),
        AffineMapAttr(inner_upper), Region(block), step)
    inner.location = loop.location
    inner.attributes[LOOP_NAME] = StringAttr(f"{name}.inner")
    outer.body.block.insert_op_before(inner, outer.body.block.last_op)
    iv.replace_all_uses_with(inner.body.block.args[0])
    if LABEL in loop.attributes:
        outer.attributes[LABEL] = loop.attributes[LABEL]
    loop.parent_block().insert_op_before(outer, loop)
    loop.parent_block().erase_op(loop)
    return outer, inner


def tile_named(function: Operation, name: str, size: int) -> None:
    """Tile every loop named ``name`` (analysis/loop_names.py) by ``size``, inner ones
    first; the new loops are named ``<name>.outer`` and ``<name>.inner``."""
    base = name.split("/")[-1]
    for loop in reversed(find_loops(function, name)):
        tile_loop(loop, size, base)


@dataclass(frozen=True)
class LoopTilePass(ModulePass):
    """``loop-tile{loop=NAME size=N}``: the tile directive on IR text; a loop is named by
    its induction variable, a path of them or its label."""

    name = "loop-tile"
    loop: str
    size: int
    kernel: str = ""  # the kernel whose loops these are (default: the top)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        on_named_loops(op, lambda f: tile_named(f, self.loop, self.size), self.kernel)
