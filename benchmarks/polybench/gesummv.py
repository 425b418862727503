"""PolyBench/C 4.2 gesummv in int32: y = alpha·A·x + beta·B·x.

Sizes: small N = 8; mini N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 30}[SIZE]


@kernel
def kernel_gesummv(alpha: int32, beta: int32, A: int32[N, N], B: int32[N, N], tmp: int32[N],
                   x: int32[N], y: int32[N]):
    for i in range(N):
        tmp[i] = 0
        y[i] = 0
        for j in range(N):
            tmp[i] = A[i][j] * x[j] + tmp[i]
            y[i] = B[i][j] * x[j] + y[i]
        y[i] = alpha * tmp[i] + beta * y[i]


def directives(s):
    """Pipeline the i loop with the j loop (2·N multipliers) unrolled into it when that fits
    the multiplier budget (it does at both sizes), with A's and B's columns and x
    partitioned cyclically to match; otherwise pipeline the j loop."""
    from benchmarks.suite import MULTIPLIERS, unroll_factor

    if 2 * N > MULTIPLIERS:
        s.pipeline("j")
        return
    banks = unroll_factor(N, limit=N)
    s.pipeline("i")
    s.partition("A", dim=2, factor=banks).partition("B", dim=2, factor=banks)
    s.partition("x", factor=banks)
