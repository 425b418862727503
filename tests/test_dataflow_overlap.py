"""Back-to-back calls of dataflow designs whose tasks form chains (tests/kernels/dataflow.py:
five tasks on ping-pong buffers or on FIFOs, a ping-pong skip connection over two tasks, a
FIFO beside a path of ping-pong buffers, a FIFO between a slow producer and a deep
consumer, a FIFO into a task of two loop nests):
the results of every call bit-exact against the Python calls, and the interval the
simulation measures between calls in steady state equal to the report's
``dataflow.interval``, the bottleneck task's (not the whole chain's latency): a check of
the report, not a timing target. One simulator build for all.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import vichls
from kernels.dataflow import M, N, OVERLAP_SCHEDULES, mixed_diamond_n
from vichls.errors import FpgaError
from vichls.inputs import copy_args

CALLS = 8


@pytest.fixture(scope="module")
def designs():
    return {name: make().build("fpga") for name, make in OVERLAP_SCHEDULES.items()}


@pytest.fixture(scope="module")
def model(designs):
    from vichls.flows.sim import SimDesign, build_simulation

    return build_simulation([SimDesign(d.verilog, d.signature, name=name, partitions=d.partitions)
                             for name, d in designs.items()])


def arguments(design, rng):
    """Arguments of CALLS calls: an input stream carries every call's elements, arrays are
    random; and each call's scalars (non-zero: one is a divisor), distinct from call to call,
    so that a task given another call's scalars gives other results."""
    args = []
    for p in design.signature.params:
        if p.is_stream:
            values = rng.integers(-5000, 5000, CALLS * M) if p.direction == "in" else []
            args.append(vichls.stream[vichls.int32]([int(v) for v in values]))
        elif p.is_array:
            args.append(rng.integers(-5000, 5000, p.type.shape).astype(np.int32))
        else:
            args.append(0)  # (replaced by each call's own)
    scalars = [{p.name: int(rng.integers(1, 50)) * (-1) ** k
                for p in design.signature.params if not (p.is_array or p.is_stream)}
               for k in range(CALLS)]
    return tuple(args), scalars


@pytest.mark.parametrize("name", sorted(OVERLAP_SCHEDULES))
def test_back_to_back_calls_are_exact_and_run_at_the_reported_interval(designs, model, name):
    design = designs[name]
    kernel = OVERLAP_SCHEDULES[name]().kernel
    args, scalars = arguments(design, np.random.default_rng(len(name)))
    want = copy_args(args)
    for values in scalars:  # the Python calls, one after the other
        kernel(*[values.get(p.name, a) for p, a in zip(design.signature.params, want)])
    run = model.run_repeated(name, copy_args(args), CALLS, scalars=scalars)
    for p, expected in zip(design.signature.params, want):
        if p.is_stream and p.direction == "out":
            assert list(run.streams[p.name]) == list(expected), p.name
        elif p.is_array:
            assert (run.arrays[p.name] == expected).all(), p.name
    df = design.report["dataflow"]
    tasks = {t["name"]: t["latency"] for t in df["tasks"]}
    assert None not in tasks.values()
    gaps = np.diff(run.done_edges)
    # steady state: the second half of the calls (the first ones fill the chain)
    steady = [int(g) for g in gaps[len(gaps) // 2:]]
    assert steady == [df["interval"]] * len(steady), (steady, df["interval"], tasks)
    assert df["interval"] == max(tasks.values()) + 1 == tasks[df["bottleneck"]] + 1
    assert df["interval_max"] == df["interval"]  # (no task takes longer on some data)


def test_the_chain_is_one_interval_per_call_not_its_latency(designs):
    """The report of a five-task ping-pong chain: one call takes the five tasks' time one
    after the other, a call comes every bottleneck task's time."""
    report = designs["chain5_pingpong"].report
    df = report["dataflow"]
    assert [c["kind"] for c in df["channels"]] == ["pingpong"] * 4
    assert df["bottleneck"] == "loop_k"
    assert report["latency"]["min"] >= sum(t["interval"] for t in df["tasks"]) > 3 * df["interval"]


def test_a_bypassed_ping_pong_has_a_bank_per_call_in_flight(designs):
    banks = {(c["producer"], c["consumer"]): c["banks"]
             for c in designs["skip_pingpong"].report["dataflow"]["channels"]}
    # A -> D bypasses B and C: D starts a call three channels after A
    assert banks == {("loop_i", "loop_j"): 2, ("loop_j", "loop_k"): 2, ("loop_k", "loop_n"): 2,
                     ("loop_i", "loop_n"): 4}


def test_fifos_are_deepened_only_where_the_tasks_would_wait_on_each_other(designs):
    depth = {name: [c["depth"] for c in designs[name].report["dataflow"]["channels"]]
             for name in ("chain5_fifo", "slow_into_deep", "shared_param")}
    assert depth["chain5_fifo"] == [2] * 4
    (deep,) = depth["slow_into_deep"]
    assert 2 < deep <= M + 2
    assert depth["shared_param"] == [N + 2]  # (a call's elements: the consumer's slack is long)


def test_a_fifo_beside_a_ping_pong_path_holds_the_calls_in_flight(designs):
    channels = {c["name"]: c for c in designs["mixed_diamond"].report["dataflow"]["channels"]}
    assert channels["p"]["kind"] == "fifo" and channels["p"].get("bypass")
    # the consumer starts a call two channels (intervals) after the producer
    assert channels["p"]["depth"] == 2 * M + 2


def test_a_fifo_beside_a_ping_pong_path_needs_a_constant_count():
    with pytest.raises(FpgaError, match=r"'s' goes from task '_put_n' to task '_get_n' in "
                                        r"order \(a FIFO\), but '_get_n' also waits"):
        vichls.customize(mixed_diamond_n).dataflow().build("fpga")


def test_task_queues_grow_along_the_chain(designs):
    verilog = designs["chain5_pingpong"].verilog
    depths = [int(d) for d in re.findall(r"vichls_task_ctrl #\(\s*\.DEPTH\((\d+)\)", verilog)]
    assert depths == [1, 3, 5, 7, 9], depths


@pytest.mark.parametrize("name", ["chain5_pingpong", "skip_pingpong"])
def test_the_verilog_lints_clean_synthesizes_and_is_deterministic(designs, name):
    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check

    design = designs[name]
    assert lint_verilog(design.verilog, design.top) == []
    report = synth_check(design.verilog, design.top)  # (queues of several calls, 4 banks)
    assert report.ok and report.latches == 0 and report.comb_loops == 0, report.log[-2000:]
    assert OVERLAP_SCHEDULES[name]().build("fpga").verilog == design.verilog
