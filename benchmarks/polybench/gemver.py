"""PolyBench/C 4.2 gemver in int32: a rank-2 update of A, then x = beta·Aᵀ·y + z and
w = alpha·A·x.

Sizes: small N = 8; mini N = 40 (PolyBench MINI).
"""

import vichls
from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 40}[SIZE]


@kernel
def kernel_gemver(alpha: int32, beta: int32, A: int32[N, N], u1: int32[N], v1: int32[N],
                  u2: int32[N], v2: int32[N], w: int32[N], x: int32[N], y: int32[N],
                  z: int32[N]):
    for i in vichls.loop(range(N), name="i1"):
        for j in vichls.loop(range(N), name="j1"):
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j]
    for i in vichls.loop(range(N), name="i2"):
        for j in vichls.loop(range(N), name="j2"):
            x[i] = x[i] + beta * A[j][i] * y[j]
    for i in vichls.loop(range(N), name="i3"):
        x[i] = x[i] + z[i]
    for i in vichls.loop(range(N), name="i4"):
        for j in vichls.loop(range(N), name="j4"):
            w[i] = w[i] + alpha * A[i][j] * x[j]


def directives(s):
    """Pipeline every inner loop, unrolled by a small factor with cyclic partitions to
    match. The second nest reads A by columns: interchanged (j2 outside) it reads A by rows
    as the others do, so one partition of A along its rows serves all three nests."""
    from benchmarks.suite import unroll_factor, unroll_with_partitions

    s.reorder("j2", "i2")
    s.pipeline("i/j").pipeline("i2").pipeline("i3")
    unroll_with_partitions(s, ("i/j", "i2"), unroll_factor(N),
                           (("A", 2), ("v1", 1), ("v2", 1), ("x", 1)))
