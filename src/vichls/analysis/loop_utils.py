"""Shared helpers of the loop passes (the directives unroll, tile, reorder, flatten; and
``defined_inside``, which loop-invariant motion and scalar replacement use too).

What: reading the constant bounds of an ``affine.for``, replacing an induction variable by
an affine expression of other index values (folded into the maps of ``affine.load`` /
``affine.store`` so that addresses stay affine, materialised as ``arith`` on ``index`` for
every other use), finding perfectly nested bands, and the loop-name attribute the
directive driver uses to find loops; whether a loop is pipelined, and at which interval
(``pipeline_ii``, ``in_pipeline``).

Assumes the loop-level IR of docs/ir.md: ``affine.for`` with constant bounds and a positive
step, no ``iter_args``, maps with dimensions only. Expressions given to
``replace_induction_variable`` are built from ``+``, ``*`` by a constant, and
``floordiv`` / ``mod`` by a positive constant of values that are never negative (the
passes only divide loop counters that start at 0), so they lower to unsigned ``arith``.
Such a non-linear replacement (flatten's) stays a map operand of the affine accesses: a
value affine in the flattened induction variable, computed with shifts and masks rather
than the signed division ``lower-affine`` would make of a ``floordiv`` in the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from vichls.dialects.attributes import (
    LOOP_NAME_ATTR as LOOP_NAME,
    PIPELINE_ATTR,
)


#: On a loop the pipeline directive names: the initiation interval asked for (i64).


def pipeline_ii(loop: Operation) -> int | None:
    """The initiation interval asked for ``loop``, or None when it is not pipelined."""
    attr = loop.attributes.get(PIPELINE_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def in_pipeline(op: Operation) -> bool:
    """Whether ``op`` is nested in a pipelined loop (``affine.for`` or ``scf.for``)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, (affine.ForOp, scf.ForOp)) and pipeline_ii(parent) is not None:
            return True
        parent = parent.parent_op()
    return False



def function_entry(op: Operation) -> Block:
    """The entry block of the function holding ``op`` (where its allocas go)."""
    holder = op
    while holder.parent_op() is not None and holder.parent_op().name != "func.func":
        holder = holder.parent_op()
    return holder.parent_op().regions[0].blocks.first


def defined_inside(value: SSAValue, loop: Operation) -> bool:
    """Is ``value`` defined by an op (or a block argument) nested in ``loop``?"""
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


class LoopTransformError(Exception):
    """A loop transformation that cannot apply; the message says why (the directive driver
    wraps it into a DirectiveError naming the directive)."""


@dataclass(frozen=True)
class ConstantBounds:
    lower: int
    upper: int
    step: int

    @property
    def trip_count(self) -> int:
        if self.upper <= self.lower:
            return 0
        return (self.upper - self.lower + self.step - 1) // self.step


def _constant_of(m: AffineMap) -> int | None:
    if m.num_dims or m.num_symbols or len(m.results) != 1:
        return None
    e = m.results[0]
    return e.value if isinstance(e, AffineConstantExpr) else None


def constant_bounds(loop: Operation) -> ConstantBounds | None:
    """The bounds of an ``affine.for`` with constant bounds and no results, else None."""
    if not isinstance(loop, affine.ForOp) or loop.results:
        return None
    lower = _constant_of(loop.lowerBoundMap.data)
    upper = _constant_of(loop.upperBoundMap.data)
    if lower is None or upper is None:
        return None
    return ConstantBounds(lower, upper, loop.step.value.data)


def scf_constant_bounds(loop: scf.ForOp) -> ConstantBounds | None:
    """The bounds of an ``scf.for`` whose bounds are constants and whose step is positive,
    else None (the IR after lower-affine)."""
    values = []
    for v in (loop.lb, loop.ub, loop.step):
        owner = v.owner
        if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
            return None
        values.append(owner.value.value.data)
    lower, upper, step = values
    return ConstantBounds(lower, upper, step) if step > 0 else None


def unrolled_copies(block: Block) -> int:
    """How many copies of loop bodies unrolling every constant-bound loop in ``block``
    (nested ones included) makes: each loop counts its trip count times what its own body
    makes (at least one copy); loops side by side add up. What a pipeline directive
    implies for the loops inside its loop, and what limits.unroll_limit bounds."""
    total = 0
    for op in block.ops:
        if isinstance(op, affine.ForOp):
            bounds = constant_bounds(op)
            trips = bounds.trip_count if bounds is not None else 1
            total += trips * max(1, unrolled_copies(op.body.block))
        else:
            for region in op.regions:
                for inner in region.blocks:
                    total += unrolled_copies(inner)
    return total


def loop_display_name(loop: Operation) -> str:
    """The loop's name while directives run, else its induction variable's (the source
    name, made unique: ``i_1`` for a second loop over ``i``), else the op's name."""
    name = loop.attributes.get(LOOP_NAME)
    if isinstance(name, StringAttr):
        return name.data
    body = loop.regions[0].blocks[0] if loop.regions and loop.regions[0].blocks else None
    if body is not None and body.args and body.args[0].name_hint:
        return body.args[0].name_hint
    return loop.name


