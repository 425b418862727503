"""Kernels aimed at control flow, loops, arrays and calls.

``range`` with one, two and three arguments (negative steps, empty ranges, reused loop
variable names), triangular and data-dependent bounds (including a negative step over
loaded bounds), ``while`` loops, ``if``/``elif``/``else``, ``break`` and ``continue`` in
``for`` and ``while`` (and in nested loops, where they leave only the inner one), early
``return`` from inside loops, 1- to 4-dimensional array parameters, both ``A[i, j]`` and
``A[i][j]``, local arrays with constant initialisers (re-initialised when the declaration
runs again), data-dependent indices kept in range by ``% N`` or a mask, and calls between
kernels (one callee called twice, a call inside a loop, a chain of calls).
"""

from vichls import int16, int32, int64, kernel, uint8, uint16, uint32

N = 8


@kernel
def ranges_all(out: int32[8]):
    s: int32 = 0
    for i in range(5):
        s += i
    out[0] = s
    s = 0
    for i in range(2, 7):
        s = s * 3 + i  # order-dependent, so the iteration order is checked
    out[1] = s
    s = 0
    for i in range(1, 20, 4):
        s = s * 5 + i
    out[2] = s
    s = 0
    for i in range(10, 0, -3):
        s = s * 7 + i
    out[3] = s
    s = 0
    for i in range(7, -8, -2):
        s = s * 3 + i
    out[4] = s
    for i in range(3, 3):
        out[5] += 1
    for i in range(4, 0):
        out[5] += 1
    for i in range(0, 4, -1):
        out[5] += 1
    s = 0
    for i in range(N - 1, -1, -1):
        s = s * 2 + (i & 1)
    out[6] = s
    for i in range(-2, 3):
        out[7] = out[7] * 4 - i  # the same name again, now negative values


@kernel
def param_bounds(n: int32, lo: int32, A: int32[16]) -> int32:
    t: int32 = 0
    for i in range(n):
        A[i] += 1
    for i in range(lo, n):
        t += A[i] * i
    for i in range(n, lo, -1):
        t = t * 3 - i
    return t


@kernel
def triangular(A: int32[N, N], L: int32[N, N]) -> int64:
    total: int64 = 0
    for i in range(N):
        for j in range(i + 1):
            L[i, j] = A[i, j] + A[j, i]
        for j in range(i + 1, N):
            L[i][j] = 0
    for i in range(N):
        for j in range(i, N):
            total += L[j][i] * (i - j)
    for i in range(1, N):
        for j in range(0, N - i):
            total ^= A[i][j] << j
    for i in range(N - 1, 0, -1):
        for j in range(i - 1, -1, -2):
            total -= L[i, j]
    return total


@kernel
def ranged_bounds(a: int32[64], n: int32, b: uint8[64], out: int32[64]) -> int32:
    """Loop bounds and compares whose ranges are known from the loops (merge-sort blocks:
    shifts, products and sums of counters), beside compares that must stay full width: of
    data, of a parameter, of a product that may wrap, and unsigned ones of values that may
    be negative (transforms/fpga/narrow_compares.py, analysis/value_ranges.py)."""
    count: int32 = 0
    for stage in range(6):
        width: int32 = 1 << stage
        for block in range(64 >> (stage + 1)):
            low: int32 = block * 2 * width
            high: int32 = low + 2 * width
            for k in range(low, high):
                if a[k] < a[high - 1]:
                    count += 1
                if k + 1 < high:
                    out[k] += 1
                if k - high > -2:
                    out[k] ^= k
    for i in range(64):
        if n < i:
            out[i] += n
        if i * 1073741824 < 5:
            out[i] -= 1
        if b[i] < i:
            out[i] += 2
        d: uint32 = i - 32
        if d < 4:
            out[i] *= 3
    return count


@kernel
def data_bounds(bounds: int32[4], A: int16[16], out: int32[4]):
    lo = bounds[0] & 15
    hi = bounds[1] % 17
    s: int32 = 0
    for i in range(lo, hi):
        s += A[i]
    out[0] = s
    c: int32 = 0
    for i in range(bounds[2] & 7):
        for j in range(i, bounds[3] & 15):
            c += A[j] ^ i
    out[1] = c
    s = 0
    for i in range(hi - 1, lo - 1, -1):
        s = s * 2 + (A[i] & 1)
    out[2] = s
    s = 0
    for i in range(A[0] & 3, (A[1] & 7) + 8, 3):
        s += i
    out[3] = s


