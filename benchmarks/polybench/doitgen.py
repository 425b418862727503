"""PolyBench/C 4.2 doitgen in int32: each A[r][q][:] becomes A[r][q][:]·C4.

Sizes: small NR = NQ = NP = 8; mini NR = 10, NQ = 8, NP = 12 (PolyBench MINI).
"""

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
NR, NQ, NP = {"small": (8, 8, 8), "mini": (10, 8, 12)}[SIZE]


@kernel
def kernel_doitgen(A: int32[NR, NQ, NP], C4: int32[NP, NP], sum: int32[NP]):
    for r in range(NR):
        for q in range(NQ):
            for p in range(NP):
                sum[p] = 0
                for s in range(NP):
                    sum[p] += A[r][q][s] * C4[s][p]
            for p in range(NP):
                A[r][q][p] = sum[p]
