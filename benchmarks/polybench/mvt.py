"""PolyBench/C 4.2 mvt in int32: x1 += A·y_1 and x2 += Aᵀ·y_2.

Sizes: small N = 8; mini N = 40 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 40}[SIZE]


@kernel
def kernel_mvt(x1: int32[N], x2: int32[N], y_1: int32[N], y_2: int32[N], A: int32[N, N]):
    for i in range(N):
        for j in range(N):
            x1[i] = x1[i] + A[i][j] * y_1[j]
    for i in range(N):
        for j in range(N):
            x2[i] = x2[i] + A[j][i] * y_2[j]
