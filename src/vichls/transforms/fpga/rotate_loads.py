"""Load rotation: read an array one iteration ahead, into a register.

Why: without pipelining, every iteration of a loop first waits one cycle for its array
reads (read latency 1) before it can compute. A load whose array the loop never writes
can instead be issued in the previous iteration (and, for the first iteration, before the
loop), its value kept in a register that the iteration reads at once. In gemm's inner
loop that turns ``load; multiply; add and store`` (3 cycles) into ``multiply (from the
register) while loading C; add and store`` (2 cycles).

For each ``memref.load`` directly in an ``scf.for`` body from an N-d memref that nothing
in the loop stores to, whose indices are computed in the body from the induction variable
and loop invariants by arith ops only:

    before the loop:   buf = A[f(lb)]             (index 0 instead if lb >= ub)
    in the body:       x = buf   ...at the load's place
    end of the body:   buf = A[f(iv + step)]      (index 0 instead on the last iteration)

``buf`` is a 0-d alloca (a register). The substitute index 0 keeps every read inside the
array, as the ap_memory contract expects; the value read then is never used. Assumes the
IR after lower-affine (scf.for over index) and that the memref is not aliased by another.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.transforms.fpga.hoist_loop_invariants import runs_at_least_once as _runs_at_least_once
from vichls.analysis.loop_utils import pipeline_ii
from vichls.analysis.loop_utils import function_entry


def rotate_loads(module: ModuleOp) -> None:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    for loop in reversed(loops):  # inner loops first
        if pipeline_ii(loop) is None:  # a pipeline overlaps its reads by itself
            _rotate_in(loop)


def _index_slice(load: memref.LoadOp, body: Block) -> list[Operation] | None:
    """The arith ops of ``body`` that compute the load's indices, in block order, or None
    if the indices depend on anything else defined in the body."""
    iv = body.args[0]
    needed: set[Operation] = set()
    work = list(load.indices)
    while work:
        v = work.pop()
        if v is iv:
            continue
        owner = v.owner
        if isinstance(owner, Block) or owner.parent_block() is not body:
            if isinstance(owner, Block) and owner is body:
                return None
            continue  # defined outside the loop: invariant
        if owner.dialect_name() != "arith" or owner.regions:
            return None
        if owner not in needed:
            needed.add(owner)
            work.extend(owner.operands)
    return [op for op in body.ops if op in needed]


def _clone_load(load: memref.LoadOp, slice_ops, iv: SSAValue, iv_value: SSAValue,
                valid: SSAValue | None, point: InsertPoint) -> SSAValue:
    """Insert at ``point`` a load of ``load``'s element at ``iv = iv_value``, reading
    index 0 instead where ``valid`` is false (no guard if None); return the value."""
    mapping = {iv: iv_value}
    new_ops = []
    for op in slice_ops:
        new_ops.append(op.clone(value_mapper=mapping))
    indices = [mapping.get(index, index) for index in load.indices]
    if valid is not None:
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        new_ops.append(zero)
        selects = [arith.SelectOp(valid, index, zero.result) for index in indices]
        new_ops += selects
        indices = [op.result for op in selects]
    new_load = memref.LoadOp.get(load.memref, indices)
    new_ops.append(new_load)
    Rewriter.insert_op(new_ops, point)
    return new_load.res


def _rotate_in(loop: scf.ForOp) -> None:
    body = loop.body.block
    iv = body.args[0]
    stored = {op.memref for op in loop.walk() if isinstance(op, memref.StoreOp)}
    candidates = [
        op for op in body.ops
        if isinstance(op, memref.LoadOp)
        and isinstance(op.memref.type, MemRefType)
        and op.memref.type.get_shape()
        and op.memref not in stored
    ]
    for load in candidates:
        slice_ops = _index_slice(load, body)
        if slice_ops is None:
            continue
        element = load.res.type
        buf = memref.AllocaOp.get(element, shape=[])
        entry = function_entry(loop)
        Rewriter.insert_op(buf, InsertPoint.at_start(entry))
        buf.memref.name_hint = f"{load.memref.name_hint or 'array'}_next"
        # the first iteration's element, read before the loop
        before = InsertPoint.before(loop)
        if _runs_at_least_once(loop):
            enters = None
        else:
            enters = arith.CmpiOp(loop.lb, loop.ub, "slt")
            Rewriter.insert_op(enters, before)
        first = _clone_load(load, slice_ops, iv, loop.lb, enters and enters.result, before)
        Rewriter.insert_op(memref.StoreOp.get(first, buf.memref, []), before)
        # the next iteration's element, read at the end of this one
        end = InsertPoint.before(body.last_op)
        following = arith.AddiOp(iv, loop.step)
        more = arith.CmpiOp(following.result, loop.ub, "slt")
        Rewriter.insert_op([following, more], end)
        ahead = _clone_load(load, slice_ops, iv, following.result, more.result, end)
        Rewriter.insert_op(memref.StoreOp.get(ahead, buf.memref, []), end)
        # this iteration reads the register
        current = memref.LoadOp.get(buf.memref, [])
        Rewriter.insert_op(current, InsertPoint.before(load))
        load.res.replace_all_uses_with(current.res)
        load.detach()
        load.erase()


@dataclass(frozen=True)
class RotateLoadsPass(ModulePass):
    """Read arrays a loop only reads one iteration ahead."""

    name = "rotate-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rotate_loads(op)
