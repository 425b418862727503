"""Simulation harness for ap_fifo streams, back-pressure, repeated (overlapping) calls and
deadlocks, on hand-written designs (tests/fixtures/streams/*.v) with hand-made signatures.
The golden references are plain Python functions on vichls.Stream objects, written as the
kernels in the fixtures' comments would run. One simulator build serves the module."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vichls import int16, int32, int_, uint8, uint_
from vichls.flows.sim import (
    DEADLOCK_CYCLES,
    SimDesign,
    SimError,
    build_simulation,
    icarus_available,
)
from vichls.signature import KernelArgumentError, KernelSignature, Param
from vichls.types import stream

FIXTURES = Path(__file__).parent / "fixtures" / "streams"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.v").read_text()


SSUM = KernelSignature(
    "ssum",
    (Param("x", stream[int32, 2], "in"), Param("y", stream[int32, 2], "out"), Param("n", int32)),
    int32,
)
GATHER = KernelSignature(
    "gather",
    (
        Param("idx", stream[uint8, 2], "in"),
        Param("A", int32[16]),
        Param("out", stream[int32, 4], "out"),
        Param("n", int32),
    ),
    None,
)
# the combinational block of tests/fixtures/seven.v: seven(x: uint_(3)) -> int_(5), x - 7
SEVEN = KernelSignature("seven", (Param("x", uint_(3)),), int_(5))
# iota(y: stream[int_(12)] out, n: int32): for i in range(n): y.put(i * 15)
IOTA = KernelSignature("iota", (Param("y", stream[int_(12)], "out"), Param("n", int32)), None)
AFFINE = KernelSignature(
    "affine",
    (Param("x", stream[int32, 2], "in"), Param("y", stream[int16, 2], "out"), Param("k", int32)),
    None,
)


# -- golden references (the kernels of the fixtures' comments) ------------------------------


def ssum_ref(x, y, n):
    acc = 0
    for i in range(n):
        acc = int32.wrap(acc + x.get())
        y.put(acc ^ i)
    return acc


def gather_ref(idx, A, out, n):
    for _ in range(n):
        j = idx.get() & 15
        v = int(A[j])
        out.put(v)
        A[j] = int32.wrap(v + 1)


def affine_ref(x, y, k):
    y.put(int16.wrap(x.get() * 3 + k))


def ssum_without_stall_wire() -> str:
    # the same design, but the harness cannot see when it waits: no deadlock detection
    return fixture("ssum").replace("vichls_stalled", "waiting_on_a_stream")


@pytest.fixture(scope="module")
def model():
    return build_simulation(
        [
            SimDesign(fixture("ssum"), SSUM),
            SimDesign(fixture("gather"), GATHER),
            SimDesign(fixture("affine"), AFFINE),
            SimDesign(ssum_without_stall_wire(), SSUM, name="ssum_blind"),
            SimDesign(fixture("ssum"), SSUM, name="ssum_small", stream_capacity=4),
            SimDesign(fixture("iota"), IOTA, stream_capacity=300),
            SimDesign((FIXTURES.parent / "seven.v").read_text(), SEVEN),
        ]
    )


def _ints(rng, t, count):
    return [int(v) for v in rng.integers(t.min, t.max, size=count, endpoint=True)]


def _pair(t_in, values, t_out=int32):
    return stream[t_in, 2](values), stream[t_out, 2]()


def test_stream_results_and_in_place_updates_match_reference(model):
    rng = np.random.default_rng(1)
    for throttle in (False, True):
        x, y = _pair(int32, [int32.min, int32.max, -1, *_ints(rng, int32, 9)])
        y.put(77)  # an output stream keeps what it held; the kernel appends
        rx, ry = _pair(int32, list(x))
        ry.put(77)
        (res,) = model.run("ssum", [(x, y, 10)], throttle=throttle)
        assert res.ret == ssum_ref(rx, ry, 10)
        # the two elements the design did not read stay in x; y got ten more
        assert list(x) == list(rx) and len(x) == 2
        assert list(y) == list(ry) and len(y) == 11
        assert res.streams["y"] == list(ry)[1:]
        assert len(res.streams["x"]) == 10
        if throttle:
            assert res.cycles > 2 * 10 + 1  # the sources and sinks stalled it
        else:
            assert res.cycles == 2 * 10 + 1


def test_a_stream_shared_by_consecutive_calls_carries_data_between_them(model):
    # call 1 reads 3 of x, call 2 the next 4; call 2's y appends to call 1's
    x, y = _pair(int32, range(1, 11))
    rx, ry = _pair(int32, range(1, 11))
    calls = [(x, y, 3), (x, y, 4), (x, y, 0)]
    results = model.run("ssum", calls)
    assert [r.ret for r in results] == [ssum_ref(rx, ry, 3), ssum_ref(rx, ry, 4), ssum_ref(rx, ry, 0)]
    assert list(x) == list(rx) == [8, 9, 10]
    assert list(y) == list(ry)
    assert [r.cycles for r in results] == [7, 9, 1]


def test_array_and_streams_with_back_pressure(model):
    rng = np.random.default_rng(2)
    for throttle in (False, True):
        indices = [int(v) for v in rng.integers(0, 255, size=40)]
        A = rng.integers(int32.min, int32.max, size=16, endpoint=True).astype(np.int32)
        A[3] = int32.max  # wraps on the increment
        indices[:3] = [3, 3, 19]  # repeated words: reads must see the earlier writes
        idx, out = stream[uint8, 2](indices), stream[int32, 4]()
        ridx, rout, rA = stream[uint8, 2](indices), stream[int32, 4](), A.copy()
        gather_ref(ridx, rA, rout, 32)
        (res,) = model.run("gather", [(idx, A, out, 32)], throttle=throttle)
        np.testing.assert_array_equal(res.arrays["A"], rA)
        assert list(out) == list(rout) and list(idx) == list(ridx)
        if throttle:
            assert res.cycles > 5 * 32 + 1
        else:
            assert res.cycles == 5 * 32 + 1


def test_callable_takes_streams_like_the_kernel(model):
    f = model.callable("gather", throttle=True)
    A = np.arange(16, dtype=np.int32) * 7
    idx, out = stream[uint8, 2]([15, 0, 15, 250]), stream[int32, 4]()
    ridx, rout, rA = stream[uint8, 2]([15, 0, 15, 250]), stream[int32, 4](), A.copy()
    assert f(idx, A, out, 3) is None
    gather_ref(ridx, rA, rout, 3)
    np.testing.assert_array_equal(A, rA)
    assert list(out) == list(rout) == [105, 0, 106] and list(idx) == [250]
    with pytest.raises(KernelArgumentError, match="'idx' must be a vichls stream"):
        f(stream[int32, 2]([1]), A, out, 1)


def test_repeated_calls_overlap_when_ready_comes_before_done(model):
    rng = np.random.default_rng(3)
    values = _ints(rng, int32, 12)
    for throttle in (False, True):
        x, y = _pair(int32, values, int16)
        rx, ry = _pair(int32, values, int16)
        for _ in range(10):
            affine_ref(rx, ry, -5)
        res = model.run_repeated("affine", (x, y, -5), times=10, throttle=throttle)
        assert list(y) == list(ry) and list(x) == list(rx) == values[10:]
        assert res.streams["y"] == list(ry)
        assert len(res.done_edges) == 10 and res.done_edges[-1] == res.cycles
        if not throttle:
            # one call takes 4 cycles, the next are accepted while the previous runs
            assert res.done_edges == [4 + 3 * c for c in range(10)]
            assert model.run("affine", [(stream[int32]([1]), stream[int16](), 0)])[0].cycles == 4
        else:
            assert res.cycles > 4 + 3 * 9
            assert res.done_edges == sorted(set(res.done_edges))


def test_repeated_calls_with_their_own_scalars(model):
    values = list(range(-6, 6))
    ks = [(-1) ** c * (c + 2) for c in range(10)]
    for throttle in (False, True):
        x, y = _pair(int32, values, int16)
        rx, ry = _pair(int32, values, int16)
        for k in ks:
            affine_ref(rx, ry, k)
        res = model.run_repeated("affine", (x, y, 0), times=10, throttle=throttle,
                                 scalars=[{"k": k} for k in ks])
        assert res.streams["y"] == list(ry) and list(y) == list(ry)
    # a block that takes a call at every edge: the last call's value is returned
    res = model.run_repeated("seven", (0,), times=4, scalars=[{"x": v} for v in (5, 1, 2, 6)])
    assert res.done_edges == [0, 1, 2, 3] and res.ret == 6 - 7
    with pytest.raises(ValueError, match="3 sets of scalars for 4 calls"):
        model.run_repeated("seven", (0,), times=4, scalars=[{"x": 1}] * 3)
    with pytest.raises(ValueError, match=r"\['z'\] are not scalar parameters"):
        model.run_repeated("seven", (0,), times=1, scalars=[{"z": 1}])


def test_repeated_calls_of_a_design_that_does_not_overlap(model):
    x, y = _pair(int32, range(20))
    rx, ry = _pair(int32, range(20))
    res = model.run_repeated("ssum", (x, y, 2), times=3)
    rets = [ssum_ref(rx, ry, 2) for _ in range(3)]
    assert res.ret == rets[-1]
    assert list(x) == list(rx) and list(y) == list(ry)
    # ap_ready comes with ap_done: each call (5 cycles) starts one edge after the last ends
    assert res.done_edges == [5, 11, 17] and res.cycles == 17


def test_repeated_calls_of_a_block_that_takes_one_every_cycle(model):
    # ap_done and ap_ready follow ap_start combinationally: a done edge at every edge
    res = model.run_repeated("seven", (3,), times=6)
    assert res.done_edges == [0, 1, 2, 3, 4, 5] and res.cycles == 5 and res.ret == 3 - 7
    assert model.run_repeated("seven", (6,), times=1).done_edges == [0]


def test_repeated_calls_load_arrays_once(model):
    A = np.zeros(16, np.int32)
    idx, out = stream[uint8, 2]([1, 2, 1, 1, 2, 5]), stream[int32]()
    rA, ridx, rout = A.copy(), stream[uint8, 2](list(idx)), stream[int32]()
    res = model.run_repeated("gather", (idx, A, out, 2), times=3)
    for _ in range(3):
        gather_ref(ridx, rA, rout, 2)
    np.testing.assert_array_equal(res.arrays["A"], rA)
    assert list(out) == list(rout) == [0, 0, 1, 2, 1, 0]
    assert len(idx) == 0


def test_deadlock_is_detected_and_explained(model):
    x, y = _pair(int32, [1, 2, 3])
    with pytest.raises(SimError) as err:
        model.run("ssum", [(x, y, 5)], max_cycles=1_000_000)
    text = str(err.value)
    assert "design 'ssum' deadlocked" in text and f"{DEADLOCK_CYCLES} consecutive cycles" in text
    assert "the kernel got more elements from 'x' than the call gave" in text
    assert "sink of output stream 'y' was not full (3 elements written)" in text
    # a failed call leaves the streams as they were
    assert list(x) == [1, 2, 3] and len(y) == 0
    # the whole run took about DEADLOCK_CYCLES cycles, not max_cycles
    assert model.last_stats["simulated_cycles"] < 2 * DEADLOCK_CYCLES
    # the design was reset: the next call works
    (res,) = model.run("ssum", [(x, y, 3)])
    assert res.ret == 6


def test_deadlock_under_back_pressure_and_in_a_repeated_run(model):
    x, y = _pair(int32, range(7))
    with pytest.raises(SimError, match="'ssum' deadlocked.*more elements from 'x'"):
        model.run_repeated("ssum", (x, y, 2), times=4, throttle=True)


def test_without_the_stall_wire_a_starved_design_times_out(model):
    x, y = _pair(int32, [4])
    with pytest.raises(SimError) as err:
        model.run("ssum_blind", [(x, y, 2)], max_cycles=3000)
    text = str(err.value)
    assert "'ssum_blind' did not raise ap_done within max_cycles=3000" in text
    assert "input stream 'x' was empty" in text and "deadlocked" not in text


def test_sink_overflow_and_source_capacity(model):
    y = stream[int_(12)]([5])
    results = model.run("iota", [(y, 300), (y, 2), (y, -1)], throttle=True)
    assert list(y) == [5, *[int_(12).wrap(15 * i) for i in range(300)], 0, 15]
    assert results[0].streams["y"][137] == 15 * 137 - 4096 and results[2].streams["y"] == []
    y = stream[int_(12)]()
    with pytest.raises(SimError, match=r"'iota' wrote more than 300 elements.*'y'.*stream_capacity"):
        model.run("iota", [(y, 1), (y, 301)])
    assert len(y) == 0  # nothing applied for a design that failed
    # the model reset the design: it works again
    assert model.run("iota", [(y, 3)])[0].streams["y"] == [0, 15, 30]
    x, y = _pair(int32, range(4))
    (res,) = model.run("ssum_small", [(x, y, 4)])  # exactly the capacity: fine
    assert len(y) == 4 and res.ret == 6
    with pytest.raises(SimError, match=r"input stream 'x' holds 5 elements, more than .* capacity 4"):
        model.run("ssum_small", [(stream[int32](range(5)), y, 1)])


def test_errors_of_one_design_leave_the_others_running(model):
    x, y = _pair(int32, [1])
    x2, y2 = _pair(int32, [10, 20])
    out = model.run_many({"ssum": [(x, y, 2)], "ssum_blind": [(x2, y2, 2)]}, max_cycles=5000,
                         raise_errors=False)
    assert isinstance(out["ssum"], SimError) and "deadlocked" in str(out["ssum"])
    assert out["ssum_blind"][0].ret == 30 and list(y2) == [10, 31] and len(x2) == 0
    assert list(x) == [1]


def test_stream_arguments_are_checked(model):
    x, y = _pair(int32, [1])
    with pytest.raises(ValueError, match="two stream parameters"):
        model.run("ssum", [(x, x, 1)])
    with pytest.raises(ValueError, match="designs 'ssum' and 'ssum_blind'"):
        model.run_many({"ssum": [(x, y, 1)], "ssum_blind": [(x, y, 1)]})
    with pytest.raises(ValueError, match="times >= 1"):
        model.run_repeated("ssum", (x, y, 1), times=0)


def test_stream_ports_are_checked():
    y_in = KernelSignature("ssum", (SSUM.params[0], Param("y", stream[int32], "in"), SSUM.params[2]),
                           int32)
    with pytest.raises(SimError, match=r"lacks the ports \['y_dout', 'y_empty_n', 'y_read'\]"):
        SimDesign(fixture("ssum"), y_in)
    wide = KernelSignature("ssum", (Param("x", stream[int16], "in"), *SSUM.params[1:]), int32)
    with pytest.raises(SimError, match="x_dout is 32 bits, not 16"):
        SimDesign(fixture("ssum"), wide)
    with pytest.raises(SimError, match="direction None"):
        SimDesign(fixture("ssum"), KernelSignature("ssum", (Param("x", stream[int32]), *SSUM.params[1:]),
                                                   int32))
    assert SimDesign(fixture("ssum"), SSUM).watch_stalled
    assert not SimDesign(ssum_without_stall_wire(), SSUM).watch_stalled


@pytest.mark.skipif(not icarus_available(), reason="Icarus Verilog is not installed")
def test_icarus_gives_the_same_results(tmp_path):
    seven = SimDesign((FIXTURES.parent / "seven.v").read_text(), SEVEN)
    m = build_simulation([SimDesign(fixture("ssum"), SSUM), SimDesign(fixture("affine"), AFFINE), seven],
                         simulator="icarus", cache_dir=tmp_path)
    assert m.run_repeated("seven", (1,), times=4).done_edges == [0, 1, 2, 3]
    x, y = _pair(int32, range(-3, 6))
    rx, ry = _pair(int32, range(-3, 6))
    (res,) = m.run("ssum", [(x, y, 6)], throttle=True)
    assert res.ret == ssum_ref(rx, ry, 6) and list(y) == list(ry) and list(x) == list(rx)
    x, y = _pair(int32, [5, 6, 7], int16)
    rep = m.run_repeated("affine", (x, y, 1), times=3)
    assert list(y) == [16, 19, 22] and rep.done_edges == [4, 7, 10]
    with pytest.raises(SimError, match="deadlocked"):
        m.run("ssum", [(stream[int32]([1]), stream[int32](), 2)])
