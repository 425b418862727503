"""MachSuite sort/radix in int32: least-significant-digit radix sort, ascending, in place.

Eight passes of 4-bit digits (MachSuite uses 2-bit digits in blocks; the shape is the same:
histogram, exclusive prefix sum, stable scatter). The last digit has its top bit flipped so
that negative keys come first. ``scratch`` holds each pass's output before it is copied
back.

Sizes: small N = 64 (8×8 values); mini N = 1024 (MachSuite: 2048).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N = {"small": 64, "mini": 1024}[SIZE]
RADIX = 16
PASSES = 8


@kernel
def sort_radix(a: int32[N]):
    scratch: int32[N] = 0
    bucket: int32[RADIX] = 0
    for digit_pass in range(PASSES):
        shift: int32 = 4 * digit_pass
        sign_flip: int32 = 8 if digit_pass == PASSES - 1 else 0
        for d in range(RADIX):
            bucket[d] = 0
        for i in range(N):
            bucket[((a[i] >> shift) & 15) ^ sign_flip] += 1
        running: int32 = 0
        for d in range(RADIX):
            count: int32 = bucket[d]
            bucket[d] = running
            running += count
        for i in range(N):
            digit: int32 = ((a[i] >> shift) & 15) ^ sign_flip
            scratch[bucket[digit]] = a[i]
            bucket[digit] += 1
        for i in range(N):
            a[i] = scratch[i]


def directives(s):
    """Pipeline every loop inside a digit pass (histogram, prefix sum, scatter, copy)."""
    s.pipeline("d").pipeline("i")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(2048)
    return (rng.integers(-2**31, 2**31, size=N).astype(np.int32),)
