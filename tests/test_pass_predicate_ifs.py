"""Predicated ifs outside pipelined loops (transforms/fpga/predicate_ifs.py and its use by the
scheduler and build_structural).

- the IR: which ifs are marked, their stores scheduled side by side in the segment around
  them, the guard dependence on the condition;
- end to end: a rolled store over the banks of a partitioned array takes one cycle per
  iteration instead of one per bank, and data-dependent ifs (nested, with else branches,
  register updates and loads inside) simulate Python = CPU = RTL.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_pass_prepare import parse

from e2e import assert_outcome, run_batch, schedule_of, Scheduled
from vichls import int32, kernel
from vichls.transforms.fpga.predicate_ifs import predicate_ifs
from vichls.scheduling.schedule_function import schedule_module
from vichls.scheduling.list_schedule import is_predicated, segment_length, split_block
from vichls.dialects.attributes import CYCLE_ATTR

BANK_STORES = """
builtin.module {
  func.func @f(%y0: memref<4xi32>, %y1: memref<4xi32>, %z: memref<4xi32>, %v: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %bank = arith.andi %i, %c1 : index
      %row = arith.shrui %i, %c1 : index
      %is0 = arith.cmpi eq, %bank, %c0 : index
      scf.if %is0 {
        memref.store %v, %y0[%row] : memref<4xi32>
      }
      %is1 = arith.cmpi eq, %bank, %c1 : index
      scf.if %is1 {
        memref.store %v, %y1[%row] : memref<4xi32>
      }
      scf.if %is1 {
        %p = arith.muli %v, %v : i32
        memref.store %p, %z[%row] : memref<4xi32>
      }
      scf.for %j = %c0 to %c2 step %c1 {
        scf.if %is0 {
          memref.store %v, %z[%j] : memref<4xi32>
        }
      } {vichls.pipeline = 1 : i64}
    }
    func.return
  }
}"""


def test_short_store_branches_join_the_segment_around_them():
    m = parse(BANK_STORES)
    predicate_ifs(m)
    schedule_module(m, 10.0)
    outer = next(op for op in m.walk() if op.name == "scf.for")
    ifs = [op for op in outer.body.block.ops if op.name == "scf.if"]
    assert [is_predicated(op) for op in ifs] == [True, True, False]  # a multiply branches
    inner_if = next(op for op in m.walk() if op.name == "scf.if" and op not in ifs)
    assert not is_predicated(inner_if)  # a pipelined iteration predicates its ifs itself
    segment = split_block(outer.body.block)[0]
    stores = [op for op in segment if op.name == "memref.store"]
    assert len(stores) == 2  # both bank stores are in the segment
    cycles = {op.attributes[CYCLE_ATTR].value.data for op in stores}
    assert len(cycles) == 1  # side by side: different memories
    conditions = [op for op in segment if op.name == "arith.cmpi"]
    assert all(c.attributes[CYCLE_ATTR].value.data <= min(cycles) for c in conditions)
    assert segment_length(segment) == 1


LATE_CONDITION = """
builtin.module {
  func.func @f(%a: memref<8xi32>, %b: memref<8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    scf.for %i = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i] : memref<8xi32>
      %positive = arith.cmpi sgt, %x, %zero : i32
      scf.if %positive {
        memref.store %x, %b[%i] : memref<8xi32>
      }
    }
    func.return
  }
}"""


@pytest.mark.parametrize("device, period, later", [("xc7", 10.0, 0), ("ecp5", 1000 / 150, 1)])
def test_a_guard_computed_late_in_its_cycle_moves_the_access_on_ecp5(device, period, later):
    """The store's guard (its condition, decoded with the state into the port's enable
    and address multiplexers) is a decision: on the ECP5 a comparison of a value read in
    the same cycle leaves no room for it, and the store waits a cycle."""
    from vichls.targets import oplib

    with oplib.use_device(device):
        m = parse(LATE_CONDITION)
        predicate_ifs(m)
        schedule_module(m, period)
    ops = {op.name: op for op in m.walk() if CYCLE_ATTR in op.attributes}
    compare, store = ops["arith.cmpi"], ops["memref.store"]
    assert store.attributes[CYCLE_ATTR].value.data == \
        compare.attributes[CYCLE_ATTR].value.data + later


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
