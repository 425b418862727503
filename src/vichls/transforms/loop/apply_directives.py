"""Apply a Schedule's loop directives (pipeline, unroll, tile, reorder, flatten) to a loop-level module.

What: names the top kernel's loops, then runs the matching transform of each directive
(transforms/loop/loop_pipeline, loop_unroll, loop_tile, loop_reorder, loop_flatten) on the
loops it names, in the order the directives were recorded (pipelines last), before any
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


from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from vichls.dialects.attributes import TOP_ATTR
from vichls.analysis.loop_names import name_loops, unname_loops
from vichls.analysis.loop_utils import LoopTransformError
from vichls.errors import DirectiveError
from vichls.transforms.loop.loop_flatten import flatten_named
from vichls.transforms.loop.loop_pipeline import pipeline_named
from vichls.transforms.loop.loop_reorder import reorder_named
from vichls.transforms.loop.loop_tile import tile_named
from vichls.transforms.loop.loop_unroll import unroll_named

LOOP_DIRECTIVES = ("pipeline", "unroll", "tile", "reorder", "flatten")


def _top_function(module: ModuleOp) -> func.FuncOp:
    top = module.attributes.get(TOP_ATTR)
    for op in module.ops:
        if isinstance(op, func.FuncOp) and (top is None or op.sym_name.data == top.data):
            return op
    raise DirectiveError("the module has no top kernel function")


class _Applier:
    def __init__(self, top: func.FuncOp, directive):
        self.top = top
        self.d = directive

    def fail(self, why: str) -> DirectiveError:
        return DirectiveError(f"{self.d.spelled()}: {why}", self.d.filename, self.d.line,
                              getattr(self.d, "col", None))

    def apply(self) -> None:
        d, opts = self.d, dict(self.d.options)
        try:
            if d.kind == "pipeline":
                pipeline_named(self.top, d.args[0], opts["ii"])
            elif d.kind == "unroll":
                unroll_named(self.top, d.args[0], opts.get("factor"))
            elif d.kind == "tile":
                tile_named(self.top, *d.args)
            elif d.kind == "reorder":
                reorder_named(self.top, d.args)
            elif d.kind == "flatten":
                flatten_named(self.top, d.args)
            else:
                raise self.fail("this directive is not a loop transformation")
        except LoopTransformError as e:
            raise self.fail(str(e)) from None


def apply_directives(module: ModuleOp, directives, loop_names: dict[str, str],
                     function: str | None = None) -> None:
    """Apply the loop directives among ``directives`` (Schedule.directives) to ``module``'s
    top function (or the kernel ``function`` it calls) in order; the others are left to
    their own passes. ``loop_names`` gives the source name of each loop variable by the
    id its induction variable is hinted with (``KernelTree.loop_names``)."""
    loop_directives = [d for d in directives if d.kind in LOOP_DIRECTIVES]
    if not loop_directives:
        return
    top = _top_function(module) if function is None else next(
        op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == function)
    name_loops(top, loop_names)
    # pipelining goes last, as in Vitis HLS where directives are not ordered: the loop is
    # pipelined as the other directives left it (unrolled by a factor, tiled, ...)
    loop_directives.sort(key=lambda d: d.kind == "pipeline")
    for d in loop_directives:
        _Applier(top, d).apply()
    unname_loops(top)
