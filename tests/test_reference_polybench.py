"""The PolyBench 8x8 suite (benchmarks/polybench) against numpy statements of each kernel.

Each kernel's reference call is compared with the textbook matrix form of the same
computation (``C = beta*C + alpha*A@B`` and so on) evaluated exactly and wrapped to int32
at the end, which equals 32-bit wrapping at every step for rings; kernels that divide
(trisolv, the stencils) are stated step by step. Inputs: the deterministic PolyBench-style
ones and random ones.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.polybench import CORE, SUITE, VIVADO_HLS_2019_2_LATENCY  # noqa: E402


def wrap32(m):
    m = np.asarray(m, dtype=object)
    return np.asarray((m + 2**31) % 2**32 - 2**31, dtype=np.int64).astype(np.int32)


def exact(a):
    return np.asarray(a, dtype=object)


def model(name, args):
    """The expected arguments after the call, as a list in parameter order."""
    a = [exact(x) if isinstance(x, np.ndarray) else x for x in args]
    if name == "gemm":
        al, be, C, A, B = a
        return [al, be, be * C + al * A.dot(B), A, B]
    if name == "2mm":
        al, be, tmp, A, B, C, D = a
        tmp = wrap32(al * A.dot(B))
        return [al, be, tmp, A, B, C, be * D + exact(tmp).dot(C)]
    if name == "3mm":
        E, A, B, F, C, D, G = a
        E, F = A.dot(B), C.dot(D)
        return [E, A, B, F, C, D, wrap32(E).astype(object).dot(wrap32(F).astype(object))]
    if name == "atax":
        A, x, y, tmp = a
        tmp = wrap32(A.dot(x))
        return [A, x, A.T.dot(exact(tmp)), tmp]
    if name == "bicg":
        A, s, q, p, r = a
        return [A, r.dot(A), A.dot(p), p, r]
    if name == "gesummv":
        al, be, A, B, tmp, x, y = a
        tmp = wrap32(A.dot(x))
        return [al, be, A, B, tmp, x, al * exact(tmp) + be * wrap32(B.dot(x)).astype(object)]
    if name == "mvt":
        x1, x2, y1, y2, A = a
        return [x1 + A.dot(y1), x2 + A.T.dot(y2), y1, y2, A]
    if name == "trisolv":
        L, x, b = a
        x = [0] * 8
        for i in range(8):
            numerator = int(wrap32(b[i] - sum(L[i][j] * x[j] for j in range(i))))
            x[i] = int(wrap32(numerator // L[i][i]))  # floored, as the kernel documents
        return [L, x, b]
    if name == "syrk":
        al, be, C, A = a
        new = be * C + al * A.dot(A.T)
        return [al, be, np.where(np.tri(8, dtype=bool), new, C), A]
    if name == "syr2k":
        al, be, C, A, B = a
        new = be * C + al * (A.dot(B.T) + B.dot(A.T))
        return [al, be, np.where(np.tri(8, dtype=bool), new, C), A, B]
    if name == "trmm":
        al, A, B = a
        strictly_lower = np.where(np.tri(8, k=-1, dtype=bool), A, 0)
        return [al, A, al * (B + strictly_lower.T.dot(B))]
    if name == "doitgen":
        A, C4, s = a
        out = np.empty_like(A)
        for r in range(8):
            for q in range(8):
                out[r][q] = wrap32(A[r][q].dot(C4))
        return [out, C4, out[7][7]]
    if name == "gemver":
        al, be, A, u1, v1, u2, v2, w, x, y, z = a
        A = wrap32(A + np.outer(u1, v1) + np.outer(u2, v2)).astype(object)
        x = wrap32(x + be * A.T.dot(y) + z).astype(object)
        return [al, be, A, u1, v1, u2, v2, w + al * A.dot(x), x, y, z]
    if name == "jacobi-1d":
        A, B = (np.array(v, dtype=np.int64) for v in args)
        for _ in range(4):
            B[1:-1] = (A[:-2] + A[1:-1] + A[2:]) // 3
            A[1:-1] = (B[:-2] + B[1:-1] + B[2:]) // 3
        return [A, B]
    if name == "jacobi-2d":
        A, B = (np.array(v, dtype=np.int64) for v in args)
        for _ in range(4):
            B[1:-1, 1:-1] = (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]
                             + A[:-2, 1:-1]) // 5
            A[1:-1, 1:-1] = (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1]
                             + B[:-2, 1:-1]) // 5
        return [A, B]
    if name == "seidel-2d":
        A = [[int(v) for v in row] for row in args[0]]
        for _ in range(4):
            for i in range(1, 7):
                for j in range(1, 7):
                    A[i][j] = sum(A[i + di][j + dj] for di in (-1, 0, 1) for dj in (-1, 0, 1)) // 9
        return [A]
    raise KeyError(name)


@pytest.mark.parametrize("name", list(SUITE))
@pytest.mark.parametrize("seed", [None, 0, 1])
def test_polybench_matches_matrix_form(name, seed):
    kernel, make_inputs, _ = SUITE[name]
    args = make_inputs(None if seed is None else np.random.default_rng(seed))
    expected = model(name, args)
    assert kernel(*args) is None
    for got, want in zip(args, expected):
        if isinstance(got, np.ndarray):
            assert np.array_equal(got, wrap32(want)), name


def test_suite_shape():
    assert CORE == ["gemm", "2mm", "atax", "bicg", "gesummv", "mvt", "trisolv"]
    for name in CORE:
        assert SUITE[name][2] == VIVADO_HLS_2019_2_LATENCY[name]
    assert VIVADO_HLS_2019_2_LATENCY == {"gemm": 2684, "2mm": 3718, "atax": 715, "bicg": 218,
                                         "gesummv": 532, "mvt": 597, "trisolv": 425}
    for name, (kernel, make_inputs, _) in SUITE.items():
        assert kernel.signature.name.startswith("kernel_")
        for param, arg in zip(kernel.signature.params, make_inputs()):
            if isinstance(arg, np.ndarray):
                assert arg.dtype == np.int32 and arg.shape == param.type.shape
        kernel.module().verify()
