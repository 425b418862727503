"""Kernels with streams: a three-stage chain, a stream-to-stream filter, a producer/consumer
pair with uneven work, a data-dependent filter and a sentinel-terminated reduction.

Not in ``ALL_CASES`` yet (the FPGA back end learns streams separately). ``STREAM_CASES``
lists ``(kernel, make_inputs, model)``: ``make_inputs(rng)`` gives fresh arguments (stream
arguments are ``vichls.Stream`` objects, filled for input streams and empty for output
ones), and ``model(args)``, where given, states independently in plain Python what the
kernel leaves behind: ``(return value, [every array and stream argument's contents after
the call])``, streams as lists.
"""

from __future__ import annotations

import numpy as np

from vichls import int8, int16, int32, kernel, stream, uint8, uint32
from vichls.inputs import array, values
from vichls.types import Stream

CHAIN_N = 1024
SCALE_N = 64
PC_N = 48


def _wrap(value: int, bits: int, signed: bool) -> int:
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value


# -- a 1024-element chain of three sub-kernels connected by local streams ---------------------


@kernel
def chain_load(src: int32[CHAIN_N], out: stream[int32, 4]):
    for i in range(CHAIN_N):
        out.put(src[i])


@kernel
def chain_compute(inp: stream[int32, 4], out: stream[int32, 4]):
    for i in range(CHAIN_N):
        v = inp.get()
        out.put(v * 3 + (v >> 2))


@kernel
def chain_store(inp: stream[int32, 4], dst: int32[CHAIN_N]):
    for i in range(CHAIN_N):
        dst[i] = inp.get()


@kernel
def chain3(src: int32[CHAIN_N], dst: int32[CHAIN_N]):
    loaded = stream[int32, 4]()
    computed: stream[int32, 4] = stream[int32, 4]()
    chain_load(src, loaded)
    chain_compute(loaded, computed)
    chain_store(computed, dst)


def inputs_chain3(rng):
    return array(rng, int32, CHAIN_N), np.zeros(CHAIN_N, dtype=np.int32)


def model_chain3(args):
    src, _ = args
    dst = np.array([_wrap(int(v) * 3 + (int(v) >> 2), 32, True) for v in src], dtype=np.int32)
    return None, [src.copy(), dst]


# -- stream in, stream out: one element per iteration of a counted loop (pipelines at II=1) --


@kernel
def scale_saturate(x: stream[int16], y: stream[int16, 4], gain: int16):
    for i in range(SCALE_N):
        v = int32(x.get()) * gain
        y.put(min(max(v >> 4, -32768), 32767))


def inputs_scale_saturate(rng):
    return stream[int16](values(rng, int16, SCALE_N)), stream[int16, 4](), values(rng, int16, 1)[0]


def model_scale_saturate(args):
    x, _, gain = args
    out = [min(max((v * gain) >> 4, -32768), 32767) for v in x]
    return None, [[], out]


# -- producer and consumer with different work per element ------------------------------------


@kernel
def produce_squares(seed: uint32, out: stream[uint32, 8]):
    for i in range(PC_N):
        out.put(uint32(i) * uint32(i) * seed + seed)


@kernel
def consume_popcount(inp: stream[uint32, 8], res: uint8[PC_N]):
    for i in range(PC_N):
        v = inp.get()
        count: uint8 = 0
        while v != 0:  # up to 32 iterations per element
            count += uint8(v & 1)
            v = v >> 1
        res[i] = count


@kernel
def producer_consumer(seed: uint32, res: uint8[PC_N]):
    q = stream[uint32, 8]()
    produce_squares(seed, q)
    consume_popcount(q, res)


def inputs_producer_consumer(rng):
    return values(rng, uint32, 1)[0], np.zeros(PC_N, dtype=np.uint8)


def model_producer_consumer(args):
    seed, _ = args
    res = [bin(_wrap(i * i * seed + seed, 32, False)).count("1") for i in range(PC_N)]
    return None, [np.array(res, dtype=np.uint8)]


# -- a data-dependent number of puts, under an if; returns how many ----------------------------


@kernel
def keep_even(x: stream[int8], y: stream[int8], n: int32) -> int32:
    kept: int32 = 0
    for i in range(n):
        v = x.get()
        if v % 2 == 0:
            y.put(v)
            kept += 1
    return kept


