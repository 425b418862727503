"""Unroll an ``affine.for``, fully or by a factor (by a factor only when its bounds are affine).

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

A loop with affine bounds (``range(i + 1)``, a tile's ``min(t + T, N)``) has no constant
trip count, so it is only unrolled by a factor: before the loop, ``end = lb + ((ub - lb)
ceildiv step floordiv F) * F * step`` is computed (``affine.apply``; with several upper
bounds, the least of these); the main loop runs from ``lb`` to ``end`` stepping ``F * step``
with ``F`` copies, and a remainder loop (the original body, not unrolled, carrying the
loop's name) runs from ``max(lb, end)`` to ``ub``. ``max`` keeps an empty loop empty: with
``ub < lb`` the floor division goes below ``lb``.

Assumes: the loop-level IR of docs/ir.md (no ``iter_args``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from vichls.analysis.loop_names import find_loops, on_named_loops

from vichls.analysis.loop_utils import LoopTransformError, body_ops, constant_bounds
from vichls.analysis.loop_utils import copy_ops_before, set_bounds
from vichls.analysis.loop_utils import loop_display_name
from vichls.limits import unroll_limit, unroll_limit_hint


def unroll_loop(loop: affine.ForOp, factor: int | None = None) -> affine.ForOp | None:
    """Unroll ``loop`` fully (``factor`` None) or by ``factor``; returns the main loop
    left in place, or None when the loop was unrolled away completely."""
    bounds = constant_bounds(loop)
    if factor is not None and factor < 1:
        raise LoopTransformError("the factor must be a positive integer")
    if bounds is None:
        return _unroll_affine(loop, factor)
    trip = bounds.trip_count
    full = factor is None or factor >= trip
    if full and trip == 0:  # unrolled completely: nothing is left
        loop.parent_block().erase_op(loop)
        return None
    if full:
        factor = trip  # (a loop of one iteration is unrolled too: its body at the lower bound)
    if factor == 1 and not full:
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


def _unroll_affine(loop: affine.ForOp, factor: int | None) -> affine.ForOp:
    """Unroll a loop with affine bounds by ``factor`` (see the module doc)."""
    if not isinstance(loop, affine.ForOp) or loop.results:
        raise LoopTransformError("it is not an affine.for, so its trip count is not known")
    if factor is None:
        raise LoopTransformError(
            "its bounds are not constants, so a full unroll would need a trip count it does "
            "not have; unroll it by a factor (the remaining iterations then run in a loop)")
    if factor == 1:
        return loop
    lower_map, upper_map = loop.lowerBoundMap.data, loop.upperBoundMap.data
    if lower_map.num_symbols or upper_map.num_symbols:
        raise LoopTransformError("its bounds use symbols, which the unroll does not read")
    if len(lower_map.results) != 1:
        raise LoopTransformError("its lower bound is the largest of several values: the "
                                 "unroll needs a single lower bound")
    step = loop.step.value.data
    lower_ops, upper_ops = list(loop.lowerBoundOperands), list(loop.upperBoundOperands)
    operands = lower_ops + upper_ops
    n_lower = len(lower_ops)
    lower = lower_map.results[0]
    block = loop.parent_block()
    # end of the main loop, for each upper bound; the least of them
    end = None
    for upper in upper_map.results:
        shifted = upper.replace_dims_and_symbols(
            [AffineExpr.dimension(n_lower + k) for k in range(upper_map.num_dims)], [])
        trips = (shifted - lower) if step == 1 else (shifted - lower).ceil_div(step)
        expr = lower + (trips // factor) * (factor * step)
        apply = affine.ApplyOp(operands, AffineMapAttr(AffineMap(len(operands), 0, (expr,))))
        apply.location = loop.location
        block.insert_op_before(apply, loop)
        value = apply.result
        if end is not None:
            less = arith.CmpiOp(value, end, "slt")
            pick = arith.SelectOp(less.result, value, end)
            for op in (less, pick):
                op.location = loop.location
                block.insert_op_before(op, loop)
            value = pick.result
        end = value
    assert end is not None
    # the remainder: the original loop, cloned before the body is copied
    rest = loop.clone()
    block.insert_op_after(rest, loop)
    set_bounds(rest, AffineMap(n_lower + 1, 0, (lower, AffineExpr.dimension(n_lower))),
               [*lower_ops, end], upper_map, upper_ops)
    iv = loop.body.block.args[0]
    original = body_ops(loop)
    terminator = loop.body.block.last_op
    for k in range(1, factor):
        copy_ops_before(original, iv, terminator, AffineExpr.dimension(0) + k * step,
                        [iv], loop.location)
    set_bounds(loop, lower_map, lower_ops, AffineMap(1, 0, (AffineExpr.dimension(0),)), [end])
    loop.properties["step"] = IntegerAttr.from_index_int_value(step * factor)
    return loop


def unroll_named(function: Operation, name: str, factor: int | None) -> None:
    """Unroll every loop named ``name`` (analysis/loop_names.py) by ``factor`` (None:
    fully), inner ones first."""
    for loop in reversed(find_loops(function, name)):
        bounds = constant_bounds(loop)
        copies = factor if bounds is None else min(factor or bounds.trip_count,
                                                   bounds.trip_count)
        if copies is not None and copies > unroll_limit():
            raise LoopTransformError(
                f"unrolling loop '{loop_display_name(loop)}' makes {copies} copies of its "
                f"body; unroll it by a smaller factor ({unroll_limit_hint()})")
        unroll_loop(loop, factor)


@dataclass(frozen=True)
class LoopUnrollPass(ModulePass):
    """``loop-unroll{loop=NAME factor=N}``: the unroll directive on IR text (factor 0:
    fully); a loop is named by its induction variable, a path of them or its label."""

    name = "loop-unroll"
    loop: str
    factor: int = 0
    kernel: str = ""  # the kernel whose loops these are (default: the top)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        on_named_loops(op, lambda f: unroll_named(f, self.loop, self.factor or None), self.kernel)
