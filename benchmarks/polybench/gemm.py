"""PolyBench/C 4.2 gemm in int32: C = alpha·A·B + beta·C.

Sizes: small NI = NJ = NK = 8 (the Calyx evaluation); mini NI = 20, NJ = 25, NK = 30
(PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
NI, NJ, NK = {"small": (8, 8, 8), "mini": (20, 25, 30)}[SIZE]


@kernel
def kernel_gemm(alpha: int32, beta: int32, C: int32[NI, NJ], A: int32[NI, NK], B: int32[NK, NJ]):
    for i in range(NI):
        for j in range(NJ):
            C[i][j] *= beta
        for k in range(NK):
            for j in range(NJ):
                C[i][j] += alpha * A[i][k] * B[k][j]


def directives(s):
    """Pipeline the j loop of C *= beta, and the k loop with its j loop (2·NJ multipliers)
    unrolled into it; C and B are partitioned along j into one bank per column, so every
    copy has its own ports."""
    s.pipeline("i/j").pipeline("k")
    s.partition("C", dim=2, factor=NJ).partition("B", dim=2, factor=NJ)
