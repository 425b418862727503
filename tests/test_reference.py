"""The golden reference (the Python call of a kernel) against hand-computed values.

Every back end is checked against the reference, so the reference itself is checked here
against numbers worked out by hand from the language contract: wraparound at each width,
floored ``//`` and ``%``, division by zero, shifts at and above the width, the common-type
rules, ``bool_`` comparisons, conversion on assignment, bounds checks (negative indices
must raise, not wrap like numpy) and in-place update of array arguments.
"""

import numpy as np
import pytest

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

# -- wraparound at each width ------------------------------------------------------------


@kernel
def add_i8(a: int8, b: int8) -> int8:
    return a + b


@kernel
def add_u8(a: uint8, b: uint8) -> uint8:
    return a + b


@kernel
def add_i16(a: int16, b: int16) -> int16:
    return a + b


@kernel
def add_u16(a: uint16, b: uint16) -> uint16:
    return a + b


@kernel
def add_i32(a: int32, b: int32) -> int32:
    return a + b


@kernel
def add_u32(a: uint32, b: uint32) -> uint32:
    return a + b


@kernel
def add_i64(a: int64, b: int64) -> int64:
    return a + b


@kernel
def add_u64(a: uint64, b: uint64) -> uint64:
    return a + b


@kernel
def add_bool(a: bool_, b: bool_) -> bool_:
    return a + b


@kernel
def add_i1(a: int_(1), b: int_(1)) -> int_(1):
    return a + b


@kernel
def add_u3(a: uint_(3), b: uint_(3)) -> uint_(3):
    return a + b


@kernel
def add_i12(a: int_(12), b: int_(12)) -> int_(12):
    return a + b


@kernel
def add_i33(a: int_(33), b: int_(33)) -> int_(33):
    return a + b


@kernel
def add_u63(a: uint_(63), b: uint_(63)) -> uint_(63):
    return a + b


@kernel
def mul_sub_i16(a: int16, b: int16) -> int16:
    return a * b - b


@pytest.mark.parametrize(
    "k, a, b, expected",
    [
        (add_i8, 127, 1, -128),
        (add_i8, -128, -1, 127),
        (add_i8, 100, 100, -56),
        (add_u8, 255, 1, 0),
        (add_u8, 200, 100, 44),
        (add_i16, 32767, 1, -32768),
        (add_u16, 65535, 2, 1),
        (add_i32, 2147483647, 1, -2147483648),
        (add_i32, -2147483648, -2147483648, 0),
        (add_u32, 4294967295, 1, 0),
        (add_i64, 9223372036854775807, 1, -9223372036854775808),
        (add_u64, 18446744073709551615, 5, 4),
        (add_bool, 1, 1, 0),
        (add_bool, 1, 0, 1),
        (add_i1, -1, -1, 0),
        (add_i1, -1, 0, -1),
        (add_u3, 7, 1, 0),
        (add_u3, 5, 6, 3),
        (add_i12, 2047, 1, -2048),
        (add_i12, -2048, -1, 2047),
        (add_i33, 4294967295, 1, -4294967296),
        (add_u63, 9223372036854775807, 1, 0),
        (mul_sub_i16, 300, 300, 24164),  # 90000 - 300 = 89700 = 65536 + 24164
        (mul_sub_i16, -32768, -1, -32767),  # -32768 * -1 wraps to -32768, minus -1
    ],
)
def test_wraparound(k, a, b, expected):
    assert k(a, b) == expected


# -- floor division, modulo, division by zero ----------------------------------------------


@kernel
def divmod_i32(a: int32, b: int32, out: int32[2]):
    out[0] = a // b
    out[1] = a % b


@kernel
def divmod_u8(a: uint8, b: uint8, out: uint8[2]):
    out[0] = a // b
    out[1] = a % b


@kernel
def divmod_i12(a: int_(12), b: int_(12), out: int16[2]):
    out[0] = a // b
    out[1] = a % b


@kernel
def divmod_u64(a: uint64, b: uint64, out: uint64[2]):
    out[0] = a // b
    out[1] = a % b


def _divmod(k, dtype, a, b):
    out = np.zeros(2, dtype=dtype)
    assert k(a, b, out) is None
    return int(out[0]), int(out[1])


