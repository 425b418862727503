"""Fixed-point operations as integer operations on raw bits, in the typed kernel tree.

What: the checker (``check.py``) calls these to build the tree of an operation or a
conversion that involves a ``fixed``/``ufixed`` value (``vichls.types.FixedType``). Each
gives tree nodes that only do integer arithmetic on the raw bits (extensions, shifts by
constants, adds, compares, selects), typed with the raw types, so that the golden reference
and the IR builder, which walk the tree, need to know nothing about fixed point and agree by
construction; the CPU and the RTL then compute what the reference computes.

Why here and not in the walkers: one place states ap_fixed's rules (result types, alignment,
quantization and overflow); ``vichls.types.quantize`` states the same conversions on exact
numbers (for constants and arguments) and the tests check both against ap_fixed itself.

The rules, as ``ap_fixed_base.h`` gives them (an integer operand takes part as the fixed
type that holds it, ``intW`` as ``fixed(W, W)``):

- ``a * b``: ``W1 + W2`` bits, ``I1 + I2`` integer bits, signed if either is;
- ``a + b``, ``a - b``: the fractional bits of the finer operand, one integer bit over the
  larger integer part (an unsigned operand beside a signed one counts one bit more); a
  difference is signed;
- comparisons, ``min``, ``max``: on the type that holds both operands exactly ("logic" in
  ap_fixed), which is also the type of ``min``/``max``;
- ``-a`` of ``fixed(W, I)`` is ``fixed(W + 1, I + 1)``; ``abs`` likewise for a signed
  operand (an unsigned one is its own absolute value);
- ``a << n``, ``a >> n`` keep ``a``'s type; a negative amount shifts the other way.

Every such type must fit in 64 bits; where it would not, the caller reports the operation
(``FixedWidthError``). Assumes the checker has already typed the operands and turned
integer literals into constants of the smallest ``fixed(w, w)`` that holds them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from vichls.frontend import tree as T
from vichls.types import (
    MAX_WIDTH,
    FixedType,
    ScalarType,
    as_fixed,
    bool_,
    float32,
    float32_of,
    int32,
    quantize,
    round_scaled,
    uint32,
    uint64,
)


class FixedWidthError(Exception):
    """An operation's exact result type would be wider than 64 bits."""


def is_fixed(t) -> bool:
    return isinstance(t, FixedType)


def _fixed(width: int, signed: bool, int_bits: int, what: str) -> FixedType:
    if width > MAX_WIDTH:
        kind = "fixed" if signed else "ufixed"
        raise FixedWidthError(f"{what} needs {kind}({width}, {int_bits}), wider than "
                              f"{MAX_WIDTH} bits; convert an operand to a narrower type first")
    return FixedType(max(width, 1), signed, int_bits)


# -- result types ---------------------------------------------------------------------------


def _integer_part(a: FixedType, b: FixedType) -> int:
    """The integer bits that hold both operands' integer parts (ap_fixed's rule: an unsigned
    operand beside a signed one needs one bit more)."""
    return max(a.int_bits + (b.signed and not a.signed), b.int_bits + (a.signed and not b.signed))


def sum_type(a: ScalarType, b: ScalarType, op: str) -> FixedType:
    fa, fb = as_fixed(a), as_fixed(b)
    frac = max(fa.frac_bits, fb.frac_bits)
    ints = _integer_part(fa, fb) + 1
    signed = True if op == "sub" else (fa.signed or fb.signed)
    return _fixed(ints + frac, signed, ints, f"'{'+' if op == 'add' else '-'}' of {a!r} and {b!r}")


def product_type(a: ScalarType, b: ScalarType) -> FixedType:
    fa, fb = as_fixed(a), as_fixed(b)
    return _fixed(fa.width + fb.width, fa.signed or fb.signed, fa.int_bits + fb.int_bits,
                  f"'*' of {a!r} and {b!r}")


def common_fixed_type(a: ScalarType, b: ScalarType, what: str = "") -> FixedType:
    """The type that holds every value of both (ap_fixed's "logic" type)."""
    fa, fb = as_fixed(a), as_fixed(b)
    frac = max(fa.frac_bits, fb.frac_bits)
    ints = _integer_part(fa, fb)
    return _fixed(ints + frac, fa.signed or fb.signed, ints,
                  what or f"a value of both {a!r} and {b!r}")


