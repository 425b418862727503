"""Local streams start empty wherever the program makes them: the hoisting of creates that
run more than once per call (transforms/fpga/hoist_local_streams.py), the count of elements a call
moves through a stream (analysis/stream_counts.py) and the dataflow channels it marks as
emptied between calls. End to end, tests/test_streams_e2e.py runs such kernels several
calls in a row."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

import vichls
from kernels import streams as ks
from vichls import int16, int32, kernel, stream
from vichls.dialects import stream as ir_stream
from vichls.driver.fpga import FpgaError
from vichls.transforms.fpga.hoist_local_streams import hoist_local_streams
from vichls.transforms.fpga.inline_calls import inline_calls
from vichls.analysis.stream_counts import stream_count, substitute
from vichls.signature import find_function, top_function


def _inlined(k) -> ModuleOp:
    module = k.module()
    inline_calls(module, top_function(module).sym_name.data)
    return module


def test_a_create_in_a_loop_moves_to_the_entry_and_leaves_a_clear():
    module = _inlined(ks.pairs)
    top = top_function(module)
    entry = top.body.blocks.first
    creates = [op for op in top.walk() if isinstance(op, ir_stream.CreateOp)]
    assert len(creates) == 1 and creates[0].parent_block() is not entry
    hoist_local_streams(top)
    module.verify()
    (create,) = [op for op in top.walk() if isinstance(op, ir_stream.CreateOp)]
    assert create.parent_block() is entry
    (clear,) = [op for op in top.walk() if isinstance(op, ir_stream.ClearOp)]
    assert clear.stream is create.result and clear.parent_block() is not entry
    # the clear comes before the stream's first put in its block
    ops = list(clear.parent_block().ops)
    first_put = next(op for op in ops if isinstance(op, ir_stream.PutOp))
    assert ops.index(clear) < ops.index(first_put)


def test_a_create_in_the_entry_block_stays():
    module = _inlined(ks.take_some)
    top = top_function(module)
    text = str(module)
    hoist_local_streams(top)
    assert str(module) == text


@kernel
def _sub(a: int16[8], out: int16[8], k: int32):
    q = stream[int16, 2]()
    q.put(a[k])
    out[k] = q.get()


@kernel
def _pipelined_caller(a: int16[8], out: int16[8]):
    for k in range(8):
        _sub(a, out, k)


def test_a_stream_made_in_a_pipelined_loop_is_refused_with_its_position():
    with pytest.raises(FpgaError) as e:
        vichls.customize(_pipelined_caller).pipeline("k").build("fpga")
    assert "pipelined loop" in e.value.message and e.value.line is not None


def _count(k, callee: str, index: int, side: str):
    module = k.module()
    functions = {f.sym_name.data: f for f in module.ops}
    return stream_count(find_function(module, callee), index, side, functions)


def test_counts_of_constant_loops_are_numbers():
    assert _count(ks.emit_take, "emit_all", 1, "put") == {(): ks.LEFT_N}
    assert _count(ks.chain3, "chain_compute", 0, "get") == {(): ks.CHAIN_N}


def test_counts_over_a_parameter_bound_are_symbolic_and_compare_across_calls():
    module = ks.emit_take.module()
    functions = {f.sym_name.data: f for f in module.ops}
    gets = stream_count(find_function(module, "take_first"), 0, "get", functions)
    assert gets is not None and () not in gets  # one term: the trip count of range(n)
    top = top_function(module)
    calls = [op for op in top.walk() if op.name == "func.call"]
    lifted = substitute(gets, list(calls[1].arguments))
    (term,) = lifted
    ((lb, ub, step),) = term
    assert lb == ("const", 0) and ub[0] == "param" and ub[1] == 2 and step == 1


def test_counts_under_an_if_or_a_while_are_unknown():
    assert _count(ks.keep_even, "keep_even", 1, "put") is None
    assert _count(ks.sum_until_zero, "sum_until_zero", 0, "get") is None


def test_a_dataflow_channel_with_more_puts_than_gets_is_emptied_between_calls():
    design = vichls.customize(ks.emit_take).dataflow().build("fpga")
    (channel,) = design.report["dataflow"]["channels"]
    assert channel.get("emptied_between_calls") is True
    balanced = vichls.customize(ks.chain3).dataflow().build("fpga")
    assert not any(c.get("emptied_between_calls") for c in balanced.report["dataflow"]["channels"])