@pytest.mark.parametrize(
    "a, b, q, r",
    [
        (7, 2, 3, 1),
        (-7, 2, -4, 1),  # floored: the remainder takes the divisor's sign
        (7, -2, -4, -1),
        (-7, -2, 3, -1),
        (-1, 3, -1, 2),
        (6, -3, -2, 0),
        (0, -5, 0, 0),
        (-2147483648, -1, -2147483648, 0),  # the quotient 2**31 wraps
        (-2147483648, 2, -1073741824, 0),
        (2147483647, -2147483648, -1, -1),
        (5, 0, -1, 5),  # by zero: quotient -1, remainder the dividend
        (-5, 0, -1, -5),
        (0, 0, -1, 0),
        (-2147483648, 0, -1, -2147483648),
    ],
)
def test_divmod_signed(a, b, q, r):
    assert _divmod(divmod_i32, np.int32, a, b) == (q, r)


@pytest.mark.parametrize(
    "k, dtype, a, b, q, r",
    [
        (divmod_u8, np.uint8, 200, 7, 28, 4),
        (divmod_u8, np.uint8, 200, 0, 255, 200),  # all ones when unsigned
        (divmod_u8, np.uint8, 0, 0, 255, 0),
        (divmod_u64, np.uint64, 2**64 - 1, 2**63, 1, 2**63 - 1),
        (divmod_u64, np.uint64, 2**64 - 1, 0, 2**64 - 1, 2**64 - 1),
        (divmod_i12, np.int16, -2048, -1, -2048, 0),
        (divmod_i12, np.int16, -2048, 0, -1, -2048),
        (divmod_i12, np.int16, 2047, -10, -205, -3),
        (divmod_i12, np.int16, -2047, 10, -205, 3),
    ],
)
def test_divmod_other_widths(k, dtype, a, b, q, r):
    assert _divmod(k, dtype, a, b) == (q, r)


# -- shifts -------------------------------------------------------------------------------


@kernel
def shifts_i8(a: int8, s: int8, out: int8[2]):
    out[0] = a << s
    out[1] = a >> s


@kernel
def shifts_u8(a: uint8, s: uint8, out: uint8[2]):
    out[0] = a << s
    out[1] = a >> s


@kernel
def shifts_i64(a: int64, s: int64, out: int64[2]):
    out[0] = a << s
    out[1] = a >> s


@pytest.mark.parametrize(
    "k, dtype, a, s, left, right",
    [
        (shifts_i8, np.int8, 1, 7, -128, 0),
        (shifts_i8, np.int8, 1, 8, 0, 0),  # at the width: 0
        (shifts_i8, np.int8, -128, 7, 0, -1),  # >> is arithmetic when signed
        (shifts_i8, np.int8, -128, 8, 0, -1),  # past the width: all sign bits
        (shifts_i8, np.int8, -1, 100, 0, -1),
        (shifts_i8, np.int8, 64, 9, 0, 0),
        (shifts_i8, np.int8, 0x35, 2, -44, 13),  # 0xD4 wraps to -44
        (shifts_u8, np.uint8, 0x80, 7, 0, 1),  # >> is logical when unsigned
        (shifts_u8, np.uint8, 0xFF, 8, 0, 0),
        (shifts_u8, np.uint8, 0xFF, 255, 0, 0),
        (shifts_u8, np.uint8, 0x81, 1, 2, 0x40),
        (shifts_i64, np.int64, 1, 63, -(2**63), 0),
        (shifts_i64, np.int64, 1, 64, 0, 0),
        (shifts_i64, np.int64, -(2**63), 64, 0, -1),
        (shifts_i64, np.int64, 2**62, 100, 0, 0),
    ],
)
def test_shifts(k, dtype, a, s, left, right):
    out = np.zeros(2, dtype=dtype)
    k(a, s, out)
    assert (int(out[0]), int(out[1])) == (left, right)


# -- common type and literals ----------------------------------------------------------------


@kernel
def add_i8_i16(a: int8, b: int16) -> int32:
    return a + b


@kernel
def add_i8_u16(a: int8, b: uint16) -> int32:
    return a + b


@kernel
def add_i8_u8(a: int8, b: uint8) -> int32:
    return a + b


@kernel
def less_i8_u8(a: int8, b: uint8) -> int32:
    return a < b


@kernel
def less_i32_u64(a: int32, b: uint64) -> int32:
    return a < b


@kernel
def div_i8_u8(a: int8, b: uint8) -> int32:
    return a // b


@kernel
def mul_i12_u3(a: int_(12), b: uint_(3)) -> int32:
    return a * b


@kernel
def literal_i8(a: int8) -> int32:
    return a + 1


@kernel
def literal_left_u8(b: uint8) -> int32:
    return 200 + b


@kernel
def literal_sub_u8(b: uint8) -> int32:
    return b - 1


@kernel
def literal_shift_u8(b: uint8) -> int32:
    return 1 << b


