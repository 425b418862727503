"""The instruction level of a whole function: every straight-line segment list-scheduled
(scheduling/list_schedule.py), every pipelined loop modulo-scheduled (scheduling/modulo_schedule.py).

What: walks the function; a pipelined ``scf.for`` gets its modulo schedule, any other
block is split into segments (between loops, ifs that are not predicated and whiles) and
each segment's ops get ``vichls.cycle``/``vichls.ready`` (``vichls.decided`` where a
control decision must read a register). Why apart from scheduling/list_schedule.py: the modulo
scheduler builds on the list scheduler's costs and on the dependence analysis, which
itself uses list_schedule.py; the driver of both sits above them. Assumes the FPGA preparation
(passes/pipelines.py's fpga-prepare) has run.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.analysis.loop_utils import pipeline_ii
from vichls.scheduling.modulo_schedule import schedule_pipelined_loop
from vichls.scheduling.list_schedule import (
    constant_trip_count,
    is_predicated,
    schedule_segment,
    split_block,
)
from vichls.dialects.attributes import CYCLE_ATTR, DECIDED_ATTR, READY_ATTR


def schedule_module(module: ModuleOp, clock_period_ns: float) -> None:
    """Annotate every scheduled op with its cycle and ready cycle within its segment (or,
    in a pipelined loop, within its iteration: scheduling/modulo_schedule)."""
    budget = clock_period_ns - oplib.register_reserve_ns()

    def visit(op: Operation):
        if isinstance(op, scf.ForOp) and pipeline_ii(op) is not None:
            schedule_pipelined_loop(op, budget, constant_trip_count(op))
            return
        for region in op.regions:
            for block in region.blocks:
                for item in split_block(block):
                    if isinstance(item, list):
                        for seg_op, placement in zip(item, schedule_segment(item, budget)):
                            seg_op.attributes[CYCLE_ATTR] = IntegerAttr(placement.cycle, i64)
                            seg_op.attributes[READY_ATTR] = IntegerAttr(placement.ready, i64)
                            if placement.decided is not None:
                                seg_op.attributes[DECIDED_ATTR] = IntegerAttr(placement.decided,
                                                                              i64)
                for inner in block.ops:
                    if inner.regions and not is_predicated(inner):
                        visit(inner)

    visit(module)


@dataclass(frozen=True)
class SchedulePass(ModulePass):
    """List-schedule every segment and modulo-schedule pipelined loops (per the device).

    Options: clock_period_ns: the clock period the schedule fits; device: the operator
    library's device table (vichls.targets.oplib.DEVICES)."""

    name = "schedule"
    clock_period_ns: float = 10.0
    device: str = "xc7"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            schedule_module(op, self.clock_period_ns)
