"""PolyBench/C 4.2 syrk in int32: the lower triangle of C = alpha·A·Aᵀ + beta·C.

Sizes: small M = N = 8; mini M = 20, N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
M, N = {"small": (8, 8), "mini": (20, 30)}[SIZE]


@kernel
def kernel_syrk(alpha: int32, beta: int32, C: int32[N, N], A: int32[N, M]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= beta
        for k in range(M):
            for j in range(i + 1):
                C[i][j] += alpha * A[i][k] * A[j][k]


def directives(s):
    """Pipeline both triangular j loops (their bound i + 1 rules out unrolling them and
    interchanging k inside)."""
    s.pipeline("j")
