"""Reuse, after a ``while`` loop, the array elements its condition read on the way out.

Why: a ``while`` loop leaves from its condition, so the code right after it sees the
registers and memories exactly as the last evaluation of the condition saw them. The KMP
matcher reads ``pattern[matched]`` in ``while matched > 0 and pattern[matched] !=
text[i]`` and again in ``if pattern[matched] == text[i]`` right after: the second read
costs a memory cycle at the start of the code after the loop, on every character. Kept in a
register written by the condition, the element is there when that code starts.

What: for every ``scf.while`` outside pipelined loops, each array load in the top block of
its ``before`` region (so it runs on every evaluation, the last one included) from a
memory the condition code does not write, at an index computed from values defined
outside the loop, constants and reads of registers the condition code does not write, is
a candidate. A load of the same memory in the block after the loop, before any op that may
write that memory or one of those registers, whose index is the same expression (the same
operations on the same outside values, constants and registers) reads the same element:
it becomes a read of a new register that the condition code writes with its load's value.

Assumes the loop-level IR of the FPGA preparation (scf/arith/memref), registers as 0-d
memrefs read and written only by ``memref.load``/``memref.store`` (docs/ir.md), and runs
before scheduling. A ``while`` in a pipelined loop is left alone (the pipeline flattens
nothing around it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.analysis.loop_utils import in_pipeline
from vichls.analysis.loop_utils import defined_inside, function_entry
from vichls.scheduling.list_schedule import is_scalar_memref


def forward_while_exit_loads(module: ModuleOp) -> None:
    for loop in [op for op in module.walk() if isinstance(op, scf.WhileOp)]:
        if not in_pipeline(loop):
            _forward(loop)


def _forward(loop: scf.WhileOp) -> None:
    condition_code = loop.before_region.block
    written = _written_memories(loop.before_region.walk())
    candidates: dict[tuple, memref.LoadOp] = {}
    for op in condition_code.ops:
        if (isinstance(op, memref.LoadOp) and not is_scalar_memref(op.memref)
                and op.memref not in written):
            key = _load_key(op, loop, written, set(condition_code.ops))
            if key is not None:
                candidates.setdefault(key, op)
    if not candidates:
        return
    registers: dict[tuple, SSAValue] = {}
    changed: set[SSAValue] = set()  # memories written since the loop left
    since_exit: set[Operation] = set()  # (values from before the loop are the same ones)
    after = loop.next_op
    while after is not None and not _foreign(after):
        following = after.next_op
        since_exit.add(after)
        if isinstance(after, memref.LoadOp) and not is_scalar_memref(after.memref):
            key = _load_key(after, None, changed, since_exit)
            if key is not None and key in candidates and after.memref not in changed:
                source = candidates[key]
                if key not in registers:
                    registers[key] = _exit_register(source, loop)
                current = memref.LoadOp.get(registers[key], [])
                current.location = after.location
                Rewriter.insert_op(current, InsertPoint.before(after))
                after.res.replace_all_uses_with(current.res)
                Rewriter.erase_op(after)
        else:
            changed |= _written_memories(after.walk())
        after = following


def _exit_register(source: memref.LoadOp, loop: scf.WhileOp) -> SSAValue:
    """A register the condition code writes with ``source``'s value on every evaluation."""
    register = memref.AllocaOp.get(source.res.type, shape=[])
    register.memref.name_hint = f"{source.memref.name_hint or 'array'}_at_exit"
    Rewriter.insert_op(register, InsertPoint.at_start(function_entry(loop)))
    store = memref.StoreOp.get(source.res, register.memref, [])
    store.location = source.location
    Rewriter.insert_op(store, InsertPoint.after(source))
    return register.memref


def _load_key(load: memref.LoadOp, loop: scf.WhileOp | None, excluded: set,
              code: set[Operation]) -> tuple | None:
    """The memory and index expressions of ``load`` through the ops of ``code``, or None
    when an index reads a register in ``excluded`` or anything but constants, pure
    arithmetic, register reads and (for a load in the condition code of ``loop``) values
    from outside the loop. A value from outside ``code`` is a leaf: the same SSA value
    in the condition and after the loop."""
    indices = []
    for index in load.indices:
        key = _expression_key(index, loop, excluded, code)
        if key is None:
            return None
        indices.append(key)
    return (load.memref, tuple(indices))


def _expression_key(value: SSAValue, loop: scf.WhileOp | None, excluded: set,
                    code: set[Operation]) -> tuple | None:
    op = value.owner
    if not isinstance(op, Operation) or op not in code:
        # a value from around the code: for a condition-code load, it must come from
        # outside the loop; after the loop, every outside value is the same one
        if loop is not None and defined_inside(value, loop):
            return None
        return ("value", value)
    if isinstance(op, memref.LoadOp):
        if not is_scalar_memref(op.memref) or op.memref in excluded:
            return None
        return ("register", op.memref)
    if isinstance(op, arith.ConstantOp):
        return ("constant", op.value, value.type)
    if op.dialect_name() != "arith" or op.regions or len(op.results) != 1:
        return None
    operands = []
    for operand in op.operands:
        key = _expression_key(operand, loop, excluded, code)
        if key is None:
            return None
        operands.append(key)
    attributes = tuple(sorted((name, str(attr)) for name, attr
                              in (*op.properties.items(), *op.attributes.items())))
    return (op.name, attributes, value.type, tuple(operands))


def _written_memories(ops) -> set[SSAValue]:
    return {op.memref for op in ops if isinstance(op, memref.StoreOp)}


def _foreign(op: Operation) -> bool:
    """An op that may touch memories other than through memref stores (a stream, a call):
    the scan after the loop stops there."""
    return any(inner.dialect_name() not in ("arith", "memref", "scf") for inner in op.walk())


@dataclass(frozen=True)
class ForwardWhileExitLoadsPass(ModulePass):
    """Loads after a while loop reuse the elements its condition read."""

    name = "forward-while-exit-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        forward_while_exit_loads(op)
