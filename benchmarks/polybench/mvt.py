"""PolyBench/C 4.2 mvt in int32: x1 += A·y_1 and x2 += Aᵀ·y_2.

Sizes: small N = 8; mini N = 40 (PolyBench MINI).
"""

import vichls
from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 40}[SIZE]


@kernel
def kernel_mvt(x1: int32[N], x2: int32[N], y_1: int32[N], y_2: int32[N], A: int32[N, N]):
    for i in vichls.loop(range(N), name="i1"):
        for j in vichls.loop(range(N), name="j1"):
            x1[i] = x1[i] + A[i][j] * y_1[j]
    for i in vichls.loop(range(N), name="i2"):
        for j in vichls.loop(range(N), name="j2"):
            x2[i] = x2[i] + A[j][i] * y_2[j]


def directives(s):
    """Pipeline both outer loops with their j loops (N multipliers each) unrolled into them
    when that fits the multiplier budget, A's columns and y_1 partitioned to match.
    Otherwise pipeline the inner loops, unrolled by a small factor: the second nest reads A
    by columns, so it is interchanged (j2 outside) to read A by rows as the first does, one
    cyclic partition of A along its rows serves both, and x2[i] stops being a reduction."""
    from benchmarks.suite import MULTIPLIERS, unroll_factor, unroll_with_partitions

    if 2 * N <= MULTIPLIERS:
        banks = unroll_factor(N, limit=N)
        s.pipeline("i").pipeline("i2")
        s.partition("A", dim=2, factor=banks).partition("y_1", factor=banks)
        return
    s.reorder("j2", "i2")
    s.pipeline("i/j").pipeline("i2")
    unroll_with_partitions(s, ("i/j", "i2"), unroll_factor(N),
                           (("A", 2), ("y_1", 1), ("x2", 1)))
