"""MachSuite sort/merge in int32: bottom-up merge sort, ascending, in place.

Iterative (the kernel language has no recursion): stage s merges pairs of sorted runs of
2**s elements. Each merge copies the left run ascending and the right run descending into
``temp`` and then takes the smaller end each time, as MachSuite's merge does, so neither
run needs a sentinel. N is a power of two (LOG_N = log2 N).

Sizes: small N = 64 (8×8 values); mini N = 1024 (MachSuite: 2048).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N, LOG_N = {"small": (64, 6), "mini": (1024, 10)}[SIZE]


@kernel
def sort_merge(a: int32[N]):
    temp: int32[N] = 0
    for stage in range(LOG_N):
        width: int32 = 1 << stage
        for block in range(N >> (stage + 1)):
            low: int32 = block * 2 * width
            mid: int32 = low + width
            high: int32 = mid + width
            for i in range(low, mid):
                temp[i] = a[i]
            for i in range(mid, high):
                temp[high - 1 - (i - mid)] = a[i]
            left: int32 = low
            right: int32 = high - 1
            for k in range(low, high):
                if temp[right] < temp[left]:
                    a[k] = temp[right]
                    right -= 1
                else:
                    a[k] = temp[left]
                    left += 1


def directives(s):
    """Pipeline the copies into temp (i loops) and the merge loop (k)."""
    s.pipeline("i").pipeline("k")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(2048)
    return (rng.integers(-2**31, 2**31, size=N).astype(np.int32),)