def negate_type(a: ScalarType) -> FixedType:
    """The type of ``-a`` (and of ``abs(a)`` for a signed ``a``): one bit wider."""
    f = as_fixed(a)
    return _fixed(f.width + 1, True, f.int_bits + 1, f"'-' of {a!r}")


def literal_type(value: int) -> FixedType:
    """The smallest ``fixed(w, w)`` that holds the integer ``value``."""
    bits = (value if value >= 0 else ~value).bit_length() + 1
    return _fixed(bits, True, bits, f"the literal {value}")


def float_literal(value: float, beside: FixedType | None) -> tuple[FixedType, int]:
    """The smallest fixed type that holds ``value`` exactly and the raw bits of ``value`` in
    it; where no type of at most 64 bits holds it, ``value`` rounded to nearest (ties to
    even) at ``beside``'s fractional bits."""
    num, den = float(value).as_integer_ratio()
    frac = den.bit_length() - 1  # den is a power of two: num is the raw value
    width = (num if num >= 0 else ~num).bit_length() + 1
    if width <= MAX_WIDTH:
        return FixedType(width, True, width - frac), num
    frac = beside.frac_bits if beside is not None else 0
    raw = round_scaled(Fraction(value) * Fraction(2) ** frac, "rnd_conv")
    width = (raw if raw >= 0 else ~raw).bit_length() + 1
    if width > MAX_WIDTH:
        raise FixedWidthError(f"the literal {value!r} needs more than {MAX_WIDTH} bits at "
                              f"{frac} fractional bits")
    return FixedType(width, True, width - frac), raw


# -- raw-bit building blocks ------------------------------------------------------------------


def _const(t: ScalarType, value: int, loc: T.Loc) -> T.Const:
    return T.Const(t, loc, t.wrap(value))


def _extend(e: T.Expr, t: ScalarType) -> T.Expr:
    """The raw bits of ``e`` in the raw type ``t`` (sign- or zero-extended by ``e``'s
    signedness, or wrapped)."""
    if e.ty == t:
        return e
    if isinstance(e, T.Const):
        return _const(t, e.value, e.loc)
    return T.Convert(t, e.loc, e)


def _shift(op: str, e: T.Expr, amount: int) -> T.Expr:
    """``e << amount`` / ``e >> amount`` in ``e``'s raw type, for a constant amount >= 0
    (at or above the width: 0, or the sign for ``>>``)."""
    if amount == 0:
        return e
    t = e.ty
    return T.Binary(t, e.loc, op, e, _const(t, min(amount, t.width), e.loc))


def _align(e: T.Expr, t: FixedType) -> T.Expr:
    """``e`` (of a type that ``t`` holds exactly) as raw bits of ``t``."""
    return _shift("shl", _extend(e, t), t.frac_bits - as_fixed(e.ty).frac_bits)


def _and(a: T.Expr, b: T.Expr) -> T.Expr:
    return T.Binary(bool_, a.loc, "and", a, b)


def _or(a: T.Expr, b: T.Expr) -> T.Expr:
    return T.Binary(bool_, a.loc, "or", a, b)


def _not(a: T.Expr) -> T.Expr:
    return T.Unary(bool_, a.loc, "not", a)


def _cmp(op: str, a: T.Expr, value: int) -> T.Expr:
    return T.Binary(bool_, a.loc, op, a, _const(a.ty, value, a.loc))


def _select(cond: T.Expr, then: T.Expr, orelse: T.Expr) -> T.Expr:
    return T.Cond(then.ty, cond.loc, cond, then, orelse)


def _bit(e: T.Expr, position: int) -> T.Expr:
    """Bit ``position`` of ``e``'s raw bits, as ``bool_`` (the sign bit beyond the width)."""
    t = e.ty
    if position >= t.width:
        return _cmp("lt", e, 0) if t.signed else T.Const(bool_, e.loc, 0)
    shifted = _shift("shr", e, position)
    return T.Convert(bool_, e.loc, T.Binary(t, e.loc, "and", shifted, _const(t, 1, e.loc)))


