"""The named pipelines of the FPGA back end: which passes run, in which order, and why.

Each pipeline is a list of registered passes (vichls.passes.get_all_passes) and is itself
a pass of that name, so ``vichls-opt -p fpga-prepare,fpga-schedule`` runs it on IR text
and vichls.driver.fpga runs it in memory. Passes transform IR; the ordering rules live here, once.

``fpga-prepare`` (the loop level, made ready for hardware), in order:

1. inline-calls: one component for the top kernel; a callee's accesses become the top's;
   merge-constant-reads: the reads of a constant array that inlining copied are one (one
   ROM, which a partition directive splits whole); remove-dead-inits: after inlining (a
   callee's statement may be the one that overwrites an array whole), before partitioning
   (a completely partitioned array's initialisation would be unrolled first).
2. apply-partitions: after inlining, so that a callee's accesses to a partitioned array
   are rewritten too.
3. check-stream-depths, then hoist-local-streams: the check reasons about the entry
   block's stream creates; the hoisting then moves the creates that inlining put in loops.
4. unroll-in-pipelines: loops a call brought into a pipelined loop are unrolled, as the
   pipeline directive unrolls the loop's own.
5. lower-affine-fpga: everything below works on scf and arith; fold-constant-loads right
   after it (a constant array read at constant indices, as unrolling and complete
   partitioning leave it, is a constant for everything that follows).
6. if-convert-scalars, forward-scalar-stores, value-numbering, forward-array-stores (a
   first time: a body's store and reloads of one element, as an unrolled reduction into
   ``s[i]`` leaves them, forwarded before fusion weighs the body's port demand; inside a
   fused body, behind guards, they no longer are), fuse-pipelines (after
   numbering, which makes one load of an element a body reads twice: the port count it
   weighs is the real one; before hoisting, forwarding and rotation, which then work on
   the fused body, whose guards become predicates like any other if's), hoist-loop-invariants,
   reassociate-products (which hoists again what it made invariant), value-numbering
   again (hoisting brings equal expressions into one block).
7. forward-array-stores: after numbering, so that equal indices are one SSA value.
8. scalar-replacement: after hoisting and numbering (an element's invariant index is then
   one value outside the loop), before rotate-loads (its profitability test must still
   see the reads that rotation turns into register reads); forward-scalar-stores again
   for the register accesses it made.
9. forward-while-exit-loads: before rotation (a forwarded load needs no prefetch);
   rotate-loads.
10. step-divided-ivs: before div-by-constant, which would take a pipelined loop's
    variable divided by constants (a flattened nest's indices) to magic products, and
    after numbering (one division of the variable per divisor);
    div-by-constant: after numbering (one dividend shares one quotient), before
    reassociation and the last numbering (which merge the sign logic of divisions of one
    value); shift-add-products: after it (its magic products stay multipliers), before
    reassociate, which balances the adders it makes with their neighbours.
11. narrow: last before the final numbering, when the guards rotation and prefetching
    built are there and the arithmetic the passes above look for is behind them;
    sign-tests after it (a compare with zero at the width narrowing leaves reads the sign
    bit); value-numbering, remove-dead-ops.
12. predicate-ifs: last, it reads the final ops of each branch; bind-multipliers, on the
    groups the scheduler and the builder will make.

``fpga-schedule``: the instruction level (list and modulo schedules) for a clock period.

``dataflow-graph``: extract-tasks, then infer-streams (which types the channels that
extraction made); the dataflow driver (driver/dataflow.py) runs it, then compiles each task.

``compile-control``: on the structural level, control-to-fsm then insert-stall (the stall
gates the registers and FSM that control-to-fsm made). ``fpga``: the whole way from the
loop level, fpga-prepare, fpga-schedule, to-structural and compile-control; with
``vichls-opt -t verilog`` it prints the design's Verilog. The FPGA driver
(driver/component.py) runs fpga-prepare and fpga-schedule, converts to the structural level
itself (its report reads both levels) and runs compile-control.

``cpu-lower``: the loop level to the llvm dialect (vichls/cpu/): the C entry point first,
while the kernels still carry their ``vichls.*`` signature attributes; stream put bounds
before lower-affine, which erases the loops' constant trip counts; scf-to-cf, then the
streams, which are lowered on the control-flow graph; memrefs, then index to i64 (which
assumes the memrefs lowered), then arith once index is gone; cf and func last.

Options: ``device`` (an oplib device name) on every pipeline whose passes read operator
costs, ``clock_period_ns`` on the schedule, ``task_mode`` (a dataflow task's component) on
the structural ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from vichls.conversion.to_structural.build_structural import ToStructuralPass
from vichls.cpu.arith_to_llvm import ArithToLlvm
from vichls.cpu.c_entry_point import AddCEntryPoint
from vichls.cpu.cf_to_llvm import CfToLlvm
from vichls.cpu.func_to_llvm import FuncToLlvm
from vichls.cpu.index_to_i64 import IndexToI64
from vichls.cpu.lower_affine import LowerAffineForCpu
from vichls.cpu.lower_streams import LowerStreams
from vichls.cpu.memref_to_llvm import MemrefToLlvm
from vichls.cpu.scf_to_cf import ScfToCf
from vichls.cpu.stream_put_bounds import AnnotateStreamPutBounds
from vichls.structural.compile_control import ControlToFsmPass
from vichls.structural.insert_stall import InsertStallPass
from vichls.transforms.fpga.bind_multipliers import BindMultipliersPass
from vichls.transforms.graph.extract_tasks import ExtractTasksPass
from vichls.transforms.graph.infer_streams import InferStreamsPass
from vichls.transforms.fpga.check_stream_depths import CheckStreamDepthsPass
from vichls.transforms.fpga.div_by_constant import DivByConstantPass
from vichls.transforms.fpga.forward_array_stores import ForwardArrayStoresPass
from vichls.transforms.fpga.forward_scalar_stores import ForwardScalarStoresPass
from vichls.transforms.fpga.forward_while_exit_loads import ForwardWhileExitLoadsPass
from vichls.transforms.fpga.hoist_local_streams import HoistLocalStreamsPass
from vichls.transforms.fpga.hoist_loop_invariants import HoistLoopInvariantsPass
from vichls.transforms.fpga.if_convert_scalars import IfConvertScalarsPass
from vichls.transforms.fpga.inline_calls import InlineCallsPass
from vichls.transforms.loop.loop_pipeline import UnrollInPipelinesPass
from vichls.transforms.fpga.fold_constant_loads import FoldConstantLoadsPass
from vichls.transforms.fpga.fuse_pipelines import FusePipelinesPass
from vichls.transforms.fpga.lower_affine_fpga import LowerAffineFpgaPass
from vichls.transforms.fpga.merge_constant_reads import MergeConstantReadsPass
from vichls.transforms.fpga.narrow_compares import NarrowPass
from vichls.transforms.loop.partition_arrays import ApplyPartitionsPass
from vichls.transforms.loop.remove_dead_inits import RemoveDeadInitsPass
from vichls.transforms.fpga.predicate_ifs import PredicateIfsPass
from vichls.transforms.fpga.narrow_wrapped_sums import NarrowWrappedSumsPass
from vichls.transforms.fpga.reassociate import ReassociatePass
from vichls.transforms.fpga.reassociate_products import ReassociateProductsPass
from vichls.transforms.fpga.remove_dead_ops import RemoveDeadOpsPass
from vichls.transforms.fpga.rotate_loads import RotateLoadsPass
from vichls.transforms.fpga.scalar_replacement import ScalarReplacementPass
from vichls.scheduling.schedule_function import SchedulePass
from vichls.transforms.fpga.shift_add_products import ShiftAddProductsPass
from vichls.transforms.fpga.sign_tests import SignTestsPass
from vichls.transforms.fpga.step_divided_ivs import StepDividedIvsPass
from vichls.transforms.fpga.value_numbering import ValueNumberingPass


def fpga_prepare(device: str) -> list[ModulePass]:
    """The passes of ``fpga-prepare``, in the order the module docstring explains."""
    return [
        InlineCallsPass(), MergeConstantReadsPass(), RemoveDeadInitsPass(),
        ApplyPartitionsPass(),
        CheckStreamDepthsPass(),
        HoistLocalStreamsPass(), UnrollInPipelinesPass(), LowerAffineFpgaPass(),
        FoldConstantLoadsPass(), IfConvertScalarsPass(device=device), ForwardScalarStoresPass(), ValueNumberingPass(),
        ForwardArrayStoresPass(), FusePipelinesPass(), HoistLoopInvariantsPass(), ReassociateProductsPass(), ValueNumberingPass(),
        ForwardArrayStoresPass(), ScalarReplacementPass(), ForwardScalarStoresPass(),
        ForwardWhileExitLoadsPass(), RotateLoadsPass(), StepDividedIvsPass(),
        DivByConstantPass(device=device),
        ShiftAddProductsPass(device=device), NarrowWrappedSumsPass(),
        ReassociatePass(device=device), NarrowPass(), SignTestsPass(),
        ValueNumberingPass(), RemoveDeadOpsPass(), PredicateIfsPass(device=device),
        BindMultipliersPass(device=device),
    ]


def fpga_schedule(device: str, clock_period_ns: float) -> list[ModulePass]:
    return [SchedulePass(clock_period_ns=clock_period_ns, device=device)]


def dataflow_graph() -> list[ModulePass]:
    return [ExtractTasksPass(), InferStreamsPass()]


def compile_control(device: str, task_mode: bool = False) -> list[ModulePass]:
    return [ControlToFsmPass(task_mode=task_mode, device=device), InsertStallPass()]


def fpga(device: str, clock_period_ns: float) -> list[ModulePass]:
    return [*fpga_prepare(device), *fpga_schedule(device, clock_period_ns),
            ToStructuralPass(device=device), *compile_control(device)]


def cpu_lower() -> list[ModulePass]:
    return [AddCEntryPoint(), AnnotateStreamPutBounds(), LowerAffineForCpu(), ScfToCf(),
            LowerStreams(), MemrefToLlvm(), IndexToI64(), ArithToLlvm(), CfToLlvm(),
            FuncToLlvm()]


def run_passes(passes: list[ModulePass], module: ModuleOp) -> None:
    ctx = Context(allow_unregistered=True)
    for p in passes:
        p.apply(ctx, module)


@dataclass(frozen=True)
class FpgaPreparePipeline(ModulePass):
    """``fpga-prepare``: the loop level made ready for hardware (see the module docstring).

    Options: device: the operator library's device table (vichls.targets.oplib.DEVICES)."""

    name = "fpga-prepare"
    device: str = "xc7"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(fpga_prepare(self.device), op)


