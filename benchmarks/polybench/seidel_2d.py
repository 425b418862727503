"""PolyBench/C 4.2 seidel-2d in int32: TSTEPS in-place sweeps of a 9-point average.

The division by 9 is a floored ``// 9`` (equal to C's truncation on the non-negative data
the suite gives).

Sizes: small TSTEPS = 4, N = 8; mini TSTEPS = 20, N = 40 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
TSTEPS, N = {"small": (4, 8), "mini": (20, 40)}[SIZE]


@kernel
def kernel_seidel_2d(A: int32[N, N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) // 9


def directives(s):
    """Pipeline the i loop with its j loop (N - 2 divisions by 9) unrolled into it when that
    fits the divider budget; the j loop otherwise. Each point reads the one just computed
    beside it, so the recurrence, not the ports, sets the II."""
    from benchmarks.suite import DIVIDERS

    s.pipeline("i" if N - 2 <= DIVIDERS else "j")
