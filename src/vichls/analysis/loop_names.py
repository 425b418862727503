"""How a loop is named: the one rule the directive API, the loop passes and the DSE share.

What: a loop answers to its label (``vichls.loop(range(n), name="lbl")``, the ``vichls.label``
attribute), to its variable's name, or to a path of names ("i/k": the loop k inside a loop
i), each part naming the loop at its level by variable or label; an enclosing loop split by
tile ("k.outer", "k.inner") still answers to "k" there. ``path_matches`` is that rule on
(name, label) paths, which the kernel's typed tree (frontend/customize.py) and the IR give
alike. On the IR, the names are ``vichls.loop_name`` attributes: ``name_loops`` puts them
on from a map of induction-variable ids to names (the kernel's, ``KernelTree.loop_names``,
or for IR text ``names_from_ir``: each loop by its induction variable's SSA name),
``find_loops`` and ``find_bands`` look loops up, and ``unname_loops`` takes the names off.

Why: a directive, a ``vichls-opt -p loop-tile{loop=j size=4}`` and a DSE point must mean
the same loops.

Assumes: a loop is an ``affine.for`` or ``scf.for`` whose first block argument is its
induction variable.
"""

from __future__ import annotations

from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from vichls.analysis.loop_utils import LoopTransformError, perfect_band
from vichls.dialects.attributes import LABEL_ATTR as LABEL, LOOP_NAME_ATTR as LOOP_NAME
from vichls.errors import DirectiveError
from vichls.signature import find_function, top_function


def is_loop(op: Operation) -> bool:
    return isinstance(op, (affine.ForOp, scf.ForOp))


def label_of(op: Operation) -> str | None:
    label = op.attributes.get(LABEL)
    return label.data if isinstance(label, StringAttr) else None


def path_matches(path, parts) -> bool:
    """Whether a loop at ``path`` ((name, label) pairs, outermost first) answers to the name
    split in ``parts``: the last part names the loop itself, each earlier part the loop at
    its level, by name or label; a loop split by tile answers to its base name there."""
    if not parts or len(path) < len(parts):
        return False
    *outer, last = parts
    if last not in path[-1]:
        return False
    return all(want in level or level[0].startswith(want + ".")
               for level, want in zip(path[len(path) - len(parts):-1], outer))


def loop_path(op: Operation) -> tuple[tuple[str, str | None], ...]:
    """(name, label or None) of every named loop from the outermost down to ``op``."""
    path = []
    while op is not None and not isinstance(op, func.FuncOp):
        if LOOP_NAME in op.attributes:
            path.append((op.attributes[LOOP_NAME].data, label_of(op)))
        op = op.parent_op()
    return tuple(reversed(path))


def answers_to(op: Operation, name: str) -> bool:
    """Whether the loop ``op`` answers to ``name`` (its label, or a path of names)."""
    if label_of(op) == name:
        return True
    return LOOP_NAME in op.attributes and path_matches(loop_path(op), name.split("/"))


def name_loops(function: Operation, names: dict[str, str]) -> None:
    """Put its name on every loop whose induction variable's id is in ``names``."""
    for op in function.walk():
        if is_loop(op):
            uid = op.body.block.args[0].name_hint
            if uid in names:
                op.attributes[LOOP_NAME] = StringAttr(names[uid])


def names_from_ir(function: Operation) -> dict[str, str]:
    """For IR text: every loop named by its induction variable's SSA name (``%i`` → i)."""
    return {op.body.block.args[0].name_hint: op.body.block.args[0].name_hint
            for op in function.walk()
            if is_loop(op) and op.body.block.args[0].name_hint is not None}


def unname_loops(function: Operation) -> None:
    for op in function.walk():
        op.attributes.pop(LOOP_NAME, None)


def find_loops(function: Operation, name: str, any_bounds: bool = False) -> list[Operation]:
    """Every loop of ``function`` named ``name``, outermost first; each an ``affine.for``
    (constant or affine bounds) unless ``any_bounds``, or the error says what it is."""
    found = [op for op in function.walk() if answers_to(op, name)]
    if not found:
        raise LoopTransformError(f"no loop named '{name}' is left to transform (a counted loop "
                            "with break, continue or return becomes a while loop, and "
                            "earlier directives may have unrolled or renamed it)")
    for op in found:
        if isinstance(op, scf.ForOp) and not any_bounds:
            raise LoopTransformError(f"loop '{name}' has bounds that are not affine in the loops "
                                "around it (they use a parameter, a loaded value or a "
                                "division, or it counts down), so it is a plain counted "
                                "loop: only pipeline applies to it")
    return found


def ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def find_bands(function: Operation, names: tuple[str, ...], *, in_order: bool
               ) -> list[list[affine.ForOp]]:
    """The perfect bands made of exactly the loops ``names`` (one per nest they share),
    outermost loop first. ``in_order``: the names must be given in nest order."""
    per_name = {n: find_loops(function, n) for n in names}
    if len(set(names)) != len(names):
        raise LoopTransformError("a loop is named twice")
    named = {id(op): n for n, ops in per_name.items() for op in ops}
    roots = [op for ops in per_name.values() for op in ops
             if not any(id(a) in named for a in ancestors(op))]
    order = {id(op): k for k, op in enumerate(function.walk())}
    bands = []
    for root in sorted({id(r): r for r in roots}.values(), key=lambda op: order[id(op)]):
        inside = {named[id(op)] for op in root.walk() if id(op) in named}
        if inside != set(names):
            continue  # a loop sharing a name with the nest's loops, outside the nest
        band = perfect_band(root, len(names))
        if band is None or {named.get(id(op)) for op in band} != set(names):
            raise LoopTransformError(f"loops {', '.join(names)} are not a perfectly nested band "
                                "(only pure arithmetic may sit between them)")
        if in_order and [named[id(op)] for op in band] != list(names):
            raise LoopTransformError("name the loops outermost first, in nest order")
        bands.append(band)
    if not bands:
        raise LoopTransformError(f"loops {', '.join(names)} are not nested in one another")
    return bands


def on_named_loops(module: Operation, transform, kernel: str = "") -> None:
    """Run ``transform(function)`` on the kernel ``kernel`` of ``module`` (default: the
    top) with its loops named: by the names they already carry (the directive API names
    them by the kernel's variables first), else by their induction variables (IR text, as
    vichls-opt reads it). What the names do not find is a DirectiveError (file:line:col of
    the kernel when the IR has it)."""
    try:
        function = find_function(module, kernel) if kernel else top_function(module)
    except KeyError:
        raise DirectiveError(f"the module has no kernel named '{kernel}'") from None
    named_here = not any(LOOP_NAME in op.attributes for op in function.walk())
    if named_here:
        name_loops(function, names_from_ir(function))
    try:
        transform(function)
    except LoopTransformError as e:
        loc = function.location
        where = (loc.filename.data, loc.line.data, loc.column.data) \
            if hasattr(loc, "filename") else (None, None, None)
        raise DirectiveError(str(e), *where) from None
    finally:
        if named_here:
            unname_loops(function)
