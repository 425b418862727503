"""The float32 division and square root units of rtl_templates/ (vichls_fdiv, vichls_fsqrt)
against numpy float32, bit for bit (any NaN equals any NaN; signed zeros differ).

One Verilator bench holds both units (built once for the module); every run feeds them
vectors one per enabled cycle with the clock enable held low on random cycles. Checked:
a million random and edge pairs (f32_pairs) plus half a million quotients aimed at the
subnormal range, the normal/subnormal boundary and overflow for the division; a million
random and edge values plus sweeps of significands (both exponent parities, subnormals)
for the square root; directed cases (the special values, ties to even at the subnormal
boundary, overflow to infinity, exact quotients); lint.
"""

from __future__ import annotations

import numpy as np
import pytest

from float_rtl import (UnitCase, bits, build_units, f32_pairs, f32_values, float_mismatches,
                       simulate_units)
from vichls.backend.verilog.printer import template_text
from vichls.flows.lint import lint_verilog

FDIV = UnitCase("fdiv", "vichls_fdiv", 32, (32, 32), 32)
FSQRT = UnitCase("fsqrt", "vichls_fsqrt", 29, (32,), 32)
CASES = [FDIV, FSQRT]

F32 = np.float32
TINY = float(np.finfo(np.float32).tiny)          # 2^-126
SUB = float(np.finfo(np.float32).smallest_subnormal)  # 2^-149
MAX = float(np.finfo(np.float32).max)


def _f(*values) -> np.ndarray:
    return np.array(values, dtype=np.float32)


def _from_bits(*patterns) -> np.ndarray:
    return np.array(patterns, dtype=np.uint32).view(np.float32)