def _low_bits_nonzero(e: T.Expr, count: int) -> T.Expr:
    """Are any of the ``count`` lowest bits of ``e`` (sign-extended beyond its width) set?"""
    t = e.ty
    if count <= 0:
        return T.Const(bool_, e.loc, 0)
    if count >= t.width:
        return _cmp("ne", e, 0)
    masked = T.Binary(t, e.loc, "and", e, _const(t, (1 << count) - 1, e.loc))
    return _cmp("ne", masked, 0)


# -- the builder --------------------------------------------------------------------------------


class FixedPoint:
    """Builds the trees; ``fresh(name)`` gives the unique id of a temporary (the checker's
    ``new_uid``): an operand used several times is bound once by a ``Let``, so that it is
    evaluated once (its effects too: ``s.get()``, a call)."""

    def __init__(self, fresh: Callable[[str], str]):
        self.fresh = fresh

    def shared(self, e: T.Expr, build: Callable[[T.Expr], T.Expr]) -> T.Expr:
        """``build(v)``, ``v`` reading the value of ``e`` evaluated once."""
        if isinstance(e, (T.Const, T.Read)):
            return build(e)
        sym = T.Sym("fx", "temp", e.ty, self.fresh("_fx"), loc=e.loc)
        body = build(T.Read(e.ty, e.loc, sym))
        return T.Let(body.ty, e.loc, sym, e, body)

    # -- conversion -------------------------------------------------------------------------

    def convert(self, e: T.Expr, target: ScalarType) -> T.Expr:
        """``e`` (of an integer or fixed type) converted to ``target`` as an assignment
        does: to a fixed type by its quantization and overflow modes, to an integer type
        rounding toward zero and wrapping (ap_fixed's conversion to an integer). Integer to
        integer is the caller's (a plain ``Convert``)."""
        if isinstance(e, T.Const):  # a constant converts here and now, exactly
            raw = quantize(as_fixed(e.ty).value_of(e.value), _conversion_target(target),
                           e.ty.signed)
            return T.Const(target, e.loc, target.wrap(raw))
        source = as_fixed(e.ty)
        goal = _conversion_target(target)
        shift = source.frac_bits - goal.frac_bits
        if shift > 0:
            result = self.shared(e, lambda v: self.shared(
                _quantized(v, shift, goal.quant),
                lambda q: _overflowed(q, 0, goal, source.signed)))
        else:
            result = self.shared(e, lambda v: _overflowed(v, -shift, goal, source.signed))
        return _retyped(result, target)

    # -- float32 ------------------------------------------------------------------------------

    def to_float32(self, e: T.Expr) -> T.Expr:
        """A fixed value as float32, rounded once to nearest even: its raw integer converted
        (one rounding to 24 bits), times ``2**-F`` (exact: with at most 126 fractional bits
        the product of a nonzero value is a normal number; ``float32_range`` checks)."""
        f = as_fixed(e.ty)
        if isinstance(e, T.Const):
            return T.Const(float32, e.loc, float32_of(f.value_of(e.value)))
        raw = _retyped(e, ScalarType(f.width, f.signed))
        value = T.Convert(float32, e.loc, raw)
        if f.frac_bits == 0:
            return value
        scale = T.Const(float32, e.loc, float(Fraction(2) ** -f.frac_bits))
        return T.Binary(float32, e.loc, "mul", value, scale)

    def from_float32(self, e: T.Expr, goal: FixedType) -> T.Expr:
        """A float32 value converted to ``goal`` by its quantization and overflow modes,
        exactly (NaN and infinities: undefined). From the bits: the value is ``M * 2**k``
        (``M`` the 24-bit significand with its hidden bit, ``k`` from the exponent), so in
        units of ``goal``'s LSB it is ``M`` shifted by ``k + F``: left (an integer; beyond
        40 places it exceeds every 64-bit type), or right, rounded by the mode on the
        magnitude from the first dropped bit, the bits below it and the sign; then the
        overflow mode on the sign and the rounded magnitude (a uint64)."""
        loc = e.loc
        if isinstance(e, T.Const):
            return T.Const(goal, loc, quantize(Fraction(float(e.value)), goal))

        def const(t: ScalarType, v: int) -> T.Const:
            return _const(t, v, loc)

        def binary(t: ScalarType, op: str, a: T.Expr, b: T.Expr) -> T.Expr:
            return T.Binary(t, loc, op, a, b)

        def build(word: T.Expr) -> T.Expr:
            exponent = binary(uint32, "and", _shift("shr", word, 23), const(uint32, 0xFF))
            return self.shared(exponent, lambda exp: self.shared(
                _significand(word, exp), lambda m: self.shared(
                    _shift_by(exp, goal.frac_bits), lambda sh: from_parts(word, m, sh))))

        def from_parts(word: T.Expr, m: T.Expr, sh: T.Expr) -> T.Expr:
            negative = _cmp("ne", _shift("shr", word, 31), 0)
            left = _cmp("ge", sh, 0)
            back = T.Convert(uint32, loc, T.Unary(int32, loc, "neg", sh))  # right shift
            amount = T.Convert(uint32, loc, sh)
            shifted = binary(uint64, "shl", m, _clamped_amount(amount, uint64))
            floor = binary(uint64, "shr", m, _clamped_amount(back, uint64))
            below = T.Binary(uint32, loc, "sub", back, const(uint32, 1))  # the first dropped
            half = _and(_not(left), T.Convert(bool_, loc, binary(
                uint64, "and", binary(uint64, "shr", m, _clamped_amount(below, uint64)),
                const(uint64, 1))))
            mask = binary(uint64, "sub", binary(uint64, "shl", const(uint64, 1),
                                                _clamped_amount(below, uint64)),
                          const(uint64, 1))
            rest = _and(_not(left), _cmp("ne", binary(uint64, "and", m, mask), 0))
            lsb = T.Convert(bool_, loc, binary(uint64, "and", floor, const(uint64, 1)))
            up = _magnitude_up(goal.quant, negative, half, rest, lsb)
            magnitude = _select(left, shifted, binary(uint64, "add", floor,
                                                      _extend(up, uint64)))
            huge = _cmp("gt", sh, 40)  # M << sh >= 2**63 units: beyond every goal
            return self.shared(magnitude, lambda q: self.shared(
                negative, lambda neg: _saturated(q, neg, huge, goal)))

        word = T.Unary(uint32, loc, "bits", e)
        return self.shared(word, build)

    # -- operations ---------------------------------------------------------------------------

    def arith(self, op: str, a: T.Expr, b: T.Expr, loc: T.Loc) -> T.Expr:
        """``a + b``, ``a - b`` or ``a * b`` at full precision."""
        if op == "mul":
            t = product_type(a.ty, b.ty)
            return T.Binary(t, loc, "mul", _extend(a, t), _extend(b, t))
        t = sum_type(a.ty, b.ty, op)
        return T.Binary(t, loc, op, _align(a, t), _align(b, t))

    def both_as(self, a: T.Expr, b: T.Expr, what: str) -> tuple[T.Expr, T.Expr]:
        """Both operands in the type that holds both exactly (comparisons, ``min``,
        ``max``, ``x if c else y``, ``and``/``or``)."""
        t = common_fixed_type(a.ty, b.ty, what)
        return _align(a, t), _align(b, t)

    def negate(self, a: T.Expr, loc: T.Loc) -> T.Expr:
        t = negate_type(a.ty)
        return T.Unary(t, loc, "neg", _extend(a, t))

    def absolute(self, a: T.Expr, loc: T.Loc) -> T.Expr:
        if not as_fixed(a.ty).signed:
            return a
        t = negate_type(a.ty)
        return T.Unary(t, loc, "abs", _extend(a, t))

    def shift(self, op: str, a: T.Expr, amount, loc: T.Loc) -> T.Expr:
        """``a << amount`` / ``a >> amount`` (``amount`` an int, or an integer-typed
        expression), in ``a``'s type; a negative amount shifts the other way."""
        other = "shr" if op == "shl" else "shl"
        if isinstance(amount, int):
            return _shift(op if amount >= 0 else other, a, abs(amount))
        if not amount.ty.signed:
            return T.Binary(a.ty, loc, op, a, _clamped_amount(amount, a.ty))

        def by(n: T.Expr, value: T.Expr) -> T.Expr:
            magnitude = T.Convert(ScalarType(n.ty.width, False), loc,
                                  T.Unary(n.ty, loc, "neg", n))
            return T.Cond(a.ty, loc, _cmp("ge", n, 0),
                          T.Binary(a.ty, loc, op, value, _clamped_amount(n, a.ty)),
                          T.Binary(a.ty, loc, other, value, _clamped_amount(magnitude, a.ty)))

        # (the value first, then the amount: the order the source gives them)
        return self.shared(a, lambda value: self.shared(amount, lambda n: by(n, value)))


