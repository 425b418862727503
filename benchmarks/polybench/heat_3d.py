"""PolyBench/C 4.2 heat-3d in integer form: TSTEPS double sweeps of the 7-point 3-D heat
equation.

The three weights 0.125 become one floored ``// 8`` of the sum of the three second
differences (a constant divisor: always defined), added to the centre value.

Sizes: small TSTEPS = 4, N = 8; mini TSTEPS = 20, N = 10 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
TSTEPS, N = {"small": (4, 8), "mini": (20, 10)}[SIZE]


@kernel
def kernel_heat_3d(A: int32[N, N, N], B: int32[N, N, N]):
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                for k in range(1, N - 1):
                    B[i][j][k] = (A[i + 1][j][k] - 2 * A[i][j][k] + A[i - 1][j][k]
                                  + A[i][j + 1][k] - 2 * A[i][j][k] + A[i][j - 1][k]
                                  + A[i][j][k + 1] - 2 * A[i][j][k] + A[i][j][k - 1]
                                  ) // 8 + A[i][j][k]
        for i in range(1, N - 1):
            for j in range(1, N - 1):
                for k in range(1, N - 1):
                    A[i][j][k] = (B[i + 1][j][k] - 2 * B[i][j][k] + B[i - 1][j][k]
                                  + B[i][j + 1][k] - 2 * B[i][j][k] + B[i][j - 1][k]
                                  + B[i][j][k + 1] - 2 * B[i][j][k] + B[i][j][k - 1]
                                  ) // 8 + B[i][j][k]


def directives(s):
    """Pipeline the j loops of both sweeps with their k loops (N - 2 points, adds and
    shifts only) unrolled into them; A and B keep their two ports each (the seven reads of
    a point move with j, so no cyclic partition would put them in fixed banks)."""
    s.pipeline("j")
