"""PolyBench/C 4.2 fdtd-2d in integer form: TMAX steps of the 2-D finite-difference
time-domain update of the fields ex, ey and hz.

The weights 0.5 and 0.7 become floored ``// 2`` and ``7 * d // 10`` (constant, non-zero
divisors: always defined); every value is int32 and wraps as everywhere in vichls. ``fict``
is PolyBench's ``_fict_`` source term.

Sizes: small TMAX = 4, NX = NY = 8; mini TMAX = 20, NX = 20, NY = 30 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
TMAX, NX, NY = {"small": (4, 8, 8), "mini": (20, 20, 30)}[SIZE]


@kernel
def kernel_fdtd_2d(ex: int32[NX, NY], ey: int32[NX, NY], hz: int32[NX, NY], fict: int32[TMAX]):
    for t in range(TMAX):
        for j in range(NY):
            ey[0][j] = fict[t]
        for i in range(1, NX):
            for j in range(NY):
                ey[i][j] = ey[i][j] - (hz[i][j] - hz[i - 1][j]) // 2
        for i in range(NX):
            for j in range(1, NY):
                ex[i][j] = ex[i][j] - (hz[i][j] - hz[i][j - 1]) // 2
        for i in range(NX - 1):
            for j in range(NY - 1):
                hz[i][j] = hz[i][j] - 7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]) // 10


def directives(s):
    """Pipeline every j loop (each nest flattens into one pipeline)."""
    s.pipeline("j")