def float32_range(f: FixedType) -> str | None:
    """Why a fixed type cannot convert to or from float32 exactly, or None: its LSB must be
    a normal float32 power of two (at most 126 fractional bits, at least -127)."""
    if f.frac_bits > 126 or f.frac_bits < -127:
        return (f"{f!r} has {f.frac_bits} fractional bits; conversions with float32 need "
                "-127 to 126")
    return None


def _significand(word: T.Expr, exponent: T.Expr) -> T.Expr:
    """The 24-bit significand of a float32's bits (the hidden bit set unless subnormal),
    as a uint64."""
    loc = word.loc
    fraction = T.Binary(uint32, loc, "and", word, _const(uint32, 0x7FFFFF, loc))
    hidden = _select(_cmp("ne", exponent, 0), _const(uint32, 0x800000, loc),
                     _const(uint32, 0, loc))
    return _extend(T.Binary(uint32, loc, "or", fraction, hidden), uint64)


def _shift_by(exponent: T.Expr, frac_bits: int) -> T.Expr:
    """``k + frac_bits`` as an int32, ``k`` the power of two of the significand's LSB:
    ``max(exponent, 1) - 150``."""
    loc = exponent.loc
    e = _extend(T.Binary(uint32, loc, "max", exponent, _const(uint32, 1, loc)), int32)
    return T.Binary(int32, loc, "add", e, _const(int32, frac_bits - 150, loc))


