"""How many elements one call of a function puts to, or gets from, a stream argument.

An analysis (it changes nothing). The count is exact and symbolic: a polynomial whose
variables are the trip counts of loops with bounds that are parameters of the function
(``for i in range(n)``), each variable named by its bounds, so that two functions looping
``range(n)`` over the same top-level ``n`` have equal counts. The count of an op is the
product of the trip counts of the loops around it; a ``func.call`` passing the stream adds
the callee's count with the callee's parameters replaced by the caller's arguments.

An op in an ``if`` is counted by enumeration when the loops around it have constant bounds
and the conditions are computed from their counters (the guards of a flattened nest run
once per row: ``t mod N == N - 1``). The count is unknown (None) otherwise in an ``if``, in
a ``while``, in a loop whose bounds are neither constants nor (extensions of) parameters,
or when the stream is used in a way this analysis does not know.

Why: a FIFO between two dataflow tasks is empty after every call only if the producer puts
exactly as many elements per call as the consumer gets; vichls/driver/dataflow.py asks this to
decide whether consecutive calls may overlap (they may not when the FIFO must be emptied
between calls). Assumes the loop-level IR of docs/ir.md, before inlining.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from vichls.dialects import stream
from vichls.analysis.loop_utils import constant_bounds
from vichls.analysis.static_eval import evaluate

#: a term of the polynomial: the sorted trip-count variables of its product
Term = tuple
#: ``{term: coefficient}``; {} is zero
Count = dict

_EXTENSIONS = (arith.ExtSIOp, arith.ExtUIOp, arith.IndexCastOp)


def _bound_key(value: SSAValue):
    """("const", c), ("param", index, extensions) or None."""
    casts = []
    while isinstance(value.owner, _EXTENSIONS):
        casts.append(value.owner.name)
        value = value.owner.input
    if isinstance(value.owner, arith.ConstantOp) and isinstance(value.owner.value, IntegerAttr):
        return ("const", value.owner.value.value.data)
    if isinstance(value.owner, Block) and isinstance(value.owner.parent_op(), func.FuncOp):
        return ("param", value.index, tuple(casts))
    return None


def _trip(loop: Operation) -> Count | None:
    """The trip count of one loop as a polynomial (a constant, or one variable)."""
    if isinstance(loop, affine.ForOp):
        bounds = constant_bounds(loop)
        return None if bounds is None else _constant(bounds.trip_count)
    if not isinstance(loop, scf.ForOp):
        return None
    lb, ub, step = (_bound_key(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step[0] != "const" or step[1] <= 0:
        return None
    if lb[0] == ub[0] == "const":
        return _constant(max(0, -(-(ub[1] - lb[1]) // step[1])))
    return {((lb, ub, step[1]),): 1}


def _constant(c: int) -> Count:
    return {(): c} if c else {}


def _times(a: Count, b: Count) -> Count:
    out: Counter = Counter()
    for ta, ca in a.items():
        for tb, cb in b.items():
            out[tuple(sorted(ta + tb, key=repr))] += ca * cb
    return {t: c for t, c in out.items() if c}


def _plus(a: Count, b: Count) -> Count:
    out = Counter(a)
    out.update(b)
    return {t: c for t, c in out.items() if c}


def substitute(count: Count, args: list[SSAValue]) -> Count | None:
    """A callee's count in the caller's terms: its parameters become the call's arguments."""
    out: Count = {}
    for term, coefficient in count.items():
        product: Count = {(): coefficient}
        for lb, ub, step in term:
            bounds = []
            for key in (lb, ub):
                if key[0] == "param":
                    outer = _bound_key(args[key[1]])
                    if outer is None:
                        return None
                    if outer[0] == "param":
                        outer = ("param", outer[1], outer[2] + key[2])
                    elif key[2]:  # a constant extended: its value may change
                        return None
                    key = outer
                bounds.append(key)
            if bounds[0][0] == bounds[1][0] == "const":
                factor = _constant(max(0, -(-(bounds[1][1] - bounds[0][1]) // step)))
            else:
                factor = {((bounds[0], bounds[1], step),): 1}
            product = _times(product, factor)
        out = _plus(out, product)
    return out


#: The most iterations _guarded_count walks through.
GUARD_ENUMERATION_LIMIT = 1 << 16


def _guarded_count(op: Operation) -> Count | None:
    """How many times ``op`` runs under the ``scf.if``s around it, when every loop around it
    has constant bounds and every condition is computed from the loops' counters (a
    flattened nest's guards, ``t mod N == N - 1``): counted at every iteration (up to
    GUARD_ENUMERATION_LIMIT of them); None otherwise."""
    loops, guards = [], []
    child, parent = op, op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp):
            guards.append((parent.cond, child.parent_region() is parent.true_region))
        elif isinstance(parent, (affine.ForOp, scf.ForOp)):
            trip = _trip(parent)
            if trip is None or set(trip) - {()}:
                return None
            if isinstance(parent, affine.ForOp):
                b = constant_bounds(parent)
                loops.append((parent.body.block.args[0], range(b.lower, b.upper, b.step)))
            else:
                lb, ub, step = (_bound_key(v)[1] for v in (parent.lb, parent.ub, parent.step))
                loops.append((parent.body.block.args[0], range(lb, ub, step)))
        else:
            return None
        child, parent = parent, parent.parent_op()
    if math.prod(len(r) for _, r in loops) > GUARD_ENUMERATION_LIMIT:
        return None
    ivs = [iv for iv, _ in loops]
    count = 0
    for point in itertools.product(*(r for _, r in loops)):
        env = dict(zip(ivs, point))
        taken = True
        for cond, then in guards:
            v = evaluate(cond, env)
            if v is None:
                return None
            taken = taken and (v != 0) == then
        count += taken
    return _constant(count)


def _repetitions(op: Operation) -> Count | None:
    times: Count = {(): 1}
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp):
            return _guarded_count(op)
        if isinstance(parent, (scf.WhileOp, affine.IfOp)):
            return None
        if isinstance(parent, (affine.ForOp, scf.ForOp)):
            trip = _trip(parent)
            if trip is None:
                return None
            times = _times(times, trip)
        parent = parent.parent_op()
    return times


def stream_count(function: func.FuncOp, index: int, side: str,
                 functions: dict[str, func.FuncOp]) -> Count | None:
    """Elements one call of ``function`` moves through its stream argument ``index``:
    ``side`` is "put" or "get"."""
    wanted = stream.PutOp if side == "put" else stream.GetOp
    other = stream.GetOp if side == "put" else stream.PutOp
    total: Count = {}
    for use in function.body.blocks.first.args[index].uses:
        user = use.operation
        if isinstance(user, other):
            continue
        if isinstance(user, wanted):
            each: Count | None = {(): 1}
        elif isinstance(user, func.CallOp) and user.callee.root_reference.data in functions:
            callee = functions[user.callee.root_reference.data]
            inner = stream_count(callee, use.index, side, functions)
            each = None if inner is None else substitute(inner, list(user.arguments))
        else:
            return None
        times = _repetitions(user)
        if each is None or times is None:
            return None
        total = _plus(total, _times(each, times))
    return total
