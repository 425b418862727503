"""Distribute a loop over the inner loops in its body: one copy of the loop per inner loop.

Why: a pipelined inner loop flattens into the loop around it only when it is that loop's
only loop (transforms/loop/loop_flatten_guarded). ``for i: tmp[i] = 0; for j: ...; for j: ...``
(atax) holds two, so each row runs two short pipelines, filling and draining both, and
at a few iterations per row the fill and drain cost more than the iterations do. Split
into ``for i: tmp[i] = 0; for j: ...`` and ``for i: for j: ...``, each nest flattens into
one long pipeline.

What: ``distribute(outer, inner)`` splits the body of ``outer`` (an ``affine.for``) into
parts, one per inner loop: the straight-line code in front of an inner loop goes with it,
the code after the last one with the last. Each part becomes a copy of ``outer`` (same
bounds, name, label and attributes), in order; the copy that holds ``inner`` is returned.
Pure ops (and ``affine.apply``) that a later part uses are cloned into it.

When: the parts run one after the other for all iterations instead of interleaved, so a
part of iteration ``i + 1`` now runs before a later part of iteration ``i``. That keeps the
results only when no element is touched by two parts in different iterations, which is
checked conservatively: every memory that two parts access, one of them writing it, is an
array accessed only by ``affine.load``/``affine.store`` whose maps all have one position
that is the outer loop's variable plus constants less than its step apart (``tmp[i]``:
each iteration has its own elements; ``tmp[i]``, ``tmp[i + 1]`` when it steps by 2). A register (0-d memref) shared by two parts, a non-pure value a later
part uses, a loop that is not an ``affine.for``, or an ``inner`` not directly in the body
of ``outer`` leave the loop as it is (None).

Assumes the loop-level IR of docs/ir.md (0-d memrefs carry values between statements).
"""

from __future__ import annotations

from xdsl.dialects import affine, memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue

from xdsl.ir.affine.affine_expr import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
)

from vichls.analysis.loop_utils import body_ops, is_pure

_ACCESSES = (affine.LoadOp, affine.StoreOp, memref.LoadOp, memref.StoreOp)
_LOOPS = (affine.ForOp, scf.ForOp, scf.WhileOp)


def _parts(ops: list[Operation]) -> list[list[Operation]] | None:
    parts, current = [], []
    for op in ops:
        current.append(op)
        if isinstance(op, affine.ForOp):
            parts.append(current)
            current = []
    if not parts:
        return None
    parts[-1] += current
    return parts


def _memories(part: list[Operation]) -> dict:
    """memory -> (accesses, written) for the loads and stores in ``part``."""
    found: dict = {}
    for op in part:
        for inner in op.walk():
            if isinstance(inner, _ACCESSES):
                accesses, written = found.get(inner.memref, ([], False))
                accesses.append(inner)
                found[inner.memref] = (accesses, written or
                                       isinstance(inner, (affine.StoreOp, memref.StoreOp)))
    return found


def _own_elements(accesses: list[Operation], iv: SSAValue, step: int) -> bool:
    """Every access names elements of its iteration of ``iv`` only: one map position is
    ``iv + c`` in all of them, the ``c`` less than a ``step`` apart (``tmp[i]``; or
    ``tmp[i]`` and ``tmp[i + 1]`` of a loop unrolled by 2)."""
    if not all(isinstance(a, (affine.LoadOp, affine.StoreOp)) for a in accesses):
        return False
    maps = [a.map.data for a in accesses]
    rank = len(maps[0].results)
    for position in range(rank):
        offsets = set()
        for access, amap in zip(accesses, maps):
            offset = _iv_offset(amap.results[position], list(access.indices), iv,
                                amap.num_dims)
            if offset is None:
                break
            offsets.add(offset)
        else:
            if max(offsets) - min(offsets) < abs(step):
                return True
    return False


