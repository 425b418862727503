"""Channel typing: a buffer written and read in the same order becomes a FIFO.

What: for every ``graph.channel`` of kind ``buffer`` (transforms/graph/extract_tasks.py), look at how
its producer task writes it and its consumer task reads it. When the producer's function
writes the array with exactly one store, run once per element in row-major order (a nest
of affine loops, one per dimension, from 0 to the dimension, indexed by their variables,
nothing but loops around it), and the consumer's function reads it with exactly one load
of the same kind, the channel becomes a ``fifo``: the store becomes a ``stream.put``, the
load a ``stream.get``, and both parameters streams. The consumer then starts right away
and each iteration runs as soon as its element has arrived. Any other buffer becomes a
``pingpong``: the consumer starts when the producer has finished.

Why this test: both sides then move the same elements in the same order, each exactly
once, so a FIFO delivers what the array would have held when it is read, and it cannot
deadlock on its own (depth >= 1): the producer never waits for the consumer to read
anything but what it has already written.

A callee used by several tasks is specialised (cloned as ``<callee>__<n>``) when its tasks
need different parameter kinds, so tasks that agree still share one module. The FIFO depth
starts at 2 (Vitis's default); the back end deepens FIFOs that bypass other tasks
(vichls/driver/dataflow.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.dialects import graph
from vichls.dialects import stream
from vichls.analysis.array_writes import single_in_order_access
from vichls.signature import find_function, top_function
from vichls.dialects.attributes import STREAM_ATTR

DEFAULT_FIFO_DEPTH = 2


def _callee(task: graph.TaskOp) -> str:
    return task.callee.root_reference.data


def infer_streams(module: ModuleOp) -> None:
    top = top_function(module)
    if graph.DATAFLOW_ATTR not in top.attributes:
        return
    body = top.body.block
    tasks = [op for op in body.ops if isinstance(op, graph.TaskOp)]
    channels = [op for op in body.ops if isinstance(op, graph.ChannelOp)]
    # (task, argument index) -> "in"/"out": parameters to turn into streams
    conversions: dict[tuple[int, int], str] = {}
    for channel in channels:
        if channel.kind.data != "buffer":
            continue
        value = channel.result
        ends = [(t, k) for t, task in enumerate(tasks) for k, v in enumerate(task.args) if v is value]
        producer = [(t, k) for t, k in ends if tasks[t].task_name.data == channel.producer.data]
        consumer = [(t, k) for t, k in ends if tasks[t].task_name.data == channel.consumer.data]
        fifo = len(producer) == 1 and len(consumer) == 1 and len(ends) == 2
        if fifo:
            (pt, pk), (ct, ck) = producer[0], consumer[0]
            pf = find_function(module, _callee(tasks[pt]))
            cf = find_function(module, _callee(tasks[ct]))
            fifo = single_in_order_access(pf, pf.body.block.args[pk], "w") and \
                single_in_order_access(cf, cf.body.block.args[ck], "r")
        if not fifo:
            channel.kind = StringAttr("pingpong")
            continue
        conversions[producer[0]] = "out"
        conversions[consumer[0]] = "in"
        element = value.type.element_type
        new = graph.ChannelOp.create(
            properties={**channel.properties, "kind": StringAttr("fifo"),
                        "depth": IntegerAttr(DEFAULT_FIFO_DEPTH, i64)},
            result_types=[stream.StreamType(element)])
        new.result.name_hint = value.name_hint
        new.location = channel.location  # (errors about the channel point at its declaration)
        Rewriter.insert_op(new, InsertPoint.before(channel))
        value.replace_all_uses_with(new.result)
        channel.detach()
        channel.erase()
    _specialise(module, tasks, conversions)


def _specialise(module: ModuleOp, tasks: list[graph.TaskOp], conversions: dict) -> None:
    """Point every task at a function whose parameters have the kinds it needs."""
    variants: dict[tuple, str] = {}
    count: dict[str, int] = {}
    called = {op.callee.root_reference.data for op in module.walk() if isinstance(op, func.CallOp)}
    users: dict[str, int] = {}
    for task in tasks:
        users[_callee(task)] = users.get(_callee(task), 0) + 1
    for t, task in enumerate(tasks):
        wanted = tuple(sorted((k, d) for (tt, k), d in conversions.items() if tt == t))
        if not wanted:
            continue
        name = _callee(task)
        key = (name, wanted)
        if users[name] == 1 and name not in called:  # this task's own function
            for k, direction in wanted:
                _to_stream(find_function(module, name), k, direction)
            continue
        if key not in variants:
            original = find_function(module, name)
            count[name] = count.get(name, 0) + 1
            clone = original.clone()
            clone.sym_name = StringAttr(f"{name}__{count[name]}")
            for k, direction in wanted:
                _to_stream(clone, k, direction)
            module.body.block.insert_op_before(clone, original)
            variants[key] = clone.sym_name.data
        task.callee = SymbolRefAttr(variants[key])


def _to_stream(function: func.FuncOp, index: int, direction: str) -> None:
    """Parameter ``index`` (a memref accessed once, in order) becomes a stream."""
    block = function.body.block
    old = block.args[index]
    element = old.type.element_type
    new = block.insert_arg(stream.StreamType(element), index)
    new.name_hint = old.name_hint
    accesses = sorted((use.operation for use in old.uses),
                      key=lambda op: op.parent_block().get_operation_index(op))
    if isinstance(accesses[0], (affine.StoreOp, memref.StoreOp)):
        Rewriter.replace_op(accesses[0], stream.PutOp(accesses[0].value, new))
    else:  # loads of one element: one get where the first was
        get = stream.GetOp(new)
        Rewriter.insert_op(get, InsertPoint.before(accesses[0]))
        for load in accesses:
            load.results[0].replace_all_uses_with(get.result)
            load.detach()
            load.erase()
    block.erase_arg(old)
    inputs = [a.type for a in block.args]
    function.function_type = FunctionType.from_lists(inputs, list(function.function_type.outputs.data))
    attrs = [dict(a.data) for a in function.arg_attrs.data]
    attrs[index][STREAM_ATTR] = StringAttr(direction)
    function.arg_attrs = ArrayAttr([DictionaryAttr(a) for a in attrs])


def channel_ends(module: ModuleOp) -> dict[SSAValue, list[tuple[graph.TaskOp, int]]]:
    """For each channel of the top's graph, the (task, argument index) pairs using it."""
    body = top_function(module).body.block
    ends: dict[SSAValue, list] = {}
    for task in (op for op in body.ops if isinstance(op, graph.TaskOp)):
        for k, v in enumerate(task.args):
            if isinstance(v.owner, graph.ChannelOp):
                ends.setdefault(v, []).append((task, k))
    return ends


@dataclass(frozen=True)
class InferStreamsPass(ModulePass):
    """``infer-streams``: every buffer channel of the graph becomes a FIFO (its tasks' accesses
    become stream gets and puts) or a ping-pong buffer (see above); after extract-tasks."""

    name = "infer-streams"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        infer_streams(op)
