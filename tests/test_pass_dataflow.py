"""IR-level tests of the graph level: task extraction (transforms/graph/extract_tasks.py), channel
typing (transforms/graph/infer_streams.py) and stall insertion (structural/insert_stall.py)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import UnitAttr

import vichls
from kernels.dataflow import (
    bypass,
    chain3,
    init_joins_a_stream_task,
    shared_param,
    stream_pipe,
    stream_pipe_schedule,
    two_scales,
    two_scales_schedule,
    with_scalars,
)
from vichls import int32, kernel
from vichls.dialects import graph, stream
from vichls.dialects import structural as st
from vichls.transforms.graph.extract_tasks import extract_tasks
from vichls.transforms.graph.infer_streams import infer_streams
from vichls.signature import find_function, signature_of, top_function

N = 16


def graph_of(k, infer: bool = True):
    module = k.module()
    top_function(module).attributes[graph.DATAFLOW_ATTR] = UnitAttr()
    assert extract_tasks(module)
    if infer:
        infer_streams(module)
    module.verify()
    body = top_function(module).body.block
    tasks = [op for op in body.ops if isinstance(op, graph.TaskOp)]
    channels = {op.channel_name.data: op for op in body.ops if isinstance(op, graph.ChannelOp)}
    return module, tasks, channels


def test_a_kernel_without_dataflow_is_left_alone():
    module = chain3.module()
    text = str(module)
    assert not extract_tasks(module)
    assert str(module) == text


def test_loop_nests_become_tasks_and_shared_arrays_channels():
    module, tasks, channels = graph_of(chain3, infer=False)
    assert [t.task_name.data for t in tasks] == ["loop_i", "loop_j", "loop_k"]
    assert {n: (c.kind.data, c.producer.data, c.consumer.data) for n, c in channels.items()} == {
        "a": ("buffer", "loop_i", "loop_j"), "b": ("buffer", "loop_j", "loop_k")}
    # the zero-initialisation of a and b is dead (each is overwritten in order first)
    first = find_function(module, "stages_loop_i")
    stores = [op for op in first.walk() if isinstance(op, affine.StoreOp)]
    assert len(stores) == 1


def test_in_order_buffers_become_fifos_with_get_and_put():
    module, tasks, channels = graph_of(chain3)
    assert all(c.kind.data == "fifo" and isinstance(c.result.type, stream.StreamType)
               for c in channels.values())
    middle = find_function(module, tasks[1].callee.root_reference.data)
    ops = [op.name for op in middle.walk()]
    # a[j] * a[j] loads one element twice: one get
    assert ops.count("stream.get") == 1 and ops.count("stream.put") == 1
    assert [p.direction for p in signature_of(middle).params] == ["in", "out"]


def test_out_of_order_buffers_become_ping_pong_and_calls_keep_their_callee():
    module, tasks, channels = graph_of(two_scales)
    assert {n: c.kind.data for n, c in channels.items()} == {"t": "pingpong", "u": "pingpong"}
    assert [t.callee.root_reference.data for t in tasks] == ["scale", "scale", "mix_reversed"]
    # the constant argument of the second call travels as a constant operand
    constant = tasks[1].args[2].owner
    assert isinstance(constant, arith.ConstantOp) and constant.value.value.data == 5


def test_a_callee_is_specialised_per_channel_kind():
    module, tasks, channels = graph_of(stream_pipe)
    assert channels["t"].kind.data == "fifo"  # a stream the user made
    assert [t.callee.root_reference.data for t in tasks] == ["triple", "offset"]


def test_parameters_shared_by_tasks_merge_them():
    _, tasks, _ = graph_of(shared_param)
    assert [t.task_name.data for t in tasks] == ["loop_i", "loop_j"]


def test_top_level_arithmetic_is_copied_into_the_tasks_using_it():
    module, tasks, _ = graph_of(with_scalars)
    first = find_function(module, tasks[0].callee.root_reference.data)
    assert [p.name for p in signature_of(first).params] == ["x", "m", "a"]
    assert any(op.name == "arith.muli" for op in first.walk())


def test_a_bypass_keeps_three_channels():
    _, tasks, channels = graph_of(bypass)
    assert len(tasks) == 3 and set(channels) == {"p", "q", "r"}
    assert channels["q"].producer.data == "loop_i" and channels["q"].consumer.data == "loop_k"


@kernel
def scalar_flow(x: int32[N], y: int32[N]) -> int32:
    total: int32 = 0
    for i in range(N):
        total += x[i]
    for j in range(N):
        y[j] = x[j] - total
    return total


def test_a_scalar_crossing_tasks_merges_them_and_the_last_task_returns():
    module, tasks, _ = graph_of(scalar_flow)
    assert len(tasks) == 1
    last = find_function(module, tasks[-1].callee.root_reference.data)
    assert len(last.function_type.outputs.data) == 1
    assert signature_of(last).ret == vichls.int32


def test_the_kernel_value_is_bit_exact_through_dataflow():
    s = vichls.customize(scalar_flow).dataflow()
    sim = s.build("sim")
    x = np.arange(N, dtype=np.int32) * 5 - 30
    y, y2 = np.zeros(N, dtype=np.int32), np.zeros(N, dtype=np.int32)
    assert sim(x, y) == scalar_flow(x, y2)
    assert (y == y2).all()


def test_stall_gates_every_state_update():
    design = stream_pipe_schedule().build("fpga")
    components = [op for op in design.structural.walk() if isinstance(op, st.ComponentOp)]
    task = next(c for c in components if c.sym_name.data.endswith("triple"))
    ops = list(task.body.block.ops)
    wire = next(op for op in ops if isinstance(op, st.WireOp) and op.wire_name.data == "vichls_stalled")
    registers = [op for op in ops if isinstance(op, st.CellOp) and op.primitive.data == "vichls_reg"]
    enables = {r.port("en") for r in registers}
    guards = [op.guard for op in ops if isinstance(op, st.AssignOp) and op.dest in enables]
    assert guards and all(g is not None for g in guards)

    def reads_stall(value, depth=0):
        if value is wire.result:
            return True
        owner = value.owner
        return depth < 4 and hasattr(owner, "operands") and any(
            reads_stall(v, depth + 1) for v in owner.operands)

    assert all(reads_stall(g) for g in guards)
    transitions = [op for op in ops if isinstance(op, st.TransitionOp)]
    assert transitions and all(t.cond is not None and reads_stall(t.cond) for t in transitions)


def test_designs_without_streams_have_no_stall_logic():
    design = vichls.customize(two_scales).build("fpga")
    assert "vichls_stalled" not in design.verilog


def test_partitioning_a_fifo_channel_is_refused():
    from vichls.errors import FpgaError

    s = vichls.customize(bypass).dataflow().partition("p", dim=1, factor=2)
    with pytest.raises(FpgaError, match="'p' is a FIFO between tasks"):
        s.build("fpga")


def test_a_partitioned_ping_pong_is_one_per_bank_and_bit_exact():
    # both tasks see the same two banks of 't'; the top has a vichls_pingpong per bank
    s = two_scales_schedule().partition("t", dim=1, factor=2)
    design = s.build("fpga")
    channels = {c["name"]: c for c in design.report["dataflow"]["channels"]}
    assert channels["t"]["kind"] == "pingpong" and channels["t"]["partition_banks"] == 2
    assert "partition_banks" not in channels["u"]
    assert "vichls_pingpong" in design.verilog and " t_0 " in design.verilog \
        and " t_1 " in design.verilog
    sim = s.build("sim")
    from kernels.dataflow import N as n

    x = np.arange(n, dtype=np.int32) * 3 - 50
    w = np.arange(n, dtype=np.int32)[::-1].copy()
    y, y2 = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    sim(x, w, y, 7)
    two_scales(x, w, y2, 7)
    assert (y == y2).all()


def test_an_extracted_task_knows_its_stream_channels_direction():
    # regression: b's initialisation joins _fill_inside's task, which is then extracted
    # into a function of its own; its parameter for the local stream z had no direction
    # and the task did not compile ("stream parameter 'z' has no direction")
    s = vichls.customize(init_joins_a_stream_task).dataflow()
    _, tasks, channels = graph_of(init_joins_a_stream_task)
    assert {n: c.kind.data for n, c in channels.items()} == {"z": "fifo", "b": "pingpong"}
    sim = s.build("sim")
    got, want = [], []
    for out, run in ((got, sim), (want, init_joins_a_stream_task)):
        xs, ys = vichls.stream[int32](), vichls.stream[int32]()
        for v in (5, -6):
            xs.put(v)
        run(xs, ys)
        out += list(ys)
    assert got == want == [8, -5, 6, 8]
