"""Simulation flow: hand-written fixtures that obey the hardware interface, simulated through
cocotb + Verilator and checked against the Python call of the same kernel (the golden
reference). One simulator build serves every test of the session."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vichls import bool_, int8, int16, int32, int64, int_, kernel, uint8, uint64, uint_
from vichls.flows.sim import (
    Partition,
    SimDesign,
    SimError,
    build_simulation,
    icarus_available,
    sim_callable,
)
from vichls.signature import KernelArgumentError, Param

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.v").read_text()


@kernel
def vadd(A: int32[8], B: int32[8], C: int32[8], k: int32) -> int32:
    acc: int32 = 0
    for i in range(8):
        C[i] = A[i] + B[i] + k
        acc += C[i]
    return acc


@kernel
def scale(X: int_(12)[2, 3], Y: uint8[6], s: int_(12)) -> int_(12):
    acc: int_(12) = 0
    for j in range(6):
        x: int_(12) = X[j // 3, j % 3]
        Y[j] = uint8(x * s)
        X[j // 3, j % 3] = x >> 1
        acc += x
    return acc


@kernel
def rev(A: int16[5], en: bool_):
    if en:
        for i in range(2):
            t: int16 = A[i]
            A[i] = A[4 - i]
            A[4 - i] = t


@kernel
def seven(x: uint_(3)) -> int_(5):
    return int_(5)(x) - 7


@kernel
def hang(n: int32) -> int32:
    return n


@kernel
def psum(A: int32[2, 4]) -> int32:
    acc: int32 = 0
    for i in range(2):
        for j in range(2):
            A[i, 2 * j] += A[i, 2 * j + 1]
            acc += A[i, 2 * j]
    return acc


@kernel
def colsum(A: int32[2, 4]) -> int32:
    acc: int32 = 0
    for w in range(4):
        A[0, w] += A[1, w]
        acc += A[0, w]
    return acc


@kernel
def wide(A: int64[2], s: uint64) -> uint64:
    A[1] = A[0] - s
    return s + 1


@kernel
def longdone(x: int8) -> int8:
    return x


@kernel
def noready(x: int8) -> int8:
    return x


@kernel
def vadd_short(A: int32[6], B: int32[6], C: int32[6], k: int32) -> int32:
    return k


# Fixture latencies (see the comments in the .v files): cycles from start edge to done edge.
VADD_CYCLES, SCALE_CYCLES, SEVEN_CYCLES = 17, 13, 0


def _oob_signature():
    # vadd.v walks 8 words; declaring its arrays as 6 words makes it read out of range
    return replace(vadd_short.signature, name="vadd")


@pytest.fixture(scope="session")
def model():
    designs = [
        SimDesign(fixture("vadd"), vadd.signature),
        SimDesign(fixture("scale"), scale.signature),
        SimDesign(fixture("rev"), rev.signature),
        SimDesign(fixture("seven"), seven.signature),
        SimDesign(fixture("hang"), hang.signature),
        SimDesign(fixture("vadd"), _oob_signature(), name="vadd_oob"),
        SimDesign(fixture("wide"), wide.signature),
        SimDesign(fixture("longdone"), longdone.signature),
        SimDesign(fixture("noready"), noready.signature),
        SimDesign(fixture("psum"), psum.signature, partitions={"A": Partition("cyclic", 2, dim=2)}),
        SimDesign(
            fixture("psum"),
            replace(colsum.signature, name="psum"),
            name="colsum",
            partitions={"A": Partition("block", 2, dim=1)},
        ),
    ]
    return build_simulation(designs)


def _random(rng, t, shape):
    return rng.integers(t.min, t.max, size=shape, endpoint=True).astype(t.dtype)


def _check_against_reference(k, results, calls):
    for args, res in zip(calls, results):
        ref_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        ret = k(*ref_args)
        assert res.ret == ret
        arrays = [a for a in ref_args if isinstance(a, np.ndarray)]
        names = [p.name for p in k.signature.params if p.is_array]
        for name, ref in zip(names, arrays):
            assert res.arrays[name].dtype == ref.dtype
            np.testing.assert_array_equal(res.arrays[name], ref, err_msg=f"array {name}")


def _vadd_calls(rng, n):
    t = int32
    calls = [
        (_random(rng, t, 8), _random(rng, t, 8), _random(rng, t, 8), int(rng.integers(t.min, t.max)))
        for _ in range(n)
    ]
    # the extremes, to catch sign and wrap-around mistakes
    calls.append((np.full(8, t.max, np.int32), np.full(8, t.max, np.int32), np.zeros(8, np.int32), t.min))
    return calls


def test_vadd_matches_reference_and_latency(model):
    calls = _vadd_calls(np.random.default_rng(1), 5)
    results = model.run("vadd", calls)
    assert len(results) == len(calls)
    _check_against_reference(vadd, results, calls)
    assert [r.cycles for r in results] == [VADD_CYCLES] * len(calls)


def test_odd_widths_and_signedness(model):
    rng = np.random.default_rng(2)
    t = int_(12)
    calls = [
        (_random(rng, t, (2, 3)), _random(rng, uint8, 6), int(rng.integers(t.min, t.max)))
        for _ in range(6)
    ]
    calls.append((np.array([[t.min, t.max, -1], [1, 0, t.min]], np.int16), np.zeros(6, np.uint8), t.min))
    results = model.run("scale", calls)
    _check_against_reference(scale, results, calls)
    assert {r.cycles for r in results} == {SCALE_CYCLES}


def test_dual_port_and_data_dependent_latency(model):
    a = np.array([1, -2, 3, int16.min, int16.max], np.int16)
    results = model.run("rev", [(a, True), (a, False), (a, 1)])
    _check_against_reference(rev, results, [(a, True), (a, False), (a, 1)])
    assert [r.cycles for r in results] == [5, 1, 5]
    assert results[0].ret is None


def test_latency_zero_and_return_wrapping(model):
    calls = [(x,) for x in range(8)]
    results = model.run("seven", calls)
    assert [r.ret for r in results] == [seven(x) for x in range(8)]
    assert results[0].ret == -7
    assert {r.cycles for r in results} == {SEVEN_CYCLES}


def test_partitioned_arrays_cyclic_and_block(model):
    rng = np.random.default_rng(5)
    calls = [(_random(rng, int32, (2, 4)),) for _ in range(3)]
    out = model.run_many({"psum": calls, "colsum": calls})
    _check_against_reference(psum, out["psum"], calls)
    _check_against_reference(colsum, out["colsum"], calls)
    assert {r.cycles for r in out["psum"] + out["colsum"]} == {9}


def test_64_bit_values(model):
    calls = [
        (np.array([int64.min, 5], np.int64), uint64.max),
        (np.array([-1, 0], np.int64), 1),
        (np.array([int64.max, 0], np.int64), 1 << 63),
    ]
    results = model.run("wide", calls)
    _check_against_reference(wide, results, calls)
    assert results[0].ret == 0 and {r.cycles for r in results} == {3}


def test_timeout_names_design_and_remedy(model):
    with pytest.raises(SimError, match=r"'hang'.*max_cycles"):
        model.run("hang", [(3,)], max_cycles=500)


def test_max_cycles_is_inclusive(model):
    args = _vadd_calls(np.random.default_rng(6), 1)[:1]
    assert model.run("vadd", args, max_cycles=VADD_CYCLES)[0].cycles == VADD_CYCLES
    with pytest.raises(SimError, match=f"'vadd'.*max_cycles={VADD_CYCLES - 1}"):
        model.run("vadd", args, max_cycles=VADD_CYCLES - 1)


def test_handshake_violations_are_reported(model):
    with pytest.raises(SimError, match=r"'longdone' raised ap_done while no call was running"):
        model.run("longdone", [(1,)])
    with pytest.raises(SimError, match=r"'noready' raised ap_done without ap_ready"):
        model.run("noready", [(1,)])


def test_out_of_range_address_names_design_and_array(model):
    z = np.zeros(6, np.int32)
    with pytest.raises(SimError, match=r"'vadd_oob'.*'A'.*address 6"):
        model.run("vadd_oob", [(z, z, z.copy(), 1)])


def test_run_many_one_process_several_designs(model):
    rng = np.random.default_rng(3)
    vcalls = _vadd_calls(rng, 3)
    a = _random(rng, int16, 5)
    out = model.run_many({"vadd": vcalls, "rev": [(a, True)], "seven": [(5,)]})
    _check_against_reference(vadd, out["vadd"], vcalls)
    _check_against_reference(rev, out["rev"], [(a, True)])
    assert out["seven"][0].ret == seven(5)
    # the designs ran concurrently: total simulated time is far below the sum of latencies
    assert model.last_stats["simulated_cycles"] < 100


def test_run_many_can_return_errors_next_to_results(model):
    out = model.run_many({"hang": [(1,)], "seven": [(2,)]}, max_cycles=100, raise_errors=False)
    assert isinstance(out["hang"], SimError) and "'hang'" in str(out["hang"])
    assert out["seven"][0].ret == seven(2)


def test_bad_arguments_are_refused_before_simulating(model):
    with pytest.raises(KernelArgumentError):
        model.run("vadd", [(np.zeros(8, np.int64), np.zeros(8, np.int32), np.zeros(8, np.int32), 1)])
    with pytest.raises(KeyError):
        model.run("nope", [()])


def test_sim_callable_updates_in_place(model):
    # model.callable is what sim_callable returns, without a build of its own
    f = model.callable("scale")
    X = np.array([[100, -100, 7], [-1, 2047, -2048]], np.int16)
    Y = np.zeros(6, np.uint8)
    X2, Y2 = X.copy(), Y.copy()
    assert f(X, Y, -5) == scale(X2, Y2, -5)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(Y, Y2)
    assert f.last_cycles == SCALE_CYCLES
    with pytest.raises(KernelArgumentError):
        f(X, Y)


def test_sim_callable_builds_its_own_model():
    f = sim_callable(fixture("seven"), seven.signature)
    assert [f(x) for x in (0, 7)] == [seven(0), seven(7)]
    assert f.last_cycles == SEVEN_CYCLES

def test_build_is_cached_and_shared_by_concurrent_builders(tmp_path):
    designs = [SimDesign(fixture("seven"), seven.signature, name="seven_alone")]
    models = []

    def build():
        models.append(build_simulation(designs, cache_dir=tmp_path))

    threads = [threading.Thread(target=build) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(models) == 2 and models[0].build_dir == models[1].build_dir
    assert sorted(m.build_seconds > 0 for m in models) == [False, True]  # one build, one reuse
    assert build_simulation(designs, cache_dir=tmp_path).build_seconds == 0
    assert [r.ret for r in models[0].run("seven_alone", [(1,)])] == [seven(1)]


def test_build_failure_reports_compiler_log(tmp_path):
    broken = fixture("seven").replace("assign ap_idle = 1'b1;", "assign ap_idle = ;")
    expected = r"build of the simulation failed in design 'seven'(.|\n)*syntax error"
    with pytest.raises(SimError, match=expected):
        build_simulation([SimDesign(broken, seven.signature)], cache_dir=tmp_path)


def test_missing_top_module_or_ports_are_refused():
    with pytest.raises(SimError, match="no module named 'vadd'"):
        SimDesign(fixture("seven"), vadd.signature)
    with pytest.raises(SimError, match=r"'scale'.*lacks the ports \['ap_return', 's', 'X_address0'"):
        SimDesign(fixture("rev"), replace(scale.signature, name="rev"), name="scale")
    s16 = replace(scale.signature, params=(*scale.signature.params[:2], Param("s", int16)))
    with pytest.raises(SimError, match=r"'scale'.*widths.*s is 12 bits, not 16"):
        SimDesign(fixture("scale"), s16)


@pytest.mark.skipif(not icarus_available(), reason="Icarus Verilog is not installed")
def test_icarus_gives_the_same_results(tmp_path):
    m = build_simulation(
        [SimDesign(fixture("vadd"), vadd.signature), SimDesign(fixture("rev"), rev.signature)],
        simulator="icarus",
        cache_dir=tmp_path,
    )
    calls = _vadd_calls(np.random.default_rng(4), 2)
    a = np.array([5, 4, 3, 2, 1], np.int16)
    out = m.run_many({"vadd": calls, "rev": [(a, True)]})
    _check_against_reference(vadd, out["vadd"], calls)
    _check_against_reference(rev, out["rev"], [(a, True)])
    assert {r.cycles for r in out["vadd"]} == {VADD_CYCLES}
    assert out["rev"][0].cycles == 5
