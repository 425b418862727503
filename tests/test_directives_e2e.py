"""End-to-end check of the loop directives (unroll, tile, reorder, flatten): for kernels
built with schedules, the Python call, the CPU build and the simulated RTL agree bit for
bit (one simulator build for the whole module), and unrolling saves cycles where the memory
ports allow it."""

from __future__ import annotations


import pytest

import vichls
from e2e import assert_outcome, corpus_schedules, run_scheduled, schedule_of
from vichls import int8, int16, int32, kernel, uint8

N = 8


@kernel
def gemm(A: int32[N, N], B: int32[N, N], C: int32[N, N], alpha: int32, beta: int32):
    for i in range(N):
        for j in range(N):
            C[i, j] *= beta
        for k in range(N):
            for j in range(N):
                C[i, j] += alpha * A[i, k] * B[k, j]


@kernel
def dot(x: int32[64], y: int32[64]) -> int32:
    acc: int32 = 0
    for i in range(64):
        acc += x[i] * y[i]
    return acc


@kernel
def strided(a: int16[7, 5], b: int16[7, 5], t: int16) -> int16:
    s: int16 = 0
    for i in range(1, 7, 2):
        for j in vichls.loop(range(5), name="cols"):
            v: int16 = a[i, j] * int16(i) + int16(j)
            if v > t:
                b[i, j] = v
                s += v
            else:
                b[i - 1, j] = v - t
    return s


@kernel
def stencil(a: uint8[10, 6], out: int8[10, 6]):
    for i in range(1, 9):
        for j in range(6):
            out[i, j] = int8(a[i - 1, j]) - int8(a[i + 1, j]) + int8(j)




CASES = {
    "gemm_plain": schedule_of(gemm),
    "gemm_unroll2": schedule_of(gemm, ("unroll", "k/j", {"factor": 2})),
    "gemm_unroll4": schedule_of(gemm, ("unroll", "k/j", {"factor": 4})),
    "gemm_unroll_full": schedule_of(gemm, ("unroll", "k/j")),
    "gemm_unroll3_rem": schedule_of(gemm, ("unroll", "j", {"factor": 3})),
    "gemm_reorder": schedule_of(gemm, ("reorder", "j", "k")),
    "gemm_flatten": schedule_of(gemm, ("flatten", "k", "j")),
    "gemm_tiled": schedule_of(gemm, ("tile", "k", 4), ("tile", "k/j", 4),
                            ("reorder", "k.outer", "j.outer", "k.inner", "j.inner"),
                            ("unroll", "j.inner")),
    "gemm_reduction_reordered": schedule_of(gemm, ("tile", "k", 3),
                                          ("reorder", "k.inner", "k.outer")),
    "dot_plain": schedule_of(dot),
    "dot_tile_reorder": schedule_of(dot, ("tile", "i", 8), ("reorder", "i.inner", "i.outer"),
                                  ("unroll", "i.outer", {"factor": 4})),
    "dot_unroll2": schedule_of(dot, ("unroll", "i", {"factor": 2})),
    "dot_unroll4": schedule_of(dot, ("unroll", "i", {"factor": 4})),
    "dot_unroll_full": schedule_of(dot, ("unroll", "i")),
    "dot_tile5_unroll": schedule_of(dot, ("tile", "i", 5), ("unroll", "i.inner")),
    "strided_unroll": schedule_of(strided, ("unroll", "cols", {"factor": 2}), ("unroll", "i")),
    "strided_flatten": schedule_of(strided, ("flatten", "i", "cols")),
    "strided_tile": schedule_of(strided, ("tile", "cols", 3), ("unroll", "cols.inner")),
    "stencil_reorder_flatten": schedule_of(stencil, ("reorder", "j", "i"), ("flatten", "j", "i")),
    "stencil_tile_flatten": schedule_of(stencil, ("tile", "i", 3),
                                      ("flatten", "i.outer", "i.inner"), ("unroll", "j", {"factor": 4})),
}
CALLS = 3


# the last counted loop of constant bounds unrolled by 3 (a remainder whenever the trip
# count is not a multiple of 3)
CORPUS = corpus_schedules(lambda s, loop: s.unroll(loop, factor=3))


@pytest.fixture(scope="module")
def outcomes():
    return run_scheduled(CASES, CORPUS, CALLS)


@pytest.mark.parametrize("name", list(CASES) + list(CORPUS))
def test_python_cpu_rtl_agree(outcomes, name):
    assert_outcome(outcomes[name])


def test_unrolling_the_dot_product_saves_cycles(outcomes):
    """Two loads per element on two single-port arrays: every unroll factor brings the loop
    closer to one element per cycle."""
    cycles = [outcomes[f"dot_{v}"].cycles for v in ("plain", "unroll2", "unroll4", "unroll_full")]
    assert all(c and len(set(c)) == 1 for c in cycles), cycles
    firsts = [c[0] for c in cycles]
    assert firsts == sorted(firsts, reverse=True) and len(set(firsts)) == 4, firsts
    assert firsts[-1] <= 64 + 8, firsts


def test_fully_unrolled_gemm_row_saves_cycles(outcomes):
    """C[i, j] is read and written once per element through its single port, so gemm's inner
    loop stays at two cycles per element; a full unroll still removes the loop control."""
    plain, full = outcomes["gemm_plain"].cycles, outcomes["gemm_unroll_full"].cycles
    assert plain and full and max(full) < min(plain), (full, plain)
