"""Small real-world kernels: FIR, histogram, matrix-vector, prefix sum, bubble sort, GCD,
popcount, saturating add, CRC-8, binary search, maximum subarray, dot product.

Each is written the way an HLS user would write it, within the kernel language, and comes
with ``model_*``: the same computation stated independently in plain Python (no kernel
semantics involved), which the tests use to check the reference call.
"""

import numpy as np

from vichls import bool_, int16, int32, kernel, uint8, uint16, uint32, uint64, uint_

NTAPS = 4
NSAMP = 16
N = 8


def _wrap(value: int, bits: int, signed: bool) -> int:
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value


@kernel
def fir(x: int16[NSAMP], h: int16[NTAPS], y: int32[NSAMP]):
    for n in range(NSAMP):
        acc: int32 = 0
        for k in range(NTAPS):
            if n - k >= 0:
                acc += int32(x[n - k]) * h[k]
        y[n] = acc


def model_fir(args):
    x, h, y = (a.copy() for a in args)
    for n in range(NSAMP):
        y[n] = _wrap(sum(int(x[n - k]) * int(h[k]) for k in range(NTAPS) if n >= k), 32, True)
    return None, [x, h, y]


@kernel
def histogram(data: uint8[32], bins: uint16[N]) -> uint16:
    for i in range(N):
        bins[i] = 0
    for i in range(32):
        bins[data[i] >> 5] += 1
    peak: uint16 = 0
    for i in range(N):
        peak = max(peak, bins[i])
    return peak


def model_histogram(args):
    data, bins = (a.copy() for a in args)
    bins[:] = np.bincount(data >> 5, minlength=N)
    return int(bins.max()), [data, bins]


@kernel
def matvec(A: int32[N, N], x: int32[N], y: int32[N]):
    for i in range(N):
        y[i] = 0
        for j in range(N):
            y[i] += A[i][j] * x[j]


def model_matvec(args):
    A, x, y = (a.copy() for a in args)
    for i in range(N):
        y[i] = _wrap(sum(int(A[i, j]) * int(x[j]) for j in range(N)), 32, True)
    return None, [A, x, y]


@kernel
def prefix_sum(a: int32[16]):
    for i in range(1, 16):
        a[i] += a[i - 1]


def model_prefix_sum(args):
    (a,) = (x.copy() for x in args)
    running = 0
    for i in range(16):
        running += int(a[i])
        a[i] = _wrap(running, 32, True)
    return None, [a]


@kernel
def bubble_sort(a: int32[10]) -> int32:
    passes: int32 = 0
    for i in range(10):
        swapped: bool_ = 0
        for j in range(9 - i):
            if a[j] > a[j + 1]:
                t = a[j]
                a[j] = a[j + 1]
                a[j + 1] = t
                swapped = 1
        passes += 1
        if not swapped:
            break
    return passes


def model_bubble_sort(args):
    (a,) = (x.copy() for x in args)
    values = [int(v) for v in a]
    # passes: one more than the number of passes that still moved something, capped at 10
    passes = 0
    work = list(values)
    for i in range(10):
        moved = False
        for j in range(9 - i):
            if work[j] > work[j + 1]:
                work[j], work[j + 1] = work[j + 1], work[j]
                moved = True
        passes += 1
        if not moved:
            break
    a[:] = sorted(values)
    assert work == sorted(values)
    return passes, [a]


@kernel
def gcd(a: uint32, b: uint32) -> uint32:
    while b != 0:
        t = a % b
        a = b
        b = t
    return a


def model_gcd(args):
    import math

    return math.gcd(args[0], args[1]), []


@kernel
def popcount(x: uint64[4], wide: uint_(33)[4], out: uint8[8]):
    for i in range(4):
        v = x[i]
        c: uint8 = 0
        while v:
            v &= v - 1
            c += 1
        out[i] = c
    for i in range(4):
        ones: uint8 = 0
        for b in range(33):
            ones += (wide[i] >> b) & 1
        out[4 + i] = ones


def model_popcount(args):
    x, wide, out = (a.copy() for a in args)
    for i in range(4):
        out[i] = bin(int(x[i])).count("1")
        out[4 + i] = bin(int(wide[i])).count("1")
    return None, [x, wide, out]


@kernel
def saturating_add(a: int16[16], b: int16[16], ua: uint8[16], ub: uint8[16],
                   out: int16[16], uout: uint8[16]):
    for i in range(16):
        s: int32 = int32(a[i]) + b[i]
        out[i] = max(-32768, min(32767, s))
        u: uint16 = uint16(ua[i]) + ub[i]
        uout[i] = 255 if u > 255 else u


def model_saturating_add(args):
    a, b, ua, ub, out, uout = (x.copy() for x in args)
    for i in range(16):
        out[i] = max(-32768, min(32767, int(a[i]) + int(b[i])))
        uout[i] = min(255, int(ua[i]) + int(ub[i]))
    return None, [a, b, ua, ub, out, uout]


@kernel
def crc8(data: uint8[16]) -> uint8:
    crc: uint8 = 0
    for i in range(16):
        crc ^= data[i]
        for bit in range(8):
            if crc & 0x80:
                crc = (crc << 1) ^ 0x07
            else:
                crc <<= 1
    return crc


def model_crc8(args):
    # CRC-8 (polynomial x^8 + x^2 + x + 1, init 0, no reflection), table-free long division
    (data,) = args
    register = 0
    for byte in data:
        register ^= int(byte) << 8
        for _ in range(8):
            register <<= 1
            if register & 0x10000:
                register ^= 0x10700
    return register >> 8, [data.copy()]


@kernel
def binary_search(a: int32[16], key: int32) -> int32:
    lo: int32 = 0
    hi: int32 = 15
    while lo <= hi:
        mid = (lo + hi) >> 1
        v = a[mid]
        if v == key:
            return mid
        elif v < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def model_binary_search(args):
    a, key = args
    import bisect

    values = [int(v) for v in a]  # strictly increasing, so a match is unique
    pos = bisect.bisect_left(values, key)
    found = pos < 16 and values[pos] == key
    return (pos if found else -1), [a.copy()]


@kernel
def max_subarray(a: int16[16]) -> int32:
    best: int32 = a[0]
    cur: int32 = 0
    for i in range(16):
        cur = max(cur + a[i], a[i])
        best = max(best, cur)
    return best


def model_max_subarray(args):
    (a,) = args
    v = [int(x) for x in a]
    best = max(sum(v[i:j]) for i in range(16) for j in range(i + 1, 17))
    return best, [a.copy()]


@kernel
def dot(x: int32[N], y: int32[N]) -> int32:
    acc: int32 = 0
    for i in range(N):
        acc += x[i] * y[i]
    return acc


def model_dot(args):
    x, y = args
    return _wrap(sum(int(p) * int(q) for p, q in zip(x, y)), 32, True), [x.copy(), y.copy()]
