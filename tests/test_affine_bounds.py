"""Loops with affine (triangular) bounds: ``range(i + 1)``, ``range(i, N)``, ``range(2*i, N)``,
``range(N - i)`` and zero-trip ranges are ``affine.for`` with bound maps over outer loop
variables; both lowerings evaluate those maps; the FPGA counters are sized from the
bounds' ranges; tile, reorder and flatten (of triangles too: Fourier–Motzkin bounds, stepped
counters), unroll and pipeline either apply or refuse clearly.
Checked against the Python call: the CPU back end (fast) and, in one simulator build, the
RTL (tests/e2e.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects import affine, memref, scf
from xdsl.dialects.builtin import IntegerType

import vichls
from vichls import int16, int32, kernel
from vichls.driver.cpu import compile_cpu
from vichls.errors import DirectiveError
from vichls.driver.fpga import compile_fpga
from vichls.inputs import copy_args
from vichls.analysis.loop_utils import ConstantBounds, constant_bounds
from vichls.results import differences, results_of

from e2e import Scheduled, assert_outcome, run_batch, schedule_of

N = 6


@kernel
def trmm_like(alpha: int32, A: int32[N, N], B: int32[N, N]):
    for i in range(N):
        for j in range(N):
            for k in range(i + 1, N):
                B[i][j] += A[k][i] * B[k][j]
            B[i][j] = alpha * B[i][j]


@kernel
def trisolv_like(L: int32[N, N], x: int32[N], b: int32[N]):
    for i in range(N):
        x[i] = b[i]
        for j in range(i):
            x[i] -= L[i][j] * x[j]
        x[i] = x[i] // (L[i][i] | 1)


@kernel
def syrk_like(alpha: int32, C: int32[N, N], A: int32[N, N]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= 3
        for k in range(N):
            for j in range(i + 1):
                C[i][j] += alpha * A[i][k] * A[j][k]


@kernel
def shapes(A: int32[N, N], out: int32[N]) -> int32:
    total: int32 = 0
    for i in range(N):
        for j in range(2 * i, N):          # empty for 2i >= N
            A[i][j] += j
        for m in range(N - i):
            out[m] += A[i][m]
        for z in range(i, 3):               # empty for i >= 3
            total += z * A[z][i]
        for s in range(i - 4, i):           # negative loop variables
            total += s * out[i]
    return total


@kernel
def downward_outer(seq: int32[N], table: int32[N, N]):
    for i in range(N - 1, -1, -1):
        for j in range(i + 1, N):
            table[i][j] += seq[j]
            for k in range(i + 1, j):
                table[i][j] = max(table[i][j], table[i][k] + table[k][j] + seq[k])


@kernel
def box_under_triangle(A: int32[N, N], x: int32[N]):
    for i in range(N):
        for j in range(i):
            for k in range(4):
                x[j] += A[i][k] * A[k][j]


@kernel
def pyramid(A: int32[N, N, N], out: int32[N]) -> int32:
    acc: int32 = 0
    for i in range(N):
        for j in range(i + 1):
            for k in range(j, i + 1):
                out[k] += A[i][j][k] + 3 * i - j
                acc += A[k][j][i] - k
    return acc


@kernel
def pyramid_in_order(A: int32[N, N, N]) -> int32:
    acc: int32 = 0          # each step depends on the order of the iterations
    for i in range(N):
        for j in range(i + 1):
            for k in range(j, i + 1):
                acc = acc * 5 + A[k][j][i] - k
    return acc


@kernel
def band_below(A: int32[N, N, 4], out: int32[N]):
    for i in range(N):
        for j in range(i, N):
            for k in range(4):
                out[j] += A[i][j][k] * (k + 1) - i


@kernel
def scale_lower(C: int32[N, N]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= 3


@kernel
def gap_in_the_middle(out: int32[4, 4, 4]):
    for i in range(4):
        for j in range(4):
            for k in range(j - i):      # empty for j <= i: also at the start of i's rows
                out[i][j][k] += 1


@kernel
def overflowing(x: int32[4]):
    for i in range(4):
        for j in range(i * 1_000_000_000, i * 1_000_000_000 + 1):
            x[i] += 1


def _args(kernel_, rng, count=3):
    sig = kernel_.signature
    sets = []
    for _ in range(count):
        args = []
        for p in sig.params:
            shape = getattr(p.type, "shape", None)
            if shape is None:
                args.append(int(rng.integers(-5, 6)))
            else:
                args.append(rng.integers(-20, 21, size=shape).astype(np.int32))
        sets.append(tuple(args))
    return sets


def _cpu_agrees(kernel_, module, seed=0):
    sig = kernel_.signature
    cpu = compile_cpu(module)
    for args in _args(kernel_, np.random.default_rng(seed)):
        want, got = copy_args(args), copy_args(args)
        expected = results_of(sig, want, kernel_(*want))
        actual = results_of(sig, got, cpu(*got))
        assert not differences(expected, actual), differences(expected, actual)


def _loops(module):
    return [op for op in module.walk() if isinstance(op, (affine.ForOp, scf.ForOp))]


# -- the loop level ---------------------------------------------------------------------------

def test_triangular_loops_are_affine_with_bound_maps():
    m = shapes.module()
    loops = _loops(m)
    assert loops and all(isinstance(op, affine.ForOp) for op in loops)
    maps = {str(op.upperBoundMap.data) for op in loops if op.upperBoundOperands}
    assert "(d0) -> (((d0 * -1) + 6))" in maps
    lowers = {str(op.lowerBoundMap.data) for op in loops if op.lowerBoundOperands}
    assert "(d0) -> ((d0 * 2))" in lowers and "(d0) -> ((d0 + -4))" in lowers
    # no 64-bit counters or widening left over from scf.for
    assert not any(isinstance(r.type, IntegerType) and r.type.width.data == 64
                   for op in m.walk() for r in op.results)


def test_bounds_below_an_outer_downward_loop_use_its_variable():
    loops = _loops(downward_outer.module())
    assert all(isinstance(op, affine.ForOp) for op in loops)
    k = loops[-1]
    assert len(k.lowerBoundOperands) == 1 and len(k.upperBoundOperands) == 1


def test_bounds_that_may_overflow_stay_scf():
    loops = _loops(overflowing.module())
    assert isinstance(loops[0], affine.ForOp) and isinstance(loops[1], scf.ForOp)
    _cpu_agrees(overflowing, overflowing.module())


@pytest.mark.parametrize("k", [trmm_like, trisolv_like, syrk_like, shapes, downward_outer,
                               box_under_triangle])
def test_cpu_matches_python(k):
    _cpu_agrees(k, k.module())


# -- directives -------------------------------------------------------------------------------

def test_tile_of_a_triangular_loop_has_a_min_bound():
    m = vichls.customize(syrk_like).tile("j", 4).module()
    inner = [op for op in _loops(m) if len(op.upperBoundMap.data.results) == 2]
    assert len(inner) == 2  # the intra-tile loops of the two j loops
    _cpu_agrees(syrk_like, m)
    # k's remainder loop copies the j loop, which is then tiled too
    m = vichls.customize(syrk_like).tile("k", 4).tile("j", 4).module()
    inner = [op for op in _loops(m) if len(op.upperBoundMap.data.results) == 2]
    assert len(inner) == 3
    assert all(str(op.upperBoundMap.data).startswith("(d0, d1) -> ((d0 + 4), (d1 + 1))")
               for op in inner)
    _cpu_agrees(syrk_like, m)


def test_tile_of_a_loop_with_an_affine_lower_bound_and_step():
    m = vichls.customize(trmm_like).tile("k", 3).module()
    _cpu_agrees(trmm_like, m)
    m = vichls.customize(shapes).tile("j", 4).tile("s", 3).tile("z", 2).module()
    _cpu_agrees(shapes, m)


def test_unrolling_an_outer_loop_makes_the_inner_bounds_constant():
    from vichls.analysis.loop_utils import constant_bounds

    m = vichls.customize(shapes).unroll("i").module()
    loops = _loops(m)
    assert loops and all(constant_bounds(op) is not None for op in loops)
    _cpu_agrees(shapes, m)
    # the copies' constant bounds let later directives unroll the inner loops
    m = vichls.customize(trisolv_like).unroll("i").unroll("j").module()
    assert not any(op.upperBoundOperands for op in _loops(m))
    _cpu_agrees(trisolv_like, m)
    # a tile's copies keep affine bounds, folded into maps over the tile variables
    m = vichls.customize(trmm_like).tile("i", 4).module()
    assert all(isinstance(op, affine.ForOp) for op in _loops(m))
    _cpu_agrees(trmm_like, m)


def test_reorder_of_a_box_band_under_a_triangle():
    m = vichls.customize(box_under_triangle).reorder("k", "j").module()
    names = [op.body.block.args[0].name_hint for op in _loops(m)]
    assert names == ["i", "k", "j"]
    _cpu_agrees(box_under_triangle, m)


def _bounds(loop):
    return (str(loop.lowerBoundMap.data), [v.name_hint for v in loop.lowerBoundOperands],
            str(loop.upperBoundMap.data), [v.name_hint for v in loop.upperBoundOperands])


def test_reorder_of_a_triangle_rewrites_its_bounds():
    """``for i in 0..6: for j in 0..i`` becomes ``for j in 0..5: for i in j+1..6``: the
    same iteration space, with no redundant bound left."""
    m = vichls.customize(box_under_triangle).reorder("j", "i").module()
    j, i, k = _loops(m)
    assert [lp.body.block.args[0].name_hint for lp in (j, i, k)] == ["j", "i", "k"]
    assert _bounds(j) == ("() -> (0)", [], "() -> (5)", [])
    assert _bounds(i) == ("(d0) -> ((d0 + 1))", ["j"], "() -> (6)", [])
    _cpu_agrees(box_under_triangle, m)


@pytest.mark.parametrize("order", [("i", "k", "j"), ("j", "i", "k"), ("j", "k", "i"),
                                   ("k", "i", "j"), ("k", "j", "i")])
def test_every_order_of_a_three_level_triangle(order):
    m = vichls.customize(pyramid).reorder(*order).module()
    assert [lp.body.block.args[0].name_hint for lp in _loops(m)] == list(order)
    _cpu_agrees(pyramid, m)


def test_reorder_to_k_j_i_needs_no_max_bound():
    """i >= max(j, k) with j <= k known from j's own loop: i starts at k."""
    k, j, i = _loops(vichls.customize(pyramid).reorder("k", "j", "i").module())
    assert _bounds(j) == ("() -> (0)", [], "(d0) -> ((d0 + 1))", ["k"])
    assert _bounds(i) == ("(d0) -> (d0)", ["k"], "() -> (6)", [])


