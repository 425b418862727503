"""CPU back end speed: vichls kernels compiled through LLVM vs numba @njit of the same loops.

Two kernels, int32: gemm 128x128 (C = beta*C + alpha*A@B, the loop nest of the
kernel-language docs) and a 1-D 3-point stencil over N = 1<<20 elements. Each is compiled
with `compile_cpu` (-O3, host CPU) and with numba, checked to give identical results, and
timed as the best of several calls (after a warm-up call, so compile time is excluded).
Prints milliseconds for both and the ratio ours/numba (goal: <= 1.5).

numba is a benchmark-only dependency: without it the script says so and exits 0.

    python benchmarks/cpu_speed.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from vichls import int32, kernel
from vichls.driver.cpu import compile_cpu

GEMM_N = 128
STENCIL_N = 1 << 20


@kernel
def gemm(A: int32[GEMM_N, GEMM_N], B: int32[GEMM_N, GEMM_N], C: int32[GEMM_N, GEMM_N], alpha: int32, beta: int32):
    for i in range(GEMM_N):
        for j in range(GEMM_N):
            C[i, j] *= beta
        for k in range(GEMM_N):
            for j in range(GEMM_N):
                C[i, j] += alpha * A[i, k] * B[k, j]


@kernel
def stencil3(a: int32[STENCIL_N], b: int32[STENCIL_N]):
    for i in range(1, STENCIL_N - 1):
        b[i] = a[i - 1] + a[i] + a[i + 1]


def numba_versions():
    """The same loops under numba @njit, or None when numba is not installed."""
    try:
        from numba import njit
    except ImportError:
        return None

    @njit(cache=False)
    def gemm_nb(A, B, C, alpha, beta):
        n = A.shape[0]
        for i in range(n):
            for j in range(n):
                C[i, j] *= beta
            for k in range(n):
                for j in range(n):
                    C[i, j] += alpha * A[i, k] * B[k, j]

    @njit(cache=False)
    def stencil3_nb(a, b):
        for i in range(1, a.shape[0] - 1):
            b[i] = a[i - 1] + a[i] + a[i + 1]

    return gemm_nb, stencil3_nb


def best_ms(fn, make_args, repeat: int) -> float:
    """Best wall time of `fn(*make_args())` over `repeat` calls, in ms (argument setup excluded)."""
    fn(*make_args())  # warm-up
    best = float("inf")
    for _ in range(repeat):
        args = make_args()
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    opts = parser.parse_args(argv)

    numba_fns = numba_versions()
    if numba_fns is None:
        print("numba is not installed (pip install numba): skipping the CPU speed benchmark")
        return 0
    gemm_nb, stencil3_nb = numba_fns

    rng = np.random.default_rng(0)
    A, B, C0 = (rng.integers(-1000, 1000, size=(GEMM_N, GEMM_N)).astype(np.int32) for _ in range(3))
    a = rng.integers(-(1 << 30), 1 << 30, size=STENCIL_N).astype(np.int32)

    start = time.perf_counter()
    gemm_cpu = compile_cpu(gemm.module())
    stencil_cpu = compile_cpu(stencil3.module())
    compile_ms = (time.perf_counter() - start) * 1e3 / 2

    # Same results first (int32 wrap-around included).
    C_ours, C_nb = C0.copy(), C0.copy()
    gemm_cpu(A, B, C_ours, 3, -2)
    gemm_nb(A, B, C_nb, np.int32(3), np.int32(-2))
    b_ours, b_nb = np.zeros_like(a), np.zeros_like(a)
    stencil_cpu(a, b_ours)
    stencil3_nb(a, b_nb)
    if not (np.array_equal(C_ours, C_nb) and np.array_equal(b_ours, b_nb)):
        print("error: vichls and numba results differ", file=sys.stderr)
        return 1

    rows = [
        (
            f"gemm {GEMM_N}x{GEMM_N} int32",
            best_ms(gemm_cpu, lambda: (A, B, C0.copy(), 3, -2), opts.repeat),
            best_ms(gemm_nb, lambda: (A, B, C0.copy(), np.int32(3), np.int32(-2)), opts.repeat),
        ),
        (
            f"stencil3 N={STENCIL_N} int32",
            best_ms(stencil_cpu, lambda: (a, b_ours), opts.repeat),
            best_ms(stencil3_nb, lambda: (a, b_nb), opts.repeat),
        ),
    ]
    print(f"vichls compile_cpu: {compile_ms:.0f} ms per kernel (lowering + LLVM -O3 + JIT)")
    print(f"{'kernel':<28} {'vichls ms':>10} {'numba ms':>10} {'ours/numba':>11}")
    for name, ours, theirs in rows:
        print(f"{name:<28} {ours:>10.3f} {theirs:>10.3f} {ours / theirs:>11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
