"""Bind the pipelined multipliers and floating-point units of groups that never run at the
same time to shared cells.

Why: binding one multiplier cell per multiply makes a design's DSP count the sum over all
its loop nests, although the control runs one segment or pipelined loop at a time: mvt's
two nests, each pipelined with 40 multiplies, would take 240 DSP blocks where 120 do, and
the DSE would reject the point for the budget. Vitis HLS shares functional units across
states the same way.

What: the ops of a function are grouped as the structural level groups them: one group per
straight-line segment outside pipelined loops (scheduling/list_schedule.split_block, predicated ifs
included) and one per pipelined loop. Within a group every pipelined multiply keeps its
own cell (a pipelined iteration uses all of them in overlapping cycles); across groups the
k-th multiply of a kind (``list_schedule.pipelined_unit``: primitive and parameters; the
float32 units of latency 1 or more count as multiplies here) in each group uses the kind's
k-th cell. Every multiply gets ``vichls.unit`` = k; those whose cell serves
several multiplies also get ``vichls.sharers``, which the scheduler and the estimator read
(``oplib.shared_mul_cost``: an operand multiplexer, and the cell's cost spread over its
users), and build_structural drives the cell's operands through a multiplexer on the
issuing group's cycle.

Why that is safe: a group's multiplies issue and deliver inside the group (a segment lasts
until its last result is ready; a pipeline drains before the control leaves it), and one
component runs its groups one after another. Only on devices whose multiplier input path
has room for the multiplexer (``oplib.Device.share_multipliers``).

Assumes the loop-level IR of the FPGA preparation, right before scheduling, after
transforms/fpga/predicate_ifs.
"""

from __future__ import annotations

from dataclasses import dataclass

from collections import Counter

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.analysis.loop_utils import pipeline_ii
from vichls.scheduling.modulo_schedule import iteration_ops
from vichls.scheduling.list_schedule import is_predicated, pipelined_unit, split_block
from vichls.dialects.attributes import SHARERS_ATTR, UNIT_ATTR


def bind_multipliers(module: ModuleOp) -> None:
    share = oplib.current_device().share_multipliers
    for function in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        users: dict[tuple, list[Operation]] = {}
        for group in _groups(function):
            count: Counter = Counter()
            for op in group:
                unit = pipelined_unit(op)
                if unit is None:
                    continue
                kind = (unit[0], tuple(sorted(unit[1].items())))
                index = count[kind] if share else len(users)
                count[kind] += 1
                op.attributes[UNIT_ATTR] = IntegerAttr(index, i64)
                users.setdefault((kind, index), []).append(op)
        for ops in users.values():
            if len(ops) > 1:
                for op in ops:
                    op.attributes[SHARERS_ATTR] = IntegerAttr(len(ops), i64)


def _groups(op: Operation) -> list[list[Operation]]:
    """The ops of ``op``'s regions, one list per group of the structural level."""
    out: list[list[Operation]] = []
    for region in op.regions:
        for block in region.blocks:
            for item in split_block(block):
                if isinstance(item, list):
                    out.append(item)
                elif isinstance(item, scf.ForOp) and pipeline_ii(item) is not None:
                    out.append([o for o, _ in iteration_ops(item.body.block)])
                elif not is_predicated(item):
                    out += _groups(item)
    return out


@dataclass(frozen=True)
class BindMultipliersPass(ModulePass):
    """Share pipelined multipliers between groups that run one after another."""

    name = "bind-multipliers"
    device: str = "xc7"  # the operator library's device (its costs and choices)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            bind_multipliers(op)
