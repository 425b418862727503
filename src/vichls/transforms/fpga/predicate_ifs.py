"""Predicate short ifs outside pipelined loops: their operations join the segment around
them, guarded by the condition, instead of taking states of their own.

Why: the control gives every branch of an ``scf.if`` its own group, so a branch costs at
least one cycle and an FSM state, and consecutive ifs run one after another. A store to a
partitioned array from a loop left rolled is such a chain: ``y[i] = 0`` with ``y`` split
in 21 cyclic banks is 21 ifs ``if i % 21 == k: y_k[i // 21] = 0`` (transforms/loop/
partition_arrays), 21 cycles per iteration where one suffices, since the stores go to
different memories. Predicated, the stores are scheduled side by side in the segment and
each memory's write enable is its state's cycle AND its condition, as in a pipelined
iteration (scheduling/modulo_schedule).

What: every ``scf.if`` without results, outside pipelined loops, whose regions hold only
operations that take at most one cycle and need no unit of their own (wires, adders,
comparisons, logic, selects, shifts, constants, register and memory reads and writes) and
nested ifs of the same kind, is marked ``vichls.predicated`` (innermost first). The
scheduler (scheduling/list_schedule.py) then treats its operations as part of the segment around it,
and build_structural guards their accesses with its condition. Multipliers, dividers,
streams and loops stay branched: a predicated unit would run, or stall the design, when its
branch is not taken, and a long branch not taken would cost its full length.

Assumes the loop-level IR of the FPGA preparation, right before scheduling.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.analysis.loop_utils import in_pipeline
from vichls.scheduling.list_schedule import is_predicated, op_cost, op_kind
from vichls.dialects.attributes import PREDICATED_ATTR

#: operator kinds a predicated branch may hold
PREDICABLE_KINDS = frozenset({
    "wire", "add", "sub", "cmp", "logic", "mux", "shift_const", "shift_var", "mul_const",
    "reg_read", "reg_write", "mem_read", "mem_write",
})


#: the deepest nest of predicated ifs: each level ANDs its condition into the guard of every
#: access below it, so a deeper nest (an ``elif`` chain of hundreds of branches, whose
#: accesses to one register also take a cycle each) stays branched from there outwards
MAX_PREDICATED_DEPTH = 8


def predicate_ifs(module: ModuleOp) -> None:
    ifs = [op for op in module.walk() if isinstance(op, scf.IfOp)]
    depth: dict = {}  # predicated if -> the ifs nested in it, itself included
    for branch in reversed(ifs):  # innermost first: an outer if may hold predicated ones
        if not in_pipeline(branch) and _predicable(branch):
            inner = max((depth[op] for region in (branch.true_region, branch.false_region)
                         for block in region.blocks for op in block.ops if op in depth),
                        default=0)
            if inner < MAX_PREDICATED_DEPTH:
                branch.attributes[PREDICATED_ATTR] = UnitAttr()
                depth[branch] = inner + 1


def _predicable(branch: scf.IfOp) -> bool:
    if branch.results:
        return False
    for region in (branch.true_region, branch.false_region):
        for block in region.blocks:
            for op in block.ops:
                if isinstance(op, scf.YieldOp) or is_predicated(op):
                    continue
                if op.regions:
                    return False
                kind = op_kind(op)
                if kind is None:
                    if op.name == "arith.constant":
                        continue
                    return False
                if kind not in PREDICABLE_KINDS or op_cost(op).latency > 1:
                    return False
    return True


@dataclass(frozen=True)
class PredicateIfsPass(ModulePass):
    """Mark short ifs outside pipelines as predicated."""

    name = "predicate-ifs"
    device: str = "xc7"  # the operator library's device (its costs and choices)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            predicate_ifs(op)
