"""Multipliers shared between groups that never run at the same time
(transforms/fpga/bind_multipliers.py): the binding on the IR, the report's DSP count, and end to end
two pipelined nests on one set of multipliers, Python = CPU = RTL."""

from __future__ import annotations

import re

import numpy as np
import pytest

from e2e import assert_outcome, run_batch, schedule_of, Scheduled
from vichls import int32, kernel
from vichls.targets import oplib
from vichls.inputs import random_args
from vichls.dialects.attributes import SHARERS_ATTR, UNIT_ATTR


@kernel
def two_products(A: int32[6, 4], x: int32[4], y: int32[6], B: int32[6, 4], z: int32[6]):
    for i in range(6):
        for j in range(4):
            y[i] += A[i, j] * x[j]
    for r in range(6):
        for c in range(4):
            z[r] += B[r, c] * (x[c] * 3 + 1)
    z[0] = z[0] * y[5]


TWO_PIPELINES = (("pipeline", "i"), ("pipeline", "r"),
                 ("partition", "A", {"dim": 2, "factor": 4}),
                 ("partition", "B", {"dim": 2, "factor": 4}),
                 ("partition", "x", {"dim": 1, "factor": 4}))


def _multiplies(module):
    return [op for op in module.walk() if op.name == "arith.muli" and UNIT_ATTR in op.attributes]


def test_each_group_keeps_its_own_cells_and_groups_share_them():
    from vichls.driver.fpga import prepare

    module = schedule_of(two_products, *TWO_PIPELINES).module()
    prepare(module, 10.0)
    muls = _multiplies(module)
    units = sorted(op.attributes[UNIT_ATTR].value.data for op in muls)
    assert units == [0, 0, 0, 1, 1, 2, 2, 3, 3]  # 4 per pipeline, one at the end
    assert all(op.attributes[SHARERS_ATTR].value.data == (3 if
               op.attributes[UNIT_ATTR].value.data == 0 else 2) for op in muls)


def test_the_report_counts_a_shared_cell_once_and_ecp5_does_not_share():
    from vichls.driver.fpga import compile_fpga

    design = compile_fpga(schedule_of(two_products, *TWO_PIPELINES).module())
    assert design.report["resources"]["dsp"] == 4 * 3  # four 32-bit cells, 3 blocks each
    assert _instances(design.verilog, "vichls_mul") == 4
    with oplib.use_device("ecp5"):
        design = compile_fpga(schedule_of(two_products, *TWO_PIPELINES).module(),
                              clock_period_ns=1000 / 150)
    assert _instances(design.verilog, "vichls_mul_ecp5") == 9


def _instances(verilog: str, primitive: str) -> int:
    return len(re.findall(rf"^\s+{primitive} #", verilog, re.MULTILINE))


@pytest.fixture(scope="module")
def outcomes():
    calls = [random_args(two_products.signature, np.random.default_rng(seed)) for seed in (1, 2)]
    return run_batch([("shared", Scheduled(schedule_of(two_products, *TWO_PIPELINES)), calls),
                      ("plain", two_products, calls)])


@pytest.mark.parametrize("name", ["shared", "plain"])
def test_python_equals_cpu_equals_rtl(outcomes, name):
    assert_outcome(outcomes[name])
