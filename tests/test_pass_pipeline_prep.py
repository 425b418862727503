"""IR-level tests of the passes that prepare loops for pipelining: guarded flattening of
semi-perfect nests, if-conversion of scalar code, reassociation of add chains, downward
constant loops as affine loops, and partitioning through flattened indices."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import affine, arith, func, memref, scf

import vichls
from vichls import int32, kernel
from vichls.driver.fpga import prepare
from vichls.analysis.loop_utils import constant_bounds
from vichls.transforms.loop.loop_flatten_guarded import flatten_guarded
from vichls.dialects.attributes import II_ATTR

N = 8


@kernel
def mm(A: int32[N, N], B: int32[N, N], C: int32[N, N]):
    for i in range(N):
        for j in range(N):
            acc: int32 = 0
            for k in range(N):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@kernel
def mixed(A: int32[N, N], s: int32[N]):
    for i in range(N):
        s[i] = 0
        for j in range(N):
            s[i] += A[i, j]


def _affine_loops(module):
    return [op for op in module.walk() if isinstance(op, affine.ForOp)]


def test_semi_perfect_nest_is_flattened_with_guards():
    module = mm.module()
    loops = _affine_loops(module)
    j_loop, k_loop = loops[1], loops[2]
    flat = flatten_guarded(j_loop, k_loop)
    assert flat is not None
    assert flat.upperBoundMap.data.results[0].value == N * N
    guards = [op for op in flat.body.block.ops if isinstance(op, scf.IfOp)]
    assert len(guards) == 2  # acc = 0 when k == 0; C[i, j] = acc when k == N - 1
    assert not any(isinstance(op, affine.ForOp) for op in flat.body.walk() if op is not flat)


def test_an_element_shared_with_the_outer_code_lives_in_a_register():
    """``s[i] = 0; for j: s[i] += ...``: s[i] is one element per outer iteration, so it is
    kept in a register (set when j == 0, stored back when j == N - 1); the flat loop then
    accesses s only under the last-iteration guard."""
    module = mixed.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    flat = flatten_guarded(i_loop, j_loop)
    assert flat is not None
    module.verify()
    top_level = [op for op in flat.body.block.ops
                 if isinstance(op, (affine.LoadOp, affine.StoreOp)) and op.memref.type.get_shape() == (N,)]
    assert not top_level
    (write_back,) = [op for op in flat.body.walk()
                     if isinstance(op, affine.StoreOp) and op.memref.type.get_shape() == (N,)]
    assert isinstance(write_back.parent_op(), scf.IfOp)
    from loop_ir import assert_cpu_agrees

    assert_cpu_agrees(mixed, module)


@kernel
def shared_two_indices(A: int32[N, N], s: int32[N]):
    for i in range(N):
        s[i] = 0
        for j in range(N):
            s[i] += A[i, j] + s[j]


def test_flattening_gives_up_when_the_outer_code_shares_an_array_at_other_indices():
    module = shared_two_indices.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    assert flatten_guarded(i_loop, j_loop) is None  # s[j] may be s[i]


@kernel
def carried_six(A: int32[6, 6]):
    for i in range(1, 6):
        for j in range(6):
            A[i, j] = A[i - 1, j] + 1


@kernel
def independent_six(A: int32[6, 6], s: int32[6], C: int32[6, 6]):
    for i in range(6):
        for j in range(6):
            s[j] += A[i, j]
            C[i, j] = A[i, j] * 2


def test_inner_trip_counts_not_powers_of_two():
    """Flattening a nest whose inner trip count is not a power of two (its variables are a
    division and a remainder by it: magic products in hardware) only when every written
    array is accessed at one index: ``A[i - 1][j]`` read after ``A[i][j]`` written would
    become a dependence of distance 6 that draining the pipeline used to hide."""
    module = carried_six.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    assert flatten_guarded(i_loop, j_loop) is None
    module = independent_six.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    flat = flatten_guarded(i_loop, j_loop)
    assert flat is not None and flat.upperBoundMap.data.results[0].value == 36
    from loop_ir import assert_cpu_agrees

    assert_cpu_agrees(independent_six, module)


@kernel
def countdown(A: int32[N], B: int32[4]):
    for i in range(7, 3, -1):  # its variable is computed (7 - t) before the inner loop
        for j in range(4):
            B[j] += 1
        A[i] = i


@kernel
def guarded_both_sides(A: int32[N], B: int32[4], C: int32[N]):
    for i in range(N):
        x: int32 = A[i] * 3
        for j in range(4):
            B[j] += 1
        C[i] = x


def test_values_of_the_code_before_the_inner_loop_reach_the_code_after_it():
    """The value a downward loop computes for its variable is pure: it is computed in
    every iteration, not under the first-iteration guard, so the last-iteration guard can
    use it (a fuzzed program once got LLVM's "does not dominate all uses")."""
    module = countdown.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    flat = flatten_guarded(i_loop, j_loop)
    assert flat is not None
    module.verify()
    (guard,) = [op for op in flat.body.block.ops if isinstance(op, scf.IfOp)]
    assert any(isinstance(op, affine.StoreOp) for op in guard.true_region.walk())
    assert not any(isinstance(op, affine.ApplyOp) for op in guard.true_region.walk())
    from loop_ir import assert_cpu_agrees

    assert_cpu_agrees(countdown, module)
    # a load before the inner loop is guarded; what it feeds after the loop stays right
    module = guarded_both_sides.module()
    i_loop, j_loop = _affine_loops(module)[:2]
    flatten_guarded(i_loop, j_loop)
    assert_cpu_agrees(guarded_both_sides, module)


def test_pipelining_the_innermost_loop_flattens_the_whole_nest():
    module = vichls.customize(mm).pipeline("k").module()
    loops = _affine_loops(module)
    assert len(loops) == 1 and loops[0].upperBoundMap.data.results[0].value == N ** 3


def test_flattened_accumulation_reaches_ii_1():
    module = vichls.customize(mm).pipeline("k").module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert loop.attributes[II_ATTR].value.data == 1
    # the guarded 'acc = 0' became a select; only the store to C stays under a condition
    ifs = [op for op in loop.body.walk() if isinstance(op, scf.IfOp)]
    assert len(ifs) == 1
    stores = [op for op in ifs[0].true_region.walk() if isinstance(op, memref.StoreOp)]
    assert len(stores) == 1 and stores[0].memref.type.get_shape() == (N, N)


@kernel
def dot8(x: int32[64], y: int32[64]) -> int32:
    s: int32 = 0
    for i in range(64):
        s += x[i] * y[i]
    return s


def test_reassociation_puts_the_carried_sum_last():
    s = vichls.customize(dot8).pipeline("i").unroll("i", 8)
    s.partition("x", factor=8).partition("y", factor=8)
    module = s.module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert loop.attributes[II_ATTR].value.data == 1
    (store,) = [op for op in loop.body.walk() if isinstance(op, memref.StoreOp)]
    final = store.value.owner
    assert isinstance(final, arith.AddiOp)
    carried = [v for v in final.operands if isinstance(v.owner, memref.LoadOp)]
    assert len(carried) == 1  # the sum of the eight products is added to s at the very end


@kernel
def down(a: int32[16]):
    for k in range(15, 0, -1):
        a[k] = a[k - 1]


def test_downward_constant_loops_are_affine():
    module = down.module()
    (loop,) = _affine_loops(module)
    assert loop.upperBoundMap.data.results[0].value == 15
    applies = [op for op in loop.body.walk() if isinstance(op, affine.ApplyOp)]
    assert len(applies) == 1


def test_downward_loop_computes_the_same():
    import numpy as np

    from vichls.driver.cpu import compile_cpu

    a = np.arange(16, dtype=np.int32)
    expected = a.copy()
    down(expected)
    got = a.copy()
    compile_cpu(down.module())(got)
    assert np.array_equal(got, expected) and expected[1] == 0 and expected[15] == 14


def test_cyclic_banks_stay_static_through_flattening():
    s = vichls.customize(mm).pipeline("k").unroll("k", 4)
    s.partition("A", dim=2, factor=4).partition("B", dim=1, factor=4)
    module = s.module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    loads = [op for op in loop.body.walk() if isinstance(op, memref.LoadOp)
             and op.memref.type.get_shape()]
    assert len(loads) == 8  # one load per bank and unrolled copy, no bank multiplexing
    assert loop.attributes[II_ATTR].value.data == 1


@kernel
def sums(y: int32[4], s: int32[4]):
    for i in range(4):
        s[i] = 0
        s[i] += y[0]
        s[i] += y[1]


def test_array_elements_with_identical_indices_are_forwarded():
    from xdsl.dialects.builtin import ModuleOp

    from vichls.transforms.fpga.forward_array_stores import forward_array_stores
    from vichls.transforms.fpga.lower_affine_fpga import lower_affine_for_fpga
    from vichls.transforms.fpga.value_numbering import value_numbering

    module: ModuleOp = sums.module()
    lower_affine_for_fpga(module)
    value_numbering(module)
    forward_array_stores(module)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    s_param = loop.parent_op().body.block.args[1]
    stores = [op for op in loop.body.walk() if isinstance(op, memref.StoreOp)
              and op.memref is s_param]
    loads = [op for op in loop.body.walk() if isinstance(op, memref.LoadOp)
             and op.memref is s_param]
    assert len(stores) == 1 and not loads  # one store of the final sum, no read-back


@kernel
def banked(x: int32[8], y: int32[8]):
    for i in range(8):
        y[i] = y[i] + x[i]


def test_exact_divisions_keep_bank_indices_exact():
    s = vichls.customize(banked).pipeline("i").unroll("i", 2)
    s.partition("y", factor=2).partition("x", factor=2)
    module = s.module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert loop.attributes[II_ATTR].value.data == 1


WEIGHTS = vichls.const(np.arange(8 * 9).reshape(8, 3, 3) % 7 - 3, int32)


@kernel
def conv_rows(x: int32[8, 8], y: int32[8, 6, 6]):
    for oh in range(6):
        for ow in range(6):
            for co in range(8):
                acc: int32 = 0
                for kh in range(3):
                    for kw in range(3):
                        acc += x[oh + kh, ow + kw] * WEIGHTS[co, kh, kw]
                y[co, oh, ow] = acc


@kernel
def conv_top(img: int32[8, 8], out: int32[8, 6, 6]):
    conv_rows(img, out)


def _callee_loops(schedule):
    module = schedule.module()
    (callee,) = [op for op in module.ops if isinstance(op, func.FuncOp)
                 and op.sym_name.data == "conv_rows"]
    return [op for op in callee.walk() if isinstance(op, affine.ForOp)]


def test_unrolled_output_channels_flatten_with_the_pixel_loops():
    # four output channels a cycle: the unrolled copies y[co + 1] .. y[co + 3] of the
    # flattened co = (t mod 2) * 4 never meet y[co] at any two iterations, so oh and ow
    # flatten into the pipeline too (one loop of 6 * 6 * 2 iterations)
    s = vichls.customize(conv_top)
    s.compose(vichls.customize(conv_rows).unroll("co", 4).pipeline("co"))
    s.partition("out", dim=1, factor=4).partition("WEIGHTS", dim=1, factor=4)
    s.partition("WEIGHTS", dim=2, factor=3).partition("WEIGHTS", dim=3, factor=3)
    s.partition("img", dim=1, factor=3).partition("img", dim=2, factor=3)
    (loop,) = _callee_loops(s)
    assert constant_bounds(loop).trip_count == 72


def test_a_called_kernel_sees_the_partitions_the_top_requests():
    # every output channel a cycle: the weights, completely partitioned by the top's
    # request, are 72 registers, not 72 reads of one memory: the nest flattens
    s = vichls.customize(conv_top)
    s.compose(vichls.customize(conv_rows).pipeline("ow"))
    s.partition("out", dim=1, factor=8).partition("WEIGHTS", kind="complete")
    s.partition("img", dim=1, factor=3).partition("img", dim=2, factor=3)
    (loop,) = _callee_loops(s)
    assert constant_bounds(loop).trip_count == 36
