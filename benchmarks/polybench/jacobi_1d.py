"""PolyBench/C 4.2 jacobi-1d in int32: TSTEPS double sweeps of a 3-point average.

The weight 0.33333 becomes a floored ``// 3`` of the sum (equal to C's truncation on the
non-negative data the suite gives).

Sizes: small TSTEPS = 4, N = 8; mini TSTEPS = 20, N = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
TSTEPS, N = {"small": (4, 8), "mini": (20, 30)}[SIZE]


@kernel
def kernel_jacobi_1d(A: int32[N], B: int32[N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            B[i] = (A[i - 1] + A[i] + A[i + 1]) // 3
        for i in range(1, N - 1):
            A[i] = (B[i - 1] + B[i] + B[i + 1]) // 3


def directives(s):
    """Pipeline both sweeps (i loops)."""
    s.pipeline("i")