def _iv_offset(expr, operands: list[SSAValue], iv: SSAValue, num_dims: int) -> int | None:
    """``c`` when ``expr`` is ``iv + c`` (``iv`` bound to one of its dimensions)."""
    offset = 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add and \
            isinstance(expr.rhs, AffineConstantExpr):
        expr, offset = expr.lhs, expr.rhs.value
    if isinstance(expr, AffineDimExpr) and expr.position < num_dims and \
            operands[expr.position] is iv:
        return offset
    return None


def distribute(outer: affine.ForOp, inner: affine.ForOp) -> affine.ForOp | None:
    ops = body_ops(outer)
    if inner not in ops or any(isinstance(x, _LOOPS) and not isinstance(x, affine.ForOp)
                               for op in ops for x in op.walk()):
        return None
    parts = _parts(ops)
    if parts is None or len(parts) < 2:
        return None
    iv = outer.body.block.args[0]
    step = outer.step.value.data
    per_part = [_memories(part) for part in parts]
    for memory in {m for found in per_part for m in found}:
        users = [found[memory] for found in per_part if memory in found]
        if len(users) < 2 or not any(written for _, written in users):
            continue
        mtype = memory.type
        if not isinstance(mtype, MemRefType) or not mtype.get_shape():
            return None  # a register carried between parts
        if not _own_elements([a for accesses, _ in users for a in accesses], iv, step):
            return None
    # values crossing parts: pure ones are cloned, others refuse
    owner_part = {op: k for k, part in enumerate(parts) for op in part}
    clones: list[list[Operation]] = [[] for _ in parts]
    for k, part in enumerate(parts):
        needed: list[Operation] = []
        for op in part:
            for inner_op in op.walk():
                for value in inner_op.operands:
                    source = value.owner
                    if isinstance(source, Operation) and owner_part.get(source, k) < k:
                        if not (is_pure(source) or isinstance(source, affine.ApplyOp)):
                            return None
                        if source not in needed:
                            needed.append(source)
        # pure ops needed by needed ops, from earlier parts too
        closure, work = [], list(needed)
        while work:
            source = work.pop()
            if source in closure:
                continue
            closure.append(source)
            for value in source.operands:
                owner = value.owner
                if isinstance(owner, Operation) and owner_part.get(owner, k) < k:
                    if not (is_pure(owner) or isinstance(owner, affine.ApplyOp)):
                        return None
                    work.append(owner)
        clones[k] = sorted(closure, key=ops.index)
    block = outer.parent_block()
    result = None
    anchor = outer
    for k, part in enumerate(parts):
        if k == 0:
            copy = outer
            if inner in part:
                result = copy
            continue
        copy = outer.clone_without_regions()  # (its region is empty)
        copy.body.add_block(_empty_like(outer))
        new_iv = copy.body.block.args[0]
        mapping = {iv: new_iv}
        terminator = copy.body.block.last_op
        for source in clones[k]:
            clone = source.clone()
            for i, operand in enumerate(clone.operands):
                if operand in mapping:
                    clone.operands[i] = mapping[operand]
            for old, new in zip(source.results, clone.results):
                mapping[old] = new
            copy.body.block.insert_op_before(clone, terminator)
        for op in part:
            op.detach()
            copy.body.block.insert_op_before(op, terminator)
            for inner_op in op.walk():
                for i, operand in enumerate(inner_op.operands):
                    if operand in mapping:
                        inner_op.operands[i] = mapping[operand]
        block.insert_op_after(copy, anchor)
        anchor = copy
        if inner in part:
            result = copy
    return result


def _empty_like(loop: affine.ForOp) -> Block:
    """A body for a copy of ``loop``: its block arguments and terminator, nothing else."""
    body = loop.body.block
    block = Block(arg_types=[a.type for a in body.args])
    for old, new in zip(body.args, block.args):
        new.name_hint = old.name_hint
    block.add_op(body.last_op.clone())
    return block
