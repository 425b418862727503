"""Bit-exact tests of the float32 comparison and conversion units of rtl_templates/:
vichls_fcmp (every arith.cmpf predicate), vichls_itof and vichls_ftoi (WIDTH 1, 8, 16, 32,
33, 64, signed and unsigned), against numpy float32 and exact Python integers.

One Verilator bench (tests/float_rtl.py) holds every unit; it is built once for the module
and run twice: on a million random and edge vectors per unit (every integer of a width up
to 16 for itof), and on directed cases with known answers.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from float_rtl import (
    UnitCase,
    bits,
    build_units,
    f32_pairs,
    f32_values,
    float_mismatches,
    simulate_units,
)

from vichls.backend.verilog.printer import template_text
from vichls.flows.lint import lint_verilog

N = 1_000_000
WIDTHS = (1, 8, 16, 32, 33, 64)
CONVERSIONS = [(w, s) for w in WIDTHS for s in (0, 1)]
ITOF_LATENCY = 3
FTOI_LATENCY = 3
F32 = np.float32

# arith.cmpf's predicates, by number
PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
              "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


def _cases() -> list[UnitCase]:
    cases = [UnitCase(f"fcmp_{p}", "vichls_fcmp", 0, (32, 32), 1, {"PREDICATE": i})
             for i, p in enumerate(PREDICATES)]
    for w, s in CONVERSIONS:
        cases.append(UnitCase(f"itof_{w}_{s}", "vichls_itof", ITOF_LATENCY, (w,), 32,
                              {"WIDTH": w, "SIGNED": s}))
        cases.append(UnitCase(f"ftoi_{w}_{s}", "vichls_ftoi", FTOI_LATENCY, (32,), w,
                              {"WIDTH": w, "SIGNED": s}))
    return cases


CASES = _cases()


# -- references ----------------------------------------------------------------------------

def fcmp_reference(a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
    """Each predicate of arith.cmpf on float32 operands, as numpy's comparisons give it
    (its ordered comparisons are false on a NaN; == treats +0 and -0 as equal)."""
    uno = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        lt, gt, eq = a < b, a > b, a == b
    return {"false": np.zeros(len(a), bool), "oeq": eq, "ogt": gt, "oge": gt | eq,
            "olt": lt, "ole": lt | eq, "one": lt | gt, "ord": ~uno,
            "ueq": uno | eq, "ugt": uno | gt, "uge": uno | gt | eq, "ult": uno | lt,
            "ule": uno | lt | eq, "une": uno | ~eq, "uno": uno,
            "true": np.ones(len(a), bool)}


def signed_values(raw: np.ndarray, width: int, signed: int) -> np.ndarray:
    """The integers that ``width``-bit patterns stand for (int64 when they fit)."""
    raw = raw.astype(np.uint64)
    if not signed:
        return raw
    if width == 64:
        return raw.view(np.int64)
    v = raw.astype(np.int64)
    return np.where(v >= (1 << (width - 1)), v - (1 << width), v)


def itof_reference(raw: np.ndarray, width: int, signed: int) -> np.ndarray:
    """numpy's int64 / uint64 -> float32 conversion (one rounding to nearest even; the
    test ``test_numpy_itof_rounds_once`` checks that against exact arithmetic)."""
    return signed_values(raw, width, signed).astype(F32)


def exact_itof_bits(value: int) -> int:
    """The float32 bits of ``value`` rounded once to nearest, ties to even (Python ints)."""
    sign = 1 if value < 0 else 0
    m = abs(value)
    if m == 0:
        return sign << 31
    shift = max(m.bit_length() - 24, 0)
    q, rem = m >> shift, m - ((m >> shift) << shift)
    if shift and (2 * rem > (1 << shift) or (2 * rem == (1 << shift) and q & 1)):
        q += 1
    if q == 1 << 24:
        q, shift = q >> 1, shift + 1
    exponent = q.bit_length() - 1 + shift + 127
    return (sign << 31) | (exponent << 23) | ((q << (24 - q.bit_length())) & 0x7FFFFF)


def ftoi_reference(x: np.ndarray, width: int) -> np.ndarray:
    """C's conversion (toward zero) wrapped modulo 2^width, NaN and infinities 0, as
    uint64 bit patterns: the truncated value reduced exactly modulo 2^64 (fmod is exact)
    and then to ``width`` bits. The bits are the same signed or unsigned."""
    with np.errstate(invalid="ignore"):  # signalling NaNs
        x64 = np.asarray(x, dtype=F32).astype(np.float64)
    finite = np.isfinite(x64)
    t = np.trunc(np.where(finite, x64, 0.0))
    rem = np.fmod(t, 2.0 ** 64)                      # |rem| < 2^64, an exact integer
    magnitude = np.abs(rem).astype(np.uint64)
    with np.errstate(over="ignore"):
        wrapped = np.where(rem < 0, ~magnitude + np.uint64(1), magnitude)
    mask = np.uint64((1 << width) - 1) if width < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    return np.where(finite, wrapped, np.uint64(0)).astype(np.uint64) & mask


def python_ftoi(x: float, width: int, signed: int) -> int:
    """The golden reference's rule: _wrap(int(x), width, signed); NaN/inf -> 0 (as bits)."""
    if not np.isfinite(x):
        return 0
    v = int(x) & ((1 << width) - 1)
    if signed and v >> (width - 1):
        v -= 1 << width
    return v & ((1 << width) - 1)


