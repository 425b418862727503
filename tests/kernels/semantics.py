"""Kernels aimed at the typing and conversion rules of the language.

Mixed signedness and widths (the common type: wider wins, at equal width unsigned wins),
literals taking the other operand's type, casts to every kind of width, assignment
conversion, comparison chains giving ``bool_``, ``and``/``or``/``not``, conditional
expressions (including guards that keep a load from running), every augmented assignment
on locals and array elements, scalar parameters (read and reassigned), scalar returns,
division and shifts with literal operands, and the odd widths 1, 3, 12, 33 and 63.
"""

from vichls import (
    bool_,
    int8,
    int16,
    int32,
    int64,
    int_,
    kernel,
    uint8,
    uint16,
    uint32,
    uint64,
    uint_,
)

N = 8


@kernel
def mixed_signedness(
    a: int32[N], b: uint32[N], c: int8[N], d: uint16[N], e: int_(33)[N], out: int64[N, 12]
):
    for i in range(N):
        out[i, 0] = a[i] + b[i]  # uint32: a negative a is a large unsigned value
        out[i, 1] = a[i] // b[i]  # unsigned division
        out[i, 2] = a[i] % b[i]
        out[i, 3] = c[i] * d[i]  # uint16 (wider wins)
        out[i, 4] = c[i] + a[i]  # int32
        out[i, 5] = d[i] - a[i]  # int32
        out[i, 6] = b[i] >> (d[i] & 63)  # logical shift of uint32
        out[i, 7] = c[i] // d[i]  # uint16 division of a sign-extended int8
        out[i, 8] = min(a[i], b[i])  # compared as uint32
        out[i, 9] = max(c[i], d[i])
        out[i, 10] = e[i] * b[i] + e[i]  # int_(33)
        out[i, 11] = (a[i] < b[i]) + (c[i] < d[i])  # bool_ + bool_ wraps in bool_


@kernel
def literal_typing(a: int8[N], b: uint8[N], w: int64[N], out: int32[N, 10]):
    for i in range(N):
        out[i, 0] = a[i] + 100  # int8 + literal: wraps at int8
        out[i, 1] = b[i] + 200  # wraps at uint8
        out[i, 2] = 3 * a[i]  # literal on the left
        out[i, 3] = a[i] // -3
        out[i, 4] = a[i] % -3
        out[i, 5] = b[i] // 0  # literal zero divisor: all ones
        out[i, 6] = a[i] % 0  # remainder is the dividend
        out[i, 7] = 1 << b[i]  # literal takes uint8; amounts >= 8 give 0
        out[i, 8] = -3 >> (a[i] & 7)  # the literal takes int8: an arithmetic shift
        out[i, 9] = w[i] >> 40  # int64 shift, then converted to int32 on store


@kernel
def casts(a: int64[N], narrow: int64[N, 8], wide: int64[N, 6]):
    for i in range(N):
        v = a[i]
        narrow[i, 0] = int8(v)
        narrow[i, 1] = uint8(v)
        narrow[i, 2] = int_(12)(v)
        narrow[i, 3] = uint_(3)(v)
        narrow[i, 4] = bool_(v)  # the low bit, not truthiness
        narrow[i, 5] = int_(33)(v)
        narrow[i, 6] = uint_(63)(v)
        narrow[i, 7] = int_(1)(v)
        wide[i, 0] = int8(v) + int8(v >> 8)  # adds in int8, then widens
        wide[i, 1] = uint8(v) + uint8(v)  # adds in uint8
        wide[i, 2] = int64(uint32(v))  # zero extension
        wide[i, 3] = int64(int32(v))  # sign extension
        wide[i, 4] = int16(uint8(v)) * 300
        wide[i, 5] = uint64(int16(v)) >> 60


@kernel
def assign_convert(a: int64[N], b: uint64[N], out8: int8[N], outu16: uint16[N], out12: int_(12)[N],
                   outu3: uint_(3)[N], outb: bool_[N], out63: int_(63)[N], outu33: uint_(33)[N]):
    for i in range(N):
        x8: int8 = a[i]
        xu16: uint16 = b[i]
        x12: int_(12) = a[i] ^ b[i]
        out8[i] = x8
        outu16[i] = xu16
        out12[i] = x12
        outu3[i] = a[i]  # store converts
        outb[i] = b[i]  # the low bit
        out63[i] = a[i] + b[i]
        outu33[i] = x8  # sign bits of x8 become high unsigned bits


