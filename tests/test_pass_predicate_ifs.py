"""Predicated ifs outside pipelined loops (transforms/fpga/predicate_ifs.py and its use by the
scheduler and build_structural).

- the IR (tests/filecheck/predicate_ifs_schedule.mlir): which ifs are marked, their stores
  scheduled side by side in the segment around them, the guard dependence on the condition;
- end to end: a rolled store over the banks of a partitioned array takes one cycle per
  iteration instead of one per bank, and data-dependent ifs (nested, with else branches,
  register updates and loads inside) simulate Python = CPU = RTL.
"""

from __future__ import annotations

import numpy as np
import pytest

from e2e import assert_outcome, run_batch, schedule_of, Scheduled
from vichls import int32, kernel


# -- end to end -----------------------------------------------------------------------------


@kernel
def fill_banks(a: int32[20], y: int32[20]):
    for i in range(20):
        y[i] = a[i] + 1


@kernel
def guarded(a: int32[16], b: int32[16], c: int32[16]) -> int32:
    big = 0
    for i in range(16):
        if a[i] > 0:
            b[i] = a[i]
            if a[i] > 100:
                big = big + 1
        else:
            c[i] = c[15 - i] - a[i]
            b[i] = big
    return big


FILL_BANKS = (("partition", "y", {"dim": 1, "factor": 5}),)


def _guarded_calls():
    calls = []
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        a = rng.integers(-300, 300, size=16, dtype=np.int32)
        calls.append((a, np.zeros(16, np.int32), rng.integers(-9, 9, size=16, dtype=np.int32)))
    return calls


@pytest.fixture(scope="module")
def outcomes():
    return run_batch([
        ("fill_banks", Scheduled(schedule_of(fill_banks, *FILL_BANKS)),
         [(np.arange(20, dtype=np.int32) * 7 - 60, np.zeros(20, np.int32))]),
        ("guarded", guarded, _guarded_calls()),
    ])


@pytest.mark.parametrize("name", ["fill_banks", "guarded"])
def test_python_equals_cpu_equals_rtl(outcomes, name):
    assert_outcome(outcomes[name])


def test_a_rolled_store_over_banks_takes_one_state(outcomes):
    from vichls.driver.fpga import compile_fpga

    design = compile_fpga(schedule_of(fill_banks, *FILL_BANKS).module())
    (loop,) = design.report["loops"]
    assert loop["iteration_latency"] <= 2, loop  # one bank's if after another: 5 or more
    (cycles,) = outcomes["fill_banks"].cycles
    assert cycles == design.report["latency"]["max"], cycles
