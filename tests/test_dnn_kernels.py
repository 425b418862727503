"""The quantized-CNN operators of benchmarks/dnn (the suite's "dnn" group) with the
directives an FPGA engineer writes: each pipelined at II=1, simulated and bit-exact against
the Python call, within 1.2x of its cycle bound (the QoR issue's figure; measured at both
sizes by `vichls bench conv2d depthwise dense maxpool --directives manual`).

They exercise what round 2 of QoR added: the reduction initialised from the bias at II=1,
windows of a cyclic partition on two dimensions at once (the 3×3 window), partitions of one
array on different dimensions composing into a grid of banks (a parameter's banks included,
in the simulator's memories), and complete partitions of constant weights.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import vichls

from e2e import Scheduled, assert_outcome, run_batch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite import benchmarks  # noqa: E402

NAMES = ["conv2d", "depthwise", "dense", "maxpool"]


@pytest.fixture(scope="module")
def suite():
    return {b.name: b for b in benchmarks("small", group="dnn")}


def _schedule(bench):
    s = vichls.customize(bench.kernel)
    bench.directives(s)
    return s


@pytest.fixture(scope="module")
def outcomes(suite):
    rng = np.random.default_rng(23)
    items = [(name, Scheduled(_schedule(suite[name])),
              [suite[name].make_inputs(rng) for _ in range(2)]) for name in NAMES]
    return run_batch(items)


@pytest.mark.parametrize("name", NAMES)
def test_the_operator_computes_what_python_does_at_ii_1_near_its_bound(suite, outcomes, name):
    from vichls.bench.bound import cycle_bound

    assert_outcome(outcomes[name])
    s = _schedule(suite[name])
    report = s.build("fpga").report
    pipelined = [loop for loop in report["loops"] if loop["pipelined"]]
    assert pipelined and all(loop["ii"] == 1 for loop in pipelined), pipelined
    bound = cycle_bound(s.module()).cycles
    assert max(outcomes[name].cycles) <= 1.2 * bound, (outcomes[name].cycles, bound)


def test_partitions_on_two_dimensions_compose_into_a_grid_of_banks(suite):
    report = _schedule(suite["depthwise"]).build("fpga").report
    x = report["interface"]["arrays"]["x"]
    assert x["banks"] == 16, x
    assert x["partition"]["splits"] == [{"kind": "cyclic", "factor": 4, "dim": 2},
                                        {"kind": "cyclic", "factor": 4, "dim": 3}], x
    ports = {p["name"] for p in report["interface"]["ports"]}
    assert {"x_0_address0", "x_15_address0"} <= ports and "x_16_address0" not in ports


def test_a_parameter_partitioned_on_two_dimensions_maps_its_elements_to_banks():
    from vichls.flows.sim_harness import Partition, banks_of
    from vichls.signature import Param
    from vichls.types import ArrayType, int32

    param = Param("a", ArrayType(int32, (3, 5)))
    grid = banks_of(param, (Partition("cyclic", 2, 1), Partition("block", 2, 2)), False)
    # bank (r, c): rows r, r + 2; columns 3c .. 3c + 2 (block of 3, the last padded)
    assert len(grid) == 4
    assert grid[0].index.tolist() == [0, 1, 2, 10, 11, 12]
    assert grid[1].index.tolist() == [3, 4, -1, 13, 14, -1]
    assert grid[2].index.tolist() == [5, 6, 7, -1, -1, -1]
    assert grid[3].index.tolist() == [8, 9, -1, -1, -1, -1]
