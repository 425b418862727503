"""PolyBench/C 4.2 jacobi-2d in int32: TSTEPS double sweeps of a 5-point average.

The weight 0.2 becomes a floored ``// 5`` of the sum (equal to C's truncation on the
non-negative data the suite gives).

Sizes: small TSTEPS = 4, N = 8; mini TSTEPS = 20, N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
TSTEPS, N = {"small": (4, 8), "mini": (20, 30)}[SIZE]


@kernel
def kernel_jacobi_2d(A: int32[N, N], B: int32[N, N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                B[i][j] = (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]) // 5
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                A[i][j] = (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]) // 5


def directives(s):
    """Pipeline the i loops of both sweeps with their j loops (N - 2 divisions by 5 each)
    unrolled into them when that fits the divider budget; the j loops otherwise (each
    flattens with its i loop)."""
    from benchmarks.suite import DIVIDERS

    s.pipeline("i" if 2 * (N - 2) <= DIVIDERS else "j")
