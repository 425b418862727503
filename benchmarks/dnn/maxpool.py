"""A 2×2 max-pooling layer with stride 2 over int8 feature maps.

Sizes: small C = 8, 16×16 input; mini C = 16, 32×32 input.
"""

import numpy as np

from vichls import int8, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
C, H, W = {"small": (8, 16, 16), "mini": (16, 32, 32)}[SIZE]


@kernel
def maxpool(x: int8[C, H, W], y: int8[C, H // 2, W // 2]):
    for ch in range(C):
        for h in range(H // 2):
            for c in range(W // 2):
                m: int8 = x[ch, 2 * h, 2 * c]
                for dh in range(2):
                    for dc in range(2):
                        m = max(m, x[ch, 2 * h + dh, 2 * c + dc])
                y[ch, h, c] = m


def make_inputs(rng=None):
    rng = rng or np.random.default_rng(0)
    return (rng.integers(-128, 128, (C, H, W), dtype=np.int8),
            np.zeros((C, H // 2, W // 2), np.int8))


def directives(s):
    """One output per cycle: pipeline the pixel loop c; x's rows and columns split in two
    (each of the 2×2 elements in its own bank)."""
    s.pipeline("c")
    s.partition("x", dim=2, factor=2, kind="cyclic")
    s.partition("x", dim=3, factor=2, kind="cyclic")
