"""IR-level tests of transforms/loop/loop_unroll: full unroll, unroll by a factor with and without a
remainder, offsets folded into the affine maps, locations kept, refusals."""

from __future__ import annotations

import pytest
from xdsl.dialects import affine

from loop_ir import accesses, affine_loops, assert_cpu_agrees, maps_of, matmul, shifted_copy
from loop_ir import bounded
from vichls.transforms.loop.loop_unroll import unroll_loop
from vichls.analysis.loop_utils import LoopTransformError
from vichls import int32, kernel


def test_full_unroll_replaces_the_loop_by_constant_copies():
    m = shifted_copy.module()
    assert unroll_loop(affine_loops(m)[0]) is None
    assert not affine_loops(m)
    loads = [op for op in accesses(m) if isinstance(op, affine.LoadOp)]
    assert maps_of(loads) == [f"() -> ({i + 1})" for i in range(2, 12)]
    assert_cpu_agrees(shifted_copy, m)


@pytest.mark.parametrize("factor, main_upper, copies_after", [(2, 12, 0), (3, 11, 1), (4, 10, 2)])
def test_unroll_by_factor_with_remainder(factor, main_upper, copies_after):
    m = shifted_copy.module()
    loop = unroll_loop(affine_loops(m)[0], factor)
    assert loop is not None and loop.step.value.data == factor
    assert loop.upperBoundMap.data.results[0].value == main_upper
    inside = [op for op in loop.body.block.ops if isinstance(op, affine.LoadOp)]
    assert maps_of(inside) == [f"(d0) -> ((d0 + {k + 1}))" for k in range(factor)]
    outside = [op for op in loop.parent_block().ops if isinstance(op, affine.StoreOp)]
    assert maps_of(outside) == [f"() -> ({main_upper + k})" for k in range(copies_after)]
    assert_cpu_agrees(shifted_copy, m)


def test_copies_keep_their_locations():
    m = shifted_copy.module()
    store_loc = next(op for op in accesses(m) if isinstance(op, affine.StoreOp)).location
    unroll_loop(affine_loops(m)[0], 3)
    stores = [op for op in accesses(m) if isinstance(op, affine.StoreOp)]
    assert len(stores) == 4 and all(op.location == store_loc for op in stores)
    assert all("unknown" not in str(op.location) for op in m.walk() if op.name != "builtin.module")


def test_unrolling_an_outer_loop_copies_the_inner_loops():
    m = matmul.module()
    unroll_loop(affine_loops(m)[0], 2)
    loops = affine_loops(m)
    assert len(loops) == 5 and loops[0].step.value.data == 2
    a_maps = {s for s in maps_of(accesses(m)) if "d1" in s}
    assert "(d0, d1) -> ((d0 + 1), d1)" in a_maps
    assert_cpu_agrees(matmul, m)


def test_a_factor_with_one_main_iteration_unrolls_completely():
    m = shifted_copy.module()
    assert unroll_loop(affine_loops(m)[0], 9) is None
    assert not affine_loops(m) and len(accesses(m)) == 20
    assert_cpu_agrees(shifted_copy, m)


def test_a_factor_of_one_changes_nothing():
    m = matmul.module()
    text = str(m)
    unroll_loop(affine_loops(m)[2], 1)
    assert str(m) == text


def test_loops_without_affine_bounds_are_refused():
    m = bounded.module()
    loop = next(op for op in m.walk() if op.name == "scf.for")
    with pytest.raises(LoopTransformError, match="not an affine.for"):
        unroll_loop(loop, 2)


@kernel
def single_trip(x: int32[4, 3], y: int32[4]):
    for o in range(4):
        acc: int32 = 0
        for c in range(1):
            for k in range(3):
                acc += x[o, c + k]
        y[o] = acc
    for z in range(0):
        y[z] = 1


def test_a_full_unroll_of_one_or_no_iteration_leaves_no_loop():
    # regression: a loop of one iteration inside a pipelined loop stayed a loop ("a loop
    # inside a pipelined loop was not unrolled"), as ONNX convolutions of one channel have
    m = single_trip.module()
    one = [loop for loop in affine_loops(m) if loop.upperBoundMap.data.results[0].value == 1]
    none = [loop for loop in affine_loops(m) if loop.upperBoundMap.data.results[0].value == 0]
    assert unroll_loop(one[0]) is None and unroll_loop(none[0]) is None
    assert sorted(loop.upperBoundMap.data.results[0].value for loop in affine_loops(m)) == [3, 4]
    assert_cpu_agrees(single_trip, m)
    import vichls

    s = vichls.customize(single_trip).pipeline("o").partition("x", dim=2, factor=3)
    report = s.build("fpga").report
    assert [loop["ii"] for loop in report["loops"] if loop.get("pipelined")] == [1]
