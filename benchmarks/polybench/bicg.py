"""PolyBench/C 4.2 bicg in int32: s = Aᵀ·r and q = A·p in one sweep over A.

Sizes: small M = N = 8; mini M = 38, N = 42 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
M, N = {"small": (8, 8), "mini": (38, 42)}[SIZE]


@kernel
def kernel_bicg(A: int32[N, M], s: int32[M], q: int32[N], p: int32[M], r: int32[N]):
    for i in range(M):
        s[i] = 0
    for i in range(N):
        q[i] = 0
        for j in range(M):
            s[j] = s[j] + r[i] * A[i][j]
            q[i] = q[i] + A[i][j] * p[j]


def directives(s):
    """Pipeline the i loop with the j loop (2·M multipliers) unrolled into it when that fits
    the multiplier budget, with A's columns, s and p partitioned to match; otherwise
    pipeline the j loop (unrolling it would only raise the II today:
    tests/regressions/pipeline_unrolled_array_reduction_ii.py)."""
    from benchmarks.suite import MULTIPLIERS, unroll_factor

    if 2 * M > MULTIPLIERS:
        s.pipeline("i/j")
        return
    banks = unroll_factor(M, limit=M)
    s.pipeline("i")
    s.partition("A", dim=2, factor=banks).partition("s", factor=banks)
    s.partition("p", factor=banks)
