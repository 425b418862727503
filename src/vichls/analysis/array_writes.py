"""Which statements read and write which arrays, and in what order: the questions behind
dropping a dead initialisation of a local array (the front end fills ``t: T[N] = 0`` with a
nest of stores that the next statement may overwrite whole) and behind the dataflow
graph's channels (a task that writes, or reads, every element of an array once in order).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from xdsl.dialects import affine, arith, func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from vichls.analysis.static_eval import evaluate
from vichls.dialects import stream
from vichls.signature import find_function


# -- who touches what ------------------------------------------------------------------------


def direct_access(op: Operation) -> tuple[SSAValue, str] | None:
    """The memref or stream ``op`` reads ("r") or writes ("w") itself."""
    if isinstance(op, (memref.LoadOp, affine.LoadOp)):
        return op.memref, "r"
    if isinstance(op, (memref.StoreOp, affine.StoreOp)):
        return op.memref, "w"
    if isinstance(op, stream.GetOp):
        return op.stream, "r"
    if isinstance(op, stream.PutOp):
        return op.stream, "w"
    return None


class Usage:
    """What each function does with each of its memref and stream parameters."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.cache: dict[str, list[set[str]]] = {}

    def of_function(self, name: str) -> list[set[str]]:
        if name not in self.cache:
            f = find_function(self.module, name)
            args = list(f.body.block.args)
            usage: list[set[str]] = [set() for _ in args]
            position = {a: k for k, a in enumerate(args)}
            for value, mode in self.accesses(list(f.body.block.ops)).items():
                if value in position:
                    usage[position[value]] |= mode
            self.cache[name] = usage
        return self.cache[name]

    def accesses(self, ops: list[Operation]) -> dict[SSAValue, set[str]]:
        found: dict[SSAValue, set[str]] = {}
        for top in ops:
            for op in top.walk():
                hit = direct_access(op)
                if hit is not None:
                    found.setdefault(hit[0], set()).add(hit[1])
                elif isinstance(op, func.CallOp):
                    for value, modes in zip(op.arguments, self.of_function(op.callee.root_reference.data)):
                        if modes:
                            found.setdefault(value, set()).update(modes)
        return found


# -- dead initialisation ---------------------------------------------------------------------


def in_order_nest(access: Operation, value: SSAValue, root: Operation | None) -> bool:
    """``access`` (a load or store of ``value``) runs exactly once for every element, in
    row-major order: it sits in affine.for loops only (up to ``root``, exclusive), one per
    dimension, each from 0 to the dimension by 1, and its indices are those loops'
    variables, outermost first."""
    shape = value.type.get_shape() if isinstance(value.type, MemRefType) else ()
    if not shape:
        return False
    loops = []
    parent = access.parent_op()
    while parent is not None and parent is not root and not isinstance(parent, func.FuncOp):
        if not isinstance(parent, affine.ForOp):
            return False
        loops.append(parent)
        parent = parent.parent_op()
    loops.reverse()
    if len(loops) != len(shape):
        return _enumerates_in_order(access, loops, shape)
    for loop, dim in zip(loops, shape):
        lb, ub = loop.lowerBoundMap.data, loop.upperBoundMap.data
        if loop.lowerBoundOperands or loop.upperBoundOperands or loop.step.value.data != 1:
            return False
        if lb.eval([], []) != (0,) or ub.eval([], []) != (dim,):
            return False
    ivs = [loop.body.block.args[0] for loop in loops]
    if isinstance(access, (affine.LoadOp, affine.StoreOp)):
        amap = access.map.data if access.map is not None else None
        if amap is None or amap.num_symbols or list(access.indices) != ivs[:amap.num_dims]:
            return _enumerates_in_order(access, loops, shape)
        probe = list(range(3, 3 + len(ivs)))  # distinct values: the map must be the identity
        if amap.num_dims == len(ivs) and tuple(amap.eval(probe, [])) == tuple(probe):
            return True
        return _enumerates_in_order(access, loops, shape)
    return list(access.indices) == ivs or _enumerates_in_order(access, loops, shape)


#: The most iterations _enumerates_in_order walks through.
ENUMERATION_LIMIT = 1 << 15


def _enumerates_in_order(access: Operation, loops: list, shape) -> bool:
    """The general case of ``in_order_nest``: the loops around ``access`` (affine.for only)
    have constant bounds, as many iterations as the array has elements, and the access's
    indices, computed from their counters with arith (a flattened nest recovers its
    loops' variables by division and remainder: ``c = t // 64``, ``h = t % 64 // 8``), run
    through the elements in row-major order: checked at every iteration (up to
    ENUMERATION_LIMIT of them)."""
    ranges = []
    for loop in loops:
        if loop.lowerBoundOperands or loop.upperBoundOperands:
            return False
        lb = loop.lowerBoundMap.data.eval([], [])
        ub = loop.upperBoundMap.data.eval([], [])
        if len(lb) != 1 or len(ub) != 1:
            return False
        ranges.append(range(lb[0], ub[0], loop.step.value.data))
    size = math.prod(shape)
    if math.prod(len(r) for r in ranges) != size or not 0 < size <= ENUMERATION_LIMIT:
        return False
    ivs = [loop.body.block.args[0] for loop in loops]
    amap = getattr(access, "map", None)
    amap = amap.data if amap is not None else None
    if amap is not None and amap.num_symbols:
        return False
    for flat, point in enumerate(itertools.product(*ranges)):
        env = dict(zip(ivs, point))
        values = [evaluate(v, env) for v in access.indices]
        if any(v is None for v in values):
            return False
        index = tuple(amap.eval(values, [])) if amap is not None else tuple(values)
        if index != tuple(int(i) for i in np.unravel_index(flat, shape)):
            return False
    return True


