"""Kernels the front-end IR tests compile (one construct family each)."""
from vichls import kernel, int32, int64, uint8, int_, uint_, bool_
import vichls

N = 8


@kernel
def gemm(A: int32[N, N], B: int32[N, N], C: int32[N, N], alpha: int32, beta: int32):
    for i in range(N):
        for j in range(N):
            C[i, j] *= beta
        for k in range(N):
            for j in range(N):
                C[i, j] += alpha * A[i, k] * B[k, j]


@kernel
def triangular(L: int32[N, N], x: int32[N]):
    for i in range(N):
        acc: int32 = 0
        for j in range(i):
            acc += L[i][j] * x[j]
        x[i] = acc


@kernel
def gather(idx: uint8[N], v: int32[N], out: int32[N]):
    for k in vichls.loop(range(N), name="g"):
        out[k] = v[idx[k] & 7]


@kernel
def search(A: int32[N], key: int32) -> int32:
    pos = -1
    for i in range(N):
        if A[i] == key:
            pos = i
            break
    return pos


@kernel
def divs(a: int_(12), b: int_(12), u: uint_(5)) -> int64:
    return a // b + a % b + (a >> u) + (a << 3) + a // 4 + a % -3


@kernel
def helper(x: int32[N]) -> int32:
    s = 0
    for i in range(N):
        s += x[i]
    return s


@kernel
def caller(x: int32[N], y: int32[N]) -> int32:
    return helper(x) - helper(y)


@kernel
def part_sum(x: int32[16]) -> int32:
    acc: int32 = 0
    for i in range(16):
        acc += x[i]
    return acc


@kernel
def calls_partitioned(x: int32[16], y: int32[16]) -> int32:
    for i in range(16):
        y[i] = x[i] * 3
    return part_sum(y) + part_sum(x)
