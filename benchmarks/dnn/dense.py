"""A quantized fully connected layer: int8 inputs and weights, int32 accumulation from the
bias, requantization to int8 with a ReLU.

Sizes: small 64 inputs, 16 outputs; mini 256 inputs, 32 outputs.
"""

import numpy as np

import vichls
from vichls import int8, int32, int64, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
K, M = {"small": (64, 16), "mini": (256, 32)}[SIZE]
MULT, SHIFT = 1518500250, 41  # requantization: about 0.00069 = MULT / 2^SHIFT
UNROLL = 8  # multiply-adds per cycle
WEIGHTS = vichls.const(np.random.default_rng(3).integers(-128, 128, (M, K)), int8)


@kernel
def dense(x: int8[K], bias: int32[M], y: int8[M]):
    for m in range(M):
        acc: int32 = bias[m]
        for k in range(K):
            acc += int32(x[k]) * int32(WEIGHTS[m, k])
        scaled: int64 = (int64(acc) * MULT + (int64(1) << (SHIFT - 1))) >> SHIFT
        y[m] = int8(min(max(scaled, 0), 127))


def make_inputs(rng=None):
    rng = rng or np.random.default_rng(0)
    return (rng.integers(-128, 128, K, dtype=np.int8),
            rng.integers(-20000, 20000, M).astype(np.int32), np.zeros(M, np.int8))


def directives(s):
    """UNROLL multiply-adds per cycle: the k loop unrolled by UNROLL and pipelined (the
    nest flattened around it), x and the weights' rows cyclic by UNROLL."""
    s.unroll("k", UNROLL)
    s.pipeline("k")
    s.partition("x", factor=UNROLL, kind="cyclic")
    s.partition("WEIGHTS", dim=2, factor=UNROLL, kind="cyclic")
