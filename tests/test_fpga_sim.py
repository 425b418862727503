"""End-to-end: every kernel of the regression corpus compiled by the FPGA back end,
simulated (one simulator build for all designs) and compared bit for bit with the Python
call of the kernel, the golden reference; the simulated cycle count must equal the
latency the report promises when the report knows it."""

from __future__ import annotations

import numpy as np
import pytest
from kernels import ALL_CASES, copy_args, golden

from vichls.flows.sim import SimDesign, build_simulation, icarus_available
from vichls.driver.fpga import compile_fpga

CALLS_PER_CASE = 3
SIMULATOR = "icarus" if icarus_available() else "verilator"


@pytest.fixture(scope="module")
def simulated():
    designs = {case.name: compile_fpga(case.kernel.module()) for case in ALL_CASES}
    model = build_simulation([SimDesign(d.verilog, d.signature) for d in designs.values()],
                             simulator=SIMULATOR)
    inputs = {}
    for case in ALL_CASES:
        rng = np.random.default_rng(2024)
        inputs[case.name] = [case.make_inputs(rng) for _ in range(CALLS_PER_CASE)]
    results = model.run_many({name: [copy_args(a) for a in calls] for name, calls in inputs.items()})
    return designs, inputs, results


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.name)
def test_simulation_matches_python(simulated, case):
    designs, inputs, results = simulated
    design = designs[case.name]
    arrays = [p.name for p in design.signature.params if p.is_array]
    for args, result in zip(inputs[case.name], results[case.name], strict=True):
        ret, expected = golden(case, args)
        assert result.ret == ret
        for name, want in zip(arrays, expected, strict=True):
            np.testing.assert_array_equal(result.arrays[name], want, err_msg=f"array {name}")
        lat = design.report["latency"]
        assert lat["min"] is None or result.cycles >= lat["min"]
        assert lat["max"] is None or result.cycles <= lat["max"]


SHORT_CLOCK_CASES = ["ops_int32", "ops_i63", "casts", "while_loops", "triangular",
                     "local_arrays", "call_chain", "bubble_sort", "crc8", "popcount"]


def test_short_clock_period_still_matches_python():
    """A 2.5 ns clock leaves 1.5 ns per cycle: almost nothing chains, multi-cycle paths
    everywhere; the results must not change."""
    cases = [c for c in ALL_CASES if c.name in SHORT_CLOCK_CASES]
    designs = {c.name: compile_fpga(c.kernel.module(), clock_period_ns=2.5) for c in cases}
    model = build_simulation([SimDesign(d.verilog, d.signature) for d in designs.values()],
                             simulator=SIMULATOR)
    rng = np.random.default_rng(5)
    inputs = {c.name: [c.make_inputs(rng)] for c in cases}
    results = model.run_many({n: [copy_args(a) for a in calls] for n, calls in inputs.items()})
    for case in cases:
        ((args,), (result,)) = inputs[case.name], results[case.name]
        ret, expected = golden(case, args)
        assert result.ret == ret, case.name
        arrays = [p.name for p in designs[case.name].signature.params if p.is_array]
        for name, want in zip(arrays, expected, strict=True):
            np.testing.assert_array_equal(result.arrays[name], want, err_msg=f"{case.name}.{name}")
