"""MachSuite spmv/crs in int32: sparse matrix × dense vector, the matrix in compressed rows
(values and column indices of the non-zeros row after row, and where each row starts).

Inputs: NNZ non-zeros at distinct random positions (every row may have any count, zero
included), values in -100..100; a fixed generator without one, so the deterministic inputs
are the same on every run. ``row_starts`` has N + 1 entries, the last being NNZ.

Sizes: small N = 8, NNZ = 24 (the 8×8 set, 3 non-zeros a row on average); mini N = 64,
NNZ = 256 (MachSuite's 494 rows and 1666 non-zeros have 3.4 a row).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N, NNZ = {"small": (8, 24), "mini": (64, 256)}[SIZE]
ROW_STARTS = N + 1


@kernel
def spmv_crs(val: int32[NNZ], cols: int32[NNZ], row_starts: int32[ROW_STARTS], vec: int32[N],
             out: int32[N]):
    for i in range(N):
        total: int32 = 0
        for j in range(row_starts[i], row_starts[i + 1]):
            total += val[j] * vec[cols[j]]
        out[i] = total


def directives(s):
    """Pipeline the row's j loop (its bounds come from row_starts: no unrolling)."""
    s.pipeline("j")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(494)
    positions = np.sort(rng.choice(N * N, size=NNZ, replace=False))  # row-major order
    rows, cols = np.divmod(positions, N)
    row_starts = np.searchsorted(rows, np.arange(N + 1))
    val = rng.integers(-100, 100, size=NNZ, endpoint=True)
    vec = rng.integers(-100, 100, size=N, endpoint=True)
    return (val.astype(np.int32), cols.astype(np.int32), row_starts.astype(np.int32),
            vec.astype(np.int32), np.zeros(N, dtype=np.int32))
