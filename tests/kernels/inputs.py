"""Argument makers for the kernel corpus: random values mixed with each type's edge values.

Every maker takes a ``numpy.random.Generator`` so a case is reproducible from its seed.
Arrays come out with the dtype that holds the element type (``ScalarType.dtype``) and hold
only values of that type, as the kernel call expects. Edge values (type min and max, -1, 0,
1, and their neighbours) are mixed in on purpose: they are where wraparound, floor division,
division by zero and shifts differ between a careless back end and the reference.
"""

from __future__ import annotations

import numpy as np

from vichls.inputs import array, edge_values, scalar, values  # noqa: F401 (re-exported)
from vichls.types import ScalarType


def random_values(rng: np.random.Generator, t: ScalarType, n: int) -> list[int]:
    """``n`` values of ``t`` with uniformly random bit patterns."""
    bits = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    return [t.wrap(int(b)) for b in bits]


def ranged_array(rng: np.random.Generator, t: ScalarType, shape, lo: int, hi: int) -> np.ndarray:
    """An array of ``t`` with values drawn from ``lo..hi`` inclusive (for sizes, keys, ...)."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    vals = rng.integers(lo, hi, size=shape, endpoint=True)
    return np.array([t.wrap(int(v)) for v in vals.ravel()], dtype=t.dtype).reshape(shape)


def shift_amounts(rng: np.random.Generator, t: ScalarType, shape, width: int) -> np.ndarray:
    """Non-negative shift amounts of type ``t`` for shifting a ``width``-bit value: below,
    at and above the width (the last give 0 or all sign bits), plus random ones."""
    specials = [0, 1, width - 1, width, width + 1, 2 * width, t.max]
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    count = int(np.prod(shape))
    out = []
    for _ in range(count):
        if rng.random() < 0.5:
            v = specials[int(rng.integers(len(specials)))]
        else:
            v = int(rng.integers(0, 2 * width + 2))
        wrapped = t.wrap(v)
        out.append(wrapped if wrapped >= 0 else t.max)  # narrow signed types: stay non-negative
    return np.array(out, dtype=t.dtype).reshape(shape)
