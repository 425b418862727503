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


def directives(s):
    """Pipeline both p loops: the s reduction inside the first unrolls completely (NP
    multipliers); A's last dimension and C4's first are partitioned cyclically by the
    largest power of two dividing NP (one bank per element at the small size), so the NP
    reads of a row share few ports; the copy-back loop runs at II=1 beside it."""
    from benchmarks.suite import unroll_factor

    banks = unroll_factor(NP, limit=NP)
    s.pipeline("p")
    s.partition("A", dim=3, factor=banks).partition("C4", dim=1, factor=banks)