@kernel
def compare_chains(a: int16[N], b: uint16[N], c: int_(12)[N], flags: bool_[N, 8], count: int32[2]):
    n: int32 = 0
    m: int32 = 0
    for i in range(N):
        flags[i, 0] = a[i] < b[i]  # compared as uint16
        flags[i, 1] = a[i] <= c[i]  # compared as int16
        flags[i, 2] = a[i] > c[i] >= 0
        flags[i, 3] = c[i] == a[i]
        flags[i, 4] = b[i] != c[i]
        flags[i, 5] = c[i] < a[i] < b[i]
        flags[i, 6] = a[i] >= b[i] > c[i] != 0
        flags[i, 7] = (a[i] > 0) == (b[i] > 100)
        if a[i] < 0 and (b[i] > 10 or c[i] == 0):
            n += 1
        if not a[i] == b[i] or c[i] < -100:
            m += 1
    count[0] = n
    count[1] = m


@kernel
def select_guards(a: int32[N], b: int32[N], out: int32[N, 4]):
    for i in range(N):
        x = a[i]
        y = b[i]
        out[i, 0] = x if x > y else y - x
        out[i, 1] = (x if x > 0 else -x) if y != 0 else (y if x < y else 7)
        # the load a[i + 1] must not run when i + 1 is out of range
        out[i, 2] = a[i + 1] if i + 1 < N else 0
        if i < N - 1 and a[i + 1] > x:
            out[i, 3] = 1
        elif i == 0 or b[i - 1] < y:
            out[i, 3] = 2
        else:
            out[i, 3] = 3


@kernel
def min_max_abs(a: int8[N], b: uint8[N], c: int64[N], out: int64[N, 8]):
    for i in range(N):
        out[i, 0] = min(a[i], b[i])  # uint8 comparison
        out[i, 1] = max(a[i], b[i])
        out[i, 2] = abs(a[i])  # abs(-128) wraps to -128
        out[i, 3] = abs(c[i])
        out[i, 4] = min(c[i], a[i])  # int64
        out[i, 5] = max(abs(a[i]), 5)
        out[i, 6] = min(max(c[i], -1000), 1000)  # clamp
        out[i, 7] = abs(b[i])  # unsigned: unchanged


@kernel
def augassign_all(a: int32[N], b: int32[N], acc: int32[12], small: uint8[10]) -> int32:
    x: int32 = 1
    u: uint8 = 7
    for i in range(N):
        v = b[i]
        acc[0] += v
        acc[1] -= v
        acc[2] *= v
        acc[3] //= v
        acc[4] %= v
        acc[5] &= v
        acc[6] |= v
        acc[7] ^= v
        acc[8] <<= v & 63
        acc[9] >>= v & 63
        x += a[i]
        x -= v
        x *= 3
        x //= v | 1
        x %= 1000003
        x ^= a[i]
        x |= 1
        x &= 0x7FFFFFFF
        x <<= i
        x >>= 1
        u += a[i]
        u -= 3
        u *= v
        u //= 3
        u %= 251
        u <<= v & 3
        u >>= 1
        u ^= 0x5A
        u |= 1
        u &= 0xF7
        small[i] = u
    small[8] += 250
    small[9] -= 10
    acc[10] = x
    acc[11] = u
    return x ^ u


@kernel
def scalar_params(a: int16, b: uint8, c: int_(12), d: bool_, e: uint64) -> int32:
    x: int32 = a * b  # int16 product, widened on assignment
    y = c - a  # int16
    if d:
        x += y
    else:
        x -= e  # uint64, converted back to int32
    a = a + 1  # a scalar parameter may be reassigned
    x ^= a
    b >>= 1
    return x + b


@kernel
def odd_widths(a: int_(1)[N], b: uint_(3)[N], c: int_(12)[N], d: uint_(63)[N], e: int_(33)[N],
               out: int64[N, 6]) -> uint_(3):
    counter: uint_(3) = 0
    for i in range(N):
        counter += b[i]  # wraps at 3 bits
        t: int_(12) = c[i] * 5
        out[i, 0] = a[i] + a[i]  # int_(1): -1 + -1 wraps to 0
        out[i, 1] = a[i] * c[i]  # int_(12)
        out[i, 2] = t >> 3
        out[i, 3] = d[i] + e[i]  # uint_(63)
        out[i, 4] = e[i] * e[i]  # int_(33)
        out[i, 5] = b[i] - 5 + counter
    return counter


@kernel
def bool_logic(p: bool_[N], q: bool_[N], x: int32[N], out: bool_[N, 6]) -> int32:
    hits: int32 = 0
    for i in range(N):
        out[i, 0] = not p[i]
        out[i, 1] = p[i] & q[i]
        out[i, 2] = p[i] ^ q[i]
        out[i, 3] = p[i] + q[i]  # wraps at 1 bit
        out[i, 4] = x[i]  # stores the low bit
        out[i, 5] = x[i] != 0
        if p[i] or x[i]:
            hits += 1
        if not (q[i] and x[i] < 0):
            hits += 10
    return hits


# -- independent statements of some of the kernels above, on Python ints ---------------------
# Each model converts operands to the common type by hand (``ScalarType.wrap``) and applies
# the language's rules for division by zero and wide shifts explicitly.


