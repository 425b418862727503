"""float32 gemm, 32×32×32: C = A·B, each element an inner product summed in program order
(k = 0, 1, ..., 31: no reassociation, so the result is numpy float32's own)."""

from vichls import float32, kernel

N = 32


@kernel
def gemm32(A: float32[N, N], B: float32[N, N], C: float32[N, N]):
    for i in range(N):
        for j in range(N):
            s: float32 = 0.0
            for k in range(N):
                s = s + A[i][k] * B[k][j]
            C[i][j] = s