# -- vectors -------------------------------------------------------------------------------

def integer_vectors(rng: np.random.Generator, width: int, n: int) -> np.ndarray:
    """``width``-bit patterns: every one for width <= 16; else random bits, random lengths,
    negatives, small values, powers of two and their neighbours, values around 2^24 and
    its multiples (where rounding starts), and exact ties."""
    mask = (1 << width) - 1
    if width <= 16:
        return np.arange(1 << width, dtype=np.uint64)
    full = rng.integers(0, 2 ** 63, n, dtype=np.uint64) * np.uint64(2) \
        + rng.integers(0, 2, n, dtype=np.uint64)
    lengths = rng.integers(0, 64, n).astype(np.uint64)
    short = full >> lengths
    v = np.where(rng.random(n) < 0.5, full, short)
    v = np.where(rng.random(n) < 0.3, ~v + np.uint64(1), v)              # negatives
    special = []
    for k in range(width):
        for d in range(-3, 4):
            special.append(((1 << k) + d) & mask)
            special.append((-(1 << k) + d) & mask)
    for s in range(max(width - 24, 1)):
        for d in range(-4, 5):
            special.append((((1 << 24) + d) << s) & mask)
            special.append((-(((1 << 24) + d) << s)) & mask)
    special += [0, 1, mask, mask >> 1, (mask >> 1) + 1, 1000, mask - 999]
    special = np.array(special, dtype=np.uint64)
    n_special = len(special)
    # ties and near-ties: an odd 25-bit significand (a half-way 24-bit one) times 2^s,
    # plus -1, 0 or +1
    sig = rng.integers(1 << 24, 1 << 25, n, dtype=np.uint64) | np.uint64(1)
    shifts = rng.integers(0, max(width - 24, 1), n).astype(np.uint64)
    ties = (sig << shifts) + rng.integers(-1, 2, n).astype(np.int64).astype(np.uint64)
    ties = np.where(rng.random(n) < 0.5, ties, ~ties + np.uint64(1))
    v = np.where(rng.random(n) < 0.2, ties, v)
    v[:n_special] = special
    return v & np.uint64(mask) if width < 64 else v


