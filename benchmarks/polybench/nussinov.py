"""PolyBench/C 4.2 nussinov (integer in PolyBench too): RNA secondary structure by dynamic
programming; table[i][j] is the most base pairs in seq[i..j].

The statements and their guards are PolyBench's (the guards are always true inside these
loops; they are kept so the kernel is the benchmark's). Bases are 0..3 and pair when they
sum to 3. Inputs: PolyBench's seq[i] = (i + 1) % 4 and a zero table without a generator;
random bases and a zero table with one.

Sizes: small N = 8; mini N = 60 (PolyBench MINI).
"""

import numpy as np

from vichls import int32, kernel, uint8

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 60}[SIZE]


@kernel
def kernel_nussinov(seq: uint8[N], table: int32[N, N]):
    for i in range(N - 1, -1, -1):
        for j in range(i + 1, N):
            if j - 1 >= 0:
                table[i][j] = max(table[i][j], table[i][j - 1])
            if i + 1 < N:
                table[i][j] = max(table[i][j], table[i + 1][j])
            if j - 1 >= 0 and i + 1 < N:
                if i < j - 1:
                    table[i][j] = max(table[i][j],
                                      table[i + 1][j - 1] + (1 if seq[i] + seq[j] == 3 else 0))
                else:
                    table[i][j] = max(table[i][j], table[i + 1][j - 1])
            for k in range(i + 1, j):
                table[i][j] = max(table[i][j], table[i][k] + table[k + 1][j])


def directives(s):
    """Pipeline the triangular k reduction (its bounds depend on i and j)."""
    s.pipeline("k")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    if rng is None:
        seq = (np.arange(N) + 1) % 4
    else:
        seq = rng.integers(0, 4, size=N)
    return seq.astype(np.uint8), np.zeros((N, N), dtype=np.int32)
