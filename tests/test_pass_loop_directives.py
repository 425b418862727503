"""Tests of vichls.transforms.loop.apply_directives through the Schedule API: loops found by variable, path, label
and tile-made names; directives applied in order; errors naming the directive and why;
the dataflow directive recorded for the FPGA back end."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import affine

import vichls
from loop_ir import affine_loops, assert_cpu_agrees, bounded, matmul, shift_left, strided
from vichls.errors import DirectiveError
from vichls.inputs import copy_args, random_args
from vichls.analysis.loop_utils import constant_bounds
from vichls.dialects.attributes import LOOP_NAME_ATTR as LOOP_NAME


def _uppers(module):
    return [constant_bounds(loop).upper for loop in affine_loops(module)]


def test_loops_by_variable_path_and_label():
    s = vichls.customize(strided).unroll("cols", factor=2)
    m = s.module()
    assert [loop.step.value.data for loop in affine_loops(m)] == [2, 2]
    assert_cpu_agrees(strided, m)
    m = vichls.customize(matmul).unroll("i/k/j").module()
    assert _uppers(m) == [4, 6]
    assert_cpu_agrees(matmul, m)
    m = vichls.customize(matmul).unroll("k/j", factor=5).unroll("k").module()
    assert _uppers(m) == [4]
    assert_cpu_agrees(matmul, m)


def test_tile_names_feed_later_directives_and_no_names_are_left():
    s = vichls.customize(matmul)
    s.tile("j", 5).tile("k", 3).reorder("k.outer", "j.outer", "k.inner", "j.inner")
    s.unroll("j.inner")
    m = s.module()
    assert not any(LOOP_NAME in op.attributes for op in m.walk())
    assert _uppers(m) == [4, 2, 1, 3]
    assert_cpu_agrees(matmul, m)
    m = vichls.customize(matmul).tile("k", 2).flatten("k.outer", "k.inner").module()
    assert _uppers(m) == [4, 6, 5]
    assert_cpu_agrees(matmul, m)


def test_a_tile_remainder_makes_the_nest_imperfect():
    s = vichls.customize(matmul).tile("j", 2).reorder("j.outer", "k")
    with pytest.raises(DirectiveError, match="not a perfectly nested band"):
        s.module()


def test_a_tiled_reduction_may_be_reordered():
    m = vichls.customize(matmul).tile("k", 3).reorder("k.inner", "k.outer").module()
    assert _uppers(m) == [4, 3, 2, 5]
    assert_cpu_agrees(matmul, m)


def test_reorder_and_flatten_through_the_schedule():
    m = vichls.customize(matmul).reorder("j", "k").flatten("i", "j").module()
    assert _uppers(m) == [20, 6]
    assert_cpu_agrees(matmul, m)


def test_paths_after_an_interchange_name_the_moved_loops():
    """After ``reorder("i/k/j", "i/k")`` the loop written ``i/k/j`` is ``i/j/k``: later
    directives may name it by its new path (the DSE names its knobs that way)."""
    s = vichls.customize(matmul).reorder("i/k/j", "i/k").unroll("i/j/k", factor=3)
    m = s.module()
    assert _uppers(m) == [4, 5, 6] and affine_loops(m)[2].step.value.data == 3
    assert_cpu_agrees(matmul, m)
    m = vichls.customize(matmul).reorder("i/k/j", "i/k").pipeline("i/j").partition(
        "B", dim=1, factor=6).module()
    # the k loop unrolled into the pipelined j loop, which reads one element per bank of B;
    # A[i][0..k] (one bank) stay hoisted out of it rather than read in every iteration of
    # a loop flattened into i (they would hold its II at 3)
    outer, loop = affine_loops(m)
    assert "vichls.pipeline" in loop.attributes and loop.parent_op() is outer
    assert_cpu_agrees(matmul, m)
    # with A's columns in banks of their own, one read per bank: the nest flattens
    m = vichls.customize(matmul).reorder("i/k/j", "i/k").pipeline("i/j").partition(
        "A", dim=2, factor=6).module()
    (loop,) = affine_loops(m)
    assert "vichls.pipeline" in loop.attributes and _uppers(m) == [20]
    assert_cpu_agrees(matmul, m)
    with pytest.raises(DirectiveError, match="no loop named 'i/j/x'"):
        vichls.customize(matmul).reorder("i/k/j", "i/k").unroll("i/j/x")


@vichls.kernel
def two_labelled(a: vichls.int32[3, 4], b: vichls.int32[4, 4]):
    for i in vichls.loop(range(3), name="first"):
        for j in range(4):
            a[i, j] += 1
    for i in vichls.loop(range(4), name="second"):
        for j in range(4):
            b[i, j] += 2


def test_labels_name_their_level_in_a_path():
    """``second/j`` is the j loop inside the loop labelled ``second`` only; ``i/j`` still
    names both j loops."""
    m = vichls.customize(two_labelled).unroll("second/j", factor=2).module()
    assert [loop.step.value.data for loop in affine_loops(m)] == [1, 1, 1, 2]
    m = vichls.customize(two_labelled).unroll("i/j", factor=2).module()
    assert [loop.step.value.data for loop in affine_loops(m)] == [1, 2, 1, 2]
    m = vichls.customize(two_labelled).reorder("second/j", "second").unroll(
        "j/second", factor=2).module()
    assert _uppers(m) == [3, 4, 4, 4] and affine_loops(m)[3].step.value.data == 2
    assert_cpu_agrees(two_labelled, m)


@pytest.mark.parametrize("build, why", [
    (lambda s: s.unroll("i", factor=2), "bounds that are not affine in the loops around it"),
    (lambda s: s.tile("i", 2), "only pipeline applies to it"),
])
def test_loops_with_variable_bounds_are_refused(build, why):
    with pytest.raises(DirectiveError, match=why) as e:
        build(vichls.customize(bounded)).module()
    assert "s." in str(e.value) and e.value.filename.endswith("test_pass_loop_directives.py")


def test_imperfect_nests_and_illegal_orders_are_refused():
    with pytest.raises(DirectiveError, match=r"s\.flatten\('i', 'cols'\).*") :
        vichls.customize(strided).unroll("cols", factor=2).flatten("i", "cols").module()
    with pytest.raises(DirectiveError, match=r"s\.reorder\('j', 'i'\): it could change"):
        vichls.customize(shift_left).reorder("j", "i").module()
    with pytest.raises(DirectiveError, match="outermost first"):
        vichls.customize(matmul).flatten("j", "k").module()
    with pytest.raises(DirectiveError, match="no loop named 'cols'"):
        vichls.customize(strided).unroll("cols").unroll("cols").module()


def test_unknown_loops_are_refused_when_recorded():
    with pytest.raises(DirectiveError, match="no loop named 'x'"):
        vichls.customize(matmul).unroll("x")
    with pytest.raises(DirectiveError, match="no loop named 'j.inner'"):
        vichls.customize(matmul).unroll("j.inner")


def test_pipelining_a_fully_unrolled_loop_is_refused():
    s = vichls.customize(matmul).unroll("j").pipeline("j")
    with pytest.raises(DirectiveError, match=r"s.pipeline\('j', ii=1\): no loop named 'j'"):
        s.module()


def test_dataflow_marks_the_top_for_the_fpga_back_end():
    s = vichls.customize(matmul).unroll("j").dataflow()
    top = next(op for op in s.module().ops if op.sym_name.data == "matmul")
    assert "vichls.dataflow" in top.attributes
    cpu = s.build("cpu")  # the CPU runs the statements in order: dataflow changes nothing
    args = random_args(matmul.signature, np.random.default_rng(3))
    want = copy_args(args)
    matmul(*want)
    cpu(*args)
    assert all((a == b).all() for a, b in zip(args, want) if hasattr(a, "shape"))


def test_partition_is_recorded_for_the_fpga_build_only():
    module = vichls.customize(matmul).unroll("j").partition("B", dim=1, factor=2).module()
    top = next(op for op in module.ops if op.sym_name.data == "matmul")
    assert "vichls.partition_requests" in top.attributes  # the CPU build ignores it


def test_the_kernel_module_itself_is_unchanged():
    before = str(matmul.module())
    vichls.customize(matmul).unroll("j").module()
    assert str(matmul.module()) == before
    assert isinstance(affine_loops(matmul.module())[0], affine.ForOp)


def test_every_op_keeps_a_source_location():
    s = vichls.customize(strided).tile("cols", 5).flatten("i", "cols.outer")
    s.unroll("cols.inner")
    m = s.module()
    for op in m.walk():
        if op.name != "builtin.module":
            assert "unknown" not in str(op.location), op.name
    assert_cpu_agrees(strided, m)


@vichls.kernel
def numbered_names(x: vichls.int32[4, 5], y: vichls.int32[4, 5]):
    for i0 in range(4):
        for i0_1 in range(5):
            y[i0, i0_1] = x[i0, i0_1] * 2
    for i0_1 in range(4):
        y[i0_1, 0] += 1


def test_loop_variables_ending_in_a_number_keep_their_names():
    # regression: xDSL drops a "_<digits>" ending from an SSA name hint, and the loops of
    # i0_1 answered to nothing (a directive for "i0_1" was refused) or, where a loop i0
    # existed, to "i0"
    m = vichls.customize(numbered_names).unroll("i0_1").module()
    assert _uppers(m) == [4]  # both loops of i0_1 unrolled, the loop of i0 left
    assert_cpu_agrees(numbered_names, m)
    m = vichls.customize(numbered_names).unroll("i0").module()
    assert _uppers(m) == [5, 5, 5, 5, 4]  # four copies of the inner loop, the other whole
