"""PolyBench/C 4.2 atax in int32: y = Aᵀ·(A·x).

Sizes: small M = N = 8; mini M = 38, N = 42 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
M, N = {"small": (8, 8), "mini": (38, 42)}[SIZE]


@kernel
def kernel_atax(A: int32[M, N], x: int32[N], y: int32[N], tmp: int32[M]):
    for i in range(N):
        y[i] = 0
    for i in range(M):
        tmp[i] = 0
        for j in range(N):
            tmp[i] = tmp[i] + A[i][j] * x[j]
        for j in range(N):
            y[j] = y[j] + A[i][j] * tmp[i]


def directives(s):
    """Pipeline the i loop with both j loops (2·N multipliers) unrolled into it when that
    fits the multiplier budget, with A's columns, x and y partitioned to match; otherwise
    pipeline the two j loops (unrolling them would only raise the II today:
    tests/regressions/pipeline_unrolled_array_reduction_ii.py)."""
    from benchmarks.suite import MULTIPLIERS, unroll_factor

    if 2 * N > MULTIPLIERS:
        s.pipeline("i/j")
        return
    banks = unroll_factor(N, limit=N)
    s.pipeline("i")
    s.partition("A", dim=2, factor=banks).partition("x", factor=banks)
    s.partition("y", factor=banks)
