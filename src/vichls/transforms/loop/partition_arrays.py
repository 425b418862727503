"""Array partitioning on the loop level: split an array memref into banks.

``partition_arrays(module, requests)`` rewrites, in the top function of ``module``, each
requested array (a parameter, a local ``memref.alloca`` or a constant array's
``memref.get_global``, named by ``vichls.name``) into banks along one dimension, along
every dimension for ``dim=0``, or along each dimension one of several requests for the array
names (each with its own kind and factor: they compose into one grid of banks); a constant
array's banks are constant globals of their own elements:

- cyclic, factor F: element ``x`` of the dimension goes to bank ``x % F`` at ``x // F``;
- block, factor F: with ``B = ceil(D / F)``, bank ``x // B`` at ``x % B``;
- complete: one bank per element and the dimension disappears (a 1-d local array becomes
  0-d memrefs, which the FPGA back end keeps in registers). Small constant-bound loops
  whose accesses to the array move with the loop are first unrolled, so that each access
  names one register instead of multiplexing over all of them.

Every bank has the array's shape with the partitioned dimension shrunk to ``ceil(D / F)``
(the last banks padded), as ``docs/hardware-interface.md`` specifies for bank ports. A
partitioned parameter becomes consecutive new function arguments named ``<name>_<bank>``
(so the FPGA back end's usual port naming yields ``<name>_<bank>_address0``); a local
array becomes one ``alloca`` per bank. With ``dim=0`` on several dimensions the banks are
numbered row-major over the grid of banks.

Accesses: when the bank of an access is a compile-time constant (its index is affine in
loop induction variables with constant bounds and steps, e.g. after unrolling) the
access goes straight to that bank with a rewritten affine map; otherwise the bank and
in-bank index are computed with ``arith`` on ``index``, a load reads every bank at the
in-bank index (always in range, since banks share one shape) and selects by bank, and a
store is guarded by one ``scf.if`` per bank. Indices are assumed in range (the language
leaves out-of-range accesses undefined), hence non-negative: unsigned division is exact.
Loads of a cyclic partition at ``x + d`` for a common ``x`` and constants ``d`` spanning
less than F (``x[i]``, ``x[i + 1]``, ``x[i + 2]`` of a window, in one block, no store to
the array between them) fall in distinct banks whatever ``x`` is: they are a window, which
reads each bank once (at its row or the next, by the window's phase ``x % F``) and gives
each load its bank's value by that phase, so a pipelined loop charges every bank one
access instead of all of them. A complete partition whose unrolling would make more than
``limits.unroll_limit()`` copies of a loop body is refused, naming the loop.

The pass records what it did, for the back ends and the report, in the function attribute
``vichls.partitions`` ({name: {kind, factor, dim, banks, shape, local}}) and in each bank's
``vichls.bank_of`` attribute (on the argument attributes or the alloca);
``original_signature`` gives back the kernel's unpartitioned interface.

Assumes the loop-level IR of docs/ir.md, called functions already inlined where they take
a partitioned array (an array passed to ``func.call`` is refused), and ``requests``
already validated by ``vichls.frontend.customize`` (the pass re-checks and raises PartitionError).
The CPU back end runs the unpartitioned IR: partitioning changes no result.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import (
    FileLineColLoc,
    AffineMapAttr,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float32Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass

from vichls.dialects.attributes import BANK_OF_ATTR, PARTITIONS_ATTR, REQUESTS_ATTR
from vichls.errors import VichlsError
from vichls.analysis.array_writes import init_nest
from vichls.analysis.loop_utils import loop_display_name
from vichls.analysis.memory_names import display_name, source_name
from vichls.limits import unroll_limit, unroll_limit_hint
from vichls.signature import KernelSignature, Param, signature_of, top_function
from vichls.dialects.attributes import NAME_ATTR
from vichls.types import ArrayType

KINDS = ("cyclic", "block", "complete")


class PartitionError(VichlsError):
    """A partition request that cannot apply (unknown array, bad factor or dimension, an
    array used in a way the pass cannot split)."""


@dataclass(frozen=True)
class _Split:
    """One split of a memref along ``axis`` (0-based) into ``factor`` banks."""

    kind: str
    factor: int
    axis: int
    size: int  # the dimension's size before the split

    @property
    def per_bank(self) -> int:
        return math.ceil(self.size / self.factor)

    def bank_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if self.kind == "complete":
            return shape[: self.axis] + shape[self.axis + 1 :]
        return shape[: self.axis] + (self.per_bank,) + shape[self.axis + 1 :]

    def bank_of_index(self, x: int) -> int:
        return x % self.factor if self.kind == "cyclic" else x // self.per_bank


# -- linear forms of index values -----------------------------------------------------------

_Linear = tuple[dict, int]  # ({induction variable: coefficient}, constant)


def _add(a: _Linear, b: _Linear, scale: int = 1) -> _Linear:
    coeffs = dict(a[0])
    for v, c in b[0].items():
        coeffs[v] = coeffs.get(v, 0) + scale * c
    return {v: c for v, c in coeffs.items() if c}, a[1] + scale * b[1]


def _scale(a: _Linear, k: int) -> _Linear:
    return {v: c * k for v, c in a[0].items() if c * k}, a[1] * k


def _constant_of(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _linear_expr(expr: AffineExpr, dims: list[_Linear | None], syms: list[_Linear | None]
                 ) -> _Linear | None:
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _linear_expr(expr.lhs, dims, syms)
        rhs = _linear_expr(expr.rhs, dims, syms)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            return _add(lhs, rhs)
        if expr.kind == AffineBinaryOpKind.Mul:
            if not rhs[0]:
                return _scale(lhs, rhs[1])
            if not lhs[0]:
                return _scale(rhs, lhs[1])
    return None  # mod and divisions: not linear


def _linear(value: SSAValue) -> _Linear | None:
    """``value`` as a linear form in loop induction variables, or None."""
    known = _constant_of(value)
    if known is not None:
        return {}, known
    if isinstance(value, BlockArgument):
        return ({value: 1}, 0) if _loop_range(value) is not None else None
    if _loop_range(value) is not None:  # a bounded term such as t mod 8 (from flattening)
        return {value: 1}, 0
    op = value.owner
    if isinstance(op, affine.ApplyOp):
        amap = op.map.data
        operands = [_linear(v) for v in op.mapOperands]
        return _linear_expr(amap.results[0], operands[: amap.num_dims], operands[amap.num_dims :])
    if isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp)):
        a, b = _linear(op.lhs), _linear(op.rhs)
        if a is None or b is None:
            return None
        if isinstance(op, arith.AddiOp):
            return _add(a, b)
        if isinstance(op, arith.SubiOp):
            return _add(a, b, -1)
        if not b[0]:
            return _scale(a, b[1])
        if not a[0]:
            return _scale(b, a[1])
    return None


def _loop_range(iv: SSAValue) -> tuple[int, int, int] | None:
    """(first, last, step) of a loop induction variable with constant bounds, or of an
    unsigned remainder, mask or quotient by a constant of one (what flattening makes of
    induction variables), or None (also for an empty loop, whose accesses never run)."""
    if not isinstance(iv, BlockArgument):
        op = iv.owner
        if not isinstance(op, (arith.AndIOp, arith.RemUIOp, arith.ShRUIOp, arith.DivUIOp)):
            return None
        inner, k = _loop_range(op.lhs), _constant_of(op.rhs)
        if inner is None or k is None or k < 0:
            return None
        first, last, _ = inner
        if first < 0:  # read as unsigned, a negative value is huge
            last = 1 << 62
        if isinstance(op, arith.AndIOp):
            return (0, min(k, last), 1) if k & (k + 1) == 0 else None  # a low-bits mask
        if isinstance(op, arith.RemUIOp):
            return (0, min(k - 1, last), 1) if k > 0 else None
        if first < 0:
            return None
        if isinstance(op, arith.ShRUIOp):
            return first >> k, last >> k, 1
        return (first // k, last // k, 1) if k > 0 else None
    loop = iv.block.parent_op()
    if isinstance(loop, affine.ForOp) and iv.index == 0:
        lb, ub = loop.lowerBoundMap.data, loop.upperBoundMap.data
        if lb.num_dims + lb.num_symbols or ub.num_dims + ub.num_symbols:
            return None
        if len(lb.results) != 1 or len(ub.results) != 1:
            return None
        low, high = lb.results[0], ub.results[0]
        if not (isinstance(low, AffineConstantExpr) and isinstance(high, AffineConstantExpr)):
            return None
        first, stop, step = low.value, high.value, loop.step.value.data
    elif isinstance(loop, scf.ForOp) and iv.index == 0 and isinstance(iv.type, IndexType):
        first, stop, step = (_constant_of(v) for v in (loop.lb, loop.ub, loop.step))
        if first is None or stop is None or step is None:
            return None
    else:
        return None
    if step <= 0 or stop <= first:
        return None
    return first, first + (stop - first - 1) // step * step, step


def _static_bank(form: _Linear | None, split: _Split) -> int | None:
    """The bank every execution of an access with index ``form`` reaches, if one."""
    if form is None:
        return None
    coeffs, const = form
    if split.kind == "cyclic":
        base = const
        for iv, c in coeffs.items():
            first, _, step = _loop_range(iv)
            if (c * step) % split.factor:
                return None
            base += c * first
        return base % split.factor
    low = high = const
    for iv, c in coeffs.items():
        first, last, _ = _loop_range(iv)
        low += min(c * first, c * last)
        high += max(c * first, c * last)
    bank = split.bank_of_index(low)
    return bank if bank == split.bank_of_index(high) else None


# -- rewriting the accesses -----------------------------------------------------------------


def _insert(op: Operation, before: Operation) -> SSAValue | None:
    op.location = before.location
    before.parent_block().insert_op_before(op, before)
    return op.results[0] if op.results else None


def _index_const(value: int, before: Operation) -> SSAValue:
    return _insert(arith.ConstantOp(IntegerAttr(value, IndexType())), before)


def _linear_terms(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """``expr`` as ({dimension: coefficient}, constant) when it is a linear sum of
    dimensions (no symbols), else None."""
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        lhs, rhs = _linear_terms(expr.lhs), _linear_terms(expr.rhs)
        if lhs is None or rhs is None:
            return None
        terms = dict(lhs[0])
        for d, c in rhs[0].items():
            terms[d] = terms.get(d, 0) + c
        return terms, lhs[1] + rhs[1]
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        for a, b in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            inner = _linear_terms(a)
            if inner is not None and isinstance(b, AffineConstantExpr):
                return {d: c * b.value for d, c in inner[0].items()}, inner[1] * b.value
    return None


def _in_bank_expr(expr: AffineExpr, split: _Split, bank: int) -> AffineExpr:
    if split.kind == "cyclic":  # exact: subtracting the bank first lets equal addresses fold
        terms = _linear_terms(expr - bank)
        if terms is not None and all(c % split.factor == 0 for c in terms[0].values()) \
                and terms[1] % split.factor == 0:
            # every term divides exactly (x[3i + c] in bank c is i): no division at all
            out = AffineExpr.constant(terms[1] // split.factor)
            for d, c in sorted(terms[0].items()):
                out = out + AffineExpr.dimension(d) * (c // split.factor)
            return out
        return (expr - bank) // split.factor
    return expr - bank * split.per_bank


def _rewrite_affine(op, banks: list[SSAValue], split: _Split) -> bool:
    """Send an affine access whose bank is constant to its bank; False if it is not."""
    amap = op.map.data
    operands = [_linear(v) for v in op.indices]
    dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
    bank = _static_bank(_linear_expr(amap.results[split.axis], dims, syms), split)
    if bank is None:
        return False
    results = list(amap.results)
    if split.kind == "complete":
        del results[split.axis]
    else:
        results[split.axis] = _in_bank_expr(results[split.axis], split, bank)
    new_map = AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, tuple(results)))
    if isinstance(op, affine.LoadOp):
        new = affine.LoadOp(banks[bank], op.indices, new_map, op.results[0].type)
    else:
        new = affine.StoreOp(op.value, banks[bank], op.indices, new_map)
    _insert(new, op)
    if isinstance(op, affine.LoadOp):
        op.results[0].replace_all_uses_with(new.results[0])
    op.detach()
    op.erase()
    return True


def _materialize_indices(op) -> list[SSAValue]:
    """The index values of an access (affine maps applied)."""
    if isinstance(op, (memref.LoadOp, memref.StoreOp)):
        return list(op.indices)
    amap = op.map.data
    out = []
    for expr in amap.results:
        single = AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, (expr,)))
        out.append(_insert(affine.ApplyOp(list(op.indices), single), op))
    return out


def _div_mod(x: SSAValue, divisor: int, before: Operation) -> tuple[SSAValue, SSAValue]:
    """(x // divisor, x % divisor) for a non-negative index; shifts for powers of two."""
    if divisor == 1:
        return x, _index_const(0, before)
    if divisor & (divisor - 1) == 0:
        shift = _index_const(divisor.bit_length() - 1, before)
        mask = _index_const(divisor - 1, before)
        return (_insert(arith.ShRUIOp(x, shift), before), _insert(arith.AndIOp(x, mask), before))
    d = _index_const(divisor, before)
    return _insert(arith.DivUIOp(x, d), before), _insert(arith.RemUIOp(x, d), before)


def _rewrite_dynamic(op, banks: list[SSAValue], split: _Split) -> None:
    """An access whose bank is only known at run time: compute bank and in-bank index;
    a load reads every bank and selects, a store writes under one scf.if per bank."""
    indices = _materialize_indices(op)
    x = indices[split.axis]
    if split.kind == "cyclic":
        inner, bank = _div_mod(x, split.factor, op)
    elif split.kind == "block":
        bank, inner = _div_mod(x, split.per_bank, op)
    else:
        bank, inner = x, None
    new_indices = list(indices)
    if inner is None:
        del new_indices[split.axis]
    else:
        new_indices[split.axis] = inner
    static = _constant_of(x)
    if static is not None:  # a constant index that affine analysis did not see
        only = split.bank_of_index(static)
        candidates = [only]
    else:
        candidates = list(range(split.factor))
    is_load = isinstance(op, (memref.LoadOp, affine.LoadOp))
    if is_load:
        result = None
        for b in reversed(candidates):
            value = _insert(memref.LoadOp.get(banks[b], new_indices), op)
            if result is None:
                result = value
            else:
                hit = _insert(arith.CmpiOp(bank, _index_const(b, op), "eq"), op)
                result = _insert(arith.SelectOp(hit, value, result), op)
        op.results[0].replace_all_uses_with(result)
    else:
        for b in candidates:
            store = memref.StoreOp.get(op.value, banks[b], new_indices)
            if len(candidates) == 1:
                _insert(store, op)
                continue
            hit = _insert(arith.CmpiOp(bank, _index_const(b, op), "eq"), op)
            then = Block([store, scf.YieldOp()])
            store.location = op.location
            _insert(scf.IfOp(hit, [], Region(then), Region()), op)
    op.detach()
    op.erase()


def _rewrite_uses(array: SSAValue, banks: list[SSAValue], split: _Split, name: str) -> None:
    dynamic_loads: list[Operation] = []
    for use in list(array.uses):
        op = use.operation
        if isinstance(op, (affine.LoadOp, affine.StoreOp)) and op.memref is array:
            if _rewrite_affine(op, banks, split):
                continue
            if isinstance(op, affine.LoadOp) and split.kind == "cyclic":
                dynamic_loads.append(op)  # (rotated below when they form a window)
            else:
                _rewrite_dynamic(op, banks, split)
        elif isinstance(op, (memref.LoadOp, memref.StoreOp)) and op.memref is array:
            form_bank = None
            if len(op.indices) == len(array.type.get_shape()):
                form_bank = _static_bank(_linear(op.indices[split.axis]), split)
            if form_bank is not None:
                _rewrite_static_memref(op, banks, split, form_bank)
            elif isinstance(op, memref.LoadOp) and split.kind == "cyclic" and \
                    len(op.indices) == len(array.type.get_shape()):
                dynamic_loads.append(op)
            else:
                _rewrite_dynamic(op, banks, split)
        else:
            raise PartitionError(
                f"array '{name}' is used by '{op.name}', which partitioning cannot split "
                "(only loads and stores of the array can be rewritten into banks)")
    _rewrite_windows(_windows(dynamic_loads, banks, split), banks, split)


# -- windows of loads: x[i], x[i + 1], ... of a cyclic partition --------------------------------


def _axis_forms(load: Operation) -> list:
    """Per index of a load (affine or memref), its linear form, or the index value itself
    when it is not linear (then only the same value is the same index)."""
    if isinstance(load, affine.LoadOp):
        amap = load.map.data
        forms = [_linear(v) for v in load.indices]
        if any(f is None for f in forms):
            return [None] * len(amap.results)
        dims, syms = forms[: amap.num_dims], forms[amap.num_dims :]
        return [_linear_expr(expr, dims, syms) for expr in amap.results]
    return [_linear(v) or v for v in load.indices]


def _form_key(form) -> object:
    if isinstance(form, tuple):
        coeffs, const = form
        return tuple(sorted(((id(v), c) for v, c in coeffs.items() if c), key=lambda t: t[0])), const
    return ("value", id(form))


def _window_key(load: Operation, split: _Split):
    """What the loads of one window share: the split axis's linear form without its
    constant, and the other indices (equal forms, or the same value); None when the split
    axis's index is not linear."""
    forms = _axis_forms(load)
    axis = forms[split.axis]
    if not isinstance(axis, tuple):
        return None
    key = [_form_key(f) for f in forms]
    key[split.axis] = _form_key((axis[0], 0))
    return tuple(key)


def _axis_constant(load: Operation, split: _Split) -> int:
    return _axis_forms(load)[split.axis][1]


def _windows(loads: list[Operation], banks: list[SSAValue], split: _Split
             ) -> list[list[tuple[Operation, int]]]:
    """The loads of a cyclic partition whose bank is known only at run time, in windows:
    loads in one block, with the same indices but for a constant ``d`` added on the split
    axis, ``0 <= d < factor`` from the window's first (so each bank holds exactly one of the
    window's elements), with no store to the array between them. Each as (load, d); a load
    no window takes is a window of one."""
    groups: dict = {}
    order: dict[Operation, int] = {}
    numbered: set = set()
    for load in loads:
        block = load.parent_block()
        if block not in numbered:
            numbered.add(block)
            order.update({op: n for n, op in enumerate(block.ops)})
        groups.setdefault((block, _window_key(load, split)), []).append(load)
    out: list[list[tuple[Operation, int]]] = []
    for (block, key), members in groups.items():
        if key is None:
            out += [[(m, 0)] for m in members]
            continue
        members.sort(key=lambda m: (_axis_constant(m, split), order[m]))
        window: list[tuple[Operation, int]] = []
        for m in members:
            c = _axis_constant(m, split)
            if window:
                span = sorted([order[w] for w, _ in window] + [order[m]])
                if (c - _axis_constant(window[0][0], split) >= split.factor
                        or c == _axis_constant(window[-1][0], split)
                        or not _no_store_between(block, span[0], span[-1], banks)
                        or not all(_operands_before(w, span[0], block, order)
                                   for w in [m] + [w for w, _ in window])):
                    out.append(window)
                    window = []
            window.append((m, c - _axis_constant(window[0][0], split) if window else 0))
        out.append(window)
    return out


def _operands_before(load: Operation, position: int, block: Block,
                     order: dict[Operation, int]) -> bool:
    """The operands of ``load`` defined in ``block`` come before ``position`` (the window's
    reads are placed at its first load)."""
    return all(not isinstance(v.owner, Operation) or v.owner.parent_block() is not block
               or order[v.owner] < position for v in load.operands)


def _no_store_between(block: Block, first: int, last: int, banks: list[SSAValue]) -> bool:
    """No op of ``block`` between positions ``first`` and ``last`` writes a bank (or calls
    a kernel, which might)."""
    written = set(banks)
    for n, op in enumerate(block.ops):
        if n <= first:
            continue
        if n >= last:
            break
        for inner in op.walk():
            if isinstance(inner, (memref.StoreOp, affine.StoreOp)) and inner.memref in written:
                return False
            if isinstance(inner, func.CallOp):
                return False
    return True


def _index_values(load: Operation, before: Operation) -> list[SSAValue]:
    """The index values of a load, an affine load's maps applied in front of ``before``."""
    if isinstance(load, memref.LoadOp):
        return list(load.indices)
    amap = load.map.data
    return [_insert(affine.ApplyOp(list(load.indices), AffineMapAttr(
        AffineMap(amap.num_dims, amap.num_symbols, (expr,)))), before) for expr in amap.results]


def _rewrite_windows(windows: list[list[tuple[Operation, int]]], banks: list[SSAValue],
                     split: _Split) -> None:
    """Rotate every window of two or more loads (``_rewrite_rotated``), the others read
    every bank. Windows in one block at the same place on the split axis share the row,
    the phase and each bank's row: their reads of one bank then have equal indices on that
    axis, and a window on another axis of the same array (a later split) finds them."""
    shared: dict = {}
    position: dict[Operation, int] = {}
    for block in {window[0][0].parent_block() for window in windows}:
        position.update({op: n for n, op in enumerate(block.ops)})
    # in program order, so that the first window of a place comes first
    windows = sorted(windows, key=lambda w: min(position[load] for load, _ in w))
    for window in windows:
        if len(window) == 1:
            _rewrite_dynamic(window[0][0], banks, split)
            continue
        base = window[0][0]
        block = base.parent_block()
        members = {load for load, _ in window}
        first = next(op for op in block.ops if op in members)
        key = (block, _form_key(_axis_forms(base)[split.axis]))
        place = shared.get(key)
        if place is not None and not (_dominates(place[0], first) and all(
                _dominates(v.owner, place[0]) for v in base.operands
                if isinstance(v.owner, Operation) and v.owner.parent_block() is block)):
            place = None
        if place is None:
            indices = _index_values(base, first)
            row, phase = _div_mod(indices[split.axis], split.factor, first)
            # the next row, but the last when there is none: a bank no element of the window
            # is in still reads a word of its own (a window narrower than F at the end)
            last = _index_const(split.per_bank - 1, first)
            next_row = _insert(arith.SelectOp(
                _insert(arith.CmpiOp(row, last, "ult"), first),
                _insert(arith.AddiOp(row, _index_const(1, first)), first), last), first)
            rows = [_insert(arith.SelectOp(
                _insert(arith.CmpiOp(_index_const(b, first), phase, "ult"), first),
                next_row, row), first) for b in range(split.factor)]
            is_phase = [_insert(arith.CmpiOp(phase, _index_const(q, first), "eq"), first)
                        for q in range(split.factor - 1)]
            place = (row.owner, rows, is_phase)  # (an op that stays: the loads go)
            shared[key] = place
        else:
            # the window's other indices go where the shared ones are: a window of a later
            # split that takes loads of several of these windows finds them all there
            indices = _index_values(base, place[0])
        _rewrite_rotated(window, banks, split, first, indices, place[1], place[2])


def _dominates(op: Operation, later: Operation) -> bool:
    """``op`` comes before ``later`` in their common block."""
    block = later.parent_block()
    if op.parent_block() is not block:
        return False
    for x in block.ops:
        if x is op:
            return True
        if x is later:
            return False
    return False


def _rewrite_rotated(window: list[tuple[Operation, int]], banks: list[SSAValue],
                     split: _Split, first: Operation, indices: list[SSAValue],
                     rows: list[SSAValue], is_phase: list[SSAValue]) -> None:
    """The loads of a window read each bank once. With ``base`` the first load's index on
    the split axis, ``row = base // F`` and ``phase = base % F``: bank b holds the window's
    element at row ``row + (b < phase)`` (``rows[b]``); the load at ``base + d`` takes bank
    ``(phase + d) % F``, a choice on ``phase`` alone (``is_phase[q]``: phase == q). A bank
    then serves one access of the window where reading every bank for every load
    (``_rewrite_dynamic``) charged it all of them. The reads go in front of ``first``, at
    ``indices`` (the window's first load's) but for the split axis."""
    values = []
    for b in range(split.factor):
        at = list(indices)
        at[split.axis] = rows[b]
        values.append(_insert(memref.LoadOp.get(banks[b], at), first))
    for load, d in window:
        result = values[(split.factor - 1 + d) % split.factor]
        for q in reversed(range(split.factor - 1)):
            result = _insert(arith.SelectOp(is_phase[q], values[(q + d) % split.factor],
                                            result), first)
        load.results[0].replace_all_uses_with(result)
    for load, _ in window:
        load.detach()
        load.erase()


def _rewrite_static_memref(op, banks, split: _Split, bank: int) -> None:
    indices = list(op.indices)
    x = indices[split.axis]
    if split.kind == "complete":
        del indices[split.axis]
    elif split.kind == "cyclic":
        indices[split.axis] = _div_mod(x, split.factor, op)[0]
    else:
        offset = _index_const(bank * split.per_bank, op)
        indices[split.axis] = _insert(arith.SubiOp(x, offset), op)
    if isinstance(op, memref.LoadOp):
        new = memref.LoadOp.get(banks[bank], indices)
        _insert(new, op)
        op.results[0].replace_all_uses_with(new.results[0])
    else:
        _insert(memref.StoreOp.get(op.value, banks[bank], indices), op)
    op.detach()
    op.erase()


# -- making the banks -----------------------------------------------------------------------


#: Loops up to this trip count that index a completely partitioned array are unrolled.
COMPLETE_UNROLL_LIMIT = 64


def _depends_on(value: SSAValue, iv: SSAValue) -> bool:
    work, seen = [value], set()
    while work:
        v = work.pop()
        if v is iv:
            return True
        if v in seen or not isinstance(v.owner, Operation):
            continue
        seen.add(v)
        work.extend(v.owner.operands)
    return False


def _unroll_loops_indexing(array: SSAValue) -> None:
    """Unroll, fully, the small constant-bound loops in which an access to ``array`` has
    an index that moves with the loop: after complete partitioning each element is its
    own register, and a moving index would need a multiplexer over all of them (a select
    chain to read, one guarded write per element to store); unrolled, every access names
    its register. Loops holding other loops or whiles are left alone."""
    from vichls.transforms.loop.loop_unroll import unroll_loop
    from vichls.analysis.loop_utils import constant_bounds

    # copies of the innermost body each loop holds after the unrolling inside it (a nest
    # unrolled level by level multiplies): limits.unroll_limit bounds them
    made: dict[Operation, int] = {}
    changed = True
    while changed:
        changed = False
        for use in list(array.uses):
            op = use.operation
            if not isinstance(op, (affine.LoadOp, affine.StoreOp)):
                continue
            loop = op.parent_op()
            while loop is not None and not isinstance(loop, func.FuncOp):
                if isinstance(loop, affine.ForOp):
                    bounds = constant_bounds(loop)
                    moving = any(_depends_on(v, loop.body.block.args[0]) for v in op.indices)
                    simple = not any(isinstance(x, (affine.ForOp, scf.ForOp, scf.WhileOp))
                                     for x in loop.body.walk())
                    # (a loop of one iteration reaches a single element already)
                    if moving and simple and bounds is not None and \
                            1 < bounds.trip_count <= COMPLETE_UNROLL_LIMIT:
                        copies = bounds.trip_count * made.pop(loop, 1)
                        if copies > unroll_limit():
                            raise _at(loop, f"completely partitioning '{display_name(array)}' unrolls "
                                      f"the loops indexing it: loop '{loop_display_name(loop)}' "
                                      f"would hold {copies} copies of their body; partition "
                                      f"it cyclic or block by a factor instead "
                                      f"({unroll_limit_hint()})")
                        parent = loop.parent_op()
                        if parent is not None:
                            made[parent] = max(made.get(parent, 1), copies)
                        unroll_loop(loop, None)
                        changed = True
                        break
                loop = loop.parent_op()
            if changed:
                break


# -- equal loads read once ---------------------------------------------------------------------


def _merge_equal_loads(array: SSAValue) -> None:
    """Loads of ``array`` in one block with the same map and the same operands, no store
    to the array (or call) between them, become the first of them. Unrolled copies of a
    loop whose index does not move the access (the output channels of a convolution all
    read one input window) load the same elements: left apart, each copy is a window of
    its own below and reads every bank again (three copies, three times the port demand)."""
    loads = [use.operation for use in array.uses if isinstance(use.operation, affine.LoadOp)
             and use.operation.memref is array]
    groups: dict = {}
    for load in loads:
        key = (load.parent_block(), load.map, tuple(load.indices))
        groups.setdefault(key, []).append(load)
    for (block, _, _), members in groups.items():
        if len(members) < 2:
            continue
        order = {op: n for n, op in enumerate(block.ops)}
        members.sort(key=lambda m: order[m])
        first = members[0]
        for later in members[1:]:
            if not _no_store_between(block, order[first], order[later], [array]):
                first = later
                continue
            later.results[0].replace_all_uses_with(first.results[0])
            later.detach()
            later.erase()


# -- the initialisation of a partitioned local array, bank by bank ---------------------------


def _take_fill(array: SSAValue) -> tuple[Attribute, Operation] | None:
    """Take out the front end's initialisation nest of local ``array`` (one constant stored
    into every element, in a nest of the entry block: analysis/array_writes.init_nest),
    leaving a placeholder where it was; its constant and the placeholder, or None.

    Rewritten access by access, its store would find its bank with a division and a
    remainder per partitioned dimension and a guarded store per bank (a multi-cycle
    iteration per element); the banks are filled instead by one nest over the bank's
    shape that stores into every bank at once (_fill_banks)."""
    block = array.owner.parent_block()
    for op in block.ops:
        if isinstance(op, affine.ForOp) and init_nest(op, array):
            store = next(x for x in op.walk() if isinstance(x, affine.StoreOp))
            constant = store.value.owner
            if not isinstance(constant, arith.ConstantOp):
                return None
            marker = scf.ExecuteRegionOp([], Region(Block()))  # (the place only: removed)
            block.insert_op_before(marker, op)
            value = constant.value
            op.detach()
            op.erase()
            return value, marker
    return None


def _fill_banks(banks: list[SSAValue], value: Attribute, marker: Operation) -> None:
    """Store the constant ``value`` into every element of every bank (all of one shape) in
    one nest at ``marker``'s place: each iteration writes one element of each bank (the
    last banks' padding too, which nothing reads)."""
    block = marker.parent_block()
    constant = arith.ConstantOp(value)
    block.insert_op_before(constant, marker)
    shape = tuple(banks[0].type.get_shape())

    def nest(depth: int, ivs: list[SSAValue]) -> list[Operation]:
        if depth == len(shape):
            return [affine.StoreOp(constant.result, bank, ivs) for bank in banks]
        body = Block(arg_types=[IndexType()])
        body.add_ops(nest(depth + 1, [*ivs, body.args[0]]) + [affine.YieldOp.get()])
        loop = affine.ForOp.from_region([], [], [], [], 0, shape[depth], Region(body))
        loop.location = marker.location
        return [loop]

    for op in nest(0, []):
        block.insert_op_before(op, marker)
    marker.detach()
    marker.erase()


def _at(op: Operation, message: str) -> PartitionError:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return PartitionError(message, loc.filename.data, loc.line.data, loc.column.data)
    return PartitionError(message)


def _f32_bits(values: DenseIntOrFPElementsAttr, count: int) -> list[int]:
    """The IEEE-754 bits of the ``count`` elements of a dense f32 attribute (a splat held
    once gives its one element ``count`` times)."""
    data = values.data.data
    bits = list(struct.unpack(f"<{len(data) // 4}I", data))
    return bits * count if len(bits) == 1 else bits


def _unflatten(offset: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for d in reversed(shape):
        index.append(offset % d)
        offset //= d
    return tuple(reversed(index))


def _flatten(index, shape: tuple[int, ...]) -> int:
    offset = 0
    for i, d in zip(index, shape):
        offset = offset * d + i
    return offset


class _Partitioner:
    def __init__(self, function: func.FuncOp):
        self.function = function
        block = function.body.block
        attrs = function.arg_attrs.data if function.arg_attrs is not None else [
            DictionaryAttr({}) for _ in block.args]
        self.arg_attrs: dict[SSAValue, dict[str, Attribute]] = {
            a: dict(d.data) for a, d in zip(block.args, attrs, strict=True)}

    def find(self, name: str) -> tuple[SSAValue, bool]:
        for arg, attrs in self.arg_attrs.items():
            if NAME_ATTR in attrs and attrs[NAME_ATTR].data == name:
                return arg, False
        for op in self.function.walk():
            if isinstance(op, memref.GetGlobalOp) and NAME_ATTR in op.attributes and \
                    op.attributes[NAME_ATTR].data == name:
                return self.one_read_of(op), True
            if isinstance(op, memref.AllocaOp) and NAME_ATTR in op.attributes and \
                    op.attributes[NAME_ATTR].data == name:
                return op.memref, True
        raise PartitionError(f"kernel '{self.function.sym_name.data}' has no array named "
                             f"'{name}' to partition")

    def split(self, array: SSAValue, split: _Split, name: str) -> list[SSAValue]:
        mtype = array.type
        shape = split.bank_shape(tuple(mtype.get_shape()))
        bank_type = MemRefType(mtype.element_type, list(shape))
        if isinstance(array, BlockArgument):
            block = array.block
            banks = [block.insert_arg(bank_type, array.index + 1 + b) for b in range(split.factor)]
            for bank in banks:
                bank.name_hint = array.name_hint
                self.arg_attrs[bank] = dict(self.arg_attrs[array])
        elif isinstance(array.owner, memref.GetGlobalOp):
            banks = self.split_constant(array.owner, split, bank_type)
        else:
            alloca = array.owner
            banks = []
            for _ in range(split.factor):
                new = memref.AllocaOp.get(mtype.element_type, shape=list(shape))
                new.attributes.update(alloca.attributes)
                new.location = alloca.location
                alloca.parent_block().insert_op_before(new, alloca)
                new.memref.name_hint = array.name_hint
                banks.append(new.memref)
        _rewrite_uses(array, banks, split, name)
        if isinstance(array, BlockArgument):
            del self.arg_attrs[array]
            array.block.erase_arg(array)
        else:
            array.owner.detach()
            array.owner.erase()
        return banks

    def one_read_of(self, get: memref.GetGlobalOp) -> SSAValue:
        """The constant array ``get`` reads, read once, at the start of the function (a
        callee inlined at several calls read it once per call): every access is then an
        access of one value, which the split rewrites."""
        name = get.name_.root_reference.data
        entry = self.function.body.block
        get.detach()
        entry.insert_op_before(get, entry.first_op)
        for op in list(self.function.walk()):
            if isinstance(op, memref.GetGlobalOp) and op is not get and \
                    op.name_.root_reference.data == name:
                op.memref.replace_all_uses_with(get.memref)
                op.detach()
                op.erase()
        return get.memref

    def split_constant(self, get: memref.GetGlobalOp, split: _Split,
                       bank_type: MemRefType) -> list[SSAValue]:
        """A constant array's banks: one constant ``memref.global`` per bank holding the
        elements that go there (the padding of the last banks is 0; a float32 table's
        elements move as their bits), read where the array was read."""
        module = self.function.parent_op()
        name = get.name_.root_reference.data
        table = next(g for g in module.ops if isinstance(g, memref.GlobalOp)
                     and g.sym_name.data == name)
        shape = tuple(get.memref.type.get_shape())
        is_f32 = isinstance(bank_type.element_type, Float32Type)
        values = _f32_bits(table.initial_value, math.prod(shape)) if is_f32 \
            else list(table.initial_value.get_values())
        taken = {g.sym_name.data for g in module.ops if isinstance(g, memref.GlobalOp)}
        bank_shape = tuple(bank_type.get_shape())
        banks = []
        for b in range(split.factor):
            bank_values = [0] * math.prod(bank_shape)
            for offset, value in enumerate(values):
                index = list(_unflatten(offset, shape))
                x = index[split.axis]
                if split.bank_of_index(x) != b:
                    continue
                if split.kind == "complete":
                    del index[split.axis]
                else:
                    index[split.axis] = x // split.factor if split.kind == "cyclic" \
                        else x % split.per_bank
                bank_values[_flatten(index, bank_shape)] = value
            bank_name, n = f"{name}_{b}", b
            while bank_name in taken:
                n += split.factor
                bank_name = f"{name}_{n}"
            taken.add(bank_name)
            tensor = TensorType(bank_type.element_type, list(bank_shape))
            data = DenseIntOrFPElementsAttr(tensor, BytesAttr(struct.pack(
                f"<{len(bank_values)}I", *bank_values))) if is_f32 \
                else DenseIntOrFPElementsAttr.from_list(tensor, bank_values)
            bank = memref.GlobalOp.get(StringAttr(bank_name), bank_type, data,
                                       constant=UnitAttr())
            bank.attributes.update(table.attributes)
            bank.location = table.location
            module.body.block.insert_op_after(bank, table)
            read = memref.GetGlobalOp(bank_name, bank_type)
            read.attributes.update(get.attributes)
            read.location = get.location
            get.parent_block().insert_op_before(read, get)
            read.memref.name_hint = get.memref.name_hint
            banks.append(read.memref)
        return banks

    def partition(self, name: str, specs: list[tuple[str, int, int | None]]) -> None:
        """Split array ``name`` by ``specs``, (kind, dim, factor) each: one request, or
        several on different dimensions, which compose into a grid of banks."""
        array, local = self.find(name)
        shape = tuple(array.type.get_shape())
        if not shape:
            raise PartitionError(f"'{name}' is a scalar: only arrays can be partitioned")
        if BANK_OF_ATTR in (self.arg_attrs.get(array) or getattr(array.owner, "attributes", {})):
            raise PartitionError(f"array '{name}' is already partitioned")
        splits = []
        for kind, dim, factor in specs:
            if kind not in KINDS:
                raise PartitionError(f"partition of '{name}': kind must be one of "
                                     f"{', '.join(KINDS)}")
            if not 0 <= dim <= len(shape):
                raise PartitionError(f"partition of '{name}': dim must be 0 (all) or "
                                     f"1..{len(shape)}")
            if kind == "complete" and not local:
                raise PartitionError(f"'{name}' is a parameter: complete partitioning applies "
                                     "to local arrays only")
            for axis in list(range(len(shape))) if dim == 0 else [dim - 1]:
                f = shape[axis] if kind == "complete" else factor
                if not isinstance(f, int) or f < 1:
                    raise PartitionError(f"partition of '{name}': factor must be a positive "
                                         "integer")
                if f > shape[axis]:
                    raise PartitionError(f"partition of '{name}': factor {f} is larger than "
                                         f"dimension {axis + 1} ({shape[axis]})")
                if any(other.axis == axis for other in splits):
                    raise PartitionError(f"partition of '{name}': dimension {axis + 1} is "
                                         "partitioned twice")
                splits.append(_Split(kind, f, axis, shape[axis]))
        splits.sort(key=lambda split: split.axis)
        fill = _take_fill(array) if local else None
        _merge_equal_loads(array)
        if any(split.kind == "complete" for split in splits):
            _unroll_loops_indexing(array)
        # last axis first, so that dropping a dimension (complete) leaves earlier axes alone;
        # bank grid coordinates are kept in row-major order of the axes
        pieces: list[tuple[SSAValue, tuple[int, ...]]] = [(array, ())]
        for split in reversed(splits):
            pieces = [(bank, (b, *coords)) for piece, coords in pieces
                      for b, bank in enumerate(self.split(piece, split, name))]
        pieces.sort(key=lambda p: p[1])
        if fill is not None:
            _fill_banks([p for p, _ in pieces], *fill)
        for number, bank in enumerate(self.order_banks([p for p, _ in pieces])):
            tag = {NAME_ATTR: StringAttr(f"{name}_{number}"), BANK_OF_ATTR: StringAttr(name)}
            if local:
                bank.owner.attributes.update(tag)
            else:
                self.arg_attrs[bank].update(tag)
        kind, dim, factor = specs[0]
        record = {
            "kind": StringAttr(kind),
            "factor": IntegerAttr(splits[0].factor if len(splits) == 1 else (factor or 0), i64),
            "dim": IntegerAttr(dim, i64),
            "banks": IntegerAttr(len(pieces), i64),
            "shape": ArrayAttr([IntegerAttr(d, i64) for d in shape]),
        }
        if len(specs) > 1:  # composed: every split, in the order of the dimensions
            record["splits"] = ArrayAttr([DictionaryAttr({
                "kind": StringAttr(split.kind), "factor": IntegerAttr(split.factor, i64),
                "dim": IntegerAttr(split.axis + 1, i64)}) for split in splits])
        if local:
            record["local"] = UnitAttr()
        existing = dict(self.function.attributes[PARTITIONS_ATTR].data) \
            if PARTITIONS_ATTR in self.function.attributes else {}
        existing[name] = DictionaryAttr(record)
        self.function.attributes[PARTITIONS_ATTR] = DictionaryAttr(existing)

    def order_banks(self, banks: list[SSAValue]) -> list[SSAValue]:
        """Put the bank arguments (or allocas) in bank order, where the array was; the
        banks, in order (a moved argument is a new block argument)."""
        banks = list(banks)
        if isinstance(banks[0], BlockArgument):
            block = banks[0].block
            first = min(b.index for b in banks)
            for offset, bank in enumerate(banks):
                if bank.index != first + offset:
                    moved = block.insert_arg(bank.type, first + offset)
                    moved.name_hint = bank.name_hint
                    bank.replace_all_uses_with(moved)
                    self.arg_attrs[moved] = self.arg_attrs.pop(bank)
                    block.erase_arg(bank)
                    banks[offset] = moved
        else:
            anchor = banks[0].owner
            for bank in banks[1:]:
                op = bank.owner
                op.detach()
                anchor.parent_block().insert_op_after(op, anchor)
                anchor = op
        return banks

    def finish(self) -> None:
        block = self.function.body.block
        self.function.arg_attrs = ArrayAttr([DictionaryAttr(self.arg_attrs[a]) for a in block.args])
        self.function.update_function_type()


def partition_arrays(module: ModuleOp, requests: list[tuple[str, str, int, int | None]]) -> None:
    """Partition arrays of the top function of ``module`` in place; each request is
    (array name, kind, dim, factor) as in ``customize(k).partition``; the requests of one
    array (on different dimensions) compose."""
    if not requests:
        return
    top = top_function(module)
    partitioner = _Partitioner(top)
    by_array: dict[str, list[tuple[str, int, int | None]]] = {}
    for name, kind, dim, factor in requests:
        by_array.setdefault(name, []).append((kind, dim, factor))
    for name, specs in by_array.items():
        partitioner.partition(name, specs)
    partitioner.finish()


# -- requests carried by the IR -----------------------------------------------------------



def request_partitions(module: ModuleOp, requests: list[tuple[str, str, int, int | None]]
                       ) -> None:
    """Record partition requests on the top function instead of applying them: the loop-level
    package stays hardware-independent (the CPU build ignores the attribute) and the FPGA back
    end applies them (``apply_requested_partitions``), also when it reads a .mlir package."""
    if not requests:
        return
    entries = [DictionaryAttr({"array": StringAttr(n), "kind": StringAttr(k),
                               "dim": IntegerAttr(d, 64),
                               "factor": IntegerAttr(0 if f is None else f, 64)})
               for n, k, d, f in requests]
    top_function(module).attributes[REQUESTS_ATTR] = ArrayAttr(entries)


def requested_partitions(function: func.FuncOp
                         ) -> dict[str, list[tuple[str, int, int | None]]]:
    """{array name: [(kind, dim, factor), ...]} of the requests recorded on ``function``
    (the top function; the loop directives run before the back end applies them)."""
    if REQUESTS_ATTR not in function.attributes:
        return {}
    out: dict[str, list[tuple[str, int, int | None]]] = {}
    for entry in function.attributes[REQUESTS_ATTR].data:
        d = entry.data
        factor = d["factor"].value.data
        out.setdefault(d["array"].data, []).append(
            (d["kind"].data, d["dim"].value.data, factor or None))
    return out


def requested_partitions_in(function: func.FuncOp
                            ) -> dict[str, list[tuple[str, int, int | None]]]:
    """The partition requests that reach the arrays of ``function`` by their names in it:
    the top function's requests (requested_partitions) for the top; in a called function
    (its loop directives run before it is inlined, while the requests sit on the top), those
    of the constant and local arrays it names, and, for an array parameter, those of the
    array every call passes (through calls of calls), nothing when the calls disagree."""
    module = function.parent_op()
    if not isinstance(module, ModuleOp):
        return requested_partitions(function)
    top = top_function(module)
    if function is top:
        return requested_partitions(top)
    seen: dict[str, dict] = {}

    def of(f: func.FuncOp, depth: int) -> dict:
        name = f.sym_name.data
        if name not in seen:
            if f is top or depth > 64:
                seen[name] = requested_partitions(top) if f is top else {}
                return seen[name]
            out = dict(requested_partitions(top))
            calls = [(c, caller) for caller in module.ops if isinstance(caller, func.FuncOp)
                     for c in caller.walk() if isinstance(c, func.CallOp)
                     and c.callee.string_value() == name]
            for arg in f.body.block.args:
                param = source_name(arg)
                if param is None or not isinstance(arg.type, MemRefType):
                    continue
                passed = [of(caller, depth + 1).get(source_name(c.arguments[arg.index]) or "")
                          for c, caller in calls if arg.index < len(c.arguments)]
                out.pop(param, None)
                if passed and passed[0] is not None and all(p == passed[0] for p in passed):
                    out[param] = passed[0]
            seen[name] = out
        return seen[name]

    return of(function, 0)


def apply_requested_partitions(module: ModuleOp) -> None:
    """Apply (and remove) the partition requests recorded on the top function."""
    top = top_function(module)
    if REQUESTS_ATTR not in top.attributes:
        return
    requests = []
    for entry in top.attributes[REQUESTS_ATTR].data:
        d = entry.data
        factor = d["factor"].value.data
        requests.append((d["array"].data, d["kind"].data, d["dim"].value.data,
                         None if factor == 0 else factor))
    del top.attributes[REQUESTS_ATTR]
    partition_arrays(module, requests)


# -- reading it back ------------------------------------------------------------------------


def partitions_of(function: func.FuncOp) -> dict[str, dict]:
    """{array name: {kind, factor, dim, banks, shape, local, splits}} recorded by the pass;
    ``splits``: (kind, factor, dim) of every partitioned dimension, in order (one for a
    single request on one dimension, each dimension's for dim=0 or composed requests)."""
    if PARTITIONS_ATTR not in function.attributes:
        return {}
    out = {}
    for name, record in function.attributes[PARTITIONS_ATTR].data.items():
        d = record.data
        shape = tuple(a.value.data for a in d["shape"].data)
        kind, factor, dim = d["kind"].data, d["factor"].value.data, d["dim"].value.data
        if "splits" in d:
            splits = tuple((e.data["kind"].data, e.data["factor"].value.data,
                            e.data["dim"].value.data) for e in d["splits"].data)
        else:
            splits = tuple((kind, shape[axis] if kind == "complete" else factor, axis + 1)
                           for axis in (range(len(shape)) if dim == 0 else [dim - 1]))
        out[name] = {"kind": kind, "factor": factor, "dim": dim,
                     "banks": d["banks"].value.data, "shape": shape, "local": "local" in d,
                     "splits": splits}
    return out


def original_signature(function: func.FuncOp) -> KernelSignature:
    """The kernel's interface before partitioning: bank arguments fold back into the
    array parameter they came from, at its place."""
    banked = signature_of(function)
    records = partitions_of(function)
    if not records:
        return banked
    attrs = function.arg_attrs.data
    params: list[Param] = []
    seen: set[str] = set()
    for p, d in zip(banked.params, attrs, strict=True):
        owner = d.data.get(BANK_OF_ATTR)
        if owner is None:
            params.append(p)
        elif owner.data not in seen:
            seen.add(owner.data)
            shape = records[owner.data]["shape"]
            params.append(Param(owner.data, ArrayType(p.scalar, shape)))
    return KernelSignature(banked.name, tuple(params), banked.ret)


@dataclass(frozen=True)
class ApplyPartitionsPass(ModulePass):
    """Apply the ``s.partition`` requests recorded on the top function."""

    name = "apply-partitions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_requested_partitions(op)
