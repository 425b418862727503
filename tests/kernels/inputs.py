"""Argument makers for the kernel corpus: random values mixed with each type's edge values.

Every maker takes a ``numpy.random.Generator`` so a case is reproducible from its seed.
Arrays come out with the dtype that holds the element type (``ScalarType.dtype``) and hold
only values of that type, as the kernel call expects. Edge values (type min and max, -1, 0,
1, and their neighbours) are mixed in on purpose: they are where wraparound, floor division,
division by zero and shifts differ between a careless back end and the reference.
"""

from __future__ import annotations

import numpy as np

from vichls.types import ScalarType


def edge_values(t: ScalarType) -> list[int]:
    """The values of ``t`` most likely to expose a semantic bug, without duplicates."""
    raw = [t.min, t.max, 0, 1, -1, 2, -2, t.min + 1, t.max - 1, t.max >> 1, (t.max >> 1) + 1]
    seen: list[int] = []
    for v in raw:
        w = t.wrap(v)
        if w not in seen:
            seen.append(w)
    return seen


def random_values(rng: np.random.Generator, t: ScalarType, n: int) -> list[int]:
    """``n`` values of ``t`` with uniformly random bit patterns."""
    bits = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    return [t.wrap(int(b)) for b in bits]


def values(rng: np.random.Generator, t: ScalarType, n: int, edge_share: float = 0.4) -> list[int]:
    """``n`` values of ``t``: about ``edge_share`` of them edge values, the rest random."""
    edges = edge_values(t)
    out = random_values(rng, t, n)
    for k in range(n):
        if rng.random() < edge_share:
            out[k] = edges[int(rng.integers(len(edges)))]
    return out


def array(rng: np.random.Generator, t: ScalarType, shape, edge_share: float = 0.4) -> np.ndarray:
    """An array of ``t`` (in ``t.dtype``) mixing edge and random values."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    count = int(np.prod(shape))
    return np.array(values(rng, t, count, edge_share), dtype=t.dtype).reshape(shape)


def ranged_array(rng: np.random.Generator, t: ScalarType, shape, lo: int, hi: int) -> np.ndarray:
    """An array of ``t`` with values drawn from ``lo..hi`` inclusive (for sizes, keys, ...)."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    vals = rng.integers(lo, hi, size=shape, endpoint=True)
    return np.array([t.wrap(int(v)) for v in vals.ravel()], dtype=t.dtype).reshape(shape)


def scalar(rng: np.random.Generator, t: ScalarType, edge_share: float = 0.5) -> int:
    """One value of ``t``, an edge value with probability ``edge_share``."""
    return values(rng, t, 1, edge_share)[0]


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
