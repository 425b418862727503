"""Kernel arguments that reach the corners of every type.

Edge values (minimum, maximum, -1, 0, 1 and their neighbours) are where wraparound, floor
division, division by zero and shifts differ between a careless back end and the reference,
so a share of every draw is edges, the rest uniform over the type's bit patterns. Arrays
come out in the dtype that holds the element type. Everything is drawn from a
``numpy.random.Generator``, so a seed reproduces the arguments. ``vichls sim``, ``vichls
fuzz`` and the tests all draw here; a kernel whose meaning needs constrained inputs (indices
read from an array, say) provides its own generator: ``make_inputs(rng)`` in its file.
"""

from __future__ import annotations

import numpy as np

from vichls.signature import KernelSignature, from_raw
from vichls.types import ArrayType, FloatType, ScalarType, Stream, StreamType


def edge_values(t: ScalarType) -> list[int]:
    """The values of ``t`` most likely to expose a semantic bug, without duplicates."""
    raw = [t.min, t.max, 0, 1, -1, 2, -2, t.min + 1, t.max - 1, t.max >> 1, (t.max >> 1) + 1]
    seen: list[int] = []
    for v in raw:
        w = t.wrap(v)
        if w not in seen:
            seen.append(w)
    return seen


#: float32 values most likely to expose a semantic bug: signed zeros, the extremes,
#: subnormals, infinities, NaN, and ordinary numbers
FLOAT32_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, float("inf"), float("-inf"), float("nan"),
                 3.4028234663852886e38, -3.4028234663852886e38, 1.1754943508222875e-38,
                 1.401298464324817e-45, -1.401298464324817e-45, 16777217.0, 1e-30, 65504.0]


def values(rng: np.random.Generator, t: ScalarType, n: int, edge_share: float = 0.4) -> list:
    """``n`` values of ``t``: about ``edge_share`` of them edge values, the rest uniform
    over the type's bit patterns (float32: random bit patterns, so every class of number)."""
    if isinstance(t, FloatType):
        bits = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
        out = [float(v) for v in bits.view(np.float32)]
        for k in range(n):
            if rng.random() < edge_share:
                out[k] = float(np.float32(FLOAT32_EDGES[int(rng.integers(len(FLOAT32_EDGES)))]))
        return out
    edges = edge_values(t)
    bits = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    out = [t.wrap(int(b)) for b in bits]
    for k in range(n):
        if rng.random() < edge_share:
            out[k] = edges[int(rng.integers(len(edges)))]
    return out


def array(rng: np.random.Generator, t: ScalarType, shape, edge_share: float = 0.4) -> np.ndarray:
    """An array of ``t`` mixing edge and random values, as a call takes it (in
    ``python_dtype(t)``: the raw bits' dtype, or float64 for fixed point that crosses as
    floats)."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    count = int(np.prod(shape))
    raw = np.array(values(rng, t, count, edge_share), dtype=t.dtype).reshape(shape)
    return from_raw(t, raw)


def scalar(rng: np.random.Generator, t: ScalarType, edge_share: float = 0.5):
    """One value of ``t``, an edge value with probability ``edge_share`` (fixed point:
    its raw bits' edges: the type's min, max, 0, one LSB, ...)."""
    return from_raw(t, values(rng, t, 1, edge_share)[0])


#: Elements in a random input stream: a kernel that reads more needs its own
#: ``make_inputs`` (a get from an empty stream is an error in Python).
RANDOM_STREAM_LENGTH = 1024


def random_args(sig: KernelSignature, rng: np.random.Generator) -> tuple:
    """Arguments for every parameter of ``sig``: arrays and scalars mixing edges and noise;
    input streams with ``RANDOM_STREAM_LENGTH`` such values, output streams empty."""
    def one(p):
        if isinstance(p.type, ArrayType):
            return array(rng, p.type.element, p.type.shape)
        if isinstance(p.type, StreamType):
            count = RANDOM_STREAM_LENGTH if p.direction == "in" else 0
            stream = p.type()
            for raw in values(rng, p.type.element, count) if count else ():
                stream.put_raw(raw)
            return stream
        return scalar(rng, p.type)

    return tuple(one(p) for p in sig.params)


def copy_args(args) -> tuple:
    """Independent copies of the arrays and streams of an argument tuple."""
    return tuple(a.copy() if isinstance(a, np.ndarray)
                 else a.copy() if isinstance(a, Stream) else a for a in args)
