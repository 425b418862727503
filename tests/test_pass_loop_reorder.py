"""IR-level tests of transforms/loop/loop_reorder: permuted headers over an unchanged body, pure ops
sunk, the refusals that keep results bit-exact, and the bounds of reordered triangles
(with the linear forms of analysis/linear_bounds)."""

from __future__ import annotations

import pytest
from xdsl.ir.affine import AffineExpr

from loop_ir import affine_loops, assert_cpu_agrees, horner, matmul, shift_left, strided
from vichls import int32, kernel
from vichls.analysis import linear_bounds
from vichls.transforms.loop.loop_reorder import reorder_band
from vichls.analysis.loop_utils import ConstantBounds, LoopTransformError, constant_bounds


def _uppers(module):
    return [constant_bounds(loop).upper for loop in affine_loops(module)]


def test_interchange_of_the_reduction_and_the_column_loop():
    m = matmul.module()
    loops = affine_loops(m)
    body_ops_before = [op.name for op in loops[2].body.block.ops]
    reorder_band(loops[1:], [1, 0])
    assert _uppers(m) == [4, 5, 6]
    new = affine_loops(m)
    assert [op.name for op in new[2].body.block.ops] == body_ops_before
    hints = [loop.body.block.args[0].name_hint for loop in new]
    assert hints == ["i", "j", "k"]
    assert_cpu_agrees(matmul, m)


def test_full_permutation_keeping_the_reduction_order():
    m = matmul.module()
    reorder_band(affine_loops(m), [2, 1, 0])  # j, k, i: C[i, j] still sums over k in order
    assert _uppers(m) == [5, 6, 4]
    assert_cpu_agrees(matmul, m)


def test_integer_reductions_reorder_freely():
    m = strided.module()  # s += b[i, j] after b[i, j] = ...: a sum in any order
    reorder_band(affine_loops(m), [1, 0])
    assert_cpu_agrees(strided, m)


def test_an_order_dependent_update_and_a_shifted_store_are_refused():
    m = horner.module()
    with pytest.raises(LoopTransformError, match="could change the result"):
        reorder_band(affine_loops(m), [1, 0])
    m = shift_left.module()
    with pytest.raises(LoopTransformError, match="not always at the same affine index"):
        reorder_band(affine_loops(m), [1, 0])


def test_identity_order_changes_nothing_and_bad_orders_are_refused():
    m = matmul.module()
    text = str(m)
    reorder_band(affine_loops(m), [0, 1, 2])
    assert str(m) == text
    with pytest.raises(LoopTransformError, match="permutation"):
        reorder_band(affine_loops(m), [0, 0, 1])


@kernel
def upper_triangle(a: int32[5, 8], b: int32[8]):
    for i in range(5):
        for j in range(2 * i, 8):       # a coefficient of 2: a floordiv bound once reordered
            b[j] += a[i, j] * (i + 1)


def test_a_triangle_with_a_coefficient_of_two():
    """``j >= 2i`` gives ``i <= j floordiv 2`` once j is outside: every (i, j) once."""
    m = upper_triangle.module()
    reorder_band(affine_loops(m), [1, 0])
    j, i = affine_loops(m)
    assert constant_bounds(j) == ConstantBounds(0, 8, 1)
    assert str(i.upperBoundMap.data) == "(d0) -> (((d0 floordiv 2) + 1))"
    assert_cpu_agrees(upper_triangle, m)


def test_linear_forms_cancel_exactly():
    space = linear_bounds.Space()
    m = upper_triangle.module()
    i, j = (loop.body.block.args[0] for loop in affine_loops(m))
    f = linear_bounds.form_of(AffineExpr.dimension(0) * 2 + 3, [i], space)
    g = linear_bounds.combine(f, 1, {space.dim(i): 2, space.dim(j): -1}, -1)
    assert g == {None: 3, space.dim(j): 1}
    assert linear_bounds.divide({None: 4, 0: 2}, 2, ceil=True) == {None: 2, 0: 1}
