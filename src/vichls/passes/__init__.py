"""The passes of vichls, by name.

``get_all_passes()`` maps every registered pass name (and every pipeline of
vichls/passes/pipelines.py) to a function returning its ``ModulePass`` class, as xDSL's own
``get_all_passes`` does, so that vichls-opt (vichls/opt.py) can run any of them with
``-p name{option=value}``. A new pass: a file in the folder of its level
(transforms/loop, transforms/graph, transforms/fpga, scheduling, structural) holding the
transform and its ``ModulePass`` (a frozen dataclass with ``name`` and its options as
fields), one line below, and a test in tests/filecheck/.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def pass_(module: str, cls: str) -> Callable[[], type[ModulePass]]:
        def load() -> type[ModulePass]:
            import importlib

            return getattr(importlib.import_module(module), cls)

        return load

    fpga, loop, sched = "vichls.transforms.fpga.", "vichls.transforms.loop.", "vichls.scheduling."
    entries = {
        "apply-partitions": (loop + "partition_arrays", "ApplyPartitionsPass"),
        "bind-multipliers": (fpga + "bind_multipliers", "BindMultipliersPass"),
        "check-stream-depths": (fpga + "check_stream_depths", "CheckStreamDepthsPass"),
        "div-by-constant": (fpga + "div_by_constant", "DivByConstantPass"),
        "forward-array-stores": (fpga + "forward_array_stores", "ForwardArrayStoresPass"),
        "forward-scalar-stores": (fpga + "forward_scalar_stores", "ForwardScalarStoresPass"),
        "forward-while-exit-loads": (fpga + "forward_while_exit_loads",
                                     "ForwardWhileExitLoadsPass"),
        "hoist-local-streams": (fpga + "hoist_local_streams", "HoistLocalStreamsPass"),
        "hoist-loop-invariants": (fpga + "hoist_loop_invariants", "HoistLoopInvariantsPass"),
        "if-convert-scalars": (fpga + "if_convert_scalars", "IfConvertScalarsPass"),
        "inline-calls": (fpga + "inline_calls", "InlineCallsPass"),
        "lower-affine-fpga": (fpga + "lower_affine_fpga", "LowerAffineFpgaPass"),
        "narrow": (fpga + "narrow_compares", "NarrowPass"),
        "predicate-ifs": (fpga + "predicate_ifs", "PredicateIfsPass"),
        "reassociate": (fpga + "reassociate", "ReassociatePass"),
        "reassociate-products": (fpga + "reassociate_products", "ReassociateProductsPass"),
        "remove-dead-ops": (fpga + "remove_dead_ops", "RemoveDeadOpsPass"),
        "rotate-loads": (fpga + "rotate_loads", "RotateLoadsPass"),
        "scalar-replacement": (fpga + "scalar_replacement", "ScalarReplacementPass"),
        "schedule": (sched + "schedule_function", "SchedulePass"),
        "shift-add-products": (fpga + "shift_add_products", "ShiftAddProductsPass"),
        "unroll-in-pipelines": (loop + "loop_pipeline", "UnrollInPipelinesPass"),
        "value-numbering": (fpga + "value_numbering", "ValueNumberingPass"),
        # pipelines (vichls/passes/pipelines.py)
        "fpga-prepare": ("vichls.passes.pipelines", "FpgaPreparePipeline"),
        "fpga-schedule": ("vichls.passes.pipelines", "FpgaSchedulePipeline"),
    }
    return {name: pass_(module, cls) for name, (module, cls) in entries.items()}
