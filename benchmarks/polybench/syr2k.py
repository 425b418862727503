"""PolyBench/C 4.2 syr2k in int32: the lower triangle of C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C.

Sizes: small M = N = 8; mini M = 20, N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
M, N = {"small": (8, 8), "mini": (20, 30)}[SIZE]


@kernel
def kernel_syr2k(alpha: int32, beta: int32, C: int32[N, N], A: int32[N, M], B: int32[N, M]):
    for i in range(N):
        for j in range(i + 1):
            C[i][j] *= beta
        for k in range(M):
            for j in range(i + 1):
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k]


def directives(s):
    """Pipeline both triangular j loops (their bound i + 1 rules out unrolling them and
    interchanging k inside)."""
    s.pipeline("j")