def _div(x: int, y: int, t) -> int:
    return (-1 if t.signed else t.mask) if y == 0 else t.wrap(x // y)


def _mod(x: int, y: int, t) -> int:
    return x if y == 0 else t.wrap(x % y)


def _shr(x: int, amount: int, t) -> int:
    return (-1 if x < 0 else 0) if amount >= t.width else x >> amount


def _rows(args):
    return [a.copy() if hasattr(a, "copy") else a for a in args]


def model_mixed_signedness(args):
    a, b, c, d, e, out = _rows(args)
    u16, u32, i33 = uint16.wrap, uint32.wrap, int_(33).wrap
    for i in range(N):
        ai, bi, ci, di, ei = int(a[i]), int(b[i]), int(c[i]), int(d[i]), int(e[i])
        out[i] = [
            u32(ai + bi), _div(u32(ai), bi, uint32), _mod(u32(ai), bi, uint32),
            u16(u16(ci) * di), int32.wrap(ci + ai), int32.wrap(di - ai),
            _shr(bi, di & 63, uint32), _div(u16(ci), di, uint16), min(u32(ai), bi),
            max(u16(ci), di), i33(i33(ei * i33(bi)) + ei),
            (u32(ai) < bi) ^ (u16(ci) < di),
        ]
    return None, [a, b, c, d, e, out]


def model_literal_typing(args):
    a, b, w, out = _rows(args)
    for i in range(N):
        ai, bi, wi = int(a[i]), int(b[i]), int(w[i])
        out[i] = [
            int8.wrap(ai + 100), uint8.wrap(bi + 200), int8.wrap(3 * ai), _div(ai, -3, int8),
            _mod(ai, -3, int8), 255, ai, 0 if bi >= 8 else uint8.wrap(1 << bi),
            -3 >> (ai & 7), int32.wrap(wi >> 40),
        ]
    return None, [a, b, w, out]


def model_casts(args):
    a, narrow, wide = _rows(args)
    for i in range(N):
        v = int(a[i])
        narrow[i] = [t.wrap(v) for t in (int8, uint8, int_(12), uint_(3), bool_, int_(33),
                                          uint_(63), int_(1))]
        wide[i] = [
            int8.wrap(int8.wrap(v) + int8.wrap(v >> 8)), uint8.wrap(2 * uint8.wrap(v)),
            uint32.wrap(v), int32.wrap(v), int16.wrap(uint8.wrap(v) * 300),
            uint64.wrap(int16.wrap(v)) >> 60,
        ]
    return None, [a, narrow, wide]


def model_min_max_abs(args):
    a, b, c, out = _rows(args)
    for i in range(N):
        ai, bi, ci = int(a[i]), int(b[i]), int(c[i])
        out[i] = [
            min(uint8.wrap(ai), bi), max(uint8.wrap(ai), bi), int8.wrap(abs(ai)),
            int64.wrap(abs(ci)), min(ci, ai), max(int8.wrap(abs(ai)), 5),
            min(max(ci, -1000), 1000), bi,
        ]
    return None, [a, b, c, out]


def model_compare_chains(args):
    a, b, c, flags, count = _rows(args)
    u16 = uint16.wrap
    n = m = 0
    for i in range(N):
        ai, bi, ci = int(a[i]), int(b[i]), int(c[i])
        flags[i] = [
            u16(ai) < bi, ai <= ci, ai > ci and ci >= 0, ci == ai, u16(ci) != bi,
            ci < ai and u16(ai) < bi, u16(ai) >= bi and bi > u16(ci) and ci != 0,
            (ai > 0) == (bi > 100),
        ]
        n += ai < 0 and (bi > 10 or ci == 0)
        m += u16(ai) != bi or ci < -100
    count[:] = [n, m]
    return None, [a, b, c, flags, count]


def model_odd_widths(args):
    a, b, c, d, e, out = _rows(args)
    i1, u3, i12, i33, u63 = int_(1).wrap, uint_(3).wrap, int_(12).wrap, int_(33).wrap, uint_(63).wrap
    counter = 0
    for i in range(N):
        ai, bi, ci, di, ei = int(a[i]), int(b[i]), int(c[i]), int(d[i]), int(e[i])
        counter = u3(counter + bi)
        t = i12(ci * 5)
        out[i] = [i1(2 * ai), i12(ai * ci), t >> 3, u63(di + u63(ei)), i33(ei * ei),
                  u3(u3(bi - 5) + counter)]
    return counter, [a, b, c, d, e, out]


def model_scalar_params(args):
    a, b, c, d, e = args
    x = int32.wrap(int16.wrap(a * b))
    y = int16.wrap(c - a)
    x = int32.wrap(x + y) if d else int32.wrap(uint64.wrap(uint64.wrap(x) - e))
    a = int16.wrap(a + 1)
    x = int32.wrap(x ^ a)
    return int32.wrap(x + (b >> 1)), []