def new_affine_for(bounds: ConstantBounds, body_ops: Sequence[Operation], template: Operation,
                   name: str | None = None, name_hint: str | None = None) -> affine.ForOp:
    """An ``affine.for`` over ``bounds`` at ``template``'s location, whose body is
    ``body_ops`` (moved, already detached) and a yield; the induction variable is
    ``loop.body.block.args[0]``. ``name`` becomes its loop-name attribute."""
    block = Block(arg_types=[IndexType()])
    block.args[0].name_hint = name_hint
    for op in body_ops:
        block.add_op(op)
    block.add_op(affine.YieldOp.get())
    block.last_op.location = template.location
    loop = affine.ForOp.from_region([], [], [], [], bounds.lower, bounds.upper,
                                    Region(block), bounds.step)
    loop.location = template.location
    if name is not None:
        loop.attributes[LOOP_NAME] = StringAttr(name)
    return loop


def body_ops(loop: affine.ForOp) -> list[Operation]:
    """The body's operations without its terminator."""
    return [op for op in loop.body.block.ops if not isinstance(op, affine.YieldOp)]


# -- replacing an induction variable --------------------------------------------------------------

def is_linear(e: AffineExpr) -> bool:
    if isinstance(e, AffineBinaryOpExpr):
        if e.kind not in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul):
            return False
        return is_linear(e.lhs) and is_linear(e.rhs)
    return True


def materialise(e: AffineExpr, dims: Sequence[SSAValue], before: Operation,
                 location) -> SSAValue:
    """``e`` as arith ops on index at ``location``, inserted before ``before``."""
    block = before.parent_block()
    assert block is not None

    def emit(op: Operation) -> SSAValue:
        op.location = location
        block.insert_op_before(op, before)
        return op.results[0]

    def const(v: int) -> SSAValue:
        return emit(arith.ConstantOp(IntegerAttr(v, IndexType())))

    if isinstance(e, AffineConstantExpr):
        return const(e.value)
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    assert isinstance(e, AffineBinaryOpExpr), e
    lhs = materialise(e.lhs, dims, before, location)
    if e.kind == AffineBinaryOpKind.Add:
        return emit(arith.AddiOp(lhs, materialise(e.rhs, dims, before, location)))
    if e.kind == AffineBinaryOpKind.Mul:
        return emit(arith.MuliOp(lhs, materialise(e.rhs, dims, before, location)))
    assert isinstance(e.rhs, AffineConstantExpr) and e.rhs.value > 0, e
    divisor = e.rhs.value
    power = divisor.bit_length() - 1
    if e.kind == AffineBinaryOpKind.FloorDiv:
        if divisor == 1 << power:  # a shift, not a divider, in hardware
            return emit(arith.ShRUIOp(lhs, const(power)))
        return emit(arith.DivUIOp(lhs, const(divisor)))
    if e.kind == AffineBinaryOpKind.Mod:
        if divisor == 1 << power:
            return emit(arith.AndIOp(lhs, const(divisor - 1)))
        return emit(arith.RemUIOp(lhs, const(divisor)))
    raise AssertionError(f"unsupported affine expression {e}")


def _substitute(amap, operands: list[SSAValue], old: SSAValue, expr: AffineExpr,
                dims: Sequence[SSAValue]):
    """``amap`` over ``operands`` with operand ``old`` replaced by ``expr`` over ``dims``:
    the new map and its operands (the replacement's values take the old operand's place,
    each once)."""
    new_operands: list[SSAValue] = []
    for v in operands:
        for w in (dims if v is old else [v]):
            if all(w is not u for u in new_operands):
                new_operands.append(w)

    def position(v: SSAValue) -> int:
        return next(k for k, w in enumerate(new_operands) if w is v)

    dims_in_new = [AffineExpr.dimension(position(d)) for d in dims]
    replacement = [expr.replace_dims_and_symbols(dims_in_new, []) if v is old
                   else AffineExpr.dimension(position(v)) for v in operands]
    return amap.replace_dims_and_symbols(replacement, [], len(new_operands), 0), new_operands


def _fold_into_access(op: affine.LoadOp | affine.StoreOp, old: SSAValue, expr: AffineExpr,
                      dims: Sequence[SSAValue]) -> None:
    """Rewrite ``op``'s map so that its operand ``old`` becomes ``expr`` over ``dims``."""
    new_map, new_operands = _substitute(op.map.data, list(op.indices), old, expr, dims)
    if isinstance(op, affine.LoadOp):
        new = affine.LoadOp(op.memref, new_operands, AffineMapAttr(new_map), op.result.type)
    else:
        new = affine.StoreOp(op.value, op.memref, new_operands, AffineMapAttr(new_map))
    new.location = op.location
    new.attributes.update(op.attributes)
    block = op.parent_block()
    block.insert_op_before(new, op)
    if isinstance(op, affine.LoadOp):
        op.result.replace_all_uses_with(new.result)
    block.erase_op(op)


