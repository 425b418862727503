"""PolyBench/C 4.2 3mm in int32: G = (A·B)·(C·D) through E = A·B and F = C·D.

Sizes: small all 8; mini NI = 16, NJ = 18, NK = 20, NL = 22, NM = 24 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
NI, NJ, NK, NL, NM = {"small": (8, 8, 8, 8, 8), "mini": (16, 18, 20, 22, 24)}[SIZE]


@kernel
def kernel_3mm(E: int32[NI, NJ], A: int32[NI, NK], B: int32[NK, NJ], F: int32[NJ, NL],
               C: int32[NJ, NM], D: int32[NM, NL], G: int32[NI, NL]):
    for i in range(NI):
        for j in range(NJ):
            E[i][j] = 0
            for k in range(NK):
                E[i][j] += A[i][k] * B[k][j]
    for i in range(NJ):
        for j in range(NL):
            F[i][j] = 0
            for k in range(NM):
                F[i][j] += C[i][k] * D[k][j]
    for i in range(NI):
        for j in range(NL):
            G[i][j] = 0
            for k in range(NJ):
                G[i][j] += E[i][k] * F[k][j]


def directives(s):
    """Pipeline the three k reductions. Unrolling them with matching partitions is the next
    step, but today it only raises the II in proportion
    (tests/regressions/pipeline_unrolled_array_reduction_ii.py), so it is left out."""
    s.pipeline("k")
