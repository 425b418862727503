"""The passes of vichls, by name.

``get_all_passes()`` maps every registered pass name (and every pipeline of
vichls/pipelines.py) to a function returning its ``ModulePass`` class, as xDSL's own
``get_all_passes`` does, so that vichls-opt (vichls/opt.py) can run any of them with
``-p name{option=value}``. A new pass: a file in this folder holding the transform and its
``ModulePass`` (a frozen dataclass with ``name`` and its options as fields), one line
below, and a test in tests/filecheck/.
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

    p = "vichls.passes."
    entries = {
        "apply-partitions": (p + "partition_arrays", "ApplyPartitionsPass"),
        "bind-multipliers": (p + "bind_multipliers", "BindMultipliersPass"),
        "check-stream-depths": (p + "check_stream_depths", "CheckStreamDepthsPass"),
        "div-by-constant": (p + "div_by_constant", "DivByConstantPass"),
        "forward-array-stores": (p + "forward_array_stores", "ForwardArrayStoresPass"),
        "forward-scalar-stores": (p + "forward_scalar_stores", "ForwardScalarStoresPass"),
        "forward-while-exit-loads": (p + "forward_while_exit_loads",
                                     "ForwardWhileExitLoadsPass"),
        "hoist-local-streams": (p + "hoist_local_streams", "HoistLocalStreamsPass"),
        "hoist-loop-invariants": (p + "hoist_loop_invariants", "HoistLoopInvariantsPass"),
        "if-convert-scalars": (p + "if_convert_scalars", "IfConvertScalarsPass"),
        "inline-calls": (p + "inline_calls", "InlineCallsPass"),
        "lower-affine-fpga": (p + "lower_affine_fpga", "LowerAffineFpgaPass"),
        "narrow": (p + "narrow_compares", "NarrowPass"),
        "predicate-ifs": (p + "predicate_ifs", "PredicateIfsPass"),
        "reassociate": (p + "reassociate", "ReassociatePass"),
        "reassociate-products": (p + "reassociate_products", "ReassociateProductsPass"),
        "remove-dead-ops": (p + "remove_dead_ops", "RemoveDeadOpsPass"),
        "rotate-loads": (p + "rotate_loads", "RotateLoadsPass"),
        "scalar-replacement": (p + "scalar_replacement", "ScalarReplacementPass"),
        "schedule": (p + "schedule_function", "SchedulePass"),
        "shift-add-products": (p + "shift_add_products", "ShiftAddProductsPass"),
        "unroll-in-pipelines": (p + "loop_pipeline", "UnrollInPipelinesPass"),
        "value-numbering": (p + "value_numbering", "ValueNumberingPass"),
        # pipelines (vichls/pipelines.py)
        "fpga-prepare": ("vichls.pipelines", "FpgaPreparePipeline"),
        "fpga-schedule": ("vichls.pipelines", "FpgaSchedulePipeline"),
    }
    return {name: pass_(module, cls) for name, (module, cls) in entries.items()}