def test_flatten_of_a_triangle_steps_counters():
    m = vichls.customize(box_under_triangle).flatten("i", "j").module()
    loops = _loops(m)
    assert len(loops) == 2 and constant_bounds(loops[0]) == ConstantBounds(0, 15, 1)
    registers = [op for op in m.walk() if isinstance(op, memref.AllocaOp)]
    assert sorted(r.results[0].name_hint for r in registers) == ["i", "j"]
    assert all(r.results[0].type.element_type == IntegerType(4) for r in registers)
    _cpu_agrees(box_under_triangle, m)


@pytest.mark.parametrize("names", [("i", "j"), ("i", "j", "k"), ("j", "k")])
def test_flatten_of_triangles_and_of_a_band_under_one(names):
    k = band_below if names == ("j", "k") else pyramid_in_order
    m = vichls.customize(k).flatten(*names).module()
    assert len(_loops(m)) == 4 - len(names)
    if names == ("j", "k"):  # only its outer loop varies: t < (N - i) * 4, no counters
        assert not [op for op in m.walk() if isinstance(op, memref.AllocaOp)]
        assert str(_loops(m)[1].upperBoundMap.data) == "(d0) -> (((d0 * -4) + 24))"
    _cpu_agrees(k, m)


@pytest.mark.parametrize("factor", [2, 3, 4])
def test_unroll_of_a_triangular_loop_by_a_factor_leaves_a_remainder_loop(factor):
    m = vichls.customize(trmm_like).unroll("k", factor=factor).module()
    i, j, main, rest = _loops(m)
    assert main.step.value.data == factor and rest.step.value.data == 1
    assert [op.name for op in main.body.block.ops].count("affine.store") == factor
    _cpu_agrees(trmm_like, m)