@kernel
def while_loops(x: uint32[N], steps: int32[N], budget: int32) -> int32:
    total: int32 = 0
    for i in range(N):
        v: uint32 = x[i] % 20 + 1
        n: int32 = 0
        while v != 1 and n < 64:
            if v % 2 == 0:
                v //= 2
            else:
                v = 3 * v + 1
            n += 1
        steps[i] = n
        total += n
    k: int32 = 0
    while total > 0 and k < budget:
        total -= 7
        k += 1
    return k


@kernel
def classify(a: int16[16], cls: uint8[16]) -> uint8:
    last: uint8 = 9
    for i in range(16):
        v = a[i]
        if v < -1000:
            last = 0
        elif v < 0:
            last = 1
        elif v == 0:
            last = 2
        elif v <= 1000:
            last = 3
        else:
            last = 4
        cls[i] = last
        if v == 32767:
            cls[i] += 10
    return last


@kernel
def break_continue(a: int32[16], out: int32[5]):
    s: int32 = 0
    for i in range(16):
        if a[i] < 0:
            continue
        if a[i] > 1000000:
            break
        s += a[i] & 255
    out[0] = s
    k: int32 = 0
    cnt: int32 = 0
    while k < 16:
        k += 1
        if a[k - 1] % 3 == 0:
            continue
        cnt += 1
        if cnt >= 5:
            break
    out[1] = cnt
    out[2] = k
    pairs: int32 = 0
    for i in range(4):
        for j in range(4):
            if j > i:
                break
            if (a[i] ^ a[j]) & 1:
                continue
            pairs += 1
    out[3] = pairs
    w: int32 = 0
    while w < 1000:
        w += 1
        if w >= 12 or a[w] == 0:
            break
    out[4] = w


@kernel
def find_first(a: int32[16], key: int32) -> int32:
    for i in range(16):
        if a[i] == key:
            return i
    for i in range(15, -1, -1):
        if a[i] & 0xFF == key & 0xFF:
            return 100 + i
    return -1


@kernel
def nested_early_return(A: int16[4, 4], limit: int16) -> int16:
    acc: int16 = 0
    for i in range(4):
        for j in range(4):
            acc += A[i][j]
            if acc > limit:
                return acc * 2
        if acc < -limit:
            return -acc
    return acc


@kernel
def tensors(A: int16[2, 3, 4], B: uint8[2, 2, 2, 3], out: int32[2, 3]) -> int64:
    for i in range(2):
        for j in range(3):
            s: int32 = 0
            for k in range(4):
                s += A[i, j, k] * B[i][k & 1][(k >> 1) & 1][j]
            out[i, j] = s
    t: int64 = 0
    for a in range(2):
        for b in range(2):
            for c in range(2):
                for d in range(3):
                    t = t * 3 + B[a, b, c, d] - A[a][d][b + c]
    return t


@kernel
def local_arrays(a: uint8[16], out: int32[N]):
    counts: int32[N] = 0
    lut: int16[4, 4] = -3
    for i in range(16):
        counts[a[i] & 7] += 1
    for i in range(4):
        for j in range(4):
            lut[i][j] += i * j
    for r in range(3):
        tmp: uint8[4] = 255  # re-initialised on every iteration
        tmp[r] = r
        counts[r] += tmp[0] + tmp[1] + tmp[2] + tmp[3]
    for k in range(N):
        out[k] = counts[k] * 10 + lut[k & 3, (k >> 1) & 3]


@kernel
def gather_scatter(idx: int32[N], perm: uint8[N], src: int16[N], dst: int16[N]) -> int16:
    for k in range(N):
        dst[idx[k] % N] += src[k]  # % with a positive divisor is never negative
        dst[k] ^= src[perm[k] & 7]
    for k in range(N):
        j = src[idx[perm[k] % N] % N] & 7
        dst[j] = dst[j] - 1
    return dst[src[3] & 7] + src[dst[5] % N]


@kernel
def scale_row(M: int32[4, 4], r: int32, f: int32):
    for j in range(4):
        M[r, j] *= f


@kernel
def add_rows(dst: int32[4], src: int32[4, 4], r: int32):
    for j in range(4):
        dst[j] += src[r][j]


@kernel
def calls_twice(M: int32[4, 4], acc: int32[4], f: int32):
    scale_row(M, 0, f)
    scale_row(M, 3, f + 1)
    for r in range(4):
        add_rows(acc, M, r)


@kernel
def call_chain(M: int32[4, 4], acc: int32[4], f: int32) -> int32:
    calls_twice(M, acc, f)
    scale_row(M, f & 3, -1)
    return acc[0] + M[1, 1]


@kernel
def loop_var_types(A: uint16[N], big: int64) -> int64:
    s: int64 = 0
    for i in range(N):
        s += i - A[i]  # int32 loop variable against uint16: int32
        s += i * big
    for i in range(-3, 3):
        s = s * 2 + i * i * i
    return s
