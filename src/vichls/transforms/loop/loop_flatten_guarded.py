"""Flatten a loop into the loop around it when the nest is only semi-perfect, guarding the
code around the inner loop (what Vitis HLS does for a pipelined innermost loop).

Why: a pipelined inner loop of N iterations fills and drains its pipeline once per outer
iteration, and the statements around it (``acc = 0`` before, ``C[i, j] = acc`` after) take
cycles of their own; one flat pipelined loop over both levels overlaps all of it, so the
nest runs in about (outer × inner) cycles at II=1 instead of outer × (inner + depth + 2).

What: for ``outer`` (trip No) whose body is ``pre; inner; post`` with ``inner`` (trip Ni)
the only loop in it, both ``affine.for`` with constant bounds, the result is one loop ``t``
over No × Ni iterations whose body is

    pure ops of pre that depend on nothing guarded    (unguarded: recomputed, harmless;
                                                        affine.apply counts as pure)
    scf.if (t mod Ni == 0)      { the rest of pre }
    the inner body
    scf.if (t mod Ni == Ni - 1) { post }

with ``outer``'s variable ``(t floordiv Ni) * step + lb`` and ``inner``'s
``(t mod Ni) * step + lb``. Iteration order is unchanged, so the results are too.

An array element that the inner loop writes, or shares with ``pre`` or ``post``, at one
index the inner loop does not move (``q[i] = 0; for j: q[i] += ...``) is kept in a register
(a 0-d memref) for each outer iteration: loaded first when the body reads it before writing
it, stored back last when the body writes it. Otherwise the guarded accesses would take a
port slot in every iteration of the pipeline, and the element's read-modify-write would be
a recurrence through memory (scalar replacement does this for a loop whose index is
invariant, but in the flat loop ``i`` moves).

A trip count Ni that is not a power of two makes the two variables a division and a
remainder by a constant (magic products after transforms/fpga/div_by_constant, a multiplier and
some pipeline depth, once for the whole loop). Such a nest is flattened only when every
array written in it is accessed at one index expression: an access at another index
(``A[i - 1][j]`` after ``A[i][j]``) may be a dependence that draining the pipeline between
outer iterations hid, which the flat loop would pay in its II (floyd-warshall, seidel-2d).
Powers of two keep the old rule (any accesses), as before.

It gives up (returns None) when ``pre`` or ``post`` holds a loop, when a value computed
under a guard is used outside it (the guarded part of ``pre`` and ``post`` are two
separate guards), when either trip count is zero, and when ``pre`` or ``post`` accesses an
array that the inner loop also accesses and that cannot be kept in a register as above
(several indices, an index the inner loop moves, or an access under a condition).

Assumes the loop-level IR of docs/ir.md (0-d memrefs carry values between statements).
"""

from __future__ import annotations

import math
from collections import Counter

from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, IndexType, MemRefType
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineExpr
from xdsl.ir.affine.affine_expr import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr

from vichls.transforms.loop.partition_arrays import requested_partitions_in
from vichls.analysis.known_multiple import expr_multiple
from vichls.analysis.memory_names import source_name
from vichls.analysis.loop_utils import (
    ConstantBounds,
    body_ops,
    constant_bounds,
    defined_inside,
    is_pure,
    materialise,
    new_affine_for,
    replace_induction_variable,
)

_LOOPS = (affine.ForOp, scf.ForOp, scf.WhileOp)


def _arrays(ops: list[Operation]) -> set:
    return {access.memref for access in _accesses(ops)}


def _accesses(ops: list[Operation], array=None) -> list[Operation]:
    """The loads and stores in ``ops`` (nested ones too), of ``array`` or of any array."""
    found = []
    for op in ops:
        for inner in op.walk():
            if isinstance(inner, (affine.LoadOp, affine.StoreOp, memref.LoadOp, memref.StoreOp)):
                mtype = inner.memref.type
                if isinstance(mtype, MemRefType) and mtype.get_shape() and \
                        (array is None or inner.memref is array):
                    found.append(inner)
    return found


def _index_key(access: Operation) -> tuple:
    amap = access.map.data if isinstance(access, (affine.LoadOp, affine.StoreOp)) else None
    return amap, tuple(access.indices)


def _constant_part(expr) -> tuple[str, int]:
    """``expr`` as (the text of its non-constant part, its constant addend)."""
    if isinstance(expr, AffineConstantExpr):
        return "", expr.value
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add and \
            isinstance(expr.rhs, AffineConstantExpr):
        return str(expr.lhs), expr.rhs.value
    return str(expr), 0


