"""Kernels of the dataflow tests (tests/test_dataflow*.py, benchmarks/dataflow.py): tasks
from loop nests and calls, FIFO and ping-pong channels, a bypass, stages of different IIs.
Each ``*_schedule()`` gives the directives the tests build them with."""

from __future__ import annotations

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
