"""Reassociate products so that their loop-invariant factors multiply first, where
loop-invariant code motion can take them out of the loop.

Why: Python multiplies left to right, so syr2k's ``A[j][k] * alpha * B[i][k]`` is
``(A[j][k] * alpha) * B[i][k]``: two multipliers in the ``j`` loop, although
``alpha * B[i][k]`` does not change with ``j``. Two's-complement multiplication is
associative and commutative (wrapping changes nothing), so ``A[j][k] * (alpha * B[i][k])``
is bit-identical, and transforms/fpga/hoist_loop_invariants moves ``alpha * B[i][k]`` before the
loop: one multiplier per term in the loop instead of two. Fewer multipliers in a loop body
means fewer DSP blocks per unrolled copy and a shorter iteration.

What: in every block inside an ``scf.for``, each maximal tree of ``arith.muli`` (of one
type) whose inner results have no other use is rebuilt as a left-deep chain over its
leaves, ordered by the loop depth at which each leaf is defined (outermost first, program
order among equals), when that chain has more products whose factors are all defined
outside the innermost loop around the tree than the tree had. New multiplies take the
location of the tree's root.

Assumes the loop-level IR after lower-affine, value numbering and loop-invariant code
motion (the FPGA preparation), which runs again after it when a product changed: the
loads it hoisted are the invariant factors.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, SSAValue
from xdsl.passes import ModulePass

from vichls.transforms.fpga.hoist_loop_invariants import hoist_loop_invariants
from vichls.transforms.fpga.reassociate import operation_tree, replace_tree, tree_roots


def reassociate_products(module: ModuleOp) -> bool:
    """Rewrite the products of ``module`` in place; True when one changed."""
    changed = False
    for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
        for block in loop.body.blocks:
            changed |= _reassociate_block(block, loop)
    return changed


def _depth(value: SSAValue) -> int:
    """How many ``scf.for`` loops enclose the definition of ``value``."""
    op = value.owner.parent_op() if isinstance(value, BlockArgument) else value.owner
    if isinstance(value, BlockArgument) and isinstance(op, scf.ForOp):
        op = op.body.block.first_op  # the induction variable is inside its loop
    depth = 0
    while op is not None:
        op = op.parent_op()
        depth += isinstance(op, scf.ForOp)
    return depth


def _invariant_products(factors: list[list[SSAValue]], outside) -> int:
    """How many of the products (each given by its leaves) have all leaves ``outside``."""
    return sum(all(outside(v) for v in leaves) for leaves in factors)


def _reassociate_block(block: Block, loop: scf.ForOp) -> bool:
    loop_depth = _depth(loop.body.block.args[0])

    def outside(value: SSAValue) -> bool:
        return _depth(value) < loop_depth

    changed = False
    for root in tree_roots(block, arith.MuliOp):
        leaves, inner = operation_tree(root, block)
        if len(leaves) < 3:
            continue
        before = _invariant_products([operation_tree(op, block)[0] for op in inner], outside)
        ranked = sorted(range(len(leaves)), key=lambda k: (_depth(leaves[k]), k))
        ordered = [leaves[k] for k in ranked]
        after = _invariant_products([ordered[:n] for n in range(2, len(ordered))], outside)
        if after <= before:
            continue
        order = {op: k for k, op in enumerate(block.ops)}
        product = ordered[0]
        for leaf in ordered[1:]:
            mul = arith.MuliOp(product, leaf)
            mul.location = root.location
            block.insert_op_before(mul, root)
            product = mul.result
        replace_tree(root, inner, mul, order)
        changed = True
    return changed


@dataclass(frozen=True)
class ReassociateProductsPass(ModulePass):
    """Multiply invariant factors first; hoist again what that made invariant."""

    name = "reassociate-products"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if reassociate_products(op):
            hoist_loop_invariants(op)
