"""MachSuite spmv/ellpack in int32: sparse matrix × dense vector, the matrix in ELLPACK form
(exactly L stored entries a row, padded with zero values), accumulated onto ``out``.

Inputs: distinct random columns in each row, values in -100..100, about a quarter of the
entries being padding (value 0); a fixed generator without one.

Sizes: small N = 8, L = 4 (the 8×8 set); mini N = 64, L = 8 (MachSuite: N = 494, L = 10).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N, L = {"small": (8, 4), "mini": (64, 8)}[SIZE]


@kernel
def spmv_ellpack(nzval: int32[N, L], cols: int32[N, L], vec: int32[N], out: int32[N]):
    for i in range(N):
        total: int32 = out[i]
        for j in range(L):
            total += nzval[i][j] * vec[cols[i][j]]
        out[i] = total


def directives(s):
    """Pipeline the row loop: the L products of a row unroll, nzval and cols partitioned
    cyclically by L along the row; vec is gathered through cols, so only its two ports
    help (II = L / 2)."""
    s.pipeline("i")
    s.partition("nzval", dim=2, factor=L).partition("cols", dim=2, factor=L)


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(494)
    cols = np.sort(np.array([rng.choice(N, size=L, replace=False) for _ in range(N)]), axis=1)
    nzval = rng.integers(-100, 100, size=(N, L), endpoint=True)
    nzval[rng.random((N, L)) < 0.25] = 0
    vec = rng.integers(-100, 100, size=N, endpoint=True)
    out = rng.integers(-100, 100, size=N, endpoint=True)
    return (nzval.astype(np.int32), cols.astype(np.int32), vec.astype(np.int32),
            out.astype(np.int32))
