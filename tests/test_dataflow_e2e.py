"""Dataflow end to end: Python ≡ CPU ≡ RTL for the kernels of tests/kernels/dataflow.py
with ``s.dataflow()`` (one simulator build for all of them), tasks overlapping in the cycle
counts, the graph in the report, and the Verilog lint-clean and synthesizable."""

from __future__ import annotations

import pytest

from e2e import assert_outcome, run_scheduled
from kernels.dataflow import DATAFLOW_SCHEDULES, N, chain3_schedule

CALLS = 2


@pytest.fixture(scope="module")
def outcomes():
    cases = {name: make() for name, make in DATAFLOW_SCHEDULES.items()}
    cases["chain3_sequential"] = chain3_schedule(dataflow=False)
    return run_scheduled(cases, {}, CALLS)


@pytest.fixture(scope="module")
def reports():
    return {name: make().build("fpga").report for name, make in DATAFLOW_SCHEDULES.items()}


@pytest.mark.parametrize("name", [*DATAFLOW_SCHEDULES, "chain3_sequential"])
def test_python_cpu_rtl_agree(outcomes, name):
    assert_outcome(outcomes[name])


def test_chained_stages_overlap(outcomes, reports):
    depths = sum(loop["depth"] for loop in reports["chain3"]["loops"])
    dataflow = max(outcomes["chain3"].cycles)
    assert dataflow <= 1.1 * N + depths, (dataflow, depths)
    # without dataflow the three pipelined loops in a row are fused into one pipeline
    # (transforms/fpga/fuse_pipelines.py), which overlaps them too
    report = chain3_schedule(dataflow=False).build("fpga").report
    (fused,) = [loop for loop in report["loops"] if loop.get("pipelined")]
    assert fused["fused"] == "i, j (+0), k (+0)"
    sequential = max(outcomes["chain3_sequential"].cycles)
    assert sequential == report["latency"]["max"] <= 1.1 * N + fused["depth"], sequential


def test_in_order_buffers_become_fifos_and_others_ping_pong(reports):
    kinds = {name: {c["name"]: c["kind"] for c in r["dataflow"]["channels"]}
             for name, r in reports.items()}
    assert kinds["chain3"] == {"a": "fifo", "b": "fifo"}
    assert kinds["two_scales"] == {"t": "pingpong", "u": "pingpong"}  # read out of order
    assert kinds["with_scalars"] == {"a": "pingpong"}  # read reversed


def test_a_kernel_called_twice_is_one_module_instantiated_twice(reports):
    tasks = reports["two_scales"]["dataflow"]["tasks"]
    modules = [t["module"] for t in tasks if t["name"].startswith("scale")]
    assert len(modules) == 2 and modules[0] == modules[1] == "two_scales_scale"


def test_independent_tasks_run_concurrently(outcomes, reports):
    tasks = {t["name"]: t["latency"] for t in reports["two_scales"]["dataflow"]["tasks"]}
    cycles = max(outcomes["two_scales"].cycles)
    # both scales at once, then the consumer of their ping-pong banks
    assert cycles < tasks["scale"] + tasks["scale_1"] + tasks["mix_reversed"]


def test_a_bypass_fifo_holds_the_deep_stage(reports):
    depth = {c["name"]: c["depth"] for c in reports["bypass"]["dataflow"]["channels"]}
    bypassing = [c["name"] for c in reports["bypass"]["dataflow"]["channels"] if c.get("bypass")]
    assert bypassing == ["q"]
    held = max(loop["depth"] for loop in reports["bypass"]["loops"] if loop["task"] == "loop_j")
    assert depth["q"] >= held and depth["p"] == depth["r"] == 2


def test_the_slowest_stage_is_the_bottleneck(outcomes, reports):
    df = reports["uneven"]["dataflow"]
    assert df["bottleneck"] == "loop_j"
    ii = {loop["task"]: loop["ii"] for loop in reports["uneven"]["loops"]}
    assert ii == {"loop_i": 1, "loop_j": 2}
    # the pair runs at the consumer's rate, not the sum of both
    assert max(outcomes["uneven"].cycles) <= 2 * N + 20


def test_parameters_shared_by_loop_nests_merge_them_into_one_task(reports):
    tasks = [t["name"] for t in reports["shared_param"]["dataflow"]["tasks"]]
    assert tasks == ["loop_i", "loop_j"]  # loop_j holds the two nests that use y


@pytest.mark.parametrize("name", sorted(DATAFLOW_SCHEDULES))
def test_dataflow_verilog_lints_clean_and_synthesizes(name):
    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check

    design = DATAFLOW_SCHEDULES[name]().build("fpga")
    assert lint_verilog(design.verilog, design.top) == []
    report = synth_check(design.verilog, design.top)
    assert report.ok and report.latches == 0 and report.comb_loops == 0, report.log[-2000:]
