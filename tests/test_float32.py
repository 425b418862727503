"""float32 in kernels: IEEE-754 binary32, bit for bit what numpy float32 computes.

Every operator (+ - * /, unary minus, abs, min, max, sqrt, the six comparisons, casts
between float32 and integers) on a million pairs of random and edge values (signed zeros,
subnormals, infinities, NaN, the extremes) compiled for the CPU, against numpy evaluating the
same operations on float32 arrays; the Python call of the kernel (the golden reference)
against numpy on a share of them. A NaN result must be a NaN (its payload is open); -0.0 and
0.0 differ. Conversions to integers out of range wrap (NaN and infinities give 0) on every
target. The FPGA's units: tests/test_float_rtl_*.py and tests/test_float32_fpga.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vichls
from vichls.frontend.kernel import load_file
from vichls.results import differences

SOURCE = '''
from vichls import kernel, float32, int8, int32, int64, uint_, uint8, uint32, uint64, bool_, sqrt

U1 = uint_(1)


@kernel
def ops(a: float32[N], b: float32[N], add: float32[N], sub: float32[N], mul: float32[N],
        div: float32[N], lo: float32[N], hi: float32[N], neg: float32[N], ab: float32[N],
        root: float32[N], lt: bool_[N], le: bool_[N], gt: bool_[N], ge: bool_[N],
        eq: bool_[N], ne: bool_[N]):
    for i in range(N):
        add[i] = a[i] + b[i]
        sub[i] = a[i] - b[i]
        mul[i] = a[i] * b[i]
        div[i] = a[i] / b[i]
        lo[i] = min(a[i], b[i])
        hi[i] = max(a[i], b[i])
        neg[i] = -a[i]
        ab[i] = abs(a[i])
        root[i] = sqrt(a[i])
        lt[i] = a[i] < b[i]
        le[i] = a[i] <= b[i]
        gt[i] = a[i] > b[i]
        ge[i] = a[i] >= b[i]
        eq[i] = a[i] == b[i]
        ne[i] = a[i] != b[i]


@kernel
def casts(f: float32[N], i32: int32[N], i64: int64[N], u64: uint64[N], u8: uint8[N],
          of_i32: float32[N], of_i64: float32[N], of_u64: float32[N], of_u8: float32[N],
          to_i32: int32[N]):
    for i in range(N):
        of_i32[i] = float32(i32[i])
        of_i64[i] = float32(i64[i])
        of_u64[i] = float32(u64[i])
        of_u8[i] = float32(u8[i])
        to_i32[i] = int32(f[i])


@kernel
def wraps(f: float32[32], i8: int8[32], u8: uint8[32], i32: int32[32], u32: uint32[32],
          i64: int64[32], u64: uint64[32], b1: U1[32]):
    for i in range(32):
        i8[i] = int8(f[i])
        u8[i] = uint8(f[i])
        i32[i] = int32(f[i])
        u32[i] = uint32(f[i])
        i64[i] = int64(f[i])
        u64[i] = uint64(f[i])
        b1[i] = U1(f[i])


@kernel
def literals(x: float32) -> float32:
    y: float32 = 0.1
    return (x * 3 + y) / 2.5 - 1e-3 if x > 0.5 else -x
'''

EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.1, -0.5,
                  np.finfo(np.float32).max, -np.finfo(np.float32).max,
                  np.finfo(np.float32).tiny, -np.finfo(np.float32).tiny,
                  np.finfo(np.float32).smallest_subnormal, 2.0 ** -140, 3.0e38, 1.0e-45,
                  65504.0, 16777217.0], dtype=np.float32)


def _values(rng: np.random.Generator, n: int) -> np.ndarray:
    """float32 values: random bit patterns (every class of number), random magnitudes, and
    edges, mixed."""
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    scaled = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)).astype(np.float32)
    out = np.where(rng.random(n) < 0.5, bits, scaled).astype(np.float32)
    edge = rng.random(n) < 0.2
    out[edge] = EDGES[rng.integers(0, len(EDGES), int(edge.sum()))]
    return out


def _expected_ops(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    with np.errstate(all="ignore"):
        return [a + b, a - b, a * b, a / b, np.where(b < a, b, a), np.where(b > a, b, a),
                -a, np.abs(a), np.sqrt(a), a < b, a <= b, a > b, a >= b, a == b, a != b]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("float32")) / "floats.py"
    path.write_text("N = 4096\n" + SOURCE)
    return load_file(path)


def _ops_args(a, b):
    n = len(a)
    return (a, b, *[np.zeros(n, dtype=np.float32) for _ in range(9)],
            *[np.zeros(n, dtype=bool) for _ in range(6)])


def _assert_same(name: str, want: np.ndarray, got: np.ndarray, a, b=None):
    diffs = differences((None, {name: want}), (None, {name: got}))
    if diffs:
        k = int(np.argwhere(~(want.astype(np.float64) == got.astype(np.float64))
                            & ~(np.isnan(want.astype(np.float64))))[0][0]) \
            if want.dtype.kind == "f" else 0
        detail = f"a={a[k]!r}" + (f" b={b[k]!r}" if b is not None else "")
        raise AssertionError(f"{diffs[0]} ({detail})")


def test_cpu_computes_what_numpy_computes_on_a_million_pairs(kernels):
    cpu = vichls.customize(kernels["ops"]).build(target="cpu")
    rng = np.random.default_rng(20261206)
    names = ["add", "sub", "mul", "div", "min", "max", "neg", "abs", "sqrt",
             "lt", "le", "gt", "ge", "eq", "ne"]
    for _ in range(256):  # 256 calls of 4096 pairs
        a, b = _values(rng, 4096), _values(rng, 4096)
        args = _ops_args(a.copy(), b.copy())
        cpu(*args)
        for name, want, got in zip(names, _expected_ops(a, b), args[2:]):
            _assert_same(name, want, got, a, b)


def test_the_python_call_computes_what_numpy_computes(kernels):
    rng = np.random.default_rng(7)
    a, b = _values(rng, 4096), _values(rng, 4096)
    args = _ops_args(a.copy(), b.copy())
    kernels["ops"](*args)
    names = ["add", "sub", "mul", "div", "min", "max", "neg", "abs", "sqrt",
             "lt", "le", "gt", "ge", "eq", "ne"]
    for name, want, got in zip(names, _expected_ops(a, b), args[2:]):
        _assert_same(name, want, got, a, b)


def test_min_and_max_are_pythons_and_signed_zeros_differ(kernels):
    a = np.array([np.nan, 1.0, 0.0, -0.0] + [0.0] * 4092, dtype=np.float32)
    b = np.array([1.0, np.nan, -0.0, 0.0] + [0.0] * 4092, dtype=np.float32)
    args = _ops_args(a.copy(), b.copy())
    kernels["ops"](*args)
    lo = args[6]
    assert np.isnan(lo[0]) and lo[1] == 1.0  # a NaN first propagates; second, it does not
    assert np.signbit(lo[2]) == np.signbit(np.float32(0.0))  # min(0.0, -0.0) is 0.0
    assert np.signbit(lo[3])  # min(-0.0, 0.0) is -0.0


def test_casts_round_to_nearest_even_and_toward_zero(kernels):
    rng = np.random.default_rng(3)
    n = 4096
    f = (rng.standard_normal(n) * 10.0 ** rng.integers(0, 9, n)).astype(np.float32)
    i32 = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    i64 = rng.integers(-2**63, 2**63, n, dtype=np.int64) >> rng.integers(0, 63, n)
    u64 = rng.integers(0, 2**64, n, dtype=np.uint64) >> rng.integers(0, 63, n).astype(np.uint64)
    u64[:4] = [2**63, 2**64 - 1, 2**63 + 2**39 + 1, 2**64 - 2**39]  # ties and their neighbours
    u8 = rng.integers(0, 256, n, dtype=np.uint8)
    outs = [np.zeros(n, dtype=np.float32) for _ in range(4)] + [np.zeros(n, dtype=np.int32)]
    want = [i32.astype(np.float32), i64.astype(np.float32), u64.astype(np.float32),
            u8.astype(np.float32), np.trunc(f).astype(np.int32)]
    for target in ("python", "cpu"):
        run = kernels["casts"] if target == "python" else \
            vichls.customize(kernels["casts"]).build(target="cpu")
        got = [o.copy() for o in outs]
        run(f, i32, i64, u64, u8, *got)
        for name, w, g in zip(["int32", "int64", "uint64", "uint8", "to int32"], want, got):
            assert not differences((None, {name: w}), (None, {name: g})), (target, name)


def test_literals_round_as_numpy_float32_does(kernels):
    cpu = vichls.customize(kernels["literals"]).build(target="cpu")
    for x in [0.25, 0.75, 3.0e38, -1.5, np.nan, np.float32(1.0000001)]:
        x32 = np.float32(x)
        with np.errstate(all="ignore"):
            want = (x32 * np.float32(3) + np.float32(0.1)) / np.float32(2.5) - np.float32(1e-3) \
                if x32 > 0.5 else -x32
        for got in (kernels["literals"](x), cpu(x)):
            assert isinstance(got, np.float32)
            assert not differences((want, {}), (got, {})), (x, want, got)


def _wrapped(x: np.float32, width: int, signed: bool) -> int:
    """C's conversion toward zero, then wrapped to ``width`` bits; NaN and infinities 0."""
    if not np.isfinite(x):
        return 0
    v = int(x) % (1 << width)
    return v - (1 << width) if signed and v >> (width - 1) else v


