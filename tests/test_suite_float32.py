"""The float32 variant of the PolyBench kernels (benchmarks.suite, ``element="float32"``).

- the registry: every PolyBench kernel but floyd-warshall and nussinov (integer in PolyBench
  too), in the suite's order, at both sizes, built from the int32 files' text (the files on
  disk stay int32), without published figures;
- the rewrite: no int32 and no floored division left, the line count kept, float32
  arguments (alpha = 1.5, beta = 1.2 as in PolyBench);
- every small variant type-checks, compiles for the CPU and computes there, bit for bit,
  what its Python call computes, on the deterministic and on random inputs; every MINI
  variant type-checks;
- the formulas written back are PolyBench's: jacobi-1d, heat-3d and trisolv against numpy
  float32 statements of PolyBench's C.

The FPGA designs are simulated by benchmarks/polybench_float32.py (results in
benchmarks/RESULTS-float32.md).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from benchmarks.polybench import KERNELS
from benchmarks.suite import INTEGER_ONLY, benchmarks
from vichls.driver.cpu import compile_cpu
from vichls.inputs import copy_args

SMALL = benchmarks("small", element="float32")
MINI = benchmarks("mini", element="float32")
F32 = np.float32


def _bits_equal(a, b) -> bool:
    return a.dtype == b.dtype and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def test_the_float32_suite_is_polybench_without_its_integer_algorithms():
    want = [name for name in KERNELS if name not in ("floyd-warshall", "nussinov")]
    assert set(INTEGER_ONLY) == {"floyd-warshall", "nussinov"}
    assert [b.name for b in SMALL] == [b.name for b in MINI] == want
    assert all(b.element == "float32" and b.family == "polybench" and b.published == {}
               for b in SMALL + MINI)
    assert [b.name for b in benchmarks("small", ["trisolv", "gemm"], element="float32")] \
        == ["trisolv", "gemm"]
    with pytest.raises(KeyError, match="floyd-warshall"):
        benchmarks("small", ["floyd-warshall"], element="float32")
    with pytest.raises(KeyError, match="float64"):
        benchmarks("small", element="float64")
    # the int32 suite is unchanged, its small kernels still the files on disk
    ints = benchmarks("small", ["gemm"])[0]
    assert ints.element == "int32" and ints.published
    assert "int32" in ints.source and ints.kernel.fn.__module__ == "benchmarks.polybench.gemm"


@pytest.mark.parametrize("b", SMALL + MINI, ids=lambda b: f"{b.size}/{b.name}")
def test_the_rewrite_leaves_no_integer_stand_in(b):
    ints = benchmarks(b.size, [b.name])[0]
    assert b.source.count("\n") == ints.source.count("\n")
    assert not re.search(r"\bint32\b", b.source)
    body = b.source[b.source.index("@kernel"):b.source.index("\ndef directives")]
    assert "//" not in body
    for p in b.kernel.signature.params:
        element = p.type.element if p.is_array else p.type
        assert repr(element) == "float32", (p.name, element)
    b.kernel.module()  # type-checks and builds the loop-level IR


def test_inputs_are_float32_and_polybench_scalars():
    gemm = benchmarks("small", ["gemm"], element="float32")[0]
    alpha, beta, C, A, B = gemm.make_inputs()
    assert (alpha, beta) == (F32(1.5), F32(1.2)) and type(alpha) is F32
    assert C.dtype == A.dtype == B.dtype == np.float32
    assert A[1, 2] == F32(((2 * 3) + 3) % 8) / F32(8)  # PolyBench-style (i*j + c) % n / n
    again = gemm.make_inputs()
    assert all(_bits_equal(x, y) for x, y in zip(again[2:], (C, A, B)))
    random = gemm.make_inputs(np.random.default_rng(1))[3]
    assert random.dtype == np.float32 and (-1 <= random).all() and (random < 1).all()
    trisolv = benchmarks("small", ["trisolv"], element="float32")[0]
    L = trisolv.make_inputs()[0]
    assert list(np.diag(L)) == [1 + i % 4 for i in range(8)]


@pytest.mark.parametrize("b", SMALL, ids=lambda b: b.name)
def test_cpu_computes_what_the_python_call_computes(b):
    cpu = compile_cpu(b.kernel.module())
    for rng in (None, np.random.default_rng(2026)):
        args = b.make_inputs(rng)
        work, ref = copy_args(args), copy_args(args)
        assert cpu(*work) == b.kernel(*ref)
        for got, want in zip(work, ref):
            if isinstance(want, np.ndarray):
                assert _bits_equal(got, want)
                assert np.isfinite(want).all()


def _call(name: str, rng=None):
    b = benchmarks("small", [name], element="float32")[0]
    args = b.make_inputs(rng)
    out = copy_args(args)
    b.kernel(*out)
    return b, args, out


def test_jacobi_1d_is_polybenchs_formula():
    b, (A, B), (A_out, B_out) = _call("jacobi-1d", np.random.default_rng(3))
    A, B = A.copy(), B.copy()
    third = F32(0.33333)
    for _ in range(b.dims["TSTEPS"]):
        B[1:-1] = third * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = third * (B[:-2] + B[1:-1] + B[2:])
    assert _bits_equal(A, A_out) and _bits_equal(B, B_out)


def test_heat_3d_is_polybenchs_formula():
    b, (A, B), (A_out, B_out) = _call("heat-3d", np.random.default_rng(4))
    A, B = A.copy(), B.copy()
    w, two = F32(0.125), F32(2.0)
    c = (slice(1, -1),) * 3

    def sweep(src, dst):
        x = src[c]
        dst[c] = (w * (src[2:, 1:-1, 1:-1] - two * x + src[:-2, 1:-1, 1:-1])
                  + w * (src[1:-1, 2:, 1:-1] - two * x + src[1:-1, :-2, 1:-1])
                  + w * (src[1:-1, 1:-1, 2:] - two * x + src[1:-1, 1:-1, :-2])
                  + x)

    for _ in range(b.dims["TSTEPS"]):
        sweep(A, B)
        sweep(B, A)
    assert _bits_equal(A, A_out) and _bits_equal(B, B_out)


def test_trisolv_divides_in_float32():
    b, (L, x, rhs), (_, x_out, _) = _call("trisolv")
    x = x.copy()
    for i in range(b.dims["N"]):
        x[i] = rhs[i]
        for j in range(i):
            x[i] -= L[i, j] * x[j]
        x[i] = x[i] / L[i, i]
    assert _bits_equal(x, x_out)
    assert not np.array_equal(x, np.round(x))  # a true division, not a floored one
