"""Division and remainder by a constant without a divider: a multiply by a magic number.

Why: ``x // 3`` becomes ``arith.divsi``/``arith.remsi`` by a constant (the front end adds
the floor adjustment around them), and the FPGA back end gives every such op an iterative
divider of W+1 cycles (or, in a pipelined loop, a fully pipelined one of W stages). The
stencils of the suite divide by 3, 5, 9 ... and are bound by it. A division by a constant
is a multiply by a precomputed reciprocal and shifts (Granlund & Montgomery, "Division by
invariant integers using multiplication", 1994): a pipelined multiplier of one or two
cycles and a few adders.

What: every ``divui``/``remui``/``divsi``/``remsi`` on an integer type whose divisor is an
``arith.constant`` is rewritten with the IR's own semantics (truncating division, the
remainder with the dividend's sign; the front end guarantees a non-zero divisor and no
``MIN / -1``). The ops on one dividend and one divisor in one block share one quotient;
the remainder is ``n - q * d``.

- Unsigned ``n / d``, ``n`` in ``[0, nmax]``: an even ``d = d' * 2^z`` first shifts ``n``
  right by ``z``. Then ``q = (n * m) >> s`` with ``m = ceil(2^s / d')`` for the smallest
  ``s`` that makes the quotient exact on the whole range (checked exactly, see
  ``magic_number``). With ``L`` bits of dividend and ``M`` of magic, the product takes
  ``L + M`` bits; when that exceeds 64 and ``M = L + 1``, the top bit of ``m`` is added
  back without the extra product bit: ``t = (n * (m - 2^L)) >> L``,
  ``q = (((n - t) >> 1) + t) >> (s - L - 1)``, a ``2L``-bit product.
- Signed, where the front end floors the result (its ``divmod_const`` idiom
  ``select(r != 0 and r < 0, q - 1, q)``, ``r > 0`` for ``d < 0``; likewise ``r + d``):
  the floor quotient directly, with one xor on each side of an unsigned division
  (``n // d = ~((~n) // d)`` for ``n < 0 < d``; see ``_floor_quotient``); the select, the
  comparisons and the truncating ops die.
- Other signed ops: the magnitude ``|n| = (n ^ sign) - sign`` (``MIN`` reads as
  ``2^(W-1)`` unsigned) is divided by ``|d|`` as above with ``nmax = 2^(W-1)``, and the
  quotient takes the sign ``sign(n) ^ sign(d)`` the same way.
- ``d = 1`` (and ``-1``), a power of two, and ``d`` above half the range (quotient 0 or 1:
  a comparison) need no multiply.
- A product wider than 32 bits is one 32-bit multiply per pair of 16-bit limbs (see
  ``_Emitter.product``): a 64-bit vichls_mul multiplies 32 x 32 in one cycle, far slower
  than one DSP block (ECP5 fmax of jacobi-1d 50 MHz against 77 MHz with limbs).
- ``q * d`` in the remainder is shift-and-add over the canonical signed digits of ``d``
  when it has at most three of them (3, 5, 7, 10, 641), else a multiply like the magic one.

Products never exceed 64 bits: where neither formulation fits (dividends above 32 bits
whose magic number is that wide too, e.g. ``int64 // 3``), the divider stays.

The multiplier: the scheduler (scheduling/list_schedule.py) classes a multiply by an
``arith.constant`` operand as a shift-and-add (``mul_const``, combinational). A magic
number has about half its bits set, so its product belongs on a DSP multiplier (kind
``mul``): the constant reaches the multiply through an ``arith.extui`` (a wire, folded back
to a literal by the structural builder), and both operands are zero-extended, so that a
product of 16-bit limbs is built as one DSP block (``schedule.mul_operand_width``).

The rule (only replace when cheaper, from vichls.targets.oplib): the replacement of a group must
have a lower latency than the dividers it replaces (each ``oplib.cost("div", W)``; the
pipelined divider has the same latency and more area, so this is the stricter test) and a
lower area-time product, (LUT + FF) x latency: the iterative divider accepts one division
per latency, so that product is its area per unit of throughput. The DSP blocks of the
multiplies (one per pair of 16-bit limbs; one more multiply for a remainder by a divisor
of more than three signed digits) are spent on top: the dividers use none, but their
latency is what bounds the loops.

Dividends of a known non-negative range (``analysis/value_ranges.py``: a loop counter, an
index into a partitioned array) divide by a positive constant unsigned, with the range's top
as ``nmax``: ``j / 25`` for ``j`` in ``0..24`` is the constant 0 and ``j % 25`` is ``j``,
and a narrow dividend needs a narrow magic product. This is also the only way divisions on
``index`` are rewritten (the bank and offset of an access to a cyclically partitioned array
from a rolled loop): through an ``index_cast`` to 32 bits, the width of ``index`` in the
datapath, and back. The same holds for ``arith.floordivsi`` (from the ``floordiv`` of an
affine map, such as the row of an unrolled loop's access to a partitioned array): on a
non-negative dividend, floor and truncation agree.

A floor quotient (and remainder) of a non-negative dividend stays recognisable: the op
that gives it carries ``vichls.floor_quotient`` (``vichls.floor_remainder``) = [divisor, id],
and the op of the rewrite that reads the dividend carries ``vichls.dividend`` = id
(``floor_division_of`` reads them back). The dependence analysis
(analysis/dependence.py) needs that: the address of an unrolled access to a cyclically
partitioned array is ``(j + c) // F``, which it solves exactly, but not as a magic product.
The tags are facts about values, so a pass that replaces a tagged op simply drops them (the
analysis then stays conservative).

Assumes the loop-level IR after lower-affine (FPGA preparation): other divisions on
``index``, and ``arith.floordivsi`` of a dividend that may be negative, are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.targets import oplib
from vichls.scheduling.list_schedule import op_cost, op_kind
from vichls.dialects.attributes import DIVIDEND_ATTR, FLOOR_QUOTIENT_ATTR, FLOOR_REMAINDER_ATTR
from vichls.analysis.value_ranges import ValueRanges, type_width


#: Widest product the pass creates (the back ends' widest integer).
MAX_PRODUCT_BITS = 64

#: Limb width of products above 32 bits: one DSP multiplier (18 x 18 on ECP5) per pair.
LIMB_BITS = 16

#: Nonzero canonical-signed digits up to which ``q * d`` is shift-and-add.
MAX_SHIFT_ADD_DIGITS = 3

_DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp,
              arith.FloorDivSIOp)
_QUOTIENTS = (arith.DivSIOp, arith.DivUIOp, arith.FloorDivSIOp)


def magic_number(d: int, nmax: int) -> tuple[int, int]:
    """The smallest ``s`` and ``m = ceil(2^s / d)`` with ``(n * m) >> s == n // d`` for
    every ``0 <= n <= nmax`` (``d >= 1``).

    With ``e = m * d - 2^s`` (``0 <= e < d``), ``n * m / 2^s = n / d + n * e / (d * 2^s)``:
    the floor is right iff ``(n mod d) * 2^s + n * e < d * 2^s``. The left side grows with
    ``n`` within a residue, so it suffices to check the largest ``n`` of residue ``d - 1``
    (``nc``; every smaller ``n`` then has ``n * e < 2^s``) and ``nmax`` itself (the
    residues above ``nc`` grow with ``n``)."""
    assert d >= 1 and nmax >= 0
    nc = nmax - (nmax + 1) % d
    s = 0
    while True:
        m = -(-(1 << s) // d)
        e = m * d - (1 << s)
        if (nc < 0 or nc * e < 1 << s) and (nmax % d << s) + nmax * e < d << s:
            return s, m
        s += 1


def signed_digits(value: int) -> list[tuple[int, int]]:
    """The canonical signed-digit form of ``value``: (sign, shift) pairs, fewest nonzero."""
    digits = []
    shift = 0
    while value:
        if value & 1:
            digit = 2 - (value & 3)  # 1 when value = 1 mod 4, -1 when 3 mod 4
            digits.append((digit, shift))
            value -= digit
        value >>= 1
        shift += 1
    return digits


def _signless(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


class _Emitter:
    """Builds ops in front of ``anchor`` with its location; ``ops`` lists them."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        op.location = self.anchor.location
        self.anchor.parent_block().insert_op_before(op, self.anchor)
        self.ops.append(op)
        return op.results[0]

    def const(self, value: int, width: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(_signless(value, width), IntegerType(width))))

    def multiplier_operand(self, value: int, width: int) -> SSAValue:
        """``value`` as a ``width``-bit multiplier operand that is not an ``arith.constant``
        (see the module docstring): a narrower constant, zero-extended."""
        bits = max(1, value.bit_length())
        assert bits < width
        return self.resize(self.const(value, bits), width)

    def resize(self, value: SSAValue, width: int, signed: bool = False) -> SSAValue:
        have = value.type.width.data
        if have == width:
            return value
        if have > width:
            return self.add(arith.TruncIOp(value, IntegerType(width)))
        ext = arith.ExtSIOp if signed else arith.ExtUIOp
        return self.add(ext(value, IntegerType(width)))

    def binary(self, cls, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(cls(a, b))

    def shr(self, value: SSAValue, amount: int) -> SSAValue:
        if amount == 0:
            return value
        return self.add(arith.ShRUIOp(value, self.const(amount, value.type.width.data)))

    def product(self, x: SSAValue, x_bits: int, factor: int, width: int) -> SSAValue:
        """``x * factor`` exactly, as a ``width``-bit value (``x < 2^x_bits``, ``factor``
        positive, ``width >= x_bits + factor.bit_length()``). Up to 32 bits one multiply;
        wider, one per pair of 16-bit limbs (a 32-bit vichls_mul whose partial products of
        the zero halves synthesis removes: one DSP block each and no 32 x 32 multiply in
        a cycle), summed with the sums of overlapping limbs and an OR of disjoint ones."""
        if width <= 32:
            return self.add(arith.MuliOp(self.resize(x, width),
                                         self.multiplier_operand(factor, width)))
        x_limbs = [self.resize(self.shr(self.resize(x, width), LIMB_BITS * i), LIMB_BITS)
                   for i in range(-(-x_bits // LIMB_BITS))]
        diagonals: dict[int, list[SSAValue]] = {}
        for j in range(-(-factor.bit_length() // LIMB_BITS)):
            digit = factor >> (LIMB_BITS * j) & ((1 << LIMB_BITS) - 1)
            for i, limb in enumerate(x_limbs):
                if digit == 0:
                    continue
                term = self.resize(limb, 2 * LIMB_BITS)
                if digit > 1:
                    term = self.add(arith.MuliOp(term, self.multiplier_operand(digit, 2 * LIMB_BITS)))
                diagonals.setdefault(i + j, []).append(self.resize(term, width))
        disjoint, overlapping = [], []
        for k, terms in sorted(diagonals.items()):
            total = terms[0]
            for term in terms[1:]:
                total = self.binary(arith.AddiOp, total, term)
            shifted = self.shl(total, LIMB_BITS * k)
            # a single product on an even diagonal fills its own 32 bits exactly
            (disjoint if len(terms) == 1 and k % 2 == 0 else overlapping).append(shifted)
        combined = disjoint[0] if disjoint else None
        for term in disjoint[1:]:
            combined = self.binary(arith.OrIOp, combined, term)
        for term in overlapping:
            combined = term if combined is None else self.binary(arith.AddiOp, combined, term)
        return combined

    def shl(self, value: SSAValue, amount: int) -> SSAValue:
        if amount == 0:
            return value
        return self.add(arith.ShLIOp(value, self.const(amount, value.type.width.data)))

    def times_constant(self, value: SSAValue, factor: int) -> SSAValue | None:
        """``value * factor`` wrapped to the value's width (None: a product wider than
        ``MAX_PRODUCT_BITS`` would be needed)."""
        width = value.type.width.data
        factor = _signless(factor, width)
        digits = signed_digits(factor)
        if len(digits) > MAX_SHIFT_ADD_DIGITS:
            product_width = (width + 2) & ~1  # room for a factor of ``width`` bits
            if product_width > MAX_PRODUCT_BITS:
                return None
            operand = self.resize(value, product_width)
            product = self.add(arith.MuliOp(
                operand, self.multiplier_operand(factor % (1 << width), product_width)))
            return self.resize(product, width)
        total = None
        for sign, shift in sorted(digits, key=lambda d: -d[0]):  # a positive term first
            term = value if shift == 0 else self.add(
                arith.ShLIOp(value, self.const(shift, width)))
            if total is None:
                total = term if sign > 0 else self.binary(arith.SubiOp, self.const(0, width), term)
            else:
                total = self.binary(arith.AddiOp if sign > 0 else arith.SubiOp, total, term)
        return total if total is not None else self.const(0, width)


def unsigned_quotient(emit: _Emitter, n: SSAValue, nmax: int, d: int) -> SSAValue | None:
    """``n / d`` for an unsigned ``n`` of at most ``nmax`` and ``d >= 1``, in n's width;
    None when the product would exceed ``MAX_PRODUCT_BITS``."""
    width = n.type.width.data
    if d == 1:
        return n
    if d > nmax:
        return emit.const(0, width)
    if d & (d - 1) == 0:
        return emit.shr(n, d.bit_length() - 1)
    if 2 * d > nmax:  # the quotient is 0 or 1
        above = emit.add(arith.CmpiOp(n, emit.const(d, width), "uge"))
        return emit.resize(above, width)
    zeros = (d & -d).bit_length() - 1
    s, m = magic_number(d >> zeros, nmax >> zeros)
    dividend_bits = (nmax >> zeros).bit_length()
    magic_bits = m.bit_length()
    if dividend_bits + magic_bits <= MAX_PRODUCT_BITS:
        # even widths: vichls_mul then registers the halves' partial products
        product_width = min(MAX_PRODUCT_BITS, dividend_bits + magic_bits + 1) & ~1
        product = emit.product(emit.shr(n, zeros), dividend_bits, m, product_width)
        return emit.resize(emit.shr(product, s), width)
    if magic_bits == dividend_bits + 1 and 2 * dividend_bits <= MAX_PRODUCT_BITS:
        low = dividend_bits
        x = emit.resize(emit.shr(n, zeros), low)  # exact: below 2^low
        product = emit.product(x, low, m - (1 << low), 2 * low)
        t = emit.resize(emit.shr(product, low), low)
        half = emit.shr(emit.binary(arith.SubiOp, x, t), 1)
        q = emit.shr(emit.binary(arith.AddiOp, half, t), s - low - 1)
        return emit.resize(q, width)
    return None


@dataclass
class _Group:
    """The divisions of one dividend by one constant in one block."""

    divisor: int  # the constant as the op reads it (signed or unsigned)
    signed: bool
    ops: list[Operation]
    floor: bool = False  # floordivsi: rewritten only for a non-negative dividend

    @property
    def dividend(self) -> SSAValue:
        # read from the op: rewriting an earlier group may have replaced the value
        return self.ops[0].operands[0]


def _constant_divisor(op: Operation) -> int | None:
    owner = op.operands[1].owner
    width = type_width(op.operands[1].type)
    if not isinstance(owner, arith.ConstantOp) or width is None:
        return None
    value = owner.value.value.data
    if isinstance(op, (arith.DivUIOp, arith.RemUIOp)):
        value &= (1 << width) - 1
    else:
        value = _signless(value, width)
    return value or None


def _groups(block: Block) -> list[_Group]:
    groups: dict[tuple, _Group] = {}
    for op in block.ops:
        if not isinstance(op, _DIVISIONS):
            continue
        d = _constant_divisor(op)
        if d is None:
            continue
        floor = isinstance(op, arith.FloorDivSIOp)
        signed = floor or isinstance(op, (arith.DivSIOp, arith.RemSIOp))
        key = (op.operands[0], d, signed, floor)
        if key not in groups:
            groups[key] = _Group(d, signed, [], floor)
        groups[key].ops.append(op)
    return list(groups.values())


def _rewrite(group: _Group) -> tuple[SSAValue | None, _Emitter]:
    """Emit the group's quotient in front of its first op (None if not possible)."""
    emit = _Emitter(group.ops[0])
    n, d = group.dividend, group.divisor
    width = n.type.width.data
    if not group.signed:
        return unsigned_quotient(emit, n, (1 << width) - 1, d), emit
    if d == 1:
        return n, emit
    if d == -1:
        return emit.binary(arith.SubiOp, emit.const(0, width), n), emit
    sign = emit.add(arith.ShRSIOp(n, emit.const(width - 1, width)))  # 0 or all ones
    magnitude = emit.binary(arith.SubiOp, emit.binary(arith.XOrIOp, n, sign), sign)
    q_magnitude = unsigned_quotient(emit, magnitude, 1 << (width - 1), abs(d))
    if q_magnitude is None:
        return None, emit
    q_sign = sign if d > 0 else emit.binary(arith.XOrIOp, sign, emit.const(-1, width))
    q = emit.binary(arith.SubiOp, emit.binary(arith.XOrIOp, q_magnitude, q_sign), q_sign)
    return q, emit


def _floor_quotient(emit: _Emitter, n: SSAValue, d: int) -> SSAValue | None:
    """Python's ``n // d`` (floor) for a signed ``n`` and ``|d| >= 2``, one xor on each side
    of the unsigned division: for ``d > 0``, ``n < 0`` gives ``~((~n) // d)``; for
    ``d < 0``, ``n <= 0`` gives ``(-n) // |d|`` and ``n > 0`` gives ``~((n - 1) // |d|)``,
    with ``n - 1 = ~(-n)`` (``-MIN`` reads as ``2^(W-1)`` unsigned)."""
    width = n.type.width.data
    if d > 0:
        mask = emit.add(arith.ShRSIOp(n, emit.const(width - 1, width)))  # n < 0
        dividend, nmax = emit.binary(arith.XOrIOp, n, mask), (1 << (width - 1)) - 1
    else:
        positive = emit.add(arith.CmpiOp(n, emit.const(0, width), "sgt"))
        mask = emit.resize(positive, width, signed=True)
        negated = emit.binary(arith.SubiOp, emit.const(0, width), n)
        dividend, nmax = emit.binary(arith.XOrIOp, negated, mask), 1 << (width - 1)
    quotient = unsigned_quotient(emit, dividend, nmax, abs(d))
    return None if quotient is None else emit.binary(arith.XOrIOp, quotient, mask)


def _constant_value(value: SSAValue) -> int | None:
    if not isinstance(value.owner, arith.ConstantOp):
        return None
    return _signless(value.owner.value.value.data, value.type.width.data)


_NE, _SLT, _SGT = 1, 2, 4  # arith.cmpi predicate numbers


def _is_floor_adjustment(condition: SSAValue, remainders: set, d: int) -> bool:
    """``condition`` is ``r != 0 and r < 0`` (``r > 0`` for ``d < 0``) of a remainder."""
    owner = condition.owner
    if not isinstance(owner, arith.AndIOp):
        return False
    predicates = set()
    for operand in owner.operands:
        cmp = operand.owner
        if (not isinstance(cmp, arith.CmpiOp) or cmp.lhs not in remainders
                or _constant_value(cmp.rhs) != 0):
            return False
        predicates.add(cmp.predicate.value.data)
    return predicates == {_NE, _SLT if d > 0 else _SGT}


def _floor_idioms(group: _Group) -> list[tuple[Operation, bool]]:
    """The front end's floor adjustments of the group's truncating results (to_ir.py
    ``divmod_const``): (``select(adjust, q - 1, q)``, True) for a floor quotient,
    (``select(adjust, r + d, r)``, False) for a floor remainder."""
    remainders = {op.results[0] for op in group.ops if isinstance(op, arith.RemSIOp)}
    found = []
    for op in group.ops:
        result = op.results[0]
        quotient = isinstance(op, arith.DivSIOp)
        for use in list(result.uses):
            select = use.operation
            if (not isinstance(select, arith.SelectOp) or use.index != 2
                    or select.parent_block() is not op.parent_block()
                    or not _is_floor_adjustment(select.operands[0], remainders, group.divisor)):
                continue
            adjusted = select.operands[1].owner
            if quotient:
                ok = (isinstance(adjusted, arith.SubiOp) and adjusted.lhs is result
                      and _constant_value(adjusted.rhs) == 1)
            else:
                ok = (isinstance(adjusted, arith.AddiOp) and result in adjusted.operands
                      and any(_constant_value(v) == group.divisor for v in adjusted.operands))
            if ok:
                found.append((select, quotient))
    return found


def _erase_dead(ops: list[Operation]) -> None:
    """Erase the ops of ``ops`` that have no uses, then the arith ops that dies with them."""
    work = list(ops)
    while work:
        op = work.pop()
        if op.parent_block() is None or any(r.uses for r in op.results):
            continue
        owners = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        op.detach()
        op.erase()
        work += [o for o in owners if o.dialect_name() == "arith"]


def _cost(ops: list[Operation]) -> tuple[int, int]:
    """(latency, LUT + FF) of a replacement: the longest path in multi-cycle latencies
    (the limb multiplies run side by side) plus one cycle for the chained adders."""
    ready: dict[SSAValue, int] = {}
    latency, fabric = 0, 0
    for op in ops:  # in emission order: operands first
        start = max((ready.get(v, 0) for v in op.operands), default=0)
        kind = op_kind(op)
        cost = op_cost(op) if kind is not None else None
        ready[op.results[0]] = start + (cost.latency if cost else 0)
        latency = max(latency, ready[op.results[0]])
        fabric += cost.lut + cost.ff if cost else 0
    return latency + 1, fabric


def _divider_cost(group: _Group) -> tuple[int, int]:
    c = oplib.cost("div", type_width(group.dividend.type))
    return c.latency, (c.lut + c.ff) * len(group.ops)


def _erase(ops: list[Operation]) -> None:
    for op in reversed(ops):
        op.detach()
        op.erase()


def _accept(emit: _Emitter, group: _Group, q: SSAValue | None, remainder_needed: bool,
            dividend: SSAValue | None = None) -> tuple[SSAValue, SSAValue | None] | None:
    """Add the remainder ``n - q * d`` when needed (``n``: ``dividend``, by default the
    group's) and apply the rule (module docstring): (quotient, remainder), or None after
    erasing what ``emit`` built."""
    remainder = None
    if q is not None and remainder_needed:
        product = emit.times_constant(q, group.divisor)
        if product is None:
            q = None
        else:
            n = group.dividend if dividend is None else dividend
            remainder = emit.binary(arith.SubiOp, n, product)
    latency, fabric = _cost(emit.ops)
    div_latency, div_fabric = _divider_cost(group)
    if q is None or latency >= div_latency or latency * fabric > div_latency * div_fabric:
        _erase(emit.ops)
        return None
    return q, remainder


def _replace_floor_idioms(group: _Group) -> None:
    """Compute the floor quotient and remainder directly where the front end adjusts the
    truncating ones (signed, ``|d| >= 2``): fewer adders on each side of the multiply.
    The group keeps the ops that are still used otherwise."""
    idioms = _floor_idioms(group)
    if not idioms:
        return
    emit = _Emitter(group.ops[0])
    q = _floor_quotient(emit, group.dividend, group.divisor)
    accepted = _accept(emit, group, q, not all(quotient for _, quotient in idioms))
    if accepted is None:
        return
    q, remainder = accepted
    for select, quotient in idioms:
        select.results[0].replace_all_uses_with(q if quotient else remainder)
    _erase_dead([select for select, _ in idioms])
    group.ops = [op for op in group.ops if op.parent_block() is not None]


def _replace_non_negative(group: _Group, nmax: int, ranges: ValueRanges) -> bool:
    """Rewrite a group whose dividend lies in ``0..nmax`` and whose divisor is positive as
    an unsigned division (truncating and floor results agree there), on 32 bits for an
    ``index`` dividend; False when that is not cheaper than the divider. The quotient's
    and the remainder's ranges go into ``ranges``: a later group dividing one of them (the
    next level of a flattened nest's ``(t % (H * W)) // W``) is non-negative too."""
    emit = _Emitter(group.ops[0])
    n = group.dividend
    idioms = _floor_idioms(group) if group.signed and not group.floor else []
    if group.divisor > nmax:  # quotient 0, remainder the dividend itself
        q, remainder = emit.add(arith.ConstantOp(IntegerAttr(0, n.type))), n
    else:
        on_index = isinstance(n.type, IndexType)
        x = emit.add(arith.IndexCastOp(n, IntegerType(type_width(n.type)))) if on_index else n
        remainder_needed = any(isinstance(op, (arith.RemSIOp, arith.RemUIOp))
                               for op in group.ops)
        accepted = _accept(emit, group, unsigned_quotient(emit, x, nmax, group.divisor),
                           remainder_needed, x)
        if accepted is None:
            return False  # (_accept erased what was built)
        q, remainder = accepted
    if isinstance(q.type, IntegerType) and isinstance(n.type, IndexType):
        q = emit.add(arith.IndexCastOp(q, IndexType()))
        if remainder is not None:
            remainder = emit.add(arith.IndexCastOp(remainder, IndexType()))
    _tag_floor_division(emit.ops, n, q, remainder, group.divisor)
    ranges.remember(q, (0, nmax // group.divisor))
    if remainder is not None:
        ranges.remember(remainder, (0, min(nmax, group.divisor - 1)))
    for select, quotient in idioms:  # floor adjustments that never apply
        select.results[0].replace_all_uses_with(q if quotient else remainder)
    for op in group.ops:
        quotient = isinstance(op, _QUOTIENTS)
        op.results[0].replace_all_uses_with(q if quotient else remainder)
        op.detach()
        op.erase()
    _erase_dead([select for select, _ in idioms])
    return True


_next_tag = [0]


def _tag_floor_division(ops: list[Operation], n: SSAValue, q: SSAValue,
                        remainder: SSAValue | None, d: int) -> None:
    """Tag the quotient and remainder ops of a rewrite of ``n // d`` (module docstring);
    nothing when the quotient is not an op of its own, or no op of the rewrite reads
    ``n``."""
    readers = [op for op in ops if n in op.operands]
    if not readers or not isinstance(q.owner, Operation) or q.owner not in ops:
        return
    tag = _next_tag[0]
    _next_tag[0] += 1
    for reader in readers:
        reader.attributes[DIVIDEND_ATTR] = IntegerAttr(tag, 64)
    marks = [(q, FLOOR_QUOTIENT_ATTR), (remainder, FLOOR_REMAINDER_ATTR)]
    for value, name in marks:
        if value is not None and isinstance(value.owner, Operation) and value.owner in ops:
            value.owner.attributes[name] = ArrayAttr([IntegerAttr(d, 64), IntegerAttr(tag, 64)])


def _replace_group(group: _Group, ranges: ValueRanges) -> None:
    span = ranges.known(group.dividend)
    if group.floor and group.divisor & (group.divisor - 1) == 0 and \
            (span is None or span[1] >= group.divisor):
        return  # by a power of two it is already a shift (build_structural)
    if span is not None and span[0] >= 0 and group.divisor > 0:
        if _replace_non_negative(group, span[1], ranges):
            return
    if isinstance(group.dividend.type, IndexType) or group.floor:
        return
    if group.signed and abs(group.divisor) >= 2:
        _replace_floor_idioms(group)
        if not group.ops:
            return
    q, emit = _rewrite(group)
    accepted = _accept(emit, group, q, any(
        isinstance(op, (arith.RemSIOp, arith.RemUIOp)) for op in group.ops))
    if accepted is None:
        return
    q, remainder = accepted
    for op in group.ops:
        quotient = isinstance(op, (arith.DivSIOp, arith.DivUIOp))
        op.results[0].replace_all_uses_with(q if quotient else remainder)
        op.detach()
        op.erase()


def div_by_constant(module: ModuleOp) -> None:
    """Rewrite the divisions by constants of every function in ``module`` in place."""
    blocks = [block for op in module.walk() for region in op.regions for block in region.blocks]
    _next_tag[0] = 0  # (deterministic tags)
    ranges = ValueRanges()
    for block in blocks:
        for group in _groups(block):
            _replace_group(group, ranges)


@dataclass(frozen=True)
class DivByConstantPass(ModulePass):
    """Divisions and remainders by constants become multiplications and shifts."""

    name = "div-by-constant"
    device: str = "xc7"  # the operator library's device (its costs and choices)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            div_by_constant(op)