def test_unroll_of_a_tiled_triangle_with_a_min_bound():
    m = vichls.customize(syrk_like).tile("j", 4).unroll("j.inner", factor=2).module()
    _cpu_agrees(syrk_like, m)


def test_a_flattened_triangle_pipelines_at_ii_1():
    """``C[i, j] *= 3`` over the flattened triangle: the counters (i, j) differ in every
    iteration, so reading and writing C[i, j] is no recurrence."""
    s = vichls.customize(scale_lower).flatten("i", "j").pipeline("i")
    loop, = compile_fpga(s.module()).report["loops"]
    assert (loop["name"], loop["trip_count"], loop["ii"]) == ("i_j", 21, 1), loop


@pytest.mark.parametrize("build, why", [
    (lambda: vichls.customize(syrk_like).reorder("j", "k"),
     None),  # (j depends on i outside the band: a box band, legal; checked below)
    (lambda: vichls.customize(pyramid).flatten("j", "k"),
     "the bounds of loop 'j' use 'i' from outside the band"),
    (lambda: vichls.customize(gap_in_the_middle).flatten("i", "j", "k"),
     "loop 'k' runs no iterations for some values of the loops around it, in the middle"),
    (lambda: vichls.customize(trmm_like).unroll("k"),
     "a full unroll would need a trip count it does not have; unroll it by a factor"),
    (lambda: vichls.customize(trmm_like).pipeline("j"),
     "inner loop 'k' has bounds that are not constants"),
])
def test_directives_on_triangular_loops(build, why):
    if why is None:
        m = build().module()
        _cpu_agrees(syrk_like, m)
        return
    with pytest.raises(DirectiveError, match=why):
        build().module()


