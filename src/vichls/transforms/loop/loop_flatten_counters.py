"""Flatten a perfect band whose bounds use the band's own loop variables (a triangular
nest such as ``for i in range(N): for j in range(i + 1)``) into one loop that steps the
band's variables as counters.

Why: as for loop_flatten, one loop over the whole iteration space has one loop control and
gives a pipeline one long trip count; but a triangular nest has no closed form of its
variables in the flat iteration number (loop_flatten's div/mod), so they are kept in
registers and stepped, the way a designer writes a flattened triangle by hand.

What: for the band ``l_0 .. l_{n-1}`` (outermost first), whose bound operands are band
variables of outer levels or constants, the iteration space is enumerated at compile time
(at most MAX_POINTS points), giving the trip count T and the first point. Then

    s_k = memref.alloca() : memref<iW_k>         one register per level, W_k wide enough
    store first_k -> s_k                          before the loop
    affine.for t = 0 to T {
      v_k = index_cast (load s_k)                 the band's variables
      the innermost body, with l_k's variable replaced by v_k
      advance: the innermost level steps; a level whose next value reaches its upper
               bound restarts at its lower bound (evaluated on the outer levels' new
               values) and the level above steps in turn
      store new_k -> s_k
    }

The flat loop and its counters' allocas carry ``vichls.flat_counters`` (one name per
flattened band): the tuple of counters differs in every iteration, which the dependence
analysis (analysis/dependence.py) uses to see that ``C[i, j]`` read and written in one
iteration is no recurrence.

Bound maps with several results (max of lower bounds, min of upper bounds) are evaluated
result by result with ``affine.apply`` and compares.

The advance is checked at compile time: stepped from the first point, it must visit the
enumerated points exactly, in order. That fails when a loop other than the outermost runs
no iterations for some outer values in the middle of the space (the counters would land in
an empty range); the pass then refuses. Outer values at the start or end whose inner loops
run no iterations (``range(i)`` at ``i = 0``) are skipped by starting at the first point
and stopping after T.

Assumes the loop-level IR of docs/ir.md (0-d memrefs are registers; allocas sit at the
top of the function's entry block) and bound maps with dimensions only.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.dialects import affine, arith, func, memref
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, IntegerType, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from vichls.dialects.attributes import FLAT_COUNTERS_ATTR as FLAT_COUNTERS
from vichls.analysis.loop_utils import (
    ConstantBounds,
    LoopTransformError,
    body_ops,
    loop_display_name,
    new_affine_for,
    sink_pure_ops,
)

MAX_POINTS = 1 << 18  # the enumeration of the iteration space at compile time


class _Level:
    """One loop of the band: its step, its bound maps, and where each map operand comes
    from (an outer level's variable or a constant)."""

    def __init__(self, loop: affine.ForOp, ivs: list[SSAValue], depth: int):
        self.loop = loop
        self.name = loop_display_name(loop)
        self.step = loop.step.value.data
        self.lower = self._read(loop.lowerBoundMap.data, loop.lowerBoundOperands, ivs, depth)
        self.upper = self._read(loop.upperBoundMap.data, loop.upperBoundOperands, ivs, depth)

    def _read(self, amap: AffineMap, operands: Sequence[SSAValue], ivs, depth):
        if amap.num_symbols:
            raise LoopTransformError(f"the bounds of loop '{self.name}' use symbols")
        sources: list[int | tuple[str, int]] = []
        for v in operands:
            level = next((k for k, iv in enumerate(ivs[:depth]) if iv is v), None)
            if level is not None:
                sources.append(level)
            elif isinstance(v.owner, arith.ConstantOp) and isinstance(v.owner.value, IntegerAttr):
                sources.append(("constant", v.owner.value.value.data))
            else:
                raise LoopTransformError(
                    f"the bounds of loop '{self.name}' use '{v.name_hint or 'a value'}' from "
                    "outside the band: the flattened loop's trip count would not be a "
                    "constant")
        return amap, sources

    @staticmethod
    def _operands(sources, values):
        return [values[s] if isinstance(s, int) else s[1] for s in sources]

    def lower_at(self, values: Sequence[int]) -> int:
        amap, sources = self.lower
        return max(amap.eval(self._operands(sources, values), []))

    def upper_at(self, values: Sequence[int]) -> int:
        amap, sources = self.upper
        return min(amap.eval(self._operands(sources, values), []))


def _points(levels: list[_Level]) -> list[tuple[int, ...]]:
    points: list[tuple[int, ...]] = []

    def walk(prefix: list[int]) -> None:
        level = levels[len(prefix)]
        for value in range(level.lower_at(prefix), level.upper_at(prefix), level.step):
            if len(prefix) + 1 == len(levels):
                points.append(tuple(prefix + [value]))
                if len(points) > MAX_POINTS:
                    raise LoopTransformError(
                        f"the nest has more than {MAX_POINTS} iterations: too many to count "
                        "when flattening it")
            else:
                walk(prefix + [value])

    walk([])
    return points


def _advance(levels: list[_Level], v: tuple[int, ...]) -> tuple[int, ...]:
    """What the hardware's advance computes (mirrors ``_emit_advance``)."""
    n = len(levels)
    new = list(v)
    restarts = [False] * n
    for k in reversed(range(n)):
        step = v[k] + levels[k].step
        if k > 0 and step >= levels[k].upper_at(v[:k]):
            restarts[k] = True
            continue
        new[k] = step
        break
    for k in range(1, n):
        if restarts[k]:
            new[k] = levels[k].lower_at(new[:k])
    return tuple(new)


def _signed_width(low: int, high: int) -> int:
    return max(high.bit_length(), (-low - 1).bit_length() if low < 0 else 0) + 1


class _Emitter:
    def __init__(self, before: Operation, location):
        self.before, self.location = before, location

    def __call__(self, op: Operation) -> SSAValue | None:
        op.location = self.location
        self.before.parent_block().insert_op_before(op, self.before)
        return op.results[0] if op.results else None

    def index(self, value: int) -> SSAValue:
        return self(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def bound(self, level_bound, values: list[SSAValue], largest: bool) -> SSAValue:
        """A bound map on the band values ``values``: its max (lower) or min (upper)."""
        amap, sources = level_bound
        operands = [values[s] if isinstance(s, int) else self.index(s[1]) for s in sources]
        result = None
        for expr in amap.results:
            single = AffineMap(amap.num_dims, 0, (expr,))
            value = self(affine.ApplyOp(operands, AffineMapAttr(single)))
            if result is not None:
                better = self(arith.CmpiOp(value, result, "sgt" if largest else "slt"))
                value = self(arith.SelectOp(better, value, result))
            result = value
        assert result is not None
        return result


def _emit_advance(levels: list[_Level], v: list[SSAValue], emit: _Emitter) -> list[SSAValue]:
    n = len(levels)
    stepped = [emit(arith.AddiOp(v[k], emit.index(levels[k].step))) for k in range(n)]
    # restart[k]: level k passes its upper bound while stepping (the innermost always
    # steps; level k steps when level k + 1 restarts)
    restart: list[SSAValue | None] = [None] * n
    steps: SSAValue | None = None  # None: always
    pre = list(v)
    for k in reversed(range(n)):
        pre[k] = stepped[k] if steps is None else emit(arith.SelectOp(steps, stepped[k], v[k]))
        if k == 0:
            break
        past = emit(arith.CmpiOp(stepped[k], emit.bound(levels[k].upper, v, False), "sge"))
        restart[k] = past if steps is None else emit(arith.AndIOp(steps, past))
        steps = restart[k]
    new = [pre[0]]
    for k in range(1, n):
        first = emit.bound(levels[k].lower, new, True)
        new.append(emit(arith.SelectOp(restart[k], first, pre[k])))
    return new


def flatten_with_counters(band: Sequence[affine.ForOp]) -> affine.ForOp:
    """Flatten the perfect band ``band`` (outermost first, at least two loops; see the
    module doc); returns the new loop, which replaces the band."""
    ivs = [loop.body.block.args[0] for loop in band]
    levels = [_Level(loop, ivs, depth) for depth, loop in enumerate(band)]
    points = _points(levels)
    for here, there in zip(points, points[1:]):
        got = _advance(levels, here)
        if got != there:
            # the first level the counters land outside of: its range is empty there
            empty = next((lv for k, lv in enumerate(levels)
                          if not lv.lower_at(got[:k]) <= got[k] < lv.upper_at(got[:k])),
                         levels[-1])
            raise LoopTransformError(
                f"loop '{empty.name}' runs no iterations for some values of the loops "
                "around it, in the middle of the iteration space: the flattened loop's "
                "counters cannot step over them")
    function = band[0].parent_op()
    while not isinstance(function, func.FuncOp):
        function = function.parent_op()
    sink_pure_ops(list(band))
    outer = band[0]
    entry = function.body.blocks[0]
    group = StringAttr(f"flat{sum(1 for op in entry.ops if FLAT_COUNTERS in op.attributes)}")
    first = points[0] if points else tuple(0 for _ in band)
    slots, types = [], []
    for k, iv in enumerate(ivs):
        values = [p[k] for p in points] or [0]
        width = _signed_width(min(values), max(values))
        types.append(IntegerType(width))
        alloca = memref.AllocaOp.get(types[-1], shape=[])
        alloca.location = outer.location
        alloca.results[0].name_hint = iv.name_hint
        alloca.attributes[FLAT_COUNTERS] = group
        entry.insert_op_before(alloca, entry.first_op)
        slots.append(alloca.results[0])
    start = _Emitter(outer, outer.location)
    for slot, value, t in zip(slots, first, types):
        start(memref.StoreOp.get(start(arith.ConstantOp(IntegerAttr(value, t))), slot, []))
    ops = body_ops(band[-1])
    for op in ops:
        op.detach()
    flat = new_affine_for(ConstantBounds(0, len(points), 1), ops, outer, None,
                          "_".join(iv.name_hint or "t" for iv in ivs))
    flat.attributes.update(outer.attributes)
    flat.attributes[FLAT_COUNTERS] = group
    outer.parent_block().insert_op_before(flat, outer)
    body = flat.body.block
    top = _Emitter(body.first_op, outer.location)
    values = []
    for slot, iv in zip(slots, ivs):
        value = top(arith.IndexCastOp(top(memref.LoadOp.get(slot, [])), IndexType()))
        value.name_hint = iv.name_hint
        values.append(value)
        iv.replace_all_uses_with(value)
    end = _Emitter(body.last_op, outer.location)
    for slot, value, t in zip(slots, _emit_advance(levels, values, end), types):
        end(memref.StoreOp.get(end(arith.IndexCastOp(value, t)), slot, []))
    outer.parent_block().erase_op(outer)
    return flat

