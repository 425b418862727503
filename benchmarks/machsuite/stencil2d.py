"""MachSuite stencil/stencil2d in int32: a 3×3 filter over a 2-D grid (the output keeps the
input's shape; its last two rows and columns are not written, as in MachSuite).

MachSuite stores the grid and the filter flattened; here they are 2-D arrays with the same
loop order and the same sums.

Sizes: small ROWS = COLS = 8 (the 8×8 set); mini ROWS = 32, COLS = 16 (MachSuite's 128×64
divided by 4).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
ROWS, COLS = {"small": (8, 8), "mini": (32, 16)}[SIZE]


@kernel
def stencil2d(orig: int32[ROWS, COLS], sol: int32[ROWS, COLS], filt: int32[3, 3]):
    for r in range(ROWS - 2):
        for c in range(COLS - 2):
            temp: int32 = 0
            for k1 in range(3):
                for k2 in range(3):
                    temp += filt[k1][k2] * orig[r + k1][c + k2]
            sol[r][c] = temp



def directives(s):
    """Pipeline the r loop with the c loop and the 3x3 filter (9·(COLS - 2) multipliers)
    unrolled into it when that fits the multiplier budget; the c loop otherwise, the
    filter unrolled into nine multipliers. orig is not partitioned: its rows r + k1 move
    with r, so a cyclic partition gives no fixed bank per read and only costs ports today
    (tests/regressions/pipeline_partition_bank_ports_ii.py)."""
    from benchmarks.suite import MULTIPLIERS

    s.pipeline("r" if 9 * (COLS - 2) <= MULTIPLIERS else "c")



def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    if rng is None:
        r, c = np.indices((ROWS, COLS))
        orig = (r * COLS + c) % 17
        filt = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]])
    else:
        orig = rng.integers(-1000, 1000, size=(ROWS, COLS), endpoint=True)
        filt = rng.integers(-8, 8, size=(3, 3), endpoint=True)
    return (orig.astype(np.int32), np.zeros((ROWS, COLS), dtype=np.int32),
            filt.astype(np.int32))