def float_vectors(rng: np.random.Generator, width: int, n: int) -> np.ndarray:
    """float32 operands for ftoi: every class of value, values near integers, near the
    wrap-around points 2^(width-1) and 2^width, and with every exponent that leaves
    bits in the result."""
    out = f32_values(rng, n)
    ints = (rng.standard_normal(n) * 2.0 ** rng.integers(0, width + 2, n)).round()
    near = np.nextafter(ints.astype(F32), (ints + rng.choice([-1.0, 1.0], n)).astype(F32))
    exps = rng.integers(127 - 2, min(127 + width + 26, 254), n).astype(np.uint32)
    mant = rng.integers(0, 1 << 23, n, dtype=np.uint64).astype(np.uint32)
    sgn = rng.integers(0, 2, n, dtype=np.uint64).astype(np.uint32) << 31
    spread = (sgn | (exps << 23) | mant).view(F32)
    edges = []
    for p in (width - 1, width, width + 1, 23, 24, 31, 32, 63, 64):
        for base in (F32(2.0 ** p), F32(-(2.0 ** p))):
            edges += [base, np.nextafter(base, F32(np.inf)), np.nextafter(base, F32(-np.inf))]
    edges += [F32(x) for x in (0.5, -0.5, 0.99999994, -0.99999994, 1.0, -1.0, 1.5, -1.5,
                               2.5, -2.5, 3e9, -3e9, 2.0 ** 40, np.inf, -np.inf, np.nan)]
    pick = rng.random(n)
    out = np.where(pick < 0.35, out, np.where(pick < 0.7, near, spread)).astype(F32)
    out[:len(edges)] = np.array(edges, dtype=F32)
    return out


