"""PolyBench/C 4.2 trmm in int32: B = alpha·Aᵀ·B with A unit lower triangular.

Sizes: small M = N = 8; mini M = 20, N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
M, N = {"small": (8, 8), "mini": (20, 30)}[SIZE]


@kernel
def kernel_trmm(alpha: int32, A: int32[M, M], B: int32[M, N]):
    for i in range(M):
        for j in range(N):
            for k in range(i + 1, M):
                B[i][j] += A[k][i] * B[k][j]
            B[i][j] = alpha * B[i][j]


def directives(s):
    """Pipeline the triangular k reduction (its bounds depend on i: no unrolling)."""
    s.pipeline("k")
