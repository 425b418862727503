"""Mark a loop for pipelining, and fully unroll the loops inside it (the pipeline directive).

Why: a pipelined loop starts a new iteration every II cycles while earlier ones are still
running; the instruction level (scheduling/modulo_schedule) schedules one iteration's
operations so that overlapping iterations never compete for a memory port or a unit. That
needs the iteration to be straight-line code (ifs are fine: the scheduler predicates
them), so, as Vitis HLS does, every loop inside a pipelined loop is unrolled completely.

What: ``pipeline_loop(loop, ii, flatten)`` fully unrolls each ``affine.for`` nested in ``loop`` (an
``affine.for``, or an ``scf.for`` whose bounds are not constants), innermost first; then,
as Vitis HLS flattens a pipelined loop into a perfect or semi-perfect nest around it,
unless ``flatten`` is False, flattens it into the loops around it while transforms/loop/loop_flatten_guarded can (constant
bounds, only straight-line code beside it; a loop around it that holds other inner loops
too is first split by transforms/loop/loop_distribute where that keeps the results); and sets ``vichls.pipeline = ii`` (the
initiation interval asked for) on the resulting loop, which it returns. The attribute
survives lowering (transforms/fpga/lower_affine_fpga keeps loop attributes).

Assumes the loop-level IR of docs/ir.md. Raises LoopTransformError when an inner loop
cannot be unrolled (its bounds are not constants, or it is a ``while``: a loop with
``break``, ``continue`` or ``return``), naming that loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from vichls.analysis.loop_names import ancestors, answers_to, find_loops, on_named_loops
from vichls.transforms.loop.loop_distribute import distribute
from vichls.transforms.loop.loop_flatten_guarded import flatten_guarded
from vichls.transforms.loop.loop_unroll import unroll_loop
from vichls.analysis.loop_utils import (
    LoopTransformError,
    constant_bounds,
    loop_display_name,
    pipeline_ii,
    unrolled_copies,
)
from vichls.limits import unroll_limit, unroll_limit_hint
from vichls.dialects.attributes import PIPELINE_ATTR


#: Unrolling more copies than this into one pipelined iteration is almost surely a mistake
#: (and would take long to schedule): say so instead.
MAX_UNROLLED_OPS = 20000


def pipeline_loop(loop: Operation, ii: int, flatten: bool = True) -> Operation:
    if ii < 1:
        raise LoopTransformError("ii must be a positive integer")
    for op in loop.body.walk():
        if isinstance(op, scf.WhileOp):
            raise LoopTransformError(
                "it contains a loop with break, continue or return (a while loop), which "
                "cannot be unrolled into the pipelined iteration")
    inner = [op for op in loop.body.walk() if isinstance(op, (affine.ForOp, scf.ForOp))]
    for op in inner:
        if isinstance(op, scf.ForOp) or constant_bounds(op) is None:
            raise LoopTransformError(
                f"the inner loop '{loop_display_name(op)}' has bounds that are not constants, "
                "so it cannot be fully unrolled into the pipelined iteration; pipeline that "
                "inner loop instead")
    copies = unrolled_copies(loop.body.block)
    if inner and copies > unroll_limit():
        raise LoopTransformError(
            f"pipelining loop '{loop_display_name(loop)}' unrolls its inner loops into "
            f"{copies} copies of their bodies per iteration; pipeline an inner loop "
            f"instead ({unroll_limit_hint()})")
    for op in reversed(inner):  # innermost first: each unroll sees constant-bound copies
        unroll_loop(op, None)
        if sum(1 for _ in loop.body.walk()) > MAX_UNROLLED_OPS:
            raise LoopTransformError(
                f"fully unrolling its inner loops gives more than {MAX_UNROLLED_OPS} "
                "operations per iteration; pipeline an inner loop instead")
    # a semi-perfect nest around the loop becomes one flat pipelined loop, level by level;
    # a loop around it with other inner loops is first split into one loop per inner loop
    while flatten and isinstance(loop, affine.ForOp) and isinstance(loop.parent_op(), affine.ForOp):
        flat = flatten_guarded(loop.parent_op(), loop)
        if flat is None and distribute(loop.parent_op(), loop) is not None:
            flat = flatten_guarded(loop.parent_op(), loop)
        if flat is None:
            break
        loop = flat
    loop.attributes[PIPELINE_ATTR] = IntegerAttr(ii, i64)
    return loop



def unroll_inlined_loops_in_pipelines(module: ModuleOp) -> None:
    """Loops that inlining brought into a pipelined loop (from a called kernel) are
    unrolled too, as the pipeline directive does for the loop's own inner loops."""
    from vichls.analysis.loop_utils import LoopTransformError
    from vichls.errors import FpgaError

    for op in list(module.walk()):
        ii = pipeline_ii(op)
        if ii is None or not any(isinstance(x, (affine.ForOp, scf.ForOp, scf.WhileOp))
                                 for x in op.body.walk()):
            continue
        try:
            pipeline_loop(op, ii)
        except LoopTransformError as e:
            raise FpgaError.at(op, f"cannot pipeline this loop: {e}") from None

@dataclass(frozen=True)
class UnrollInPipelinesPass(ModulePass):
    """Unroll the loops that inlining brought into a pipelined loop."""

    name = "unroll-in-pipelines"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        unroll_inlined_loops_in_pipelines(op)


def pipeline_named(function: Operation, name: str, ii: int, flatten: bool = True) -> None:
    """Pipeline every loop named ``name`` (analysis/loop_names.py) at ``ii``; a loop inside
    another of that name is left to it (pipelining the outer one unrolls it anyway)."""
    for loop in find_loops(function, name, any_bounds=True):
        if not any(answers_to(a, name) for a in ancestors(loop)):
            pipeline_loop(loop, ii, flatten)


@dataclass(frozen=True)
class LoopPipelinePass(ModulePass):
    """``loop-pipeline{loop=NAME ii=N}``: the pipeline directive on IR text; a loop is named
    by its induction variable, a path of them ("i/j") or its label."""

    name = "loop-pipeline"
    loop: str
    ii: int = 1
    kernel: str = ""  # the kernel whose loops these are (default: the top)
    flatten: bool = True  # False: the loops around it are not flattened into it

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        on_named_loops(op, lambda f: pipeline_named(f, self.loop, self.ii, self.flatten),
                       self.kernel)