@dataclass(frozen=True)
class FpgaSchedulePipeline(ModulePass):
    """``fpga-schedule``: cycles and units for every operation, for one clock period.

    Options: device (vichls.targets.oplib.DEVICES); clock_period_ns."""

    name = "fpga-schedule"
    device: str = "xc7"
    clock_period_ns: float = 10.0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(fpga_schedule(self.device, self.clock_period_ns), op)


PIPELINES: dict[str, type[ModulePass]] = {
    p.name: p for p in (FpgaPreparePipeline, FpgaSchedulePipeline)
}


@dataclass(frozen=True)
class DataflowGraphPipeline(ModulePass):
    """``dataflow-graph``: extract-tasks, infer-streams."""

    name = "dataflow-graph"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(dataflow_graph(), op)


@dataclass(frozen=True)
class CompileControlPipeline(ModulePass):
    """``compile-control``: control-to-fsm, insert-stall. Options: task_mode, device."""

    name = "compile-control"
    task_mode: bool = False
    device: str = "xc7"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(compile_control(self.device, self.task_mode), op)


@dataclass(frozen=True)
class FpgaPipeline(ModulePass):
    """``fpga``: fpga-prepare, fpga-schedule, to-structural, compile-control.

    Options: device; clock_period_ns."""

    name = "fpga"
    device: str = "xc7"
    clock_period_ns: float = 10.0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(fpga(self.device, self.clock_period_ns), op)


@dataclass(frozen=True)
class CpuLowerPipeline(ModulePass):
    """``cpu-lower``: the loop level to the llvm dialect (the order above)."""

    name = "cpu-lower"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(cpu_lower(), op)
