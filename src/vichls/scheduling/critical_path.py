"""The longest chained path of a scheduled function: the report's estimated clock.

What: ``critical_path(top)`` reads the schedule that scheduling/schedule_function.py wrote on
the loop-level IR (``vichls.cycle``/``vichls.ready`` on every scheduled op) and recomputes,
with the same operator library and the same rules as the schedulers, the time within its
cycle at which every result settles: an op takes its delay after the latest of its
operands produced in the same cycle (in the same segment, or in the same iteration of a
pipelined loop); a multi-cycle op (a pipelined multiplier, a memory read) then delivers
its result ``out_delay`` into its ready cycle. The latest finish is the estimated
clock period, and the ops on the way to it are the critical chain. Where a control
decision reads a value in its own cycle (``oplib.decision_reserve_ns``, ECP5 only), the
decision's time is added after it, as the list scheduler counts it.

Why: the schedulers keep these times only while they place ops; the report's timing entry
(``{"estimated_ns", "critical_chain"}``, driver/component.py) and the text report
(vichls/report_text.py, as Vitis HLS's "Estimated" clock) need them afterwards, and
recomputing them from the attributes needs no change to either scheduler.

Assumes: the function was scheduled (every op ``op_kind`` gives a kind carries its cycle and
ready cycle) and not changed since. The estimate covers the datapath the schedulers chain;
the FSM's own logic, the stall logic and routing beyond the operator library's net delay
are not in it (they are what the register reserve, the report's "uncertainty", keeps room
for).
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Operation

from vichls.analysis.loop_utils import pipeline_ii
from vichls.dialects.attributes import CYCLE_ATTR, DECIDED_ATTR, READY_ATTR
from vichls.scheduling.list_schedule import (
    feeds_control,
    is_predicated,
    op_cost,
    op_kind,
    predicate_of,
    reads_predicate,
    split_block,
)
from vichls.scheduling.modulo_schedule import _needs_predicate, iteration_ops
from vichls.targets import oplib

__all__ = ["critical_path"]

#: digits the estimate is rounded to (the operator library's figures are rough anyway)
DIGITS = 3


def critical_path(top: func.FuncOp) -> dict:
    """{"estimated_ns": the longest chained delay in one cycle, "critical_chain": the op
    kinds along it, first to last} of the scheduled function ``top`` (0.0 and [] when no
    op takes time)."""
    best: tuple[float, list[str]] = (0.0, [])

    def scope(entries: list[tuple[Operation, tuple]], pipelined: bool) -> None:
        nonlocal best
        finish: dict[Operation, tuple[float, list[str]]] = {}
        members = {op for op, _ in entries}
        decision = oplib.decision_reserve_ns()
        for op, predicate in entries:
            if CYCLE_ATTR not in op.attributes or READY_ATTR not in op.attributes:
                continue
            cycle = op.attributes[CYCLE_ATTR].value.data
            cost = op_cost(op)
            kind = op_kind(op) or op.name
            # operands, and the conditions that guard the op in hardware: in a segment, the
            # guard logic after them takes the decision time
            sources = [(v, 0.0) for v in op.operands]
            guarded = _needs_predicate(op) if pipelined else reads_predicate(op)
            if guarded:
                sources += [(cond, 0.0 if pipelined else decision) for cond, _ in predicate]
            arrival: tuple[float, list[str]] = (0.0, [])
            for v, extra in sources:
                owner = v.owner
                if isinstance(owner, Operation) and owner in members and owner in finish \
                        and owner.attributes[READY_ATTR].value.data == cycle:
                    time, chain = finish[owner]
                    if time + extra > arrival[0]:
                        arrival = (time + extra, chain + ["guard"] if extra else chain)
            # the issue cycle: the op's own delay after its operands (a multi-cycle unit's
            # input side); its result, in its ready cycle
            issued = (arrival[0] + cost.delay_ns,
                      arrival[1] + [kind] if cost.delay_ns > 0 else arrival[1])
            if issued[0] > best[0]:
                best = issued
            if cost.latency > 0:
                done = (cost.out_delay_ns, [kind] if cost.out_delay_ns > 0 else [])
            else:
                done = issued
            finish[op] = done
            end = done
            if decision and not pipelined and feeds_control(op) \
                    and op.attributes.get(DECIDED_ATTR) is None:
                end = (done[0] + decision, done[1] + ["decision"])
            if end[0] > best[0]:
                best = end

    def visit(op: Operation) -> None:
        if isinstance(op, scf.ForOp) and pipeline_ii(op) is not None:
            scope(iteration_ops(op.body.block), pipelined=True)
            return
        for region in op.regions:
            for block in region.blocks:
                for item in split_block(block):
                    if isinstance(item, list):
                        scope([(o, predicate_of(o)) for o in item], pipelined=False)
                for inner in block.ops:
                    if inner.regions and not is_predicated(inner):
                        visit(inner)

    visit(top)
    return {"estimated_ns": round(best[0], DIGITS), "critical_chain": best[1]}
