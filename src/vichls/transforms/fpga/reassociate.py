"""Reassociate chains of integer additions into balanced trees, loop-carried terms last.

Why: ``acc += x[k] * y[k]`` unrolled by eight is a chain of eight dependent adders; at
10 ns about five 32-bit adders fit in a cycle, so the chain takes two cycles, and in a
pipelined loop the chain is the recurrence through ``acc``: II=2. Two's-complement
addition is associative and commutative (wrapping changes nothing), so the same sum can be
computed as a tree of depth log2(n) whose last adder adds ``acc``: the recurrence becomes
one adder and II=1, with bit-identical results.

What: in every block, each maximal tree of ``arith.addi`` (of one type) whose inner results
have no other use is rebuilt: its leaves are combined two at a time, the two earliest
available first (an estimate: latencies and chained operators on the path from the block's
start), and a leaf read from a 0-d memref that the block also writes (a scalar carried
from one iteration to the next) is treated as the latest of all. Trees of two leaves are
left alone. New adders take the location of the tree's root.

Assumes the loop-level IR after lower-affine and store forwarding (the FPGA preparation).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.scheduling.list_schedule import is_scalar_memref, op_cost, op_kind

_LATE = 1 << 30


def reassociate(module: ModuleOp) -> None:
    for op in list(module.walk()):
        for region in op.regions:
            for block in region.blocks:
                _reassociate_block(block)


def _arrivals(block: Block) -> dict[SSAValue, int]:
    written = {op.memref for op in block.walk() if isinstance(op, memref.StoreOp)
               and is_scalar_memref(op.memref)}
    arrival: dict[SSAValue, int] = {}
    for op in block.ops:
        if isinstance(op, memref.LoadOp) and is_scalar_memref(op.memref) and op.memref in written:
            arrival[op.res] = _LATE  # carried from the previous iteration: add it last
            continue
        start = max((arrival.get(v, 0) for v in op.operands), default=0)
        if start >= _LATE:
            start = _LATE
        cost = 0
        if op_kind(op) is not None:
            c = op_cost(op)
            cost = c.latency * 8 + (1 if c.delay_ns > 0 else 0)
        for r in op.results:
            arrival[r] = min(_LATE, start + cost)
    return arrival


def _is_inner(value: SSAValue, block: Block, cls: type, type_) -> bool:
    owner = value.owner
    return (isinstance(owner, cls) and owner.parent_block() is block
            and value.type == type_ and value.has_one_use())


def operation_tree(root: Operation, block: Block) -> tuple[list[SSAValue], list[Operation]]:
    """(leaves, inner ops) of the maximal tree of ops of ``root``'s kind (a commutative
    binary op such as ``arith.addi``) rooted at ``root`` in ``block``, whose inner results
    have no other use; leaves in breadth-first order."""
    cls, type_ = type(root), root.results[0].type
    leaves, inner = [], []
    work = list(root.operands)
    while work:
        v = work.pop(0)
        if _is_inner(v, block, cls, type_):
            inner.append(v.owner)
            work += list(v.owner.operands)
        else:
            leaves.append(v)
    return leaves, inner


def tree_roots(block: Block, cls: type) -> list[Operation]:
    """The ops of kind ``cls`` in ``block`` that are not inner nodes of a larger tree."""
    def feeds_a_tree(op: Operation) -> bool:
        if not _is_inner(op.results[0], block, cls, op.results[0].type):
            return False
        user = next(iter(op.results[0].uses)).operation
        return isinstance(user, cls) and user.parent_block() is block

    return [op for op in block.ops if isinstance(op, cls) and not feeds_a_tree(op)]


def replace_tree(root: Operation, inner: list[Operation], new_root: Operation,
                 order: dict[Operation, int]) -> None:
    """Use ``new_root`` (inserted before ``root``) for ``root`` and erase the old tree
    (``order``: positions in the block, taken before the new ops were inserted)."""
    root.results[0].replace_all_uses_with(new_root.results[0])
    new_root.results[0].name_hint = root.results[0].name_hint
    for op in sorted([root, *inner], key=lambda o: -order[o]):  # users before producers
        op.detach()
        op.erase()


def _reassociate_block(block: Block) -> None:
    roots = tree_roots(block, arith.AddiOp)
    if not roots:
        return
    arrival = _arrivals(block)
    for root in roots:
        leaves, inner = operation_tree(root, block)
        if len(leaves) < 3:
            continue
        order = {op: k for k, op in enumerate(block.ops)}
        heap = [(arrival.get(v, 0), k, v) for k, v in enumerate(leaves)]
        heapq.heapify(heap)
        counter = len(leaves)
        while len(heap) > 2:
            a_time, _, a = heapq.heappop(heap)
            b_time, _, b = heapq.heappop(heap)
            add = arith.AddiOp(a, b)
            add.location = root.location
            block.insert_op_before(add, root)
            heapq.heappush(heap, (min(_LATE, max(a_time, b_time) + 1), counter, add.result))
            counter += 1
        (_, _, a), (_, _, b) = sorted(heap)
        new_root = arith.AddiOp(a, b)
        new_root.location = root.location
        block.insert_op_before(new_root, root)
        replace_tree(root, inner, new_root, order)


@dataclass(frozen=True)
class ReassociatePass(ModulePass):
    """Rebalance chains of additions (a loop-carried sum adds last)."""

    name = "reassociate"
    device: str = "xc7"  # the operator library's device (its costs and choices)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            reassociate(op)
