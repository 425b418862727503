"""A quantized 3×3 convolution, as the layers of an int8 CNN compute it: int8 activations
and weights, int32 accumulation from the bias, then requantization to int8 (a fixed-point
multiply by M / 2^S, rounding, a ReLU, saturation).

Sizes: small C_IN = C_OUT = 4, 10×10 input (8×8 output); mini C_IN = C_OUT = 8, 18×18 input.
"""

import numpy as np

import vichls
from vichls import int8, int32, int64, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
C_IN, C_OUT, H, W = {"small": (4, 4, 10, 10), "mini": (8, 8, 18, 18)}[SIZE]
MULT, SHIFT = 1518500250, 40  # requantization: about 0.00138 = MULT / 2^SHIFT
#: the trained weights: constants of the design (a ROM, or registers when partitioned)
WEIGHTS = vichls.const(np.random.default_rng(1).integers(-128, 128, (C_OUT, C_IN, 3, 3)), int8)


@kernel
def conv2d(x: int8[C_IN, H, W], bias: int32[C_OUT], y: int8[C_OUT, H - 2, W - 2]):
    for co in range(C_OUT):
        for h in range(H - 2):
            for c in range(W - 2):
                acc: int32 = bias[co]
                for ci in range(C_IN):
                    for kh in range(3):
                        for kw in range(3):
                            acc += int32(x[ci, h + kh, c + kw]) * int32(WEIGHTS[co, ci, kh, kw])
                scaled: int64 = (int64(acc) * MULT + (int64(1) << (SHIFT - 1))) >> SHIFT
                y[co, h, c] = int8(min(max(scaled, 0), 127))


def make_inputs(rng=None):
    rng = rng or np.random.default_rng(0)
    return (rng.integers(-128, 128, (C_IN, H, W), dtype=np.int8),
            rng.integers(-20000, 20000, C_OUT).astype(np.int32),
            np.zeros((C_OUT, H - 2, W - 2), np.int8))


def directives(s):
    """One output pixel per cycle: pipeline the pixel loop c, which unrolls the 9·C_IN
    multiply-adds into it; x split into a bank per input channel, row and column window
    (cyclic by 4 on every dimension: the 3×3 window's rows and columns fall in distinct
    banks whatever the pixel), the weights completely (constants)."""
    s.pipeline("c")
    s.partition("x", dim=0, factor=4, kind="cyclic")
    s.partition("WEIGHTS", kind="complete")
