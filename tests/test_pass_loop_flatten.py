"""IR-level tests of transforms/loop/loop_flatten: one loop over the product of the trip counts, the
induction variables recovered by shifts and masks (or unsigned division), and refusals."""

from __future__ import annotations

from xdsl.dialects import arith

from loop_ir import affine_loops, assert_cpu_agrees, matmul, shift_left, strided
from vichls.transforms.loop.loop_flatten import flatten_band
from vichls.analysis.loop_utils import constant_bounds
from vichls.dialects.attributes import LABEL_ATTR as LABEL


def _ops(module, cls):
    return [op for op in module.walk() if isinstance(op, cls)]


def test_power_of_two_trip_counts_use_a_shift_and_a_mask():
    m = shift_left.module()
    flat = flatten_band(affine_loops(m))
    assert affine_loops(m) == [flat]
    b = constant_bounds(flat)
    assert (b.lower, b.upper, b.step) == (0, 32, 1)
    assert len(_ops(m, arith.ShRUIOp)) == 1 and len(_ops(m, arith.AndIOp)) == 1
    assert not _ops(m, arith.DivUIOp) and not _ops(m, arith.RemUIOp)
    assert_cpu_agrees(shift_left, m)


def test_other_trip_counts_steps_and_labels():
    m = strided.module()
    loops = affine_loops(m)
    flat = flatten_band(loops)
    assert constant_bounds(flat).upper == 15
    assert LABEL not in flat.attributes  # the outer loop had no label
    assert len(_ops(m, arith.DivUIOp)) == 1 and len(_ops(m, arith.RemUIOp)) == 1
    assert_cpu_agrees(strided, m)


def test_flatten_the_inner_band_of_a_nest():
    m = matmul.module()
    flatten_band(affine_loops(m)[1:])
    assert [constant_bounds(loop).upper for loop in affine_loops(m)] == [4, 30]
    assert_cpu_agrees(matmul, m)
    m = matmul.module()
    flatten_band(affine_loops(m))
    assert [constant_bounds(loop).upper for loop in affine_loops(m)] == [120]
    assert_cpu_agrees(matmul, m)


def test_a_single_loop_is_left_alone():
    m = matmul.module()
    loop = affine_loops(m)[2]
    assert flatten_band([loop]) is loop
