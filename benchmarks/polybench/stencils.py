"""PolyBench/C 4.2 stencils at size 8 (N = 8, 4 time steps), in int32.

Loop order and statements are PolyBench's; the floating-point weights become integer
division of the sum by the number of points (``// 3``, ``// 5``, ``// 9``), which is
floored. The input makers give non-negative data, for which this equals C's truncating
integer division.
"""

from vichls import int32, kernel

N = 8
TSTEPS = 4


@kernel
def kernel_jacobi_1d(A: int32[N], B: int32[N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            B[i] = (A[i - 1] + A[i] + A[i + 1]) // 3
        for i in range(1, N - 1):
            A[i] = (B[i - 1] + B[i] + B[i + 1]) // 3


@kernel
def kernel_jacobi_2d(A: int32[N, N], B: int32[N, N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                B[i][j] = (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]) // 5
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                A[i][j] = (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]) // 5


@kernel
def kernel_seidel_2d(A: int32[N, N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) // 9
