"""IR-level tests of transforms/loop/loop_flatten_counters: a triangular band becomes one loop of the
counted trip count whose body steps the band's variables, kept in tagged registers, and
bands the counters cannot step are refused."""

from __future__ import annotations

import pytest
from xdsl.dialects import affine, arith, memref
from xdsl.dialects.builtin import IntegerType

from loop_ir import affine_loops, assert_cpu_agrees, lower_triangle
from vichls.transforms.loop.loop_flatten_counters import _advance, _Level, _points
from vichls.dialects.attributes import FLAT_COUNTERS_ATTR as FLAT_COUNTERS
from vichls.transforms.loop.loop_flatten_counters import flatten_with_counters
from vichls.analysis.loop_utils import LoopTransformError, constant_bounds


def test_a_triangle_becomes_one_counted_loop_with_counter_registers():
    m = lower_triangle.module()
    flat = flatten_with_counters(affine_loops(m))
    assert affine_loops(m) == [flat]
    b = constant_bounds(flat)
    assert (b.lower, b.upper, b.step) == (0, 15, 1)  # 0 + 1 + ... + 5
    counters = [op for op in m.walk() if isinstance(op, memref.AllocaOp)
                and FLAT_COUNTERS in op.attributes]
    assert [c.results[0].name_hint for c in counters] == ["j", "i"]
    assert all(c.results[0].type.element_type == IntegerType(4) for c in counters)
    assert flat.attributes[FLAT_COUNTERS] == counters[0].attributes[FLAT_COUNTERS]
    # the counters start at the first point, (i, j) = (1, 0): i = 0 has no iterations
    registers = {c.results[0] for c in counters}
    starts = [op.value.owner.value.value.data for op in m.walk()
              if isinstance(op, memref.StoreOp) and op.memref in registers
              and op.parent_op() is not flat]
    assert starts == [1, 0]
    # the bound of j is evaluated inside the loop, on the counter of i
    assert [op for op in flat.walk() if isinstance(op, affine.ApplyOp)]
    assert [op for op in flat.walk() if isinstance(op, arith.CmpiOp)]
    assert_cpu_agrees(lower_triangle, m)


def test_the_advance_visits_the_points_in_order():
    m = lower_triangle.module()
    band = affine_loops(m)
    ivs = [loop.body.block.args[0] for loop in band]
    levels = [_Level(loop, ivs, k) for k, loop in enumerate(band)]
    points = _points(levels)
    assert points[:4] == [(1, 0), (2, 0), (2, 1), (3, 0)] and len(points) == 15
    assert all(_advance(levels, p) == q for p, q in zip(points, points[1:]))


def test_bounds_from_outside_the_band_are_refused():
    m = lower_triangle.module()
    inner = affine_loops(m)[1]
    # a band of one loop over i's variable, which lies outside it
    with pytest.raises(LoopTransformError, match="use 'i' from outside the band"):
        flatten_with_counters([inner, inner])