def fcmp_vectors(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs: f32_pairs, plus equal operands, +-0 and NaN pairings."""
    a, b = f32_pairs(rng, n)
    same = rng.random(n) < 0.1
    b = np.where(same, a, b)
    zeros = np.array([0.0, -0.0], dtype=F32)
    za = rng.random(n) < 0.03
    a[za] = zeros[rng.integers(0, 2, int(za.sum()))]
    zb = rng.random(n) < 0.03
    b[zb] = zeros[rng.integers(0, 2, int(zb.sum()))]
    nans = (np.uint32(0x7F800000) | rng.integers(1, 1 << 23, n, dtype=np.uint64)
            .astype(np.uint32) | (rng.integers(0, 2, n, dtype=np.uint64).astype(np.uint32)
                                  << 31)).view(F32)
    na = rng.random(n) < 0.03
    a = np.where(na, nans, a)
    nb = rng.random(n) < 0.03
    b = np.where(nb, nans[::-1], b)
    return a.astype(F32), b.astype(F32)


def directed_vectors() -> dict[str, list]:
    """Hand-picked operands (floats as Python floats/ints, integers as Python ints)."""
    specials = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
                1.1754942e-38, 1.17549435e-38, -1.17549435e-38, 3.4028235e38, -3.4028235e38,
                2.0, 1.9999999, -2.0, 0.5]
    cmp_pairs = [(x, y) for x in specials for y in specials]
    itof_values = [0, 1, -1, 2, 3, 16777216, 16777217, 16777218, 16777219, 16777221,
                   33554433, 33554434, 33554435, 2 ** 31 - 1, -(2 ** 31), 2 ** 31,
                   2 ** 32 - 1, 2 ** 53 + 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 63, 2 ** 64 - 1,
                   -(2 ** 62) - 1, (2 ** 24 + 1) << 39, ((2 ** 24 + 1) << 39) + 1]
    ftoi_values = [0.0, -0.0, 0.4, -0.99999994, 1.0, -1.0, 1.5, -1.5, 2.5, 2.0 ** 31,
                   -(2.0 ** 31), 2.0 ** 32, 3e9, -3e9, 2.0 ** 40, 1e38, -1e38, 2.0 ** 63,
                   -(2.0 ** 63), 2.0 ** 64, 1e-45, np.inf, -np.inf, np.nan, 16777217.0,
                   123456.789, -123456.789]
    return {"cmp": cmp_pairs, "itof": itof_values, "ftoi": ftoi_values}


def _all_vectors(fcmp_ab, itof_in: dict, ftoi_in: dict) -> dict[str, list[np.ndarray]]:
    a, b = fcmp_ab
    vec: dict[str, list[np.ndarray]] = {}
    for p in PREDICATES:
        vec[f"fcmp_{p}"] = [bits(a), bits(b)]
    for w, s in CONVERSIONS:
        vec[f"itof_{w}_{s}"] = [itof_in[(w, s)]]
        vec[f"ftoi_{w}_{s}"] = [bits(ftoi_in[(w, s)])]
    return vec


# -- fixtures ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    work = tmp_path_factory.mktemp("float_cmpconv")
    exe = build_units(CASES, work)
    return exe, work


@pytest.fixture(scope="module")
def random_run(bench):
    exe, work = bench
    rng = np.random.default_rng(20240611)
    fcmp_ab = fcmp_vectors(rng, N)
    itof_in = {(w, s): integer_vectors(rng, w, N) for w, s in CONVERSIONS}
    ftoi_in = {(w, s): float_vectors(rng, w, N) for w, s in CONVERSIONS}
    out = simulate_units(CASES, _all_vectors(fcmp_ab, itof_in, ftoi_in), work, seed=7,
                         executable=exe)
    return fcmp_ab, itof_in, ftoi_in, out


@pytest.fixture(scope="module")
def directed_run(bench):
    exe, work = bench
    d = directed_vectors()
    a = np.array([x for x, _ in d["cmp"]], dtype=F32)
    b = np.array([y for _, y in d["cmp"]], dtype=F32)
    itof_in = {}
    for w, s in CONVERSIONS:
        itof_in[(w, s)] = np.array([v & ((1 << w) - 1) for v in d["itof"]], dtype=np.uint64)
    ftoi = np.array(d["ftoi"], dtype=F32)
    ftoi_in = {(w, s): ftoi for w, s in CONVERSIONS}
    out = simulate_units(CASES, _all_vectors((a, b), itof_in, ftoi_in), work, seed=3,
                         executable=exe)
    return (a, b), itof_in, ftoi, out


# -- tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("predicate", PREDICATES)
def test_fcmp_random(random_run, predicate):
    (a, b), _, _, out = random_run
    want = fcmp_reference(a, b)[predicate]
    got = out[f"fcmp_{predicate}"].astype(bool)
    bad = np.nonzero(want != got)[0]
    assert len(a) >= N
    assert len(bad) == 0, [(float(a[i]), float(b[i]), bool(want[i])) for i in bad[:5]]


def test_fcmp_directed(directed_run):
    (a, b), _, _, out = directed_run
    ref = fcmp_reference(a, b)
    for p in PREDICATES:
        got = out[f"fcmp_{p}"].astype(bool)
        bad = np.nonzero(ref[p] != got)[0]
        assert len(bad) == 0, (p, [(float(a[i]), float(b[i])) for i in bad[:5]])
    # the rules themselves, spelled out: +0 == -0, a NaN is unordered
    pairs = list(zip(a.tolist(), b.tolist()))
    i = next(k for k, (x, y) in enumerate(pairs)
             if x == 0 and y == 0 and math.copysign(1, x) > math.copysign(1, y))
    assert out["fcmp_oeq"][i] == 1 and out["fcmp_olt"][i] == 0 and out["fcmp_une"][i] == 0
    j = next(k for k, (x, y) in enumerate(pairs) if np.isnan(x) and y == 1.0)
    assert [int(out[f"fcmp_{p}"][j]) for p in PREDICATES] == \
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
    k = pairs.index((-np.inf, np.inf))
    assert out["fcmp_olt"][k] == 1 and out["fcmp_ogt"][k] == 0


@pytest.mark.parametrize("width,signed", CONVERSIONS)
def test_itof_random(random_run, width, signed):
    _, itof_in, _, out = random_run
    raw = itof_in[(width, signed)]
    want = itof_reference(raw, width, signed)
    bad = float_mismatches(want, out[f"itof_{width}_{signed}"])
    assert len(raw) >= min(N, 1 << width)
    assert len(bad) == 0, [(int(raw[i]), float(want[i])) for i in bad[:5]]


def test_numpy_itof_rounds_once(random_run):
    """The itof reference (numpy) against exact rounding with Python integers."""
    _, itof_in, _, out = random_run
    for w, s in [(64, 0), (64, 1), (33, 1), (32, 0)]:
        raw = itof_in[(w, s)][:20000]
        values = signed_values(raw, w, s).tolist()
        want = np.array([exact_itof_bits(int(v)) for v in values], dtype=np.uint64)
        assert np.array_equal(bits(itof_reference(raw, w, s)), want)
        assert np.array_equal(out[f"itof_{w}_{s}"][:20000], want)


def test_itof_directed(directed_run):
    _, itof_in, _, out = directed_run
    for w, s in CONVERSIONS:
        raw = itof_in[(w, s)]
        values = signed_values(raw, w, s).tolist()
        want = [exact_itof_bits(int(v)) for v in values]
        assert out[f"itof_{w}_{s}"].tolist() == want, (w, s)
    raw = itof_in[(64, 1)].tolist()
    got = dict(zip(raw, out["itof_64_1"].tolist()))
    # ties to even: 2^24 + 1 -> 2^24, 2^24 + 3 -> 2^24 + 4; 2^63 - 1 -> 2^63; -2^63 exact
    assert got[16777217] == 0x4B800000 and got[16777219] == 0x4B800002
    assert got[2 ** 63 - 1] == 0x5F000000 and got[2 ** 63] == 0xDF000000
    assert got[2 ** 64 - 1] == 0xBF800000 and got[0] == 0
    assert dict(zip(itof_in[(64, 0)].tolist(), out["itof_64_0"].tolist()))[2 ** 64 - 1] \
        == 0x5F800000


@pytest.mark.parametrize("width,signed", CONVERSIONS)
def test_ftoi_random(random_run, width, signed):
    _, _, ftoi_in, out = random_run
    x = ftoi_in[(width, signed)]
    want = ftoi_reference(x, width)
    got = out[f"ftoi_{width}_{signed}"]
    bad = np.nonzero(want != got)[0]
    assert len(x) >= N
    assert len(bad) == 0, [(float(x[i]), int(want[i]), int(got[i])) for i in bad[:5]]


def test_ftoi_reference_is_python_int(random_run):
    """The vectorized ftoi reference against the golden rule on Python integers."""
    _, _, ftoi_in, _ = random_run
    for w, s in [(64, 1), (33, 0), (32, 1), (8, 1), (1, 0)]:
        x = ftoi_in[(w, s)][:20000]
        want = [python_ftoi(float(v), w, s) for v in x.tolist()]
        assert ftoi_reference(x, w).tolist() == want


def test_ftoi_directed(directed_run):
    _, _, x, out = directed_run
    for w, s in CONVERSIONS:
        want = [python_ftoi(float(v), w, s) for v in x.tolist()]
        assert out[f"ftoi_{w}_{s}"].tolist() == want, (w, s)
    got = dict(zip(x.tolist(), out["ftoi_32_1"].tolist()))
    def f(v: float) -> float:
        return float(F32(v))
    assert got[f(2.0 ** 40)] == 0 and got[f(3e9)] == 3_000_000_000
    assert got[f(-1.5)] == 2 ** 32 - 1 and got[f(-0.99999994)] == 0
    assert got[f(np.inf)] == 0 and got[f(-(2.0 ** 31))] == 2 ** 31


def _with_parameters(module: str, params: dict[str, int]) -> str:
    """The module's text with its parameters' defaults set to ``params`` (lint checks the
    top module at its defaults)."""
    text = template_text(module)
    for name, value in params.items():
        text = re.sub(rf"parameter {name} = \d+", f"parameter {name} = {value}", text, count=1)
    return text


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_lint_clean(case):
    text = _with_parameters(case.module, case.params)
    for name, value in case.params.items():
        assert f"parameter {name} = {value}" in text
    assert lint_verilog(text, case.module) == []


def test_latency_declared():
    for module, latency in [("vichls_fcmp", 0), ("vichls_itof", ITOF_LATENCY),
                            ("vichls_ftoi", FTOI_LATENCY)]:
        text = template_text(module)
        assert f"localparam LATENCY = {latency};" in text
        assert f"LATENCY = {latency}" in text.split("module")[0]
