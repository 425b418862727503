"""IR-level tests of transforms/loop/loop_tile: tile and intra-tile loops with constant bounds, the
remainder loop, names, composed affine indices, and refusals."""

from __future__ import annotations

import pytest

from loop_ir import accesses, affine_loops, assert_cpu_agrees, bounded, maps_of, matmul
from loop_ir import shifted_copy, strided
from vichls.transforms.loop.loop_tile import tile_loop
from vichls.analysis.loop_utils import LoopTransformError, constant_bounds
from vichls.dialects.attributes import LOOP_NAME_ATTR as LOOP_NAME


def _bounds(loop):
    b = constant_bounds(loop)
    return b.lower, b.upper, b.step


def test_tile_that_divides_the_trip_count():
    m = shifted_copy.module()
    outer, inner = tile_loop(affine_loops(m)[0], 5)
    assert affine_loops(m) == [outer, inner]
    assert _bounds(outer) == (0, 2, 1) and _bounds(inner) == (0, 5, 1)
    assert outer.attributes[LOOP_NAME].data.endswith(".outer")
    assert inner.attributes[LOOP_NAME].data.endswith(".inner")
    # i = 2 + 5 * t + ii, folded into the maps
    assert maps_of(accesses(m)) == ["(d0, d1) -> ((((d0 * 5) + d1) + 3))",
                                    "(d0, d1) -> ((((d0 * 5) + d1) + 2))"]
    assert_cpu_agrees(shifted_copy, m)


def test_tile_with_a_remainder_and_a_step():
    m = strided.module()
    outer, inner = tile_loop(affine_loops(m)[0], 2, "i")
    loops = affine_loops(m)
    assert len(loops) == 5  # tile, intra-tile, cols; remainder, its cols
    remainder = loops[3]
    assert _bounds(outer) == (0, 1, 1) and _bounds(inner) == (0, 2, 1)
    assert _bounds(remainder) == (0, 1, 1)
    assert remainder.attributes[LOOP_NAME].data == "i.inner"
    assert outer.attributes[LOOP_NAME].data == "i.outer"
    assert_cpu_agrees(strided, m)


def test_tile_of_the_middle_of_a_nest_and_an_oversized_tile():
    m = matmul.module()
    tile_loop(affine_loops(m)[1], 4)
    assert len(affine_loops(m)) == 6
    assert_cpu_agrees(matmul, m)
    m = matmul.module()
    outer, inner = tile_loop(affine_loops(m)[2], 100)
    assert _bounds(outer) == (0, 1, 1) and _bounds(inner) == (0, 5, 1)
    assert_cpu_agrees(matmul, m)


def test_loops_without_constant_bounds_are_refused():
    m = bounded.module()
    loop = next(op for op in m.walk() if op.name == "scf.for")
    with pytest.raises(LoopTransformError, match="bounds are not constant"):
        tile_loop(loop, 2)
