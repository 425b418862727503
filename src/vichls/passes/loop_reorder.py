"""Reorder (interchange) the loops of a perfectly nested band of ``affine.for`` loops whose
bounds are constants or affine in values defined outside the band.

Why: the loop order decides which loop is innermost (the one a pipeline or an unroll
works on) and the order of memory accesses; e.g. gemm's ``k, j`` order gives a reduction
over ``k`` in the innermost loop when swapped.

What: the band's loop headers (bounds, step, name, label, induction variable) are permuted
and the innermost body moved under the new innermost loop. Pure ``arith`` ops between the
loops (index casts of induction variables) are first sunk into the innermost body.

Legality (the Python call fixes the order of every memory effect, so a reorder must not
change any result): the pass refuses unless, for every memref stored to in the band, every
access to it in the band is an affine access with one and the same map and operands, and
the loops of the band whose induction variables that map does not use keep their relative
order. Two iterations then touch the same element only when they agree on the used
variables, and their relative order is decided by the unused ones, whose order is kept.
Reads of memrefs the band does not write are free. A memref whose only accesses are one
read-modify-write of one element with a commutative, associative wrapping operation
(``+= *= &= |= ^=``) may be updated in any order: integer reductions reorder freely. Calls
are refused (unknown effects). A band whose loop bounds use another band loop's variable
(a triangular nest) is refused: its iteration space is not a box, so exchanging the
headers would change it (the bound transformation that would keep it is not done).

Assumes: the loop-level IR of docs/ir.md.
"""

from __future__ import annotations

from typing import Sequence

from xdsl.dialects import affine, arith, func, memref
from xdsl.ir import Operation, SSAValue

from vichls.passes.loop_utils import LoopTransformError, defined_inside
from vichls.passes.loop_utils import loop_display_name, sink_pure_ops


def _accessed_memref(op: Operation) -> tuple[SSAValue, bool] | None:
    """(memref, is_store) of a memory access, else None."""
    if isinstance(op, (affine.LoadOp, memref.LoadOp)):
        return op.memref, False
    if isinstance(op, (affine.StoreOp, memref.StoreOp)):
        return op.memref, True
    return None


_COMMUTATIVE = (arith.AddiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp)


def _single_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _is_commutative_update(ops: list[Operation]) -> bool:
    """Whether the only accesses to a memref are ``x = load e; store (x op y), e`` on one
    element, with ``op`` commutative and associative in wrapping arithmetic (add, mul, and,
    or, xor; widened and truncated back is the same): such updates give the same result in
    any order, as long as nothing else reads the element inside the nest."""
    if len(ops) != 2:
        return False
    load, store = ops
    if not (isinstance(load, (affine.LoadOp, memref.LoadOp))
            and isinstance(store, (affine.StoreOp, memref.StoreOp))):
        return False
    if load.parent_block() is not store.parent_block() or list(load.indices) != list(
            store.indices) or getattr(load, "map", None) != getattr(store, "map", None):
        return False
    value = load.results[0]
    user = _single_user(value)
    if isinstance(user, (arith.ExtSIOp, arith.ExtUIOp)):
        value, user = user.results[0], _single_user(user.results[0])
    if not isinstance(user, _COMMUTATIVE) or value not in user.operands:
        return False
    other = [v for v in user.operands if v is not value]
    if len(other) != 1:  # x op x: the element read twice
        return False
    result = user.results[0]
    after = _single_user(result)
    if isinstance(after, arith.TruncIOp):
        result, after = after.results[0], _single_user(after.results[0])
    return after is store and store.value is result


def _check_legal(band: Sequence[affine.ForOp], order: Sequence[int]) -> None:
    ivs = [loop.body.block.args[0] for loop in band]
    accesses: dict[SSAValue, list[Operation]] = {}
    stored: set[SSAValue] = set()
    for op in band[-1].walk():
        if isinstance(op, func.CallOp):
            raise LoopTransformError(f"the nest calls '{op.callee.string_value()}', whose "
                                     "memory effects the reorder cannot see")
        found = _accessed_memref(op)
        if found is None:
            continue
        ref, is_store = found
        accesses.setdefault(ref, []).append(op)
        if is_store:
            stored.add(ref)
    for ref in stored:
        ops = accesses[ref]
        first = ops[0]
        name = ref.name_hint or "a local variable"
        if _is_commutative_update(ops):
            continue
        if not all(isinstance(op, (affine.LoadOp, affine.StoreOp)) for op in ops) or any(
                op.map != first.map or list(op.indices) != list(first.indices) for op in ops):
            raise LoopTransformError(
                f"it could change the result: '{name}' is written in the nest and not always "
                "at the same affine index")
        used = {v for k, v in enumerate(first.indices) if k in first.map.data.used_dims()}
        unused = [k for k, iv in enumerate(ivs) if iv not in used]
        kept = [k for k in order if k in unused]
        if kept != unused:
            names = ", ".join(loop_display_name(band[k]) for k in unused)
            raise LoopTransformError(
                f"it could change the result: the elements of '{name}' written in the nest "
                f"are updated in the order of loops {names}, which the new order changes")


def reorder_band(band: Sequence[affine.ForOp], order: Sequence[int]) -> list[affine.ForOp]:
    """Reorder the perfect band ``band`` (outermost first) so that the new k-th loop is
    ``band[order[k]]``'s header. Returns the new band, outermost first."""
    if sorted(order) != list(range(len(band))):
        raise LoopTransformError("the order is not a permutation of the nest's loops")
    for loop in band:
        if not isinstance(loop, affine.ForOp) or loop.results:
            raise LoopTransformError(f"loop '{loop_display_name(loop)}' is not an affine.for")
        for other in band:
            if any(defined_inside(v, other) for v in loop.operands):
                raise LoopTransformError(
                    f"the bounds of loop '{loop_display_name(loop)}' depend on loop "
                    f"'{loop_display_name(other)}' of the band (a triangular nest): "
                    "reordering would change the iteration space")
    if list(order) == list(range(len(band))):
        return list(band)
    _check_legal(band, order)
    sink_pure_ops(list(band))
    # Swap headers in place: the ops stay, their bounds (maps and operands, all defined
    # outside the band), steps, attributes and induction variables move. Fresh block
    # arguments avoid aliasing during the exchange.
    headers = [(dict(loop.properties), dict(loop.attributes), loop.body.block.args[0],
                list(loop.operands)) for loop in band]
    new_ivs = []
    for loop, src in zip(band, order):
        props, attrs, old_iv, operands = headers[src]
        loop.operands = operands
        loop.properties.update(props)
        loop.attributes.clear()
        loop.attributes.update(attrs)
        block = loop.body.block
        new_iv = block.insert_arg(old_iv.type, 1)
        new_iv.name_hint = old_iv.name_hint
        new_ivs.append((old_iv, new_iv))
    for old_iv, new_iv in new_ivs:
        old_iv.replace_all_uses_with(new_iv)
    for loop in band:
        loop.body.block.erase_arg(loop.body.block.args[0])
    # Locations follow the headers too.
    locations = [band[src].location for src in order]
    for loop, loc in zip(band, locations):
        loop.location = loc
    return list(band)
