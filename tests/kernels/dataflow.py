"""Kernels of the dataflow tests (tests/test_dataflow*.py, benchmarks/dataflow.py): tasks
from loop nests and calls, FIFO and ping-pong channels, a bypass, stages of different IIs,
chains of five tasks and a skip connection for back-to-back calls.
Each ``*_schedule()`` gives the directives the tests build them with."""

from __future__ import annotations

import numpy as np

import vichls
from benchmarks.measure import example
from vichls import int32, kernel, stream

N = 64


# examples/dataflow.py at N: three loop nests chained through arrays written and read in
# order (two FIFOs)
_EXAMPLE = example("dataflow.py", {"\nN = 1024\n": f"\nN = {N}\n"})
chain3 = _EXAMPLE["stages"]


def chain3_schedule(pipelined: bool = True, dataflow: bool = True):
    s = vichls.customize(chain3)
    if pipelined:
        for loop in ("i", "j", "k"):
            s.pipeline(loop)
    return s.dataflow() if dataflow else s


@kernel
def scale(a: int32[N], b: int32[N], k: int32):
    for i in range(N):
        b[i] = a[i] * k + 1


@kernel
def mix_reversed(p: int32[N], q: int32[N], out: int32[N]):
    for i in range(N):
        out[i] = p[N - 1 - i] - q[i // 2]


@kernel
def two_scales(x: int32[N], w: int32[N], y: int32[N], k: int32):
    """The same sub-kernel called twice on independent data (one module, two instances),
    feeding a consumer that reads out of order (ping-pong channels)."""
    t: int32[N] = 0
    u: int32[N] = 0
    scale(x, t, k)
    scale(w, u, 5)
    mix_reversed(t, u, y)


def two_scales_schedule():
    stage = vichls.customize(scale).pipeline("i")
    return vichls.customize(two_scales).compose(stage).dataflow()


@kernel
def bypass(x: int32[N], y: int32[N], d: int32):
    """A -> B -> C and A -> C: the direct FIFO must hold what B's deep pipeline holds."""
    p: int32[N] = 0
    q: int32[N] = 0
    r: int32[N] = 0
    for i in range(N):
        p[i] = x[i] + 1
        q[i] = x[i] - 1
    for j in range(N):
        r[j] = p[j] // d  # a pipelined divider: a deep stage
    for k in range(N):
        y[k] = q[k] * 2 + r[k]


def bypass_schedule():
    s = vichls.customize(bypass)
    for loop in ("i", "j", "k"):
        s.pipeline(loop)
    return s.dataflow()


@kernel
def uneven(x: int32[N], w: int32[N], y: int32[N]):
    """A producer at II=1 and a consumer that reads ``w`` three times per element on two
    ports (II=2): the consumer is the bottleneck."""
    a: int32[N] = 0
    for i in range(N):
        a[i] = x[i] + i
    for j in range(N):
        y[j] = a[j] + w[j] + w[(j + 1) % N] + w[(j + 2) % N]


def uneven_schedule():
    return vichls.customize(uneven).pipeline("i").pipeline("j").dataflow()


@kernel
def with_scalars(x: int32[N], y: int32[N], m: int32, c: int32):
    """Scalar parameters used by two tasks, and top-level arithmetic on them."""
    a: int32[N] = 0
    m2 = m * 2
    for i in range(N):
        a[i] = x[i] * m2
    for j in range(N):
        y[j] = a[N - 1 - j] + c


def with_scalars_schedule():
    return vichls.customize(with_scalars).dataflow()


@kernel
def shared_param(x: int32[N], y: int32[N]):
    """Two loop nests touch ``y``: they are merged into one task (one port set)."""
    a: int32[N] = 0
    for i in range(N):
        a[i] = x[i] + 3
    for j in range(N):
        y[j] = a[j]
    for k in range(1, N):
        y[k] = y[k] + y[k - 1]


def shared_param_schedule():
    return vichls.customize(shared_param).dataflow()


@kernel
def triple(x: stream[int32], t: stream[int32]):
    for i in range(N):
        t.put(x.get() * 3)


@kernel
def offset(t: stream[int32], y: stream[int32], c: int32):
    for i in range(N):
        y.put(t.get() + c)


@kernel
def stream_pipe(x: stream[int32], y: stream[int32], c: int32):
    """Stream in, stream out, two sub-kernels on a local stream: ap_fifo ports on the top."""
    t = stream[int32, 2]()
    triple(x, t)
    offset(t, y, c)


def stream_pipe_schedule():
    return (vichls.customize(stream_pipe)
            .compose(vichls.customize(triple).pipeline("i"))
            .compose(vichls.customize(offset).pipeline("i")).dataflow())


DATAFLOW_SCHEDULES = {
    "chain3": chain3_schedule,
    "two_scales": two_scales_schedule,
    "bypass": bypass_schedule,
    "uneven": uneven_schedule,
    "with_scalars": with_scalars_schedule,
    "shared_param": shared_param_schedule,
    "stream_pipe": stream_pipe_schedule,
}


# -- chains for back-to-back calls (tests/test_dataflow_overlap.py, benchmarks/dataflow.py) --

M = 32


@kernel
def chain5_pingpong(x: stream[int32], y: stream[int32], c: int32, e: int32):
    """Five tasks, each reading its input array reversed (four ping-pong channels); the
    third reads two words per element (the slowest); scalars in four tasks, two in one."""
    a: int32[M] = 0
    b: int32[M] = 0
    d: int32[M] = 0
    f: int32[M] = 0
    for i in range(M):
        a[i] = x.get() * c
    for j in range(M):
        b[j] = a[M - 1 - j] + j * e
    for k in range(M):
        d[k] = (b[M - 1 - k] * c) ^ (b[k] >> 3)
    for m in range(M):
        f[m] = d[M - 1 - m] - m
    for n in range(M):
        y.put(f[M - 1 - n] + c - e)


@kernel
def chain5_fifo(x: stream[int32], y: stream[int32], c: int32, e: int32):
    """The same five tasks reading their input arrays in order (four FIFOs)."""
    a: int32[M] = 0
    b: int32[M] = 0
    d: int32[M] = 0
    f: int32[M] = 0
    for i in range(M):
        a[i] = x.get() * c
    for j in range(M):
        b[j] = a[j] + j * e
    for k in range(M):
        d[k] = (b[k] * c) ^ (b[k] >> 3)
    for m in range(M):
        f[m] = d[m] - m
    for n in range(M):
        y.put(f[n] + c - e)


@kernel
def skip_pingpong(x: int32[M], y: int32[M], c: int32):
    """A -> B -> C -> D and A -> D, all ping-pong: the channel A -> D bypasses two tasks
    (D starts a call two calls after A), so it needs more than two banks."""
    a: int32[M] = 0
    s: int32[M] = 0
    b: int32[M] = 0
    d: int32[M] = 0
    for i in range(M):
        a[i] = x[i] * c
        s[i] = x[i] + c
    for j in range(M):
        b[j] = a[M - 1 - j] + j
    for k in range(M):
        d[k] = b[M - 1 - k] ^ c
    for n in range(M):
        y[n] = d[M - 1 - n] + s[M - 1 - n]


@kernel
def slow_into_deep(x: int32[M], w: int32[M], y: int32[M], d: int32):
    """A producer at II=2 (three reads of w on two ports) feeding, through a FIFO, a deep
    pipeline (a divider) at II=1: in lock step a call of the pair would take the
    producer's span and the consumer's drain, more than either task, so the FIFO is
    deepened to let the producer run a call ahead."""
    a: int32[M] = 0
    for i in range(M):
        a[i] = x[i] + w[i] + w[(i + 1) % M] + w[(i + 2) % M]
    for j in range(M):
        y[j] = a[j] // d


@kernel
def mixed_diamond(x: int32[M], y: int32[M], c: int32):
    """A -> D by a FIFO (p, read in order), A -> B -> D by ping-pong buffers: D starts a
    call after A has finished it, so the FIFO holds whole calls (it deadlocked at depth 4)."""
    p: int32[M] = 0
    q: int32[M] = 0
    r: int32[M] = 0
    for i in range(M):
        p[i] = x[i] + c
        q[i] = x[i] * c
    for j in range(M):
        r[j] = q[M - 1 - j] - j
    for n in range(M):
        y[n] = p[n] + r[M - 1 - n]


@kernel
def _put_n(x: int32[M], s: stream[int32], q: int32[M], n: int32):
    for i in range(n):
        s.put(x[i])
    for i2 in range(M):
        q[i2] = x[i2] * 3


@kernel
def _reverse(q: int32[M], r: int32[M]):
    for j in range(M):
        r[j] = q[M - 1 - j] - j


@kernel
def _get_n(s: stream[int32], r: int32[M], y: int32[M], n: int32):
    for k in range(n):
        y[k] = s.get() + r[M - 1 - k]


@kernel
def mixed_diamond_n(x: int32[M], y: int32[M], n: int32):
    """mixed_diamond with n elements (a parameter) on the FIFO: it cannot be sized."""
    s = stream[int32, 2]()
    q: int32[M] = 0
    r: int32[M] = 0
    _put_n(x, s, q, n)
    _reverse(q, r)
    _get_n(s, r, y, n)


def _each_loop_pipelined(k, loops: str, dataflow: str = "ap_ctrl_hs"):
    s = vichls.customize(k)
    for loop in loops:
        s.pipeline(loop)
    return s.dataflow(interface=dataflow)


OVERLAP_SCHEDULES = {
    "chain5_pingpong": lambda: _each_loop_pipelined(chain5_pingpong, "ijkmn"),
    "chain5_fifo": lambda: _each_loop_pipelined(chain5_fifo, "ijkmn", "ap_ctrl_chain"),
    "skip_pingpong": lambda: vichls.customize(skip_pingpong).dataflow(),
    "slow_into_deep": lambda: _each_loop_pipelined(slow_into_deep, "ij"),
    "mixed_diamond": lambda: _each_loop_pipelined(mixed_diamond, "ijn"),
    # a FIFO into a task of two loop nests (the first gets, the second does not)
    "shared_param": shared_param_schedule,
}


EDGES = vichls.const(np.array([0, 3]), int32)


@kernel
def _pass_on(x: stream[int32], z: stream[int32]):
    for i in range(2):
        z.put(x.get())


@kernel
def _fill_inside(z: stream[int32], b: int32[4]):
    for i in range(2):
        b[i + 1] = z.get()
    for k in range(2):
        b[EDGES[k]] = 7  # (indices from a table: the initialisation of b is kept)


@kernel
def _read_back(b: int32[4], y: stream[int32]):
    for i in range(4):
        y.put(b[3 - i] + 1)


@kernel
def init_joins_a_stream_task(x: stream[int32], y: stream[int32]):
    z = stream[int32, 2]()
    b: int32[4] = 0
    _pass_on(x, z)
    _fill_inside(z, b)
    _read_back(b, y)