def _magnitude_up(quant: str, negative: T.Expr, half: T.Expr, rest: T.Expr,
                  lsb: T.Expr) -> T.Expr:
    """Whether the magnitude rounds up (away from zero) under ``quant``, for a value of
    that sign whose magnitude has ``half`` as its first dropped bit, ``rest`` for any bit
    below it and ``lsb`` as its last kept bit."""
    exact_half = _and(half, _not(rest))
    more = _and(half, rest)
    if quant == "trn":  # toward minus infinity
        return _and(negative, _or(half, rest))
    if quant == "trn_zero":
        return T.Const(bool_, negative.loc, 0)
    if quant == "rnd":  # halves toward plus infinity
        return _or(more, _and(exact_half, _not(negative)))
    if quant == "rnd_zero":
        return more
    if quant == "rnd_min_inf":
        return _or(more, _and(exact_half, negative))
    if quant == "rnd_inf":
        return half
    if quant == "rnd_conv":
        return _and(half, _or(rest, lsb))
    raise AssertionError(quant)


def _saturated(q: T.Expr, negative: T.Expr, huge: T.Expr, goal: FixedType) -> T.Expr:
    """The raw bits of ``goal`` for the value of sign ``negative`` and magnitude ``q`` (a
    uint64 in units of its LSB; ``huge``: larger than any), by its overflow mode."""
    loc = q.loc
    raw = ScalarType(goal.width, goal.signed)
    signed = T.Cond(uint64, loc, negative,
                    T.Binary(uint64, loc, "sub", _const(uint64, 0, loc), q), q)
    wrapped = T.Convert(raw, loc, signed)
    if goal.overflow == "wrap":
        return wrapped
    hi, low_magnitude = goal.max, -goal.min

    def beyond(bound: int, inclusive: bool) -> T.Expr:
        if bound >= uint64.max:
            return huge
        return _or(huge, _cmp("ge" if inclusive else "gt", q, bound))

    over = _and(_not(negative), beyond(hi, False))
    symmetric = goal.overflow == "sat_sym" and goal.signed
    # ap_fixed's sat_sym: a (signed) value at or below the minimum gives -max
    under = _and(negative, beyond(low_magnitude, symmetric))
    if goal.overflow == "sat_zero":
        return _select(_or(over, under), _const(raw, 0, loc), wrapped)
    bottom = goal.symmetric_min if symmetric else goal.min
    return _select(over, _const(raw, hi, loc), _select(under, _const(raw, bottom, loc), wrapped))


