"""Streams in hardware: the stream kernels of tests/kernels/streams.py (ap_fifo ports, local
FIFOs) and the dataflow designs with stream parameters, Python ≡ CPU ≡ RTL; designs that
stall under back-pressure keep their results; a design that waits forever is reported as a
deadlock; consecutive calls of a dataflow top overlap."""

from __future__ import annotations

import numpy as np
import pytest

import vichls
from e2e import Scheduled, assert_outcome, run_batch
from kernels import streams as ks
from kernels.dataflow import DATAFLOW_SCHEDULES, N, with_scalars
from vichls.flows.sim import SimDesign, SimError, build_simulation
from vichls.inputs import copy_args
from vichls.results import differences, results_of

# kernels that run in order (each stream is read as it is written)
SEQUENTIAL = {"scale_saturate": ks.scale_saturate, "keep_even": ks.keep_even,
              "sum_until_zero": ks.sum_until_zero,
              # local streams a call leaves partly full: calls in a row must not see them
              "take_some": ks.take_some, "pairs": ks.pairs}
# kernels whose tasks must run concurrently (a local FIFO shallower than what goes through)
CONCURRENT = {"chain3_streams": ks.chain3, "producer_consumer": ks.producer_consumer,
              "emit_take": ks.emit_take}  # a channel left partly full by every call
INPUTS = {k.name: make for k, make, _ in ks.STREAM_CASES}


@pytest.fixture(scope="module")
def outcomes():
    items = []
    for name, k in SEQUENTIAL.items():
        rng = np.random.default_rng(len(name))
        items.append((name, k, [INPUTS[k.name](rng) for _ in range(3)]))
    for name, k in CONCURRENT.items():
        rng = np.random.default_rng(len(name))
        items.append((name, Scheduled(vichls.customize(k).dataflow()),
                      [INPUTS[k.name](rng) for _ in range(2)]))
    rng = np.random.default_rng(9)  # the channel emptied between calls, ap_ctrl_chain top
    items.append(("emit_take_chain",
                  Scheduled(vichls.customize(ks.emit_take).dataflow("ap_ctrl_chain")),
                  [ks.inputs_take_some(rng) for _ in range(3)]))
    rng = np.random.default_rng(5)
    pipe_args = [(vichls.stream[vichls.int32](rng.integers(-999, 999, N)), vichls.stream[vichls.int32](),
                  int(rng.integers(-50, 50))) for _ in range(2)]
    items.append(("stream_pipe", Scheduled(DATAFLOW_SCHEDULES["stream_pipe"]()), pipe_args))
    return run_batch(items)


@pytest.mark.parametrize("name", [*SEQUENTIAL, *CONCURRENT, "emit_take_chain", "stream_pipe"])
def test_python_cpu_rtl_agree(outcomes, name):
    assert_outcome(outcomes[name])


def test_a_pipelined_stream_pipe_moves_one_element_per_cycle(outcomes):
    assert max(outcomes["stream_pipe"].cycles) <= N + 20


@pytest.fixture(scope="module")
def model():
    designs = {
        "scale_saturate": vichls.customize(ks.scale_saturate).pipeline("i").build("fpga"),
        "sum_until_zero": vichls.customize(ks.sum_until_zero).build("fpga"),
        "stream_pipe": DATAFLOW_SCHEDULES["stream_pipe"]().build("fpga"),
        "with_scalars": vichls.customize(with_scalars).dataflow().build("fpga"),
        "with_scalars_chain": vichls.customize(with_scalars).dataflow("ap_ctrl_chain").build("fpga"),
    }
    sims = [SimDesign(d.verilog, d.signature, name=name) for name, d in designs.items()]
    return build_simulation(sims)


def test_back_pressure_stalls_without_changing_results(model):
    rng = np.random.default_rng(11)
    args = ks.inputs_scale_saturate(rng)
    want = copy_args(args)
    ks.scale_saturate(*want)
    got = copy_args(args)
    (free,) = model.run("scale_saturate", [copy_args(args)])
    (result,) = model.run("scale_saturate", [got], throttle=True)
    sig = ks.scale_saturate.signature
    assert differences(results_of(sig, want, None), results_of(sig, got, result.ret)) == []
    assert result.cycles > free.cycles  # it did stall


def test_a_design_waiting_forever_on_a_stream_is_reported_as_a_deadlock(model):
    starving = (vichls.stream[vichls.uint8]([5, 7, 9]),)  # no terminating zero
    with pytest.raises(SimError, match="(?s)deadlock.*'x'"):
        model.run("sum_until_zero", [starving], max_cycles=200_000)


def test_a_local_fifo_too_shallow_for_tasks_run_in_sequence_is_refused():
    from vichls.errors import FpgaError

    with pytest.raises(FpgaError, match=r"local stream 'q' \(depth 8\) receives 48 elements"):
        vichls.customize(ks.producer_consumer).build("fpga")


def test_consecutive_calls_of_a_dataflow_top_overlap(model):
    rng = np.random.default_rng(4)
    x = rng.integers(-1000, 1000, N).astype(np.int32)
    args = (x, np.zeros(N, dtype=np.int32), 3, -7)
    (one,) = model.run("with_scalars", [copy_args(args)])
    three = model.run_repeated("with_scalars", copy_args(args), 3)
    want = copy_args(args)
    with_scalars(*want)
    assert (three.arrays["y"] == want[1]).all()
    # the producer of call k+1 runs while the consumer of call k does
    assert three.cycles < 3 * one.cycles - N
    assert len(three.done_edges) == 3


def test_stream_calls_overlap_and_keep_the_order(model):
    rng = np.random.default_rng(8)
    values = rng.integers(-999, 999, 3 * N)
    x = vichls.stream[vichls.int32](values)
    y = vichls.stream[vichls.int32]()
    result = model.run_repeated("stream_pipe", (x, y, 9), 3)
    assert list(result.streams["y"]) == [int(v) * 3 + 9 for v in values]
    assert result.cycles <= 3 * N + 40


def test_an_ap_ctrl_chain_top_has_ap_continue_and_the_same_results(model):
    design = vichls.customize(with_scalars).dataflow(interface="ap_ctrl_chain").build("fpga")
    ports = [p["name"] for p in design.report["interface"]["ports"]]
    assert ports[:7] == ["ap_clk", "ap_rst", "ap_start", "ap_done", "ap_idle", "ap_ready",
                         "ap_continue"]
    assert design.report["interface"]["block_control"] == "ap_ctrl_chain"
    rng = np.random.default_rng(6)
    args = (rng.integers(-1000, 1000, N).astype(np.int32), np.zeros(N, dtype=np.int32), 5, 2)
    want = copy_args(args)
    with_scalars(*want)
    (result,) = model.run("with_scalars_chain", [copy_args(args)])
    assert (result.arrays["y"] == want[1]).all()


def test_an_unknown_dataflow_interface_is_refused():
    from vichls.errors import DirectiveError

    with pytest.raises(DirectiveError, match="interface must be"):
        vichls.customize(with_scalars).dataflow(interface="ap_hs")