def inputs_keep_even(rng):
    n = int(rng.integers(0, 40))
    return stream[int8](values(rng, int8, n)), stream[int8](), n


def model_keep_even(args):
    x, _, n = args
    out = [v for v in list(x)[:n] if v % 2 == 0]
    return len(out), [list(x)[n:], out]


# -- a while loop reading until a sentinel -----------------------------------------------------


@kernel
def sum_until_zero(x: stream[uint8]) -> uint32:
    total: uint32 = 0
    v = x.get()
    while v != 0:
        total += v
        v = x.get()
    return total


def inputs_sum_until_zero(rng):
    body = [v for v in values(rng, uint8, int(rng.integers(0, 30))) if v != 0]
    return (stream[uint8]([*body, 0, *values(rng, uint8, 3)]),)


def model_sum_until_zero(args):
    (x,) = args
    items = list(x)
    end = items.index(0)
    return sum(items[:end]), [items[end + 1:]]


# -- local streams that a call leaves partly full: every call starts with them empty ----------

LEFT_N = 8


@kernel
def take_some(a: int16[LEFT_N], out: int16[LEFT_N], n: int32) -> int32:
    q = stream[int16, 8]()
    for i in range(LEFT_N):
        q.put(a[i])
    total: int32 = 0
    for i in range(n):  # what is not got stays behind
        v = q.get()
        out[i] = v
        total += v
    return total


def inputs_take_some(rng):
    # n < LEFT_N: something stays behind in every call
    return array(rng, int16, LEFT_N), np.zeros(LEFT_N, dtype=np.int16), int(rng.integers(0, LEFT_N))


def model_take_some(args):
    a, out, n = args
    out = out.copy()
    out[:n] = a[:n]
    return int(sum(int(v) for v in a[:n])), [a.copy(), out]


@kernel
def first_of_pair(a: int16[LEFT_N], out: int16[LEFT_N], k: int32):
    q = stream[int16, 2]()
    q.put(a[k])
    q.put(a[k + 1])
    out[k] = q.get() - a[k + 1]  # one element stays behind


@kernel
def pairs(a: int16[LEFT_N], out: int16[LEFT_N]):
    for k in range(0, LEFT_N, 2):  # a new stream in every iteration (after inlining)
        if a[k] != 0:
            first_of_pair(a, out, k)


def inputs_pairs(rng):
    a = array(rng, int16, LEFT_N)
    a[2] = 0  # one call skipped
    return a, np.zeros(LEFT_N, dtype=np.int16)


def model_pairs(args):
    a, out = args
    out = out.copy()
    for k in range(0, LEFT_N, 2):
        if a[k] != 0:
            out[k] = _wrap(int(a[k]) - int(a[k + 1]), 16, True)
    return None, [a.copy(), out]


@kernel
def emit_all(a: int16[LEFT_N], q: stream[int16, 8]):
    for i in range(LEFT_N):
        q.put(a[i])


@kernel
def take_first(q: stream[int16, 8], out: int16[LEFT_N], n: int32):
    for i in range(n):
        out[i] = q.get()


@kernel
def emit_take(a: int16[LEFT_N], out: int16[LEFT_N], n: int32):
    """With s.dataflow(): the channel q gets n of the 8 elements put to it per call."""
    q = stream[int16, 8]()
    emit_all(a, q)
    take_first(q, out, n)


def model_emit_take(args):
    _, out = model_take_some(args)
    return None, out


STREAM_CASES = [
    (chain3, inputs_chain3, model_chain3),
    (scale_saturate, inputs_scale_saturate, model_scale_saturate),
    (producer_consumer, inputs_producer_consumer, model_producer_consumer),
    (keep_even, inputs_keep_even, model_keep_even),
    (sum_until_zero, inputs_sum_until_zero, model_sum_until_zero),
    (take_some, inputs_take_some, model_take_some),
    (pairs, inputs_pairs, model_pairs),
    (emit_take, inputs_take_some, model_emit_take),
]


def contents(args) -> list:
    """Every array (a copy) and stream (as a list) among ``args``, in order."""
    return [a.copy() if isinstance(a, np.ndarray) else list(a)
            for a in args if isinstance(a, (np.ndarray, Stream))]
