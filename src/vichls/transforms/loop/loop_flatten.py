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

Bounds that are not all constants:

- only the outermost loop's bounds vary (maps over values from outside the band, e.g. the
  ``j, k`` band of ``for j in range(i, N): for k in range(M)``), with one lower bound:
  the same formula, with the flat loop running to ``ceil((ub - lb) / step) * M`` (one
  result per upper bound: their min) and ``iv_0 = lb + (t floordiv M) * step``;
- bounds that use the band's own variables (a triangular nest): the band's variables
  become stepped counters (transforms/loop/loop_flatten_counters.py).

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from vichls.analysis.loop_names import find_bands, on_named_loops

from vichls.transforms.loop.loop_flatten_counters import flatten_with_counters
from vichls.analysis.loop_utils import ConstantBounds, body_ops
from vichls.analysis.loop_utils import constant_bounds, is_linear
from vichls.analysis.loop_utils import new_affine_for, replace_induction_variable, set_bounds
from vichls.analysis.loop_utils import sink_pure_ops


def flatten_band(band: Sequence[affine.ForOp]) -> affine.ForOp:
    """Flatten the perfect band ``band`` (outermost first); returns the new loop, which
    replaces the band."""
    if len(band) < 2:
        return band[0]
    bounds = [constant_bounds(loop) for loop in band]
    if any(b is None for b in bounds[1:]):
        return flatten_with_counters(band)
    if bounds[0] is None:
        outer = band[0]
        if outer.lowerBoundMap.data.num_symbols or outer.upperBoundMap.data.num_symbols:
            return flatten_with_counters(band)  # (which refuses symbols with a reason)
        return _flatten_varying_outer(band, [b for b in bounds[1:] if b is not None])
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


def _flatten_varying_outer(band: Sequence[affine.ForOp],
                           inner: list[ConstantBounds]) -> affine.ForOp:
    """The band's loops but the outermost have constant bounds (see the module doc)."""
    outer = band[0]
    lower_map, upper_map = outer.lowerBoundMap.data, outer.upperBoundMap.data
    if len(lower_map.results) != 1 or not is_linear(lower_map.results[0]):
        return flatten_with_counters(band)  # (refuses outside values with a reason)
    sink_pure_ops(list(band))
    inner_trips = 1
    for b in inner:
        inner_trips *= b.trip_count
    step = outer.step.value.data
    operands: list = []
    for v in [*outer.lowerBoundOperands, *outer.upperBoundOperands]:
        if all(v is not w for w in operands):
            operands.append(v)

    def over_operands(amap, own) -> list[AffineExpr]:
        dims = [AffineExpr.dimension(next(k for k, w in enumerate(operands) if w is v))
                for v in own]
        return [e.replace_dims_and_symbols(dims, []) for e in amap.results]

    lower = over_operands(lower_map, outer.lowerBoundOperands)[0]
    trips = [(u - lower) if step == 1 else (u - lower).ceil_div(step)
             for u in over_operands(upper_map, outer.upperBoundOperands)]
    ops = body_ops(band[-1])
    for op in ops:
        op.detach()
    flat = new_affine_for(ConstantBounds(0, 0, 1), ops, outer, None,
                          "_".join(l.body.block.args[0].name_hint or "t" for l in band))
    set_bounds(flat, AffineMap.constant_map(0), [],
               AffineMap(len(operands), 0, tuple(t * inner_trips for t in trips)), operands)
    flat.attributes.update(outer.attributes)
    outer.parent_block().insert_op_before(flat, outer)
    t = flat.body.block.args[0]
    first = arith.ConstantOp(IntegerAttr(0, IndexType()))
    flat.body.block.insert_op_before(first, flat.body.block.first_op)
    shifted = lower.replace_dims_and_symbols(
        [AffineExpr.dimension(k + 1) for k in range(len(operands))], [])
    quotient = AffineExpr.dimension(0) if inner_trips else AffineExpr.constant(0)
    if inner_trips > 1:
        quotient = quotient // inner_trips
    replace_induction_variable(outer.body.block.args[0], shifted + quotient * step,
                               [t, *operands], first, outer.location)
    remaining = inner_trips
    for loop, b in zip(band[1:], inner):
        if inner_trips == 0:  # the body never runs: any value will do
            replace_induction_variable(loop.body.block.args[0], AffineExpr.constant(0),
                                       [t], first, loop.location)
            continue
        remaining //= b.trip_count
        position = AffineExpr.dimension(0)
        if remaining > 1:
            position = position // remaining
        position = position % b.trip_count
        replace_induction_variable(loop.body.block.args[0], position * b.step + b.lower,
                                   [t], first, loop.location)
    flat.body.block.erase_op(first)
    outer.parent_block().erase_op(outer)
    return flat


def flatten_named(function: Operation, names: Sequence[str]) -> None:
    """Flatten every perfect band of the loops ``names`` (analysis/loop_names.py), given
    outermost first, into one loop."""
    for band in find_bands(function, tuple(names), in_order=True):
        flatten_band(band)


@dataclass(frozen=True)
class LoopFlattenPass(ModulePass):
    """``loop-flatten{loops=i,j}``: the flatten directive on IR text; the band's loops
    outermost first, each named by its induction variable or label."""

    name = "loop-flatten"
    loops: tuple[str, ...]
    kernel: str = ""  # the kernel whose loops these are (default: the top)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        on_named_loops(op, lambda f: flatten_named(f, self.loops), self.kernel)
