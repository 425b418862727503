"""The graph level of vichls: a dataflow kernel as tasks connected by channels.

A top kernel with ``s.dataflow()`` becomes, after task extraction
(transforms/graph/extract_tasks.py), a ``func.func`` carrying ``vichls.dataflow`` whose body holds
only:

- ``graph.channel``: a buffer between exactly one producer task and one consumer task.
  Its ``kind`` is ``buffer`` (not typed yet), ``pingpong`` (a double buffer: the consumer
  starts when the producer has finished a call, and the producer may run one call ahead)
  or ``fifo`` (a stream of ``depth`` elements: the consumer starts right away and each get
  waits for its element). A pingpong or buffer channel is a memref; a fifo is a
  ``!stream.stream``;
- ``arith.constant``: constant arguments of tasks;
- ``graph.task``: one task, running the function ``callee`` on its operands (the kernel's
  parameters, channels and constants). Tasks start together when the kernel is called and
  run concurrently as far as their channels allow; the call is over when all are done;
- ``func.return`` of the last task's result when the kernel returns a value.

Channel typing (transforms/graph/infer_streams.py) turns a ``buffer`` into a ``fifo`` when the
producer writes it and the consumer reads it once each, in the same order, else into a
``pingpong``. The FPGA back end (vichls/driver/dataflow.py) compiles every distinct callee to its
own module and wires them in a top module.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)

# On the top ``func.func``: the kernel is a dataflow region (set by ``s.dataflow()``); its
# value names the top's block-level interface, "ap_ctrl_hs" or "ap_ctrl_chain".
from vichls.dialects.attributes import DATAFLOW_ATTR  # noqa: F401 (the graph level's mark)

CHANNEL_KINDS = ("buffer", "pingpong", "fifo")


@irdl_op_definition
class ChannelOp(IRDLOperation):
    """A channel between two tasks; ``producer``/``consumer`` name the tasks."""

    name = "graph.channel"
    kind = prop_def(StringAttr)
    channel_name = prop_def(StringAttr)
    producer = opt_prop_def(StringAttr)
    consumer = opt_prop_def(StringAttr)
    depth = opt_prop_def(IntegerAttr)
    result = result_def(Attribute)
    assembly_format = "$channel_name $kind attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class TaskOp(IRDLOperation):
    """One task of a dataflow region: ``callee`` applied to ``args``; the last task may
    return the kernel's value."""

    name = "graph.task"
    task_name = prop_def(StringAttr)
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()
    assembly_format = "$task_name $callee `(` $args `)` attr-dict `:` functional-type($args, $res)"


Graph = Dialect("graph", [ChannelOp, TaskOp], [])