@pytest.mark.parametrize(
    "k, args, expected",
    [
        (add_i8_i16, (127, 1), 128),  # the wider type wins: no int8 wrap
        (add_i8_i16, (-128, -32768), 32640),  # int16: -32896 wraps
        (add_i8_u16, (-1, 0), 65535),  # int8 -1 becomes uint16 65535
        (add_i8_u8, (-1, 0), 255),  # equal width: unsigned wins
        (add_i8_u8, (-128, 128), 0),  # 128 + 128 wraps at uint8
        (less_i8_u8, (-1, 1), 0),  # 255 < 1 is false
        (less_i32_u64, (-1, 0), 0),
        (less_i32_u64, (1, 2), 1),
        (div_i8_u8, (-2, 2), 127),  # 254 // 2 in uint8
        (mul_i12_u3, (-3, 7), -21),  # int_(12) is the wider
        (mul_i12_u3, (2047, 2), -2),
        (literal_i8, (127,), -128),  # the literal takes int8
        (literal_left_u8, (100,), 44),  # 300 wraps at uint8
        (literal_sub_u8, (0,), 255),
        (literal_shift_u8, (7,), 128),
        (literal_shift_u8, (8,), 0),
    ],
)
def test_common_type(k, args, expected):
    assert k(*args) == expected


# -- comparisons give bool_ ----------------------------------------------------------------


@kernel
def compare_is_bool(a: int32, b: int32, out: int32[4]):
    c = a < b  # an unannotated local takes the comparison's type, bool_
    out[0] = c
    out[1] = c + c  # bool_: 1 + 1 wraps to 0
    out[2] = int32(c) + c  # int32: 2
    out[3] = (a != b) * 3  # the literal takes bool_: 3 wraps to 1


@kernel
def chain(a: int16, b: int16, c: int16) -> int32:
    # cast first: bool_(x) * 2 would wrap the literal to bool_ as well
    return int32(a < b <= c) + int32(a == b == c) * 2 + int32(a > b > c) * 4


@pytest.mark.parametrize(
    "a, b, expected",
    [(1, 2, [1, 0, 2, 1]), (2, 1, [0, 0, 0, 1]), (5, 5, [0, 0, 0, 0]),
     (-2147483648, 2147483647, [1, 0, 2, 1])],
)
def test_compare_gives_bool(a, b, expected):
    out = np.zeros(4, np.int32)
    compare_is_bool(a, b, out)
    assert out.tolist() == expected


@pytest.mark.parametrize(
    "a, b, c, expected", [(1, 2, 2, 1), (3, 3, 3, 2), (3, 2, 1, 4), (1, 2, 1, 0), (-1, -1, 0, 0)]
)
def test_comparison_chain(a, b, c, expected):
    assert chain(a, b, c) == expected


# -- assignment converts -----------------------------------------------------------------------


@kernel
def convert_on_assign(a: int32, out8: int8[2], outu8: uint8[2], outb: bool_[2]) -> int32:
    x: int8 = a
    u: uint8 = a
    out8[0] = x
    out8[1] = a + 1000
    outu8[0] = u
    outu8[1] = -1
    outb[0] = a  # the low bit
    outb[1] = a != 0
    a = x * 2  # a scalar parameter keeps its own type, int32
    return a


def test_assignment_converts():
    out8 = np.zeros(2, np.int8)
    outu8 = np.zeros(2, np.uint8)
    outb = np.zeros(2, np.bool_)
    ret = convert_on_assign(300, out8, outu8, outb)
    # 300 is 0x12C: int8 44, uint8 44, bool_ 0; 1300 is 0x514: int8 20
    assert out8.tolist() == [44, 20]
    assert outu8.tolist() == [44, 255]
    assert outb.tolist() == [False, True]
    assert ret == 88  # x * 2 in int8 is 88, no wrap
    ret = convert_on_assign(200, out8, outu8, outb)
    assert out8.tolist() == [-56, -80]  # 1200 = 0x4B0
    assert outu8.tolist() == [200, 255]
    assert ret == 144 - 256  # x = -56; x * 2 = -112 in int8; a = -112


@kernel
def casts(a: int64, out: int64[6]):
    out[0] = int8(a)
    out[1] = uint8(a)
    out[2] = bool_(a)
    out[3] = uint_(3)(a)
    out[4] = int_(12)(a)
    out[5] = uint32(int8(a))


@pytest.mark.parametrize(
    "a, expected",
    [
        (200, [-56, 200, 0, 0, 200, 4294967240]),
        (-1, [-1, 255, 1, 7, -1, 4294967295]),
        (2**40 + 2049, [1, 1, 1, 1, -2047, 1]),
        (2, [2, 2, 0, 2, 2, 2]),  # bool_(2) is the low bit: 0
    ],
)
def test_casts(a, expected):
    out = np.zeros(6, np.int64)
    casts(a, out)
    assert out.tolist() == expected


