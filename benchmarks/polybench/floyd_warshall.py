"""PolyBench/C 4.2 floyd-warshall (integer in PolyBench too): all-pairs shortest paths,
relaxing every path through each intermediate node k in turn.

Inputs: PolyBench's initialisation (weights 1..7, and 999 for "no edge" on the diagonals
PolyBench picks) without a generator; random weights 1..50 with about a third of the edges
missing (999) with one. Sums stay far from int32's range.

Sizes: small N = 8; mini N = 60 (PolyBench MINI).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 8, "mini": 60}[SIZE]


@kernel
def kernel_floyd_warshall(paths: int32[N, N]):
    for k in range(N):
        for i in range(N):
            for j in range(N):
                paths[i][j] = min(paths[i][j], paths[i][k] + paths[k][j])


def directives(s):
    """Pipeline the j loop (it flattens with i into one pipeline per k)."""
    s.pipeline("j")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    i, j = np.indices((N, N))
    if rng is None:
        weights = i * j % 7 + 1
        missing = ((i + j) % 13 == 0) | ((i + j) % 7 == 0) | ((i + j) % 11 == 0)
    else:
        weights = rng.integers(1, 50, size=(N, N), endpoint=True)
        missing = rng.random((N, N)) < 0.35
    return (np.where(missing, 999, weights).astype(np.int32),)  # 999: PolyBench's "no edge"
