"""Partition directives inside a dataflow design (driver/dataflow.py, _task_requests): a
partition of a constant table that a task reads applies in that task (it was dropped
without a word: the task read the table through two ports, II 2), checked on the task's
report and, simulated, bit for bit against the Python call."""

from __future__ import annotations

import numpy as np
import pytest

import vichls
from e2e import Scheduled, assert_outcome, run_batch
from vichls.frontend.kernel import load_file

KERNELS = '''
import numpy as np
from vichls import const, int32, kernel

W = const(np.arange(16).reshape(4, 4) - 5, int32)


@kernel
def layer(x: int32[4], y: int32[4]):
    for o in range(4):
        acc: int32 = 0
        for i in range(4):
            acc += W[o, i] * x[i]
        y[o] = acc


@kernel
def post(t: int32[4], z: int32[4]):
    for k in range(4):
        z[k] = t[3 - k] + 1


@kernel
def top(x: int32[4], z: int32[4]):
    t: int32[4] = 0
    layer(x, t)
    post(t, z)
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("dfpart") / "dfpart.py"
    path.write_text(KERNELS)
    return load_file(path)


def _schedule(k, partition: bool):
    s = vichls.customize(k["top"]).compose(vichls.customize(k["layer"]).pipeline("o"))
    if partition:
        s.partition("W", dim=2, kind="complete")
    return s.dataflow()


def _layer(report) -> dict:
    return next(t for t in report["dataflow"]["tasks"] if t["name"] == "layer")


def test_a_constant_table_partition_applies_in_the_task_that_reads_it(kernels):
    plain = _layer(_schedule(kernels, False).build("fpga").report)
    banked = _layer(_schedule(kernels, True).build("fpga").report)
    assert any("memory 'W'" in loop.get("ii_reason", "") for loop in plain["loops"])
    assert not any("memory 'W'" in loop.get("ii_reason", "") for loop in banked["loops"])
    assert banked["latency"] < plain["latency"], (banked["latency"], plain["latency"])
    rng = np.random.default_rng(3)
    calls = [(rng.integers(-1000, 1000, 4).astype(np.int32), np.zeros(4, np.int32))
             for _ in range(2)]
    (out,) = run_batch([("banked", Scheduled(_schedule(kernels, True)), calls)]).values()
    assert_outcome(out)
