"""Apply a Schedule's loop directives (pipeline, unroll, tile, reorder, flatten) to a loop-level module.

What: finds the loops each directive names in the top kernel's function and runs the
matching pass (passes/loop_pipeline, loop_unroll, loop_tile, loop_reorder, loop_flatten), in the order the
directives were recorded, before any back end sees the module.

Loop names, as in ``Schedule``: a loop is named by its loop variable, by a path of loop
variables ending in it ("i/k"; a loop split by tile still answers to its name there), or by its label (``vichls.loop(..., name=...)``); a name
several loops share applies to each of them. Tiling loop ``x`` names its new loops
``x.outer`` and ``x.inner``, which later directives may use. The front end marks a loop's
induction variable with the variable's unique id (``name_hint``); the kernel's checked tree
maps ids back to names (``loop_names``). While the directives run, every named loop carries a
``vichls.loop_name`` attribute; it is removed at the end so the back ends see plain IR.

Errors: a directive that cannot apply raises DirectiveError naming it (``s.tile('j', 4)``)
and why, at the line where it was recorded.
"""

from __future__ import annotations


from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

from vichls.errors import DirectiveError
from vichls.transforms.loop.loop_flatten import flatten_band
from vichls.transforms.loop.loop_pipeline import pipeline_loop
from vichls.transforms.loop.loop_reorder import reorder_band
from vichls.transforms.loop.loop_tile import tile_loop
from vichls.transforms.loop.loop_unroll import unroll_loop
from vichls.analysis.loop_utils import LABEL, LOOP_NAME, LoopTransformError, perfect_band

LOOP_DIRECTIVES = ("pipeline", "unroll", "tile", "reorder", "flatten")


def _top_function(module: ModuleOp) -> func.FuncOp:
    top = module.attributes.get("vichls.top")
    for op in module.ops:
        if isinstance(op, func.FuncOp) and (top is None or op.sym_name.data == top.data):
            return op
    raise DirectiveError("the module has no top kernel function")


def _is_loop(op: Operation) -> bool:
    return isinstance(op, (affine.ForOp, scf.ForOp))


def _name_loops(top: func.FuncOp, names: dict[str, str]) -> None:
    for op in top.walk():
        if _is_loop(op):
            uid = op.body.block.args[0].name_hint
            if uid in names:
                op.attributes[LOOP_NAME] = StringAttr(names[uid])


def _label(op: Operation) -> str | None:
    label = op.attributes.get(LABEL)
    return label.data if isinstance(label, StringAttr) else None


def _path(op: Operation) -> tuple[tuple[str, str | None], ...]:
    """(name, label or None) of every named loop from the outermost down to ``op``."""
    path = []
    while op is not None and not isinstance(op, func.FuncOp):
        if LOOP_NAME in op.attributes:
            path.append((op.attributes[LOOP_NAME].data, _label(op)))
        op = op.parent_op()
    return tuple(reversed(path))


def _matches(op: Operation, name: str) -> bool:
    """Whether ``op`` answers to ``name``: its label, or a path whose parts each name the
    loop at their level by variable or label (schedule.path_matches)."""
    if _label(op) == name:
        return True
    if LOOP_NAME not in op.attributes:
        return False
    parts = name.split("/")
    path = _path(op)
    if len(path) < len(parts) or parts[-1] not in path[-1]:
        return False
    # An enclosing loop split by tile ("k.outer", "k.inner") still answers to "k".
    return all(want in level or level[0].startswith(want + ".")
               for level, want in zip(path[-len(parts):-1], parts[:-1]))


class _Applier:
    def __init__(self, top: func.FuncOp, directive):
        self.top = top
        self.d = directive

    def fail(self, why: str) -> DirectiveError:
        return DirectiveError(f"{self.d.spelled()}: {why}", self.d.filename, self.d.line,
                              getattr(self.d, "col", None))

    def find(self, name: str, any_bounds: bool = False) -> list[Operation]:
        """Every loop named ``name``, outermost first; each an affine.for with constant
        bounds (or any counted loop with ``any_bounds``), or the error says what it is
        instead."""
        found = [op for op in self.top.walk() if _matches(op, name)]
        if not found:
            raise self.fail(f"no loop named '{name}' is left to transform (a counted loop "
                            "with break, continue or return becomes a while loop, and "
                            "earlier directives may have unrolled or renamed it)")
        for op in found:
            if isinstance(op, scf.ForOp) and not any_bounds:
                raise self.fail(f"loop '{name}' has bounds that are not affine in the loops "
                                "around it (they use a parameter, a loaded value or a "
                                "division, or it counts down), so it is a plain counted "
                                "loop: only pipeline applies to it")
        return found

    def band(self, names: tuple[str, ...], *, in_order: bool) -> list[list[affine.ForOp]]:
        """The perfect bands made of exactly the loops ``names`` (one per nest they share)."""
        per_name = {n: self.find(n) for n in names}
        if len(set(names)) != len(names):
            raise self.fail("a loop is named twice")
        named = {id(op): n for n, ops in per_name.items() for op in ops}
        roots = [op for ops in per_name.values() for op in ops
                 if not any(id(a) in named for a in _ancestors(op))]
        bands = []
        for root in sorted({id(r): r for r in roots}.values(),
                           key=lambda op: _position(self.top, op)):
            inside = {named[id(op)] for op in root.walk() if id(op) in named}
            if inside != set(names):
                continue  # a loop sharing a name with the nest's loops, outside the nest
            band = perfect_band(root, len(names))
            if band is None or {named.get(id(op)) for op in band} != set(names):
                raise self.fail(f"loops {', '.join(names)} are not a perfectly nested band "
                                "(only pure arithmetic may sit between them)")
            if in_order and [named[id(op)] for op in band] != list(names):
                raise self.fail("name the loops outermost first, in nest order")
            bands.append(band)
        if not bands:
            raise self.fail(f"loops {', '.join(names)} are not nested in one another")
        return bands

    def apply(self) -> None:
        d, opts = self.d, dict(self.d.options)
        try:
            if d.kind == "pipeline":
                for loop in self.find(d.args[0], any_bounds=True):
                    if any(_matches(a, d.args[0]) for a in _ancestors(loop)):
                        continue  # pipelining the outer one unrolls this one anyway
                    pipeline_loop(loop, opts["ii"])
            elif d.kind == "unroll":
                for loop in reversed(self.find(d.args[0])):
                    unroll_loop(loop, opts.get("factor"))
            elif d.kind == "tile":
                name, size = d.args
                base = name.split("/")[-1]
                for loop in reversed(self.find(name)):
                    tile_loop(loop, size, base)
            elif d.kind == "reorder":
                for band in self.band(d.args, in_order=False):
                    current = [next(n for n in d.args if _matches(op, n)) for op in band]
                    order = [current.index(n) for n in d.args]
                    reorder_band(band, order)
            elif d.kind == "flatten":
                for band in self.band(d.args, in_order=True):
                    flatten_band(band)
            else:
                raise self.fail("this directive is not a loop transformation")
        except LoopTransformError as e:
            raise self.fail(str(e)) from None


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def _position(top: Operation, target: Operation) -> int:
    return next(k for k, op in enumerate(top.walk()) if op is target)


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
    _name_loops(top, loop_names)
    # pipelining goes last, as in Vitis HLS where directives are not ordered: the loop is
    # pipelined as the other directives left it (unrolled by a factor, tiled, ...)
    loop_directives.sort(key=lambda d: d.kind == "pipeline")
    for d in loop_directives:
        _Applier(top, d).apply()
    for op in top.walk():
        op.attributes.pop(LOOP_NAME, None)