def test_float_to_integer_wraps_on_every_target_as_the_reference_defines(kernels):
    """Out of range, NaN and infinities are undefined in the language; vichls defines them
    (toward zero, wrapped; NaN and infinities 0) so that every target computes the same."""
    f = np.array([3.0e9, -3.0e9, 2.0**40 + 2.0**17, -(2.0**63), 2.0**63, 2.0**64, 1.0e38,
                  -1.0e38, 300.7, -300.7, 255.9, -0.9, 0.9, np.nan, np.inf, -np.inf,
                  2.0**-140, -(2.0**-149), 2.0**62 * 1.5, -(2.0**31), 2.0**31, 4.5e15,
                  -4.5e15, 2.0**23 + 1, -(2.0**24), 1.5, -1.5, 2.5, 1.0e20, -7.0e22, 2.0**-126,
                  -0.0], dtype=np.float32)
    assert len(f) == 32
    n = len(f)
    types = [("i8", np.int8, 8, True), ("u8", np.uint8, 8, False), ("i32", np.int32, 32, True),
             ("u32", np.uint32, 32, False), ("i64", np.int64, 64, True),
             ("u64", np.uint64, 64, False), ("b1", np.bool_, 1, False)]
    for target in ("python", "cpu"):
        run = kernels["wraps"] if target == "python" else \
            vichls.customize(kernels["wraps"]).build(target="cpu")
        outs = [np.zeros(n, dtype=d) for _, d, _, _ in types]
        run(f, *outs)
        for (name, _, width, signed), got in zip(types, outs):
            want = [_wrapped(x, width, signed) for x in f]
            assert [int(v) for v in got] == want, (target, name)