def init_nest(op: Operation, value: SSAValue) -> bool:
    """The front end's initialisation of a local array: a nest storing one constant."""
    if not isinstance(op, affine.ForOp):
        return False
    stores = [x for x in op.walk() if isinstance(x, affine.StoreOp)]
    others = [x for x in op.walk() if x is not op and not isinstance(
        x, (affine.StoreOp, affine.ForOp, affine.YieldOp, arith.ConstantOp))]
    return (len(stores) == 1 and not others and stores[0].memref is value
            and isinstance(stores[0].value.owner, arith.ConstantOp)
            and in_order_nest(stores[0], value, op.parent_op()))


def overwrites_in_order(ops: list[Operation], value: SSAValue, usage: Usage) -> bool:
    """Do ``ops`` write every element of ``value`` once, in order, and never read it?"""
    accesses = [x for top in ops for x in top.walk()
                if (direct_access(x) or (None,))[0] is value
                or (isinstance(x, func.CallOp) and value in x.arguments)]
    if len(accesses) > 1:
        return unrolled_in_order(accesses, value, ops[0].parent_op())
    if len(accesses) != 1:
        return False
    access = accesses[0]
    if isinstance(access, func.CallOp):
        if access.parent_op() is not ops[0].parent_op() or list(access.arguments).count(value) != 1:
            return False
        callee = find_function(usage.module, access.callee.root_reference.data)
        param = callee.body.block.args[list(access.arguments).index(value)]
        return single_in_order_access(callee, param, "w")
    return isinstance(access, (affine.StoreOp, memref.StoreOp)) and \
        in_order_nest(access, value, ops[0].parent_op())


def unrolled_in_order(accesses: list[Operation], value: SSAValue, root) -> bool:
    """``accesses`` are the stores of an in-order loop over a one-dimensional array
    unrolled by their count: ``s`` stores at ``i``, ``i + 1``, ..., ``i + s - 1`` in one
    affine.for from 0 to the array's size by ``s`` (directly under ``root``)."""
    shape = value.type.get_shape() if isinstance(value.type, MemRefType) else ()
    step = len(accesses)
    if len(shape) != 1 or shape[0] % step:
        return False
    loop = accesses[0].parent_op()
    if not isinstance(loop, affine.ForOp) or loop.parent_op() is not root:
        return False
    if loop.lowerBoundOperands or loop.upperBoundOperands or loop.step.value.data != step:
        return False
    if loop.lowerBoundMap.data.eval([], []) != (0,) or \
            loop.upperBoundMap.data.eval([], []) != (shape[0],):
        return False
    iv = loop.body.block.args[0]
    offsets = set()
    for access in accesses:
        if not isinstance(access, affine.StoreOp) or access.parent_op() is not loop:
            return False
        amap = access.map.data if access.map is not None else None
        if amap is None or amap.num_symbols or amap.num_dims != 1 or list(access.indices) != [iv]:
            return False
        base = amap.eval([0], [])[0]
        if tuple(amap.eval([5], [])) != (base + 5,):  # i + constant
            return False
        offsets.add(base)
    return offsets == set(range(step))


def same_element_loads(ops: list[Operation]) -> bool:
    """Loads of one element in one block (the front end loads ``a[j] * a[j]`` twice)."""
    first = ops[0]
    return all(
        isinstance(op, type(first)) and isinstance(op, (affine.LoadOp, memref.LoadOp))
        and op.parent_block() is first.parent_block()
        and list(op.indices) == list(first.indices)
        and getattr(op, "map", None) == getattr(first, "map", None)
        for op in ops)


def single_in_order_access(function: func.FuncOp, param: SSAValue, mode: str) -> bool:
    """``param`` of ``function`` is only written (mode "w") by one op, or only read ("r")
    by loads of one element in one block, that run once per element in row-major order."""
    uses = [use.operation for use in param.uses]
    if not uses or (len(uses) > 1 and (mode != "r" or not same_element_loads(uses))):
        return False
    hit = direct_access(uses[0])
    return hit is not None and hit == (param, mode) and in_order_nest(uses[0], param, None)


def dead_initialisations(body: Block, usage: Usage) -> list[Operation]:
    """The front end's initialisation nests of local arrays (allocas of ``body``) that the
    next statement touching the array overwrites whole, in order, without reading it."""
    dead = []
    for alloca in [op for op in body.ops if isinstance(op, memref.AllocaOp)]:
        value = alloca.memref
        touching = [op for op in body.ops if op is not alloca and any(
            (direct_access(x) or (None,))[0] is value
            or (isinstance(x, func.CallOp) and value in x.arguments) for x in op.walk())]
        if len(touching) >= 2 and init_nest(touching[0], value) and \
                overwrites_in_order([touching[1]], value, usage):
            dead.append(touching[0])
    return dead
