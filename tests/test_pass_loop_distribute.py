"""IR-level tests of transforms/loop/loop_distribute: one copy of a loop per inner loop, only where
no element is shared by two parts in different iterations."""

from __future__ import annotations

from xdsl.dialects import affine

from vichls import int32, kernel
from vichls.transforms.loop.loop_distribute import distribute
from loop_ir import assert_cpu_agrees


@kernel
def two_products(A: int32[6, 5], x: int32[5], y: int32[5], tmp: int32[6]):
    for i in range(6):
        tmp[i] = 0
        for j in range(5):
            tmp[i] = tmp[i] + A[i][j] * x[j]
        y[i % 5] += 1
        for j in range(5):
            y[j] = y[j] + A[i][j] * tmp[i]


@kernel
def shared_register(A: int32[6, 5], y: int32[5]):
    for i in range(6):
        s: int32 = 0
        for j in range(5):
            s += A[i][j]
        for j in range(5):
            y[j] += s


@kernel
def time_steps(A: int32[8], B: int32[8]):
    for t in range(3):
        for i in range(1, 7):
            B[i] = A[i - 1] + A[i + 1]
        for i in range(1, 7):
            A[i] = B[i]


def _loops(module):
    return [op for op in module.walk() if isinstance(op, affine.ForOp)]


def test_rows_with_their_own_elements_split_into_one_nest_per_inner_loop():
    """tmp[i] is shared, but each iteration has its own element; y is only in the second
    part (with ``y[i % 5] += 1``, the code in front of it)."""
    module = two_products.module()
    outer, first, second = _loops(module)
    copy = distribute(outer, second)
    assert copy is not None and copy is not outer
    loops = _loops(module)
    assert [op.parent_op() for op in loops] == [loops[0].parent_op(), outer, loops[0].parent_op(), copy]
    assert second.parent_op() is copy and first.parent_op() is outer
    module.verify()
    assert_cpu_agrees(two_products, module)


def test_a_register_or_an_element_of_another_iteration_keeps_the_loop_whole():
    module = shared_register.module()
    outer, first, second = _loops(module)
    assert distribute(outer, second) is None  # s: one register for all rows
    module = time_steps.module()
    outer, first, second = _loops(module)
    assert distribute(outer, first) is None  # A[i - 1] read at t + 1 after A[i] written at t
    assert len(_loops(module)) == 3


@kernel
def row_copies(A: int32[6, 5], B: int32[6, 5], tmp: int32[6]):
    for i in range(6):
        tmp[i] = 0
        for j in range(5):
            tmp[i] = tmp[i] + A[i][j]
        for j in range(5):
            B[i][j] = tmp[i] * j


def test_an_unrolled_loop_touches_rows_within_its_step():
    """Unrolled by 2, an iteration touches rows i and i + 1: still its own, so each of the
    four inner loops gets its own copy of the loop."""
    import vichls

    module = vichls.customize(row_copies).unroll("i", factor=2).module()
    outer = _loops(module)[0]
    inner = _loops(module)[1:]
    assert len(inner) == 4 and outer.step.value.data == 2
    assert distribute(outer, inner[2]) is not None
    tops = [op for op in _loops(module) if isinstance(op.parent_op(), type(outer.parent_op()))]
    assert len(tops) == 4
    module.verify()
    assert_cpu_agrees(row_copies, module)