def _distinct(a: tuple, b: tuple, always: bool = False) -> bool:
    """Two index keys that name different elements for the same operand values: the same
    operands, and maps that differ by a constant in some dimension (``C[i][3]`` and
    ``C[i][4]``, ``A[i - 1][j]`` and ``A[i][j]``); ``always``: for any operand values
    (that dimension is a constant in both: not ``A[i - 1]`` of one outer iteration against
    ``A[i]`` of the one before)."""
    (map_a, operands_a), (map_b, operands_b) = a, b
    if map_a is None or map_b is None or operands_a != operands_b or \
            len(map_a.results) != len(map_b.results):
        return False
    for x, y in zip(map_a.results, map_b.results):
        (base_x, c_x), (base_y, c_y) = _constant_part(x), _constant_part(y)
        if base_x == base_y and c_x != c_y and (base_x == "" or not always):
            return True
        # ``k * e + c`` against ``k * e' + c'`` with c and c' apart modulo k: never one
        # element, whatever e and e' are (the copies of an unrolled loop flattened:
        # ``y[(t mod 2) * 4 + 1]`` and ``y[(t mod 2) * 4 + 2]``)
        k = math.gcd(expr_multiple(_without_constant(x), operands_a),
                     expr_multiple(_without_constant(y), operands_b))
        if k > 1 and (c_x - c_y) % k:
            return True
    return False


def _without_constant(expr):
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add and \
            isinstance(expr.rhs, AffineConstantExpr):
        return expr.lhs
    return expr


def _elements(array, ops: list[Operation], always: bool = False) -> dict | None:
    """The accesses of ``array`` in ``ops`` grouped by index key, when the keys name
    pairwise different elements (one element per key; ``always``: see ``_distinct``);
    else None."""
    groups: dict = {}
    for access in _accesses(ops, array):
        groups.setdefault(_index_key(access), []).append(access)
    keys = list(groups)
    if any(not _distinct(a, b, always) for i, a in enumerate(keys) for b in keys[i + 1:]):
        return None
    return groups


def _only_repeating_accesses(ops: list[Operation]) -> bool:
    """Every array written in ``ops`` is accessed at one index expression per element (one
    expression, or several that name different elements: ``C[i][3]``, ``C[i][4]``).
    Flattening then cannot bring two accesses of one element closer than they were: an
    element is touched again only in the same inner iteration, or a whole inner loop later
    (``s[j]``), or in the next inner iteration, as before (``q[i]``). Accesses at other
    indices (``A[i - 1][j]`` against ``A[i][j]``) may be a dependence that draining the
    pipeline between outer iterations hid: flattened, it would hold the II up."""
    written = {a.memref for a in _accesses(ops) if isinstance(a, (affine.StoreOp, memref.StoreOp))}
    return all(_elements(array, ops, always=True) is not None for array in written)


