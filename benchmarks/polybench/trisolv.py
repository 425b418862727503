"""PolyBench/C 4.2 trisolv in int32: forward substitution L·x = b.

The division by the diagonal is the language's floored ``//``; the suite's input maker gives
a diagonal in 1..4, so no divisor is zero (results differ from C's truncating ``/`` only
when a partial result is negative).

Sizes: small N = 8; mini N = 40 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 40}[SIZE]


@kernel
def kernel_trisolv(L: int32[N, N], x: int32[N], b: int32[N]):
    for i in range(N):
        x[i] = b[i]
        for j in range(i):
            x[i] -= L[i][j] * x[j]
        x[i] = x[i] // L[i][i]


def directives(s):
    """Pipeline the triangular j reduction (its bound i rules out unrolling it)."""
    s.pipeline("j")
