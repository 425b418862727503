"""Random kernel arguments that reach the corners of every type.

``vichls sim`` and the tests drive designs with these: each value is, with some probability,
an edge value of its type (minimum, maximum, 0, 1, -1, a power of two), otherwise uniform
over the type. A kernel whose meaning needs constrained inputs (indices read from an
array, say) provides its own generator: a module-level ``make_inputs(rng)`` in its file.
"""

from __future__ import annotations

import numpy as np

from vichls.signature import KernelSignature
from vichls.types import ArrayType, ScalarType


def edge_values(t: ScalarType) -> list[int]:
    vals = {t.min, t.max, 0, 1, t.wrap(-1), t.wrap(t.max - 1), t.wrap(t.min + 1)}
    if t.width > 2:
        vals.add(1 << (t.width - 2))
    return sorted(t.wrap(v) for v in vals)


def random_scalar(t: ScalarType, rng: np.random.Generator, edge_prob: float = 0.25) -> int:
    if rng.random() < edge_prob:
        edges = edge_values(t)
        return edges[int(rng.integers(len(edges)))]
    # uniform over the type's bit patterns (numpy's integers() is limited to int64 bounds)
    bits = int(rng.integers(0, 1 << 32)) | (int(rng.integers(0, 1 << 32)) << 32)
    return t.wrap(bits)


def random_array(at: ArrayType, rng: np.random.Generator, edge_prob: float = 0.25) -> np.ndarray:
    flat = [random_scalar(at.element, rng, edge_prob) for _ in range(at.size)]
    return np.array(flat, dtype=object).astype(at.element.dtype).reshape(at.shape)


def random_args(sig: KernelSignature, rng: np.random.Generator, edge_prob: float = 0.25) -> tuple:
    out = []
    for p in sig.params:
        if isinstance(p.type, ArrayType):
            out.append(random_array(p.type, rng, edge_prob))
        else:
            out.append(random_scalar(p.type, rng, edge_prob))
    return tuple(out)


def copy_args(args) -> tuple:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
