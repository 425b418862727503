"""Apply a Schedule's loop directives (pipeline, unroll, tile, reorder, flatten) to a loop-level module.

What: names the top kernel's loops, then runs the loop pass of each directive
(loop-pipeline, loop-unroll, loop-tile, loop-reorder, loop-flatten of transforms/loop/) on
the loops it names, in the order the directives were recorded (pipelines last), before any
back end sees the module.

Loop names follow the one rule of analysis/loop_names.py: a loop is named by its loop
variable, by a path of loop variables ending in it ("i/k"; a loop split by tile still
answers to its name there), or by its label (``vichls.loop(..., name=...)``); a name
several loops share applies to each of them. Tiling loop ``x`` names its new loops
``x.outer`` and ``x.inner``, which later directives may use. The front end marks a loop's
induction variable with the variable's unique id (``name_hint``); the kernel's checked tree
maps ids back to names (``loop_names``). While the directives run, every named loop carries a
``vichls.loop_name`` attribute; it is removed at the end so the back ends see plain IR.

Errors: a directive that cannot apply raises DirectiveError naming it (``s.tile('j', 4)``)
and why, at the line where it was recorded.
"""

from __future__ import annotations


from dataclasses import replace

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from vichls.dialects.attributes import TOP_ATTR
from vichls.analysis.loop_names import name_loops, unname_loops
from vichls.errors import DirectiveError
from vichls.signature import find_function
from vichls.transforms.loop.loop_flatten import LoopFlattenPass
from vichls.transforms.loop.loop_pipeline import LoopPipelinePass
from vichls.transforms.loop.loop_reorder import LoopReorderPass
from vichls.transforms.loop.loop_tile import LoopTilePass
from vichls.transforms.loop.loop_unroll import LoopUnrollPass

LOOP_DIRECTIVES = ("pipeline", "unroll", "tile", "reorder", "flatten")


def _top_function(module: ModuleOp) -> func.FuncOp:
    top = module.attributes.get(TOP_ATTR)
    for op in module.ops:
        if isinstance(op, func.FuncOp) and (top is None or op.sym_name.data == top.data):
            return op
    raise DirectiveError("the module has no top kernel function")


def _pass_of(d) -> ModulePass:
    """The loop pass that carries out the directive ``d`` (Schedule.directives)."""
    opts = dict(d.options)
    if d.kind == "pipeline":
        return LoopPipelinePass(loop=d.args[0], ii=opts["ii"], flatten=opts.get("flatten", True))
    if d.kind == "unroll":
        return LoopUnrollPass(loop=d.args[0], factor=opts.get("factor") or 0)
    if d.kind == "tile":
        return LoopTilePass(loop=d.args[0], size=d.args[1])
    if d.kind == "reorder":
        return LoopReorderPass(loops=tuple(d.args))
    return LoopFlattenPass(loops=tuple(d.args))


def apply_directives(module: ModuleOp, directives, loop_names: dict[str, str],
                     function: str | None = None) -> None:
    """Apply the loop directives among ``directives`` (Schedule.directives) to ``module``'s
    top function (or the kernel ``function`` it calls) in order; the others are left to
    their own passes. ``loop_names`` gives the source name of each loop variable by the
    id its induction variable is hinted with (``KernelTree.loop_names``)."""
    loop_directives = [d for d in directives if d.kind in LOOP_DIRECTIVES]
    if not loop_directives:
        return
    top = _top_function(module) if function is None else find_function(module, function)
    name_loops(top, loop_names)
    # pipelining goes last, as in Vitis HLS where directives are not ordered: the loop is
    # pipelined as the other directives left it (unrolled by a factor, tiled, ...)
    loop_directives.sort(key=lambda d: d.kind == "pipeline")
    try:
        for d in loop_directives:
            pass_ = _pass_of(d)
            try:
                replace(pass_, kernel=top.sym_name.data).apply(Context(), module)
            except DirectiveError as e:  # said at the directive, in its own words
                raise DirectiveError(f"{d.spelled()}: {e.message}", d.filename, d.line,
                                     getattr(d, "col", None)) from None
    finally:
        unname_loops(top)