def _conversion_target(target: ScalarType) -> FixedType:
    if is_fixed(target):
        return target
    return FixedType(target.width, target.signed, target.width, "trn_zero", "wrap")


def _retyped(e: T.Expr, target: ScalarType) -> T.Expr:
    """``e`` (raw bits of ``target``'s width and signedness) typed as ``target``."""
    if e.ty == target:
        return e
    if isinstance(e, T.Const):
        return T.Const(target, e.loc, e.value)
    return T.Convert(target, e.loc, e)


def _quantized(e: T.Expr, shift: int, quant: str) -> T.Expr:
    """``e``'s raw bits shifted right by ``shift`` >= 1 and rounded by ``quant``, in a type
    one bit wider than ``e``'s (up to 64 bits) so that rounding up cannot overflow."""
    t = e.ty
    wide = ScalarType(min(t.width + 1, MAX_WIDTH), t.signed)
    src = _extend(e, wide)
    down = _shift("shr", src, shift)
    if quant == "trn" or (quant == "trn_zero" and not t.signed):
        return down
    half = _bit(src, shift - 1)  # the first bit dropped
    rest = _low_bits_nonzero(src, min(shift - 1, wide.width))  # any bit below it
    negative = _cmp("lt", src, 0) if t.signed else T.Const(bool_, e.loc, 0)
    if quant == "trn_zero":
        up = _and(negative, _or(half, rest))
    elif quant == "rnd":
        up = half
    elif quant == "rnd_zero":
        up = _and(half, _or(negative, rest))
    elif quant == "rnd_min_inf":
        up = _and(half, rest)
    elif quant == "rnd_inf":
        up = _and(half, _or(_not(negative), rest))
    elif quant == "rnd_conv":
        up = _and(half, _or(_bit(down, 0), rest))
    else:
        raise AssertionError(quant)
    return T.Binary(wide, e.loc, "add", down, _extend(up, wide))


def _overflowed(q: T.Expr, shift: int, goal: FixedType, source_signed: bool) -> T.Expr:
    """The raw bits of ``goal`` for the value ``q * 2**shift`` (``q`` an integer in units
    of ``goal``'s LSB once shifted), by ``goal``'s overflow mode."""
    t = q.ty
    lo, hi = goal.min, goal.max
    # the bounds on q that keep q * 2**shift in [lo, hi]
    q_hi = hi >> shift
    q_lo = -((-lo) >> shift)
    over = _cmp("gt", q, q_hi) if q_hi < t.max else None
    under = _cmp("lt", q, q_lo) if q_lo > t.min else None
    raw = ScalarType(goal.width, goal.signed)
    wrapped = _shift("shl", _extend(q, raw), shift) if shift < goal.width else \
        _const(raw, 0, q.loc)
    mode = goal.overflow
    if mode == "wrap" or (over is None and under is None and not (
            mode == "sat_sym" and goal.signed and source_signed)):
        return wrapped
    top, bottom = _const(raw, hi, q.loc), _const(raw, lo, q.loc)
    if mode == "sat_zero":
        out = _or(over, under) if over is not None and under is not None else (over or under)
        return _select(out, _const(raw, 0, q.loc), wrapped)
    if mode == "sat_sym" and goal.signed:
        # ap_fixed: the most negative value of a signed source saturates to -max as well
        floor_lo = lo >> shift  # q <= floor_lo: the value is at most lo
        low = (_cmp("le", q, floor_lo) if floor_lo >= t.min else None) if source_signed \
            else under
        bottom = _const(raw, goal.symmetric_min, q.loc)
        under = low
    result = wrapped
    if under is not None:
        result = _select(under, bottom, result)
    if over is not None:
        result = _select(over, top, result)
    return result


def _clamped_amount(n: T.Expr, t: ScalarType) -> T.Expr:
    """A non-negative shift amount ``n`` as raw bits of ``t`` that read (unsigned) as ``n``
    below ``t``'s width and as the width at or above it."""
    if n.ty.max > t.width:
        n = T.Binary(n.ty, n.loc, "min", n, _const(n.ty, t.width, n.loc))
    return _extend(n, t)
