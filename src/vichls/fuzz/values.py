"""Argument values for fuzzed programs: random bit patterns mixed with each type's edge values.

The random program generator draws its arguments here. Edge values (minimum, maximum, -1, 0,
1 and their neighbours) are where wraparound, floor division, division by zero and shifts
differ between a careless back end and the reference, so about 40% of values are edges.
Arrays come out in the dtype that holds the element type and hold only values of that type.
Everything is drawn from a ``numpy.random.Generator``, so a seed reproduces the arguments.
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


def values(rng: np.random.Generator, t: ScalarType, n: int, edge_share: float = 0.4) -> list[int]:
    """``n`` values of ``t``: about ``edge_share`` of them edge values, the rest uniform
    over the type's bit patterns."""
    edges = edge_values(t)
    bits = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    out = [t.wrap(int(b)) for b in bits]
    for k in range(n):
        if rng.random() < edge_share:
            out[k] = edges[int(rng.integers(len(edges)))]
    return out


def array(rng: np.random.Generator, t: ScalarType, shape, edge_share: float = 0.4) -> np.ndarray:
    """An array of ``t`` (in ``t.dtype``) mixing edge and random values."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    count = int(np.prod(shape))
    return np.array(values(rng, t, count, edge_share), dtype=t.dtype).reshape(shape)


def scalar(rng: np.random.Generator, t: ScalarType, edge_share: float = 0.5) -> int:
    """One value of ``t``, an edge value with probability ``edge_share``."""
    return values(rng, t, 1, edge_share)[0]