def _fold_into_bounds(loop: affine.ForOp, old: SSAValue, expr: AffineExpr,
                      dims: Sequence[SSAValue]) -> None:
    """Rewrite the bound maps of ``loop`` whose operand ``old`` becomes ``expr`` over
    ``dims``, dropping operands the maps no longer use: once an outer loop is unrolled,
    the bounds of a triangular inner loop become constant maps (so it can be unrolled or
    pipelined in turn)."""
    parts = []
    for amap, operands in ((loop.lowerBoundMap.data, list(loop.lowerBoundOperands)),
                           (loop.upperBoundMap.data, list(loop.upperBoundOperands))):
        if old not in operands or amap.num_symbols:
            parts.append((amap, operands))
            continue
        new_map, new_operands = _substitute(amap, operands, old, expr, dims)
        used = new_map.used_dims()
        new_map = new_map.drop_dims([k not in used for k in range(new_map.num_dims)])
        parts.append((new_map, [v for k, v in enumerate(new_operands) if k in used]))
    (lower, lower_operands), (upper, upper_operands) = parts
    set_bounds(loop, lower, lower_operands, upper, upper_operands)


def set_bounds(loop: affine.ForOp, lower: AffineMap, lower_operands: Sequence[SSAValue],
               upper: AffineMap, upper_operands: Sequence[SSAValue]) -> None:
    """Give ``loop`` these bound maps over these operands."""
    loop.operands = [*lower_operands, *upper_operands, *loop.inits]
    loop.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(lower_operands), len(upper_operands), len(loop.inits)])
    loop.properties["lowerBoundMap"] = AffineMapAttr(lower)
    loop.properties["upperBoundMap"] = AffineMapAttr(upper)


def replace_induction_variable(iv: SSAValue, expr: AffineExpr, dims: Sequence[SSAValue],
                               before: Operation, location=None) -> None:
    """Replace every use of ``iv`` by ``expr`` over the index values ``dims``: folded into
    the maps of affine loads and stores (when ``expr`` is linear, so that addresses stay
    plain affine sums) and into the bound maps of inner ``affine.for`` loops, materialised
    as arith before ``before`` for the other uses, at ``location`` (default: ``before``'s;
    the passes give the loop's)."""
    if is_linear(expr):
        users = {id(u.operation): u.operation for u in iv.uses}.values()
        for user in list(users):
            if (isinstance(user, (affine.LoadOp, affine.StoreOp))
                    and not user.map.data.num_symbols and iv in user.indices):
                _fold_into_access(user, iv, expr, dims)
            elif isinstance(user, affine.ForOp) and iv not in user.inits:
                _fold_into_bounds(user, iv, expr, dims)
    if iv.uses:
        value = materialise(expr, dims, before,
                             before.location if location is None else location)
        iv.replace_all_uses_with(value)


def copy_ops_before(ops: list[Operation], iv: SSAValue, before: Operation,
                    iv_expr: AffineExpr, dims: list[SSAValue], location) -> None:
    """Insert a copy of ``ops`` (a loop body) before ``before``, with ``iv`` replaced by
    ``iv_expr`` over ``dims``; index arithmetic made for it gets ``location`` (the loop's)."""
    block = before.parent_block()
    assert block is not None
    # A stand-in for this copy's induction variable, replaced and erased below.
    stand_in = arith.ConstantOp(IntegerAttr(0, IndexType()))
    stand_in.location = location
    block.insert_op_before(stand_in, before)
    mapping = {iv: stand_in.result}
    for op in ops:
        block.insert_op_before(op.clone(value_mapper=mapping), before)
    replace_induction_variable(stand_in.result, iv_expr, dims, stand_in, location)
    block.erase_op(stand_in)


# -- nests ----------------------------------------------------------------------------------------

def is_pure(op: Operation) -> bool:
    """No memory effect and no region: safe to move between loop levels."""
    return op.dialect_name() == "arith" and not op.regions


def perfect_band(root: affine.ForOp, depth: int) -> list[affine.ForOp] | None:
    """``depth`` loops from ``root`` down, each one's body being only pure ops, the next
    loop and its yield; None when the nest is not that deep or not perfect."""
    band = [root]
    while len(band) < depth:
        inner = [op for op in body_ops(band[-1]) if not is_pure(op)]
        if len(inner) != 1 or not isinstance(inner[0], affine.ForOp):
            return None
        band.append(inner[0])
    return band


def sink_pure_ops(band: list[affine.ForOp]) -> None:
    """Move the pure ops between the loops of a perfect band to the top of the innermost
    body, in order, so that the loop headers can be rebuilt freely."""
    innermost = band[-1].body.block
    anchor = innermost.first_op
    for loop in band[:-1]:
        for op in body_ops(loop):
            if is_pure(op):
                op.detach()
                innermost.insert_op_before(op, anchor)