@kernel
def unary(a: int8, b: uint8, out: int32[5]):
    out[0] = -a
    out[1] = abs(a)
    out[2] = ~b
    out[3] = not a
    out[4] = -b


@pytest.mark.parametrize(
    "a, b, expected",
    [(-128, 0, [-128, -128, 255, 0, 0]), (5, 1, [-5, 5, 254, 0, 255]), (0, 255, [0, 0, 0, 1, 1])],
)
def test_unary(a, b, expected):
    out = np.zeros(5, np.int32)
    unary(a, b, out)
    assert out.tolist() == expected


# -- array bounds and in-place update -------------------------------------------------------


@kernel
def load_at(A: int32[8], i: int32) -> int32:
    return A[i]


@kernel
def store_at(A: int32[8], i: int32, v: int32):
    A[i] = v


@kernel
def load_2d(A: int16[3, 4], i: int32, j: int32) -> int16:
    return A[i][j]


@pytest.mark.parametrize("i", [-1, -8, 8, 100, -2147483648])
def test_out_of_range_raises(i):
    A = np.arange(8, dtype=np.int32)
    with pytest.raises(IndexError):
        load_at(A, i)
    with pytest.raises(IndexError):
        store_at(A, i, 5)
    assert A.tolist() == list(range(8))


@pytest.mark.parametrize("i, j", [(3, 0), (0, 4), (-1, 0), (0, -1), (2, -4)])
def test_out_of_range_raises_2d(i, j):
    with pytest.raises(IndexError):
        load_2d(np.zeros((3, 4), np.int16), i, j)


def test_in_range_index():
    A = np.arange(8, dtype=np.int32) * 3
    assert load_at(A, 0) == 0 and load_at(A, 7) == 21
    assert load_2d(np.arange(12, dtype=np.int16).reshape(3, 4), 2, 3) == 11


@kernel
def bump(A: int8[2, 3], by: int8) -> int8:
    for i in range(2):
        for j in range(3):
            A[i, j] += by
    return A[1, 2]


def test_arrays_updated_in_place():
    A = np.array([[1, 2, 3], [4, 5, 127]], dtype=np.int8)
    view = A  # the same object must change, not a copy
    ret = bump(A, 1)
    assert view is A
    assert A.tolist() == [[2, 3, 4], [5, 6, -128]]
    assert ret == -128
    store = np.zeros(8, np.int32)
    assert store_at(store, 3, 9) is None
    assert store.tolist() == [0, 0, 0, 9, 0, 0, 0, 0]


def test_scalar_arguments_wrap_to_the_parameter_type():
    assert add_i8(300, 0) == 44  # the argument is converted like an assignment
    assert add_u8(-1, 0) == 255


# -- nested expressions: each intermediate result wraps, and only that ------------------------


@kernel
def nested_i32(a: int32, b: int32, c: int32) -> int32:
    return a * b * c


@kernel
def nested_sum_times(a: int32, b: int32, c: int32) -> int32:
    return (a + b) * c - (a - b) * (c + 1)


@kernel
def nested_i8(a: int8, b: int8, c: int8) -> int32:
    return (a * b) * c + (a - b) // c


@kernel
def nested_u8(a: uint8, b: uint8, c: uint8) -> int32:
    return (a * b) * c + (a - b) // c


@pytest.mark.parametrize(
    "k, args, expected",
    [
        (nested_i32, (3, 1, 2), 6),
        (nested_i32, (-3, 5, 7), -105),
        (nested_i32, (65536, 65536, 3), 0),  # 2**32 wraps to 0 before the last product
        (nested_sum_times, (5, 3, 2), 16 - 6),
        (nested_sum_times, (-5, 3, 4), -8 - (-8) * 5),
        # 2**31 * 2 wraps to 0; 2147483646 * 3 wraps to 2147483642
        (nested_sum_times, (2147483647, 1, 2), -2147483642),
        (nested_i8, (3, 4, 5), 60 + (-1) // 5),  # 60 - 1
        (nested_i8, (16, 16, 2), 0 + 0 // 2),  # 256 wraps to 0 in int8
        # int8 throughout: 300 wraps to 44, 44 * -2 = -88, 97 // -2 = -49, -137 wraps to 119
        (nested_i8, (100, 3, -2), 119),
        (nested_u8, (3, 4, 5), 60 + 255 // 5),  # 3 - 4 is 255 in uint8
        (nested_u8, (16, 16, 2), 0 + 0),
    ],
)
def test_nested_expressions(k, args, expected):
    assert k(*args) == expected
