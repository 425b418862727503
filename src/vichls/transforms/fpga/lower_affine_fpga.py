"""Lower the affine dialect for the FPGA back end, keeping what later passes need to know.

What: xDSL's ``lower-affine`` (affine.for → scf.for, affine.load/store → memref.load/store
with the map computed by arith, affine.apply → arith), with two additions:

- ``affine.for`` is lowered here, not by xDSL (whose pattern evaluates bound maps with no
  operands): its bound maps are evaluated on their operands (dims and symbols), a lower
  bound with several results is their maximum and an upper bound their minimum (the
  affine dialect's meaning; tiling a loop with affine bounds makes such a min), a bound
  that is an enclosing loop's counter itself is copied by an ``arith.addi`` of 0 (so that
  the control reads a datapath register, not the counter it may be deciding to write),
  and its attributes (``vichls.pipeline``) go over to the ``scf.for`` that replaces it;
- each ``memref.load``/``memref.store`` keeps the source location of the affine access
  it replaces, so that schedule reports (why a pipeline's II is what it is) can name the
  source line.

Why xDSL's lowering for the rest and not vichls.cpu's: for the FPGA, ``floordiv``/``ceildiv``
in a map must stay ``arith.floordivsi``/``ceildivsi`` (a shift when the divisor is a power of two,
which the partitioning and tiling passes produce), not a divider. Assumes docs/ir.md:
bound maps are sums and constant multiples (the max/min of several), loads and stores
use maps with dimensions only.
"""

from __future__ import annotations

from dataclasses import dataclass

import functools

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.transforms.lower_affine import (
    LowerAffineApply,
    LowerAffineYield,
    affine_expr_ops,
    insert_affine_map_ops,
)


class _LoadKeepingLocation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter):
        ops, indices = insert_affine_map_ops(op.map, op.indices, [])
        rewriter.insert(ops)
        new = memref.LoadOp.get(op.memref, indices)
        new.location = op.location
        rewriter.replace(op, new)


class _StoreKeepingLocation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter):
        ops, indices = insert_affine_map_ops(op.map, op.indices, [])
        rewriter.insert(ops)
        new = memref.StoreOp.get(op.value, op.memref, indices)
        new.location = op.location
        rewriter.replace(op, new)


def _bound(amap, operands, rewriter: PatternRewriter, take_smaller: bool) -> SSAValue:
    """The value of a bound map: its only result, or the min/max of its results."""
    dims, symbols = operands[: amap.num_dims], operands[amap.num_dims:]
    values = []
    for expr in amap.results:
        ops, value = affine_expr_ops(expr, dims, symbols)
        rewriter.insert(ops)
        values.append(value)
    result = values[0]
    for value in values[1:]:
        compare: Operation = arith.CmpiOp(value, result, "slt" if take_smaller else "sgt")
        select = arith.SelectOp(compare.results[0], value, result)
        rewriter.insert([compare, select])
        result = select.result
    if isinstance(result, BlockArgument):
        # A bound that is an enclosing loop's counter itself (range(i, N), range(i + 1, j))
        # goes through the datapath: read directly, the control would decide whether to
        # write that counter from a loop test reading the value written (a combinational
        # loop through the counter's enable).
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        copy = arith.AddiOp(result, zero.result)
        rewriter.insert([zero, copy])
        result = copy.result
    return result


class _LowerForWithBounds(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ForOp, rewriter: PatternRewriter):
        lower = _bound(op.lowerBoundMap.data, op.lowerBoundOperands, rewriter, False)
        upper = _bound(op.upperBoundMap.data, op.upperBoundOperands, rewriter, True)
        step = arith.ConstantOp(op.step)
        rewriter.insert(step)
        loop = scf.ForOp(lower, upper, step.result, op.inits,
                         rewriter.move_region_contents_to_new_regions(op.body))
        loop.attributes.update(op.attributes)
        loop.location = op.location
        rewriter.replace(op, loop)


def _left_sums(e: AffineExpr) -> AffineExpr:
    """``e`` with every sum of several terms nested to the left, terms in their order."""
    if not isinstance(e, AffineBinaryOpExpr):
        return e
    if e.kind != AffineBinaryOpKind.Add:
        return AffineBinaryOpExpr(e.kind, _left_sums(e.lhs), _left_sums(e.rhs))
    terms, todo = [], [e]
    while todo:  # in-order walk of the sum's tree
        t = todo.pop()
        if isinstance(t, AffineBinaryOpExpr) and t.kind == AffineBinaryOpKind.Add:
            todo += [t.rhs, t.lhs]
        else:
            terms.append(_left_sums(t))
    out = terms[0]
    for t in terms[1:]:
        out = AffineBinaryOpExpr(AffineBinaryOpKind.Add, out, t)
    return out


@functools.lru_cache(maxsize=None)
def _as_text_gives(m: AffineMap) -> AffineMap:
    return AffineMap(m.num_dims, m.num_symbols, tuple(_left_sums(r) for r in m.results))


def canonical_maps(module: ModuleOp) -> None:
    """Every affine map becomes the one its text parses to (the printer writes a sum
    without inner parentheses, the parser nests it to the left). Maps built in memory (by the
    front end or a tiling) and the same maps read from a package print alike but may nest
    their sums differently (``d0 + (d1 + d2)`` against ``(d0 + d1) + d2``), which the
    lowering turns into adders in another order; after this, a package compiles exactly
    like the kernel it came from."""
    for op in module.walk():
        for name, attr in list(op.properties.items()):
            if isinstance(attr, AffineMapAttr):
                op.properties[name] = AffineMapAttr(_as_text_gives(attr.data))


#: the pattern that lowers each affine op; the loads, stores and loops first (their
#: patterns read the maps), then what they leave (yields, applies)
_FIRST = {affine.LoadOp: _LoadKeepingLocation(), affine.StoreOp: _StoreKeepingLocation(),
          affine.ForOp: _LowerForWithBounds()}
_THEN = {affine.YieldOp: LowerAffineYield(), affine.ApplyOp: LowerAffineApply()}


def lower_affine_for_fpga(module: ModuleOp) -> None:
    canonical_maps(module)
    # Each pattern is applied once to each op it lowers, found by one walk: no greedy
    # rewrite walker, which would visit every op of the module twice and (with dead-code
    # elimination on) ask every scf.if for the effects of everything nested in it. A
    # rewrite inserts its ops before the op it replaces and moves a loop's body as it is,
    # so the order in which the ops are lowered does not change the result.
    found: dict[type, list[Operation]] = {}
    for op in module.walk():
        if type(op) in _FIRST or type(op) in _THEN:
            found.setdefault(type(op), []).append(op)
    for patterns in (_FIRST, _THEN):
        for op in [op for kind in patterns for op in found.get(kind, ())]:
            patterns[type(op)].match_and_rewrite(op, PatternRewriter(op))


@dataclass(frozen=True)
class LowerAffineFpgaPass(ModulePass):
    """Lower the affine dialect for the FPGA back end (see the module docstring)."""

    name = "lower-affine-fpga"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_affine_for_fpga(op)
