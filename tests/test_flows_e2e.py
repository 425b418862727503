"""End to end through the simulation flow: kernels compiled by the FPGA back end
(vichls.driver.fpga.compile_fpga), simulated in one build and one simulator process, checked
bit for bit against the Python call and cycle for cycle against the back end's report."""

from __future__ import annotations

import numpy as np
import pytest

from vichls import int16, int32, int_, uint8
from vichls.flows.sim import SimDesign, build_simulation

from test_flows_sim import (  # the kernels whose hand-written fixtures test_flows_sim uses
    _check_against_reference,
    _random,
    _vadd_calls,
    psum,
    rev,
    scale,
    seven,
    vadd,
    wide,
)

KERNELS = [vadd, scale, rev, seven, wide, psum]


@pytest.fixture(scope="module")
def compiled():
    from vichls.driver.fpga import compile_fpga  # noqa: PLC0415

    designs = {k.signature.name: compile_fpga(k.module()) for k in KERNELS}
    model = build_simulation([SimDesign(d.verilog, k.signature) for k, d in zip(KERNELS, designs.values())])
    return designs, model


def test_compiled_kernels_match_python_and_report(compiled):
    designs, model = compiled
    rng = np.random.default_rng(11)
    calls = {
        "vadd": _vadd_calls(rng, 2),
        "scale": [(_random(rng, int_(12), (2, 3)), _random(rng, uint8, 6), -77) for _ in range(2)],
        "rev": [(_random(rng, int16, 5), True), (_random(rng, int16, 5), False)],
        "seven": [(x,) for x in range(8)],
        "wide": [(np.array([-5, 3], np.int64), 2**64 - 1)],
        "psum": [(_random(rng, int32, (2, 4)),)],
    }
    out = model.run_many(calls)
    for k in KERNELS:
        name = k.signature.name
        _check_against_reference(k, out[name], calls[name])
        latency = designs[name].report["latency"]
        for r in out[name]:
            assert latency["min"] <= r.cycles <= latency["max"], name