def _directed_div() -> tuple[np.ndarray, np.ndarray]:
    inf, nan = np.inf, np.nan
    pairs = [
        # special values
        (0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (inf, inf), (-inf, inf), (inf, -inf),
        (1.0, 0.0), (-1.0, 0.0), (1.0, -0.0), (-1.0, -0.0), (SUB, 0.0), (-SUB, -0.0),
        (inf, 0.0), (inf, -0.0), (-inf, 0.0), (inf, 1.0), (-inf, 1.0), (inf, -SUB),
        (0.0, 1.0), (-0.0, 1.0), (0.0, -1.0), (-0.0, -1.0), (0.0, SUB), (-0.0, inf),
        (1.0, inf), (-1.0, inf), (1.0, -inf), (MAX, inf), (SUB, -inf), (0.0, inf),
        (nan, 1.0), (1.0, nan), (nan, 0.0), (0.0, nan), (nan, inf), (inf, nan),
        (nan, nan), (-nan, 2.0),
        # exact quotients
        (1.0, 1.0), (-1.0, 1.0), (6.0, 3.0), (1.0, 0.5), (0.75, 0.25), (-9.0, -3.0),
        (MAX, 1.0), (MAX, MAX), (SUB, SUB), (TINY, TINY), (TINY, 2.0), (TINY, 4.0),
        (3 * SUB, 3.0), (MAX, 2.0 ** 127), (2.0 ** -149, 2.0 ** -23),
        # inexact quotients
        (1.0, 3.0), (2.0, 3.0), (-1.0, 3.0), (1.0, 7.0), (10.0, 3.0), (1.0, 10.0),
        # overflow to infinity (and just below)
        (MAX, 0.5), (-MAX, 0.5), (MAX, -0.5), (3.0e38, 1.0e-10), (1.0, SUB), (1.0, TINY),
        (2.0 ** 127, 2.0 ** -1), (2.0 ** 127, 0.50000006), (MAX, 0.99999994),
        (MAX, 1.0000001), (2.0 ** 100, 2.0 ** -28), (2.0 ** 100, 2.0 ** -27),
        # underflow: subnormal results, ties to even, rounding to zero and to the
        # smallest normal number
        (SUB, 2.0), (-SUB, 2.0), (3 * SUB, 2.0), (5 * SUB, 2.0), (7 * SUB, 4.0),
        (SUB, 2.0000002), (SUB, 1.9999999), (SUB, 3.0), (SUB, 1.5), (SUB, 4.0),
        (SUB, MAX), (-SUB, MAX), (TINY, MAX), (1.0, MAX), (1.0e-30, 1.0e10),
        (TINY, 1.0000001), (TINY, 2.0), (TINY, 3.0), (TINY, 2.0 ** 23), (TINY, 2.0 ** 24),
        (TINY, 2.0 ** 25), (TINY, 2.0 ** 22 * 1.5), (2.0 ** -100, 2.0 ** 40),
        (2.0 ** -100, 2.0 ** 49), (2.0 ** -100, 2.0 ** 50), (2.0 ** -100, 3.0 * 2.0 ** 48),
        (1.0, 2.0 ** 126 * 1.9999999), (1.0, 2.0 ** 127),
        # subnormal operands
        (SUB, TINY), (TINY, SUB), (8388607 * SUB, SUB), (SUB, 8388607 * SUB),
        (8388607 * SUB, 3.0), (12345 * SUB, 678 * SUB), (-12345 * SUB, 1.0e-3),
        (1.0e-3, 7 * SUB), (MAX, SUB), (SUB, 1.0e38),
    ]
    a = np.array([p[0] for p in pairs], dtype=np.float32)
    b = np.array([p[1] for p in pairs], dtype=np.float32)
    # bit-pattern pairs: the largest subnormal and its neighbours, halfway quotients
    extra = [
        (0x00FFFFFF, 0x40000000),  # (2 - 2^-23) * 2^-126 / 2: tie, rounds up to 2^-126
        (0x00FFFFFE, 0x40000000),  # exact: the largest subnormal
        (0x00800000, 0x3F800001),  # just below 2^-126: the largest subnormal
        (0x00800001, 0x3F800001),  # exactly 2^-126
        (0x7F7FFFFF, 0x3F7FFFFF),  # MAX / (1 - 2^-24): overflow
        (0x7F7FFFFE, 0x3F7FFFFF),
        (0x00000003, 0x40000000),  # 1.5 * 2^-149: tie, rounds to 2 * 2^-149
        (0x00000001, 0x40400000),  # 2^-149 / 3: rounds to 0
        (0x00000002, 0x40400000),  # 2^-148 / 3: rounds to 2^-149
        (0x3F800000, 0x7F7FFFFF),  # 1 / MAX: subnormal
    ]
    a = np.concatenate([a, _from_bits(*[p[0] for p in extra])])
    b = np.concatenate([b, _from_bits(*[p[1] for p in extra])])
    return a, b


def _aimed_div(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs whose quotients fall in the subnormal range, around the smallest normal
    number or around the overflow threshold (and some divisors with short significands,
    whose quotients are often exact or halfway)."""
    frac = rng.integers(0, 2 ** 23, n, dtype=np.uint64)
    a = (frac | (rng.integers(1, 255, n, dtype=np.uint64) << 23)).astype(np.uint32)
    a = a.view(np.float32)
    subnormal = rng.random(n) < 0.2
    a[subnormal] = rng.integers(1, 2 ** 23, int(subnormal.sum()), dtype=np.uint64) \
        .astype(np.uint32).view(np.float32)
    target = np.where(rng.random(n) < 0.7, rng.integers(-155, -120, n),
                      rng.integers(120, 130, n)).astype(np.float64)
    with np.errstate(all="ignore"):
        b = (a.astype(np.float64) * np.exp2(-target) * rng.uniform(0.5, 2.0, n)) \
            .astype(np.float32)
    short = rng.random(n) < 0.3
    b[short] = (np.exp2(rng.integers(-20, 20, int(short.sum())).astype(np.float64))
                * rng.integers(1, 16, int(short.sum()))).astype(np.float32)
    return a, b


def _directed_sqrt() -> np.ndarray:
    values = _f(0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 2.0, 4.0, 0.25, 9.0,
                16.0, 1.5625, 2.25, 3.0, 0.5, 1.0e-30, 1.0e30, MAX, -MAX, TINY, -TINY, SUB,
                -SUB, 2.0 * SUB, 3.0 * SUB, 4.0 * SUB, 8388607 * SUB, 4194304 * SUB,
                2.0 ** -148, 2.0 ** -127, 2.0 ** 126, 2.0 ** 127, 0.99999994, 1.0000001,
                1.9999999, 3.9999998, 65504.0, 1.0e-45)
    patterns = _from_bits(0x7F800001, 0xFF800001, 0x7FC00000, 0xFFC00000, 0x80000001,
                          0x007FFFFF, 0x00800000, 0x00800001, 0x7F7FFFFF, 0x3F7FFFFF,
                          0x3FFFFFFF, 0x40000001, 0x407FFFFF)
    return np.concatenate([values, patterns])


def _sweep_sqrt(rng: np.random.Generator) -> np.ndarray:
    """Significand sweeps: every 16th fraction (with a random low part) for an even and an
    odd exponent and for the subnormals."""
    frac = (np.arange(0, 2 ** 23, 16, dtype=np.uint32)
            | rng.integers(0, 16, 2 ** 19, dtype=np.uint64).astype(np.uint32))
    return np.concatenate([frac | np.uint32(126 << 23), frac | np.uint32(127 << 23),
                           frac]).view(np.float32)


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    work = tmp_path_factory.mktemp("float_rtl_divsqrt")
    return work, build_units(CASES, work)


@pytest.fixture(scope="module")
def results(bench):
    """Every vector of the module through both units in one run: {name: (operands,
    numpy's results, the unit's result bits)}."""
    work, exe = bench
    rng = np.random.default_rng(20240520)
    div_a, div_b = f32_pairs(rng, 1_000_000)
    aim_a, aim_b = _aimed_div(rng, 500_000)
    dir_a, dir_b = _directed_div()
    a = np.concatenate([dir_a, div_a, aim_a])
    b = np.concatenate([dir_b, div_b, aim_b])
    root_in = np.concatenate([_directed_sqrt(), f32_values(rng, 1_000_000), _sweep_sqrt(rng)])
    out = simulate_units(CASES, {"fdiv": [bits(a), bits(b)], "fsqrt": [bits(root_in)]}, work,
                         executable=exe)
    with np.errstate(all="ignore"):
        want_div = a / b
        want_root = np.sqrt(root_in)
    return {"fdiv": ((a, b), want_div, out["fdiv"], len(dir_a)),
            "fsqrt": ((root_in,), want_root, out["fsqrt"], len(_directed_sqrt()))}


def _report(name, operands, want, got, bad) -> str:
    lines = [f"{name}: {len(bad)} mismatches of {len(want)}"]
    for i in bad[:10]:
        ops = ", ".join(f"{int(bits(op[i:i + 1])[0]):#010x}" for op in operands)
        lines.append(f"  ({ops}): numpy {int(bits(want[i:i + 1])[0]):#010x}, "
                     f"unit {int(got[i]):#010x}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["fdiv", "fsqrt"])
def test_directed(results, name):
    operands, want, got, n_directed = results[name]
    bad = float_mismatches(want[:n_directed], got[:n_directed])
    assert len(bad) == 0, _report(name, [op[:n_directed] for op in operands],
                                  want[:n_directed], got[:n_directed], bad)


@pytest.mark.parametrize("name", ["fdiv", "fsqrt"])
def test_random(results, name):
    operands, want, got, _ = results[name]
    assert len(want) >= 1_000_000
    bad = float_mismatches(want, got)
    assert len(bad) == 0, _report(name, operands, want, got, bad)


def test_vectors_reach_the_hard_cases(results):
    """The division's vectors hold many subnormal and infinite quotients, ties at the
    subnormal boundary and exact quotients; the square root's, every class of operand."""
    (a, b), want, _, _ = results["fdiv"]
    finite = np.isfinite(want)
    assert np.count_nonzero(finite & (np.abs(want) < TINY) & (want != 0)) > 100_000
    assert np.count_nonzero(np.isinf(want) & np.isfinite(a) & np.isfinite(b)) > 10_000
    with np.errstate(all="ignore"):
        exact = finite & (want.astype(np.float64) * b.astype(np.float64) == a.astype(np.float64))
    assert np.count_nonzero(exact & (want != 0)) > 10_000
    (x,), root, _, _ = results["fsqrt"]
    assert np.count_nonzero((x > 0) & (x < TINY)) > 100_000
    assert np.count_nonzero(np.isnan(root) & ~np.isnan(x)) > 100_000


@pytest.mark.parametrize("module", ["vichls_fdiv", "vichls_fsqrt"])
def test_lint(module):
    assert lint_verilog(template_text(module), module) == []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_declared_latency(case):
    """The module's LATENCY localparam is the latency the bench checks."""
    assert f"localparam LATENCY = {case.latency};" in template_text(case.module)
