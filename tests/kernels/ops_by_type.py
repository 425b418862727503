"""Every unary and binary operator, min/max/abs, on one type per kernel.

One kernel per element type (the eight named widths, ``bool_`` and odd widths 3, 12, 33 and
63): each row ``i`` of ``out`` gets the 16 results of ``a[i] op b[i]`` (and of shifting
``a[i]`` by ``s[i]``). The inputs mix type edges with random values, so the rows exercise
wraparound, floored ``//`` and ``%`` with negative operands and zero divisors, and shifts at
and above the width. Signed kernels mask the shift amount to keep it non-negative (a
negative amount is not defined by the language) while still reaching beyond the width.
The source is written out per type because kernel types must be literal in annotations.
"""

from vichls import bool_, int8, int16, int32, int64, int_, kernel, uint8, uint16, uint32, uint64, uint_

OPS_COLUMNS = 16


@kernel
def ops_int8(a: int8[8], b: int8[8], s: int8[8], out: int8[8, 16]):
    for i in range(8):
        x = a[i]
        y: int8 = b[i]
        amount: int8 = s[i] & 15
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_uint8(a: uint8[8], b: uint8[8], s: uint8[8], out: uint8[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint8 = b[i]
        amount: uint8 = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_int16(a: int16[8], b: int16[8], s: int16[8], out: int16[8, 16]):
    for i in range(8):
        x = a[i]
        y: int16 = b[i]
        amount: int16 = s[i] & 31
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_uint16(a: uint16[8], b: uint16[8], s: uint16[8], out: uint16[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint16 = b[i]
        amount: uint16 = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_int32(a: int32[8], b: int32[8], s: int32[8], out: int32[8, 16]):
    for i in range(8):
        x = a[i]
        y: int32 = b[i]
        amount: int32 = s[i] & 63
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_uint32(a: uint32[8], b: uint32[8], s: uint32[8], out: uint32[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint32 = b[i]
        amount: uint32 = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_int64(a: int64[8], b: int64[8], s: int64[8], out: int64[8, 16]):
    for i in range(8):
        x = a[i]
        y: int64 = b[i]
        amount: int64 = s[i] & 127
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_uint64(a: uint64[8], b: uint64[8], s: uint64[8], out: uint64[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint64 = b[i]
        amount: uint64 = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_bool(a: bool_[8], b: bool_[8], s: bool_[8], out: bool_[8, 16]):
    for i in range(8):
        x = a[i]
        y: bool_ = b[i]
        amount: bool_ = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_i12(a: int_(12)[8], b: int_(12)[8], s: int_(12)[8], out: int_(12)[8, 16]):
    for i in range(8):
        x = a[i]
        y: int_(12) = b[i]
        amount: int_(12) = s[i] & 31
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_u3(a: uint_(3)[8], b: uint_(3)[8], s: uint_(3)[8], out: uint_(3)[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint_(3) = b[i]
        amount: uint_(3) = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_i33(a: int_(33)[8], b: int_(33)[8], s: int_(33)[8], out: int_(33)[8, 16]):
    for i in range(8):
        x = a[i]
        y: int_(33) = b[i]
        amount: int_(33) = s[i] & 127
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_u33(a: uint_(33)[8], b: uint_(33)[8], s: uint_(33)[8], out: uint_(33)[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint_(33) = b[i]
        amount: uint_(33) = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_i63(a: int_(63)[8], b: int_(63)[8], s: int_(63)[8], out: int_(63)[8, 16]):
    for i in range(8):
        x = a[i]
        y: int_(63) = b[i]
        amount: int_(63) = s[i] & 127
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


@kernel
def ops_u63(a: uint_(63)[8], b: uint_(63)[8], s: uint_(63)[8], out: uint_(63)[8, 16]):
    for i in range(8):
        x = a[i]
        y: uint_(63) = b[i]
        amount: uint_(63) = s[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x // y
        out[i, 4] = x % y
        out[i, 5] = x & y
        out[i, 6] = x | y
        out[i, 7] = x ^ y
        out[i, 8] = x << amount
        out[i, 9] = x >> amount
        out[i, 10] = -x
        out[i, 11] = ~x
        out[i, 12] = not x
        out[i, 13] = abs(x)
        out[i, 14] = min(x, y)
        out[i, 15] = max(x, y)


# (top name, kernel, element type): the corpus builds cases from these; the tests model each one
OPS_KERNELS = [
    ("ops_int8", ops_int8, int8),
    ("ops_uint8", ops_uint8, uint8),
    ("ops_int16", ops_int16, int16),
    ("ops_uint16", ops_uint16, uint16),
    ("ops_int32", ops_int32, int32),
    ("ops_uint32", ops_uint32, uint32),
    ("ops_int64", ops_int64, int64),
    ("ops_uint64", ops_uint64, uint64),
    ("ops_bool", ops_bool, bool_),
    ("ops_i12", ops_i12, int_(12)),
    ("ops_u3", ops_u3, uint_(3)),
    ("ops_i33", ops_i33, int_(33)),
    ("ops_u33", ops_u33, uint_(33)),
    ("ops_i63", ops_i63, int_(63)),
    ("ops_u63", ops_u63, uint_(63)),
]
