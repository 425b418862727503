"""Give every local stream one FIFO, emptied wherever the program makes the stream anew.

Why: in Python (and on the CPU) ``q = stream[T, d]()`` makes a new, empty stream each time
it runs; what a call leaves in it is dropped. In hardware a local stream is one FIFO cell.
The FIFO of a ``stream.create`` in the function's entry block is emptied while the design
is idle, between calls (conversion/to_structural/build_structural.py), which is the same thing, since such a
create runs once per call and nothing uses the stream before it. But once calls are inlined
(transforms/fpga/inline_calls.py), a kernel with a local stream called in a loop or under an if
leaves its ``stream.create`` inside that loop or if, where it runs once per iteration.

What: every ``stream.create`` that is not in the entry block of the top function moves to
the start of that block, and a ``stream.clear`` of it takes its place; the scheduler orders
the clear before the later gets and puts of the stream like any other access of it
(scheduling/list_schedule.py), and the builder empties the FIFO in its cycle.

Assumes: calls are inlined, the top function is the module's only function with a body,
and the check of stream depths (transforms/fpga/check_stream_depths.py, which reasons about the
entry block's creates only) has run. A create in a pipelined loop is refused: overlapping
iterations cannot each start with an empty FIFO of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.dialects import stream
from vichls.analysis.loop_utils import in_pipeline
from vichls.errors import FpgaError
from vichls.signature import top_function


def hoist_local_streams(top: func.FuncOp) -> None:
    entry = top.body.blocks.first
    creates = [op for op in top.walk()
               if isinstance(op, stream.CreateOp) and op.parent_block() is not entry]
    for create in reversed(creates):  # each goes to the start: keep their order
        if in_pipeline(create):
            name = create.display_name
            raise FpgaError.at(create, f"the local stream '{name}' is made anew in every "
                                       "iteration of a pipelined loop (its kernel is called "
                                       "there); overlapping iterations cannot each have an "
                                       "empty stream of their own: call the kernel outside "
                                       "the pipelined loop, or do not pipeline it")
        Rewriter.insert_op(stream.ClearOp(create.result), InsertPoint.after(create))
        create.detach()
        Rewriter.insert_op(create, InsertPoint.at_start(entry))


@dataclass(frozen=True)
class HoistLocalStreamsPass(ModulePass):
    """One FIFO per local stream, with a ``stream.clear`` where an inlined create ran."""

    name = "hoist-local-streams"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_local_streams(top_function(op))
