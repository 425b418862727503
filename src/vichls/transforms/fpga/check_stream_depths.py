"""Refuse a sequential design whose local stream is sure to overflow: it would deadlock.

Why: in one sequential kernel (no ``s.dataflow()``, or inside one task), the statements
run one after the other. When a loop puts more elements into a local stream than its depth
before any statement reads from it, the hardware waits forever on a full FIFO (the Python
and CPU runs, whose streams are unbounded, do not), so the design would be wrong without a
word. The classic case is a producer call followed by a consumer call without dataflow.

What: for every ``stream.create`` of the function, walk its top-level statements in order,
counting the puts a statement makes when the loops around them have constant trip counts
and no condition guards them, until the first statement that gets from the stream. More
than the depth is an error naming the stream, the statement and what to do. Anything the
count cannot bound stops the check for that stream (no false alarms).

Assumes: calls are inlined; runs before ``lower-affine`` (constant ``affine.for`` bounds).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from vichls.dialects import stream
from vichls.errors import FpgaError
from vichls.signature import top_function


def _trip_count(op: Operation) -> int | None:
    if not isinstance(op, affine.ForOp) or op.lowerBoundOperands or op.upperBoundOperands:
        return None
    (lb,) = op.lowerBoundMap.data.eval([], [])
    (ub,) = op.upperBoundMap.data.eval([], [])
    return max(0, -(-(ub - lb) // op.step.value.data))


def _puts(top: Operation, value) -> int | None:
    """Elements ``top`` surely puts into ``value``; None when it cannot be counted."""
    total = 0
    for op in top.walk():
        if not (isinstance(op, stream.PutOp) and op.stream is value):
            continue
        count, parent = 1, op.parent_op()
        while parent is not None and parent is not top.parent_op():
            if isinstance(parent, (scf.IfOp, scf.WhileOp, scf.ForOp)):
                return None
            trips = _trip_count(parent)
            if trips is None and isinstance(parent, affine.ForOp):
                return None
            count *= trips or 1
            parent = parent.parent_op()
        total += count
    return total


def _gets(top: Operation, value) -> bool:
    return any(isinstance(op, stream.GetOp) and op.stream is value for op in top.walk())


def check_stream_depths(function: func.FuncOp) -> None:
    body = function.body.block
    for create in [op for op in body.ops if isinstance(op, stream.CreateOp)]:
        value = create.result
        depth = create.depth.value.data
        name = create.display_name
        pending = 0
        for op in body.ops:
            if _gets(op, value):
                break
            puts = _puts(op, value)
            if puts is None:
                break
            pending += puts
            if pending > depth:
                raise FpgaError.at(
                    op, f"the local stream '{name}' (depth {depth}) receives {pending} elements "
                        "here before anything reads it: run in sequence, the design would wait "
                        "forever on the full FIFO; use s.dataflow() to run the producer and the "
                        f"consumer concurrently, or a depth of at least {pending}")


@dataclass(frozen=True)
class CheckStreamDepthsPass(ModulePass):
    """Refuse a sequential design whose local stream is sure to overflow (changes nothing)."""

    name = "check-stream-depths"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_stream_depths(top_function(op))
