"""s.partition names a local array of a called kernel (when no other kernel has a local of
that name): with the calls inlined and in a dataflow task alike, the array gets its banks."""

from __future__ import annotations

import pytest

import vichls
from vichls import int32, kernel, stream
from vichls.errors import DirectiveError


@kernel
def window_sums(x: stream[int32], y: stream[int32]):
    buf: int32[8] = 0
    for j in range(8):
        buf[j] = x.get()
    for i in range(5):
        s: int32 = 0
        for k in range(4):
            s += buf[i + k]
        y.put(s)


@kernel
def relay(x: stream[int32], y: stream[int32]):
    for j in range(5):
        y.put(x.get())


@kernel
def top(x: stream[int32], y: stream[int32]):
    mid = stream[int32, 8]()
    window_sums(x, mid)
    relay(mid, y)


@kernel
def other(x: stream[int32], y: stream[int32]):
    buf: int32[8] = 0
    for j in range(8):
        buf[j] = x.get()
    for j in range(5):
        y.put(buf[j])


@kernel
def two(x: stream[int32], y: stream[int32]):
    mid = stream[int32, 8]()
    window_sums(x, mid)
    other(mid, y)


def _ii(dataflow: bool, partition: bool) -> int:
    s = vichls.customize(top)
    if dataflow:
        s.dataflow()
    s.compose(vichls.customize(window_sums).pipeline("i"))
    if partition:
        s.partition("buf", factor=4, kind="cyclic")
    loops = s.build("fpga").report["loops"]
    return next(loop["ii"] for loop in loops if loop["name"] == "i")


@pytest.mark.parametrize("dataflow", [False, True])
def test_a_callee_local_is_partitioned(dataflow):
    assert _ii(dataflow, partition=False) == 2  # four reads of a two-port RAM
    assert _ii(dataflow, partition=True) == 1


def test_a_name_two_callees_use_is_refused():
    s = vichls.customize(two)
    with pytest.raises(DirectiveError, match="local array of several kernels"):
        s.partition("buf", factor=4)
        s.module()