# -- hardware ---------------------------------------------------------------------------------

def test_counters_of_triangular_loops_are_narrow():
    verilog = compile_fpga(shapes.module()).verilog
    widths = {name: int(w) for w, name in
              re.findall(r"vichls_reg #\(\.WIDTH\((\d+)\)\) ([ijmzs])_\d+ ", verilog)}
    # i < 6; j, m up to 6 (+1 past the end); z in 0..3; s in -4..5: a sign bit each
    assert widths == {"i": 4, "j": 5, "m": 4, "z": 4, "s": 4}, widths


@kernel
def data_bounded(a: int32[8], lo: int32, hi: int16) -> int32:
    total: int32 = 0
    for i in range(lo, hi):
        total += a[i & 7]
    return total


def test_counters_of_loops_bounded_by_data_are_as_wide_as_the_data():
    """Bounds read from an int32 and an int16 value: the counter holds values from lo's
    range up to hi's (it stops at the larger bound), 32 bits, not the 64 of the front
    end's i64 counter."""
    verilog = compile_fpga(data_bounded.module()).verilog
    widths = re.findall(r"vichls_reg #\(\.WIDTH\((\d+)\)\) i_\d+ ", verilog)
    assert widths == ["32"], widths


@pytest.mark.parametrize("k", [downward_outer, shapes])
def test_a_bound_that_is_an_enclosing_counter_makes_no_combinational_loop(k):
    """``range(i + 1, j)``, ``range(i)``: the inner loop's test must not read the outer
    counter that the same test decides to write."""
    from vichls.flows.synth import synth_check

    design = compile_fpga(k.module())
    report = synth_check(design.verilog, design.signature.name)
    assert report.comb_loops == 0 and report.ok, report.log[-2000:]


RTL_CASES = {
    "trmm_pipelined": (trmm_like, [("pipeline", "k")]),
    "trisolv": (trisolv_like, []),
    "syrk_tiled": (syrk_like, [("tile", "j", 4), ("pipeline", "j.inner")]),
    "shapes": (shapes, [("tile", "j", 4)]),
    "downward_pipelined": (downward_outer, [("pipeline", "k")]),
    "box_reordered": (box_under_triangle, [("reorder", "k", "j"), ("pipeline", "j")]),
    "triangle_reordered": (box_under_triangle, [("reorder", "j", "i"), ("pipeline", "k")]),
    "pyramid_reordered": (pyramid, [("reorder", "k", "j", "i"), ("pipeline", "i")]),
    "triangle_flattened": (box_under_triangle, [("flatten", "i", "j"), ("pipeline", "k")]),
    "data_bounded": (data_bounded, []),
    "trmm_unrolled_pipelined": (trmm_like, [("unroll", "k", {"factor": 3}), ("pipeline", "k")]),
    "syrk_tiled_unrolled": (syrk_like, [("tile", "j", 4), ("unroll", "j.inner", {"factor": 2})]),
    "scale_lower_flattened": (scale_lower, [("flatten", "i", "j"), ("pipeline", "i")]),
    "pyramid_flattened": (pyramid_in_order, [("flatten", "i", "j", "k"), ("pipeline", "i")]),
    "pyramid_flattened_unrolled": (pyramid_in_order, [("flatten", "i", "j", "k"),
                                                      ("unroll", "i", {"factor": 3}),
                                                      ("pipeline", "i")]),
    "band_below_flattened": (band_below, [("flatten", "j", "k"), ("pipeline", "j")]),
    # k outside j leaves no empty range but the last i's: then it flattens
    "gap_reordered_flattened": (gap_in_the_middle, [("reorder", "i", "k", "j"),
                                                    ("flatten", "i", "k", "j")]),
}


@pytest.fixture(scope="module")
def rtl_outcomes():
    rng = np.random.default_rng(7)
    items = [(name, Scheduled(schedule_of(k, *directives)), _args(k, rng))
             for name, (k, directives) in RTL_CASES.items()]
    return run_batch(items)


@pytest.mark.parametrize("name", sorted(RTL_CASES))
def test_rtl_matches_python(rtl_outcomes, name):
    assert_outcome(rtl_outcomes[name])
