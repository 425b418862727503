"""Lower the affine dialect for the FPGA back end, keeping what later passes need to know.

What: xDSL's ``lower-affine`` (affine.for → scf.for, affine.load/store → memref.load/store
with the map computed by arith, affine.apply → arith), with two additions:

- each ``affine.for``'s attributes (``vichls.pipeline``) are carried over to the
  ``scf.for`` that replaces it (the body block moves over intact, so it identifies it);
- each ``memref.load``/``memref.store`` keeps the source location of the affine access
  it replaces, so that schedule reports (why a pipeline's II is what it is) can name the
  source line.

Why xDSL's lowering and not vichls.cpu's: for the FPGA, ``floordiv``/``ceildiv`` in a map
must stay ``arith.floordivsi``/``ceildivsi`` (a shift when the divisor is a power of two,
which the partitioning and tiling passes produce), not a divider. Assumes the front end's
contract that affine.for bounds are constants (xDSL's pass ignores bound operands).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import affine, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.lower_affine import LowerAffinePass, insert_affine_map_ops


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


def lower_affine_for_fpga(module: ModuleOp) -> None:
    attributes = {id(op.body.block): (op.body.block, dict(op.attributes))
                  for op in module.walk() if isinstance(op, affine.ForOp) and op.attributes}
    PatternRewriteWalker(
        GreedyRewritePatternApplier([_LoadKeepingLocation(), _StoreKeepingLocation()])
    ).rewrite_module(module)
    LowerAffinePass().apply(Context(allow_unregistered=True), module)
    for op in module.walk():
        if isinstance(op, scf.ForOp) and id(op.body.block) in attributes:
            block, attrs = attributes[id(op.body.block)]
            if block is op.body.block:
                op.attributes.update(attrs)