def _hoisting_lost(outer: affine.ForOp, inner: affine.ForOp, registers: dict,
                   ops: list[Operation]) -> bool:
    """Whether flattening would make the pipeline read, in every iteration, array elements
    that the inner loop reads at indices it does not move (``tmp[i][k]`` of an unrolled
    ``k``, read again for every ``j``), so many from one bank (the partition requests on
    the function say which) that the II they allow falls below the one the inner loop's
    own accesses allow: left as a loop, its invariant loads are hoisted out of it
    (transforms/fpga/hoist_loop_invariants); flat, they would hold the II up (2mm). Elements kept in
    registers (``registers``: array -> index keys) count as the read and the write at the
    ends of a row, which take their bank's ports in every iteration (a row of six
    ``C[i][j]`` in one memory would hold the II at 6)."""
    function = outer
    while not isinstance(function, func.FuncOp):
        function = function.parent_op()
    requests = requested_partitions_in(function)
    moving: Counter = Counter()  # (memory, bank) -> accesses the loop makes anyway
    still: Counter = Counter()  # (memory, bank) -> invariant loads flattening adds
    seen = set()
    for access in _accesses(body_ops(inner)):
        if access.memref in registers:
            continue
        invariant = isinstance(access, affine.LoadOp) and not any(
            defined_inside(v, inner) for v in access.indices)
        key = (access.memref, _index_key(access), type(access))
        if key in seen:
            continue  # (copies of one access, made by unrolling: one, once numbered)
        seen.add(key)
        (still if invariant else moving)[(access.memref, _bank(access, requests))] += 1
    for array, keys in registers.items():
        accesses = _accesses(ops, array)
        for key in keys:
            first = next(a for a in accesses if _index_key(a) == key)
            still[(array, _bank(first, requests))] += 2

    def slots(counts: Counter, memory, bank) -> int:
        return counts[(memory, bank)] + (counts[(memory, "any")] if bank != "any" else 0)

    def ii(*tables: Counter) -> int:
        keys = {k for table in tables for k in table}
        return max((-(-sum(slots(t, m, b) for t in tables) // 2) for m, b in keys), default=1)

    return bool(still) and ii(moving, still) > max(1, ii(moving))


def _bank(access: Operation, requests: dict) -> object:
    """The bank of the partition request that ``access`` reaches when its index in the
    partitioned dimension is a constant; "any" when it is not; 0 without a request."""
    if not isinstance(access, (affine.LoadOp, affine.StoreOp)):
        return "any" if source_name(access.memref) in requests else 0
    specs = requests.get(source_name(access.memref))
    if specs is None:
        return 0
    results = access.map.data.results
    shape = access.memref.type.get_shape()
    bank = []
    for kind, dim, factor in specs:  # (one per partitioned dimension; dim=0: every one)
        for axis in range(len(results)) if dim == 0 else [dim - 1]:
            if not 0 <= axis < len(results) or not isinstance(results[axis], AffineConstantExpr):
                return "any"
            c, size = results[axis].value, shape[axis]
            f = factor or size
            bank.append({"cyclic": c % f, "complete": c}.get(kind, c // -(-size // f)))
    return bank[0] if len(bank) == 1 else tuple(bank)


def _promotable(array, ops: list[Operation], inner: affine.ForOp) -> list | None:
    """The index keys of ``array`` in the outer body when each names one element that the
    inner loop does not move (``s[i]``, or ``C[i][0]`` .. ``C[i][24]`` of an unrolled
    loop): each element can live in a register for one outer iteration. None otherwise."""
    groups = _elements(array, ops)
    if groups is None:
        return None
    outer_body, inner_body = ops[0].parent_block(), inner.body.block
    for (_, indices), accesses in groups.items():
        # unconditional accesses only: the register's first value and its write-back must
        # be the element's (an access under a condition might name an element out of range
        # when it does not happen)
        if any(a.parent_block() not in (outer_body, inner_body) for a in accesses):
            return None
        first = _top_level(accesses[0], outer_body)
        before = _ops_before(outer_body, first)
        for v in indices:
            owner = v.owner
            if isinstance(owner, Block):
                if owner is not outer_body and defined_inside(v, ops[0].parent_op()):
                    return None  # (an inner loop's variable)
            elif owner.parent_block() is outer_body:
                if owner not in before:
                    return None  # computed after the first access: no load can go first
            elif defined_inside(v, ops[0].parent_op()):
                return None
    return list(groups)


def _ops_before(block: Block, stop: Operation) -> set:
    found = set()
    for op in block.ops:
        if op is stop:
            break
        found.add(op)
    return found


def _first_access_position(array, key: tuple, ops: list[Operation]) -> int:
    for position, op in enumerate(ops):
        if any(_index_key(a) == key for a in _accesses([op], array)):
            return position
    return len(ops)


def _promote(array, key: tuple, outer: affine.ForOp, inner: affine.ForOp
             ) -> Operation | None:
    """Keep the one element of ``array`` that the outer body accesses (``_promotable``) in
    a register (a 0-d memref) for each outer iteration: loaded at its start when the body
    reads it before writing it, stored back at its end when the body writes it. Returns
    that first load, if any.

    An integer element that the body only accumulates into (``w[i] = w[i] + e``, each
    load feeding one addition whose sum is stored back) instead starts the register at 0
    and adds it to the element at the end: ``w[i] = w[i] + (e_1 + ... + e_n)`` is the same
    sum modulo 2^W. Then the element is read and written in the last iteration only, which
    the flattened loop's pipeline overlaps at one block of iterations' distance, rather
    than read at the first and written at the last, one iteration apart."""
    accesses = [a for a in _accesses(body_ops(outer), array) if _index_key(a) == key]
    first = accesses[0]
    element_type = array.type.element_type
    function = outer
    while not isinstance(function, func.FuncOp):
        function = function.parent_op()
    entry = function.body.blocks[0]
    register = memref.AllocaOp.get(element_type, shape=[])
    register.location = outer.location
    register.results[0].name_hint = (array.name_hint or "a") + "_element"
    entry.insert_op_before(register, entry.first_op)
    slot = register.results[0]
    writes = any(isinstance(a, (affine.StoreOp, memref.StoreOp)) for a in accesses)
    body = outer.body.block
    accumulates = _accumulates_only(accesses, element_type)

    def element_access(cls, *values):
        if isinstance(first, (affine.LoadOp, affine.StoreOp)):
            make = affine.LoadOp if cls is memref.LoadOp else affine.StoreOp
            op = make(*values, array, list(first.indices), first.map)
        else:
            op = cls.get(*values, array, list(first.indices))
        op.location = outer.location
        return op

    load = None
    # the index values: operands of the first access, all defined before it (_promotable)
    if accumulates:
        zero = arith.ConstantOp(IntegerAttr(0, element_type))
        start = memref.StoreOp.get(zero.result, slot, [])
        for op in (zero, start):
            op.location = first.location
            body.insert_op_before(op, _top_level(first, body))
    elif not (isinstance(first, (affine.StoreOp, memref.StoreOp)) and first.parent_block() is body):
        load = element_access(memref.LoadOp)
        load.location = first.location
        body.insert_op_before(load, _top_level(first, body))
        # the accesses before the inner loop (straight-line: _promotable) pass the value
        # along in SSA; the register takes it once, just before the inner loop. (Through
        # the register, ``C[i][j] *= beta`` would put its multiply on the register's
        # recurrence in the flat loop, though only the first iteration uses it.)
        current = load.results[0]
        before_inner = [a for a in accesses if a.parent_block() is body and a.is_before_in_block(inner)]
        for access in before_inner:
            if isinstance(access, (affine.LoadOp, memref.LoadOp)):
                access.results[0].replace_all_uses_with(current)
            else:
                current = access.value
            access.detach()
            access.erase()
        accesses = [a for a in accesses if a not in before_inner]
        store = memref.StoreOp.get(current, slot, [])
        store.location = first.location
        body.insert_op_before(store, inner)
    if writes:
        value = memref.LoadOp.get(slot, [])
        value.location = outer.location
        body.insert_op_before(value, body.last_op)
        result = value.results[0]
        if accumulates:
            old = element_access(memref.LoadOp)
            total = arith.AddiOp(old.results[0], result)
            total.location = outer.location
            for op in (old, total):
                body.insert_op_before(op, body.last_op)
            result = total.result
        body.insert_op_before(element_access(memref.StoreOp, result), body.last_op)
    for access in accesses:
        if isinstance(access, (affine.LoadOp, memref.LoadOp)):
            replacement = memref.LoadOp.get(slot, [])
            replacement.location = access.location
            access.parent_block().insert_op_before(replacement, access)
            access.results[0].replace_all_uses_with(replacement.results[0])
        else:
            replacement = memref.StoreOp.get(access.value, slot, [])
            replacement.location = access.location
            access.parent_block().insert_op_before(replacement, access)
        access.detach()
        access.erase()
    return load


def _accumulates_only(accesses: list[Operation], element_type) -> bool:
    """Every access is a load whose one use is an ``addi`` whose one use is the next
    access, a store of it (``w[i] = w[i] + e``), on an integer element."""
    if not isinstance(element_type, IntegerType) or len(accesses) % 2:
        return False
    for load, store in zip(accesses[::2], accesses[1::2]):
        if not isinstance(load, (affine.LoadOp, memref.LoadOp)) or \
                not isinstance(store, (affine.StoreOp, memref.StoreOp)):
            return False
        uses = list(load.results[0].uses)
        if len(uses) != 1 or not isinstance(uses[0].operation, arith.AddiOp):
            return False
        total = uses[0].operation
        sums = list(total.result.uses)
        if len(sums) != 1 or sums[0].operation is not store or store.value is not total.result:
            return False
    return True


def _top_level(op: Operation, block: Block) -> Operation:
    while op.parent_block() is not block:
        op = op.parent_op()
    return op


def _guarded_if(condition, ops: list[Operation], location) -> scf.IfOp:
    block = Block()
    for op in ops:
        if op.parent is not None:
            op.detach()
        block.add_op(op)
    block.add_op(scf.YieldOp())
    branch = scf.IfOp(condition, [], Region(block))
    branch.location = location
    return branch


def flatten_guarded(outer: affine.ForOp, inner: affine.ForOp) -> affine.ForOp | None:
    outer_bounds, inner_bounds = constant_bounds(outer), constant_bounds(inner)
    if outer_bounds is None or inner_bounds is None:
        return None
    n_outer, n_inner = outer_bounds.trip_count, inner_bounds.trip_count
    if n_outer == 0 or n_inner == 0:
        return None
    ops = body_ops(outer)
    if inner not in ops:
        return None
    position = ops.index(inner)
    pre, post = ops[:position], ops[position + 1:]
    if any(isinstance(x, _LOOPS) for op in pre + post for x in op.walk()):
        return None
    if n_inner & (n_inner - 1) and not _only_repeating_accesses(ops):
        return None  # (a recurrence across outer iterations could become a short one)
    shared = _arrays(pre + post) & _arrays([inner])
    written = {a.memref for a in _accesses([inner])
               if isinstance(a, (affine.StoreOp, memref.StoreOp))}
    promoted = {array: keys for array in shared | written
                if (keys := _promotable(array, ops, inner)) is not None}
    if shared - set(promoted) or _hoisting_lost(outer, inner, promoted, ops):
        return None
    # the first values of the registers load an element that the outer iteration accesses
    # anyway (_promotable), so loading it in every iteration of the flat loop stays in
    # range; only the register's update is guarded (a select, transforms/fpga/if_convert_scalars)
    elements = [(array, key) for array, keys in promoted.items() for key in keys]
    elements.sort(key=lambda e: _first_access_position(e[0], e[1], ops))
    speculative = {_promote(array, key, outer, inner) for array, key in elements}
    ops = body_ops(outer)
    pre, post = ops[:ops.index(inner)], ops[ops.index(inner) + 1:]
    guarded: list[Operation] = []
    unguarded: list[Operation] = []
    for op in pre:
        depends = any(isinstance(v.owner, Operation) and v.owner in guarded for v in op.operands)
        movable = is_pure(op) or isinstance(op, affine.ApplyOp) or op in speculative
        (unguarded if movable and not depends else guarded).append(op)
    for group in (guarded, post):  # each becomes its own scf.if
        inside = set(group)
        for op in group:
            for result in op.results:
                if any(use.operation not in inside and
                       not any(a in inside for a in _ancestors(use.operation))
                       for use in result.uses):
                    return None  # a value computed under a guard is needed outside it
    inner_ops = body_ops(inner)
    for op in unguarded + guarded + inner_ops + post:
        op.detach()
    flat = new_affine_for(ConstantBounds(0, n_outer * n_inner, 1), [], outer, None,
                          "_".join(loop.body.block.args[0].name_hint or "t" for loop in (outer, inner)))
    body = flat.body.block
    terminator = body.last_op
    t = body.args[0]
    # the inner position, for the two guards, at the top of the body
    place = AffineExpr.dimension(0) % n_inner if n_outer > 1 else AffineExpr.dimension(0)
    inner_position = materialise(place, [t], terminator, outer.location)
    for op in unguarded:
        body.insert_op_before(op, terminator)
    if guarded:
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        first = arith.CmpiOp(inner_position, zero.result, "eq")
        for op in (zero, first):
            op.location = outer.location
            body.insert_op_before(op, terminator)
        body.insert_op_before(_guarded_if(first.result, guarded, outer.location), terminator)
    for op in inner_ops:
        body.insert_op_before(op, terminator)
    if post:
        last_value = arith.ConstantOp(IntegerAttr(n_inner - 1, IndexType()))
        last = arith.CmpiOp(inner_position, last_value.result, "eq")
        for op in (last_value, last):
            op.location = outer.location
            body.insert_op_before(op, terminator)
        body.insert_op_before(_guarded_if(last.result, post, outer.location), terminator)
    # index arithmetic goes in front of an anchor: the first op may be an access that the
    # replacement rewrites (and erases)
    first_op = arith.ConstantOp(IntegerAttr(0, IndexType()))
    body.insert_op_before(first_op, body.first_op)
    replace_induction_variable(
        outer.body.block.args[0],
        (AffineExpr.dimension(0) // n_inner if n_inner > 1 else AffineExpr.dimension(0))
        * outer_bounds.step + outer_bounds.lower,
        [t], first_op, outer.location)
    replace_induction_variable(inner.body.block.args[0],
                               place * inner_bounds.step + inner_bounds.lower,
                               [t], first_op, inner.location)
    body.erase_op(first_op)
    flat.attributes.update(inner.attributes)
    outer.parent_block().insert_op_before(flat, outer)
    outer.parent_block().erase_op(outer)
    return flat


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
