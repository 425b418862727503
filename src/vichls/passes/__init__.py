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
    cpu = "vichls.cpu."
    entries = {
        "apply-partitions": (loop + "partition_arrays", "ApplyPartitionsPass"),
        "remove-dead-inits": (loop + "remove_dead_inits", "RemoveDeadInitsPass"),
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
        "fold-constant-loads": (fpga + "fold_constant_loads", "FoldConstantLoadsPass"),
        "fuse-pipelines": (fpga + "fuse_pipelines", "FusePipelinesPass"),
        "merge-constant-reads": (fpga + "merge_constant_reads", "MergeConstantReadsPass"),
        "narrow": (fpga + "narrow_compares", "NarrowPass"),
        "narrow-wrapped-sums": (fpga + "narrow_wrapped_sums", "NarrowWrappedSumsPass"),
        "predicate-ifs": (fpga + "predicate_ifs", "PredicateIfsPass"),
        "reassociate": (fpga + "reassociate", "ReassociatePass"),
        "reassociate-products": (fpga + "reassociate_products", "ReassociateProductsPass"),
        "remove-dead-ops": (fpga + "remove_dead_ops", "RemoveDeadOpsPass"),
        "rotate-loads": (fpga + "rotate_loads", "RotateLoadsPass"),
        "scalar-replacement": (fpga + "scalar_replacement", "ScalarReplacementPass"),
        "schedule": (sched + "schedule_function", "SchedulePass"),
        "shift-add-products": (fpga + "shift_add_products", "ShiftAddProductsPass"),
        "sign-tests": (fpga + "sign_tests", "SignTestsPass"),
        "step-divided-ivs": (fpga + "step_divided_ivs", "StepDividedIvsPass"),
        "unroll-in-pipelines": (loop + "loop_pipeline", "UnrollInPipelinesPass"),
        # the loop directives, on loops named by their induction variables (or labels)
        "loop-flatten": (loop + "loop_flatten", "LoopFlattenPass"),
        "loop-pipeline": (loop + "loop_pipeline", "LoopPipelinePass"),
        "loop-reorder": (loop + "loop_reorder", "LoopReorderPass"),
        "loop-tile": (loop + "loop_tile", "LoopTilePass"),
        "loop-unroll": (loop + "loop_unroll", "LoopUnrollPass"),
        "value-numbering": (fpga + "value_numbering", "ValueNumberingPass"),
        # the graph level
        "extract-tasks": ("vichls.transforms.graph.extract_tasks", "ExtractTasksPass"),
        "infer-streams": ("vichls.transforms.graph.infer_streams", "InferStreamsPass"),
        # the structural level
        "to-structural": ("vichls.conversion.to_structural.build_structural", "ToStructuralPass"),
        "control-to-fsm": ("vichls.structural.compile_control", "ControlToFsmPass"),
        "insert-stall": ("vichls.structural.insert_stall", "InsertStallPass"),
        # the CPU back end's lowering to the llvm dialect
        "vichls-cpu-c-entry-point": (cpu + "c_entry_point", "AddCEntryPoint"),
        "vichls-cpu-stream-put-bounds": (cpu + "stream_put_bounds", "AnnotateStreamPutBounds"),
        "vichls-cpu-lower-affine": (cpu + "lower_affine", "LowerAffineForCpu"),
        "vichls-cpu-scf-to-cf": (cpu + "scf_to_cf", "ScfToCf"),
        "vichls-cpu-lower-streams": (cpu + "lower_streams", "LowerStreams"),
        "vichls-cpu-memref-to-llvm": (cpu + "memref_to_llvm", "MemrefToLlvm"),
        "vichls-cpu-index-to-i64": (cpu + "index_to_i64", "IndexToI64"),
        "vichls-cpu-arith-to-llvm": (cpu + "arith_to_llvm", "ArithToLlvm"),
        "vichls-cpu-cf-to-llvm": (cpu + "cf_to_llvm", "CfToLlvm"),
        "vichls-cpu-func-to-llvm": (cpu + "func_to_llvm", "FuncToLlvm"),
        # pipelines (vichls/passes/pipelines.py)
        "fpga-prepare": ("vichls.passes.pipelines", "FpgaPreparePipeline"),
        "fpga-schedule": ("vichls.passes.pipelines", "FpgaSchedulePipeline"),
        "compile-control": ("vichls.passes.pipelines", "CompileControlPipeline"),
        "dataflow-graph": ("vichls.passes.pipelines", "DataflowGraphPipeline"),
        "fpga": ("vichls.passes.pipelines", "FpgaPipeline"),
        "cpu-lower": ("vichls.passes.pipelines", "CpuLowerPipeline"),
    }
    return {name: pass_(module, cls) for name, (module, cls) in entries.items()}
