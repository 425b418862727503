"""A quantized depthwise 3×3 convolution (one filter per channel, as MobileNet's layers):
int8 activations and weights, int32 accumulation from the bias, requantization to int8.

Sizes: small C = 8, 10×10 input (8×8 output); mini C = 16, 18×18 input.
"""

import numpy as np

import vichls
from vichls import int8, int32, int64, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
C, H, W = {"small": (8, 10, 10), "mini": (16, 18, 18)}[SIZE]
MULT, SHIFT = 1518500250, 38  # requantization: about 0.0055 = MULT / 2^SHIFT
WEIGHTS = vichls.const(np.random.default_rng(2).integers(-128, 128, (C, 3, 3)), int8)


@kernel
def depthwise(x: int8[C, H, W], bias: int32[C], y: int8[C, H - 2, W - 2]):
    for ch in range(C):
        for h in range(H - 2):
            for c in range(W - 2):
                acc: int32 = bias[ch]
                for kh in range(3):
                    for kw in range(3):
                        acc += int32(x[ch, h + kh, c + kw]) * int32(WEIGHTS[ch, kh, kw])
                scaled: int64 = (int64(acc) * MULT + (int64(1) << (SHIFT - 1))) >> SHIFT
                y[ch, h, c] = int8(min(max(scaled, -128), 127))


def make_inputs(rng=None):
    rng = rng or np.random.default_rng(0)
    return (rng.integers(-128, 128, (C, H, W), dtype=np.int8),
            rng.integers(-3000, 3000, C).astype(np.int32),
            np.zeros((C, H - 2, W - 2), np.int8))


def directives(s):
    """One output pixel per cycle: pipeline the pixel loop c (its 9 multiply-adds unrolled
    into it); the rows and columns of x cyclic by 4 (the 3×3 window's elements in distinct
    banks whatever the pixel), the weights completely (constants)."""
    s.pipeline("c")
    s.partition("x", dim=2, factor=4, kind="cyclic")
    s.partition("x", dim=3, factor=4, kind="cyclic")
    s.partition("WEIGHTS", kind="complete")
