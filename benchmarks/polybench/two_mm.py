"""PolyBench/C 4.2 2mm in int32: D = alpha·A·B·C + beta·D, through tmp = alpha·A·B.

Sizes: small NI = NJ = NK = NL = 8; mini NI = 16, NJ = 18, NK = 22, NL = 24 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
NI, NJ, NK, NL = {"small": (8, 8, 8, 8), "mini": (16, 18, 22, 24)}[SIZE]


@kernel
def kernel_2mm(alpha: int32, beta: int32, tmp: int32[NI, NJ], A: int32[NI, NK],
               B: int32[NK, NJ], C: int32[NJ, NL], D: int32[NI, NL]):
    for i in range(NI):
        for j in range(NJ):
            tmp[i][j] = 0
            for k in range(NK):
                tmp[i][j] += alpha * A[i][k] * B[k][j]
    for i in range(NI):
        for j in range(NL):
            D[i][j] *= beta
            for k in range(NJ):
                D[i][j] += tmp[i][k] * C[k][j]


def directives(s):
    """Pipeline the two k reductions. Unrolling them (by 2 or 4, with matching partitions of
    A, B, tmp and C) is the next step, but today it only raises the II in proportion
    (tests/regressions/pipeline_unrolled_array_reduction_ii.py), so it is left out."""
    s.pipeline("k")
