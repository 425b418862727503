"""The float32 adder and multiplier units (rtl_templates/vichls_fadd.v, vichls_fmul.v) against
numpy float32, bit for bit.

One Verilator bench (tests/float_rtl.py) holds ``a + b``, ``a - b`` (vichls_fadd with SUB = 1)
and ``a * b``; every operator gets over a million random and edge operand pairs (random bit
patterns, random magnitudes, subnormals, close pairs for cancellations and ties, pairs whose
exponents differ around the width of the significand, products near the subnormal range
and near overflow), every pair of a list of edge values, and directed cases (ties to even,
subnormal operands and results, overflow, exact cancellation and the signs of zero, infinities
and NaN). A NaN result must be a NaN; -0.0 and 0.0 differ. The bench holds the clock enable
low on random cycles, so the pipelines' stalls are checked on every vector. The templates
lint clean with ``verilator -Wall`` for each parameter set.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from float_rtl import (F32_EDGES, UnitCase, bits, build_units, f32_pairs, f32_values,
                       float_mismatches, simulate_units)
from vichls.backend.verilog.printer import template_text
from vichls.flows.lint import lint_verilog

F32 = np.float32
TINY = np.finfo(F32).smallest_subnormal  # 2^-149
MAX = np.finfo(F32).max


def declared_latency(module: str) -> int:
    found = re.search(r"localparam\s+LATENCY\s*=\s*(\d+)\s*;", template_text(module))
    assert found, f"{module} declares no LATENCY"
    return int(found.group(1))


CASES = [
    UnitCase("fadd", "vichls_fadd", declared_latency("vichls_fadd"), (32, 32), 32, {"SUB": 0}),
    UnitCase("fsub", "vichls_fadd", declared_latency("vichls_fadd"), (32, 32), 32, {"SUB": 1}),
    UnitCase("fmul", "vichls_fmul", declared_latency("vichls_fmul"), (32, 32), 32),
]
OPS = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply}


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    work = tmp_path_factory.mktemp("float_addmul")
    return work, build_units(CASES, work)


def run(bench, pairs: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Simulate every unit on its operand pairs and compare with numpy."""
    work, exe = bench
    cases = [c for c in CASES if c.name in pairs]
    vectors = {name: [bits(a), bits(b)] for name, (a, b) in pairs.items()}
    got = simulate_units(cases, vectors, work, executable=exe)
    failures = []
    for name, (a, b) in pairs.items():
        with np.errstate(all="ignore"):
            want = OPS[name](np.asarray(a, F32), np.asarray(b, F32))
        bad = float_mismatches(want, got[name])
        for k in bad[:5]:
            failures.append(f"{name}: {float(a[k])!r} ({int(bits(a)[k]):08x}), "
                            f"{float(b[k])!r} ({int(bits(b)[k]):08x}): want "
                            f"{int(want.view(np.uint32)[k]):08x}, got {int(got[name][k]):08x}")
        if len(bad):
            failures.append(f"{name}: {len(bad)} of {len(a)} differ")
    assert not failures, "\n".join(failures)


def scaled(rng: np.random.Generator, n: int, low: int, high: int) -> np.ndarray:
    """Random significands times 2^e for e in [low, high), random signs (float32)."""
    sig = 1.0 + rng.random(n)
    sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    return (sign * np.ldexp(sig, rng.integers(low, high, n))).astype(F32)


def random_add_pairs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = f32_pairs(rng, n)
    k = n // 4
    # exponent differences 0..31 (alignment, guard/round/sticky, d >= 27), both orders
    x = f32_values(rng, k)
    y = (x * np.ldexp(F32(1.0), -rng.integers(0, 32, k)).astype(F32)
         * (1 + rng.integers(-3, 4, k) * F32(2.0**-23))).astype(F32)
    y = np.where(rng.random(k) < 0.5, y, -y).astype(F32)
    swap = rng.random(k) < 0.5
    a[:k], b[:k] = np.where(swap, y, x), np.where(swap, x, y)
    # both operands near the subnormal range
    a[k:2 * k] = scaled(rng, k, -152, -120)
    b[k:2 * k] = scaled(rng, k, -152, -120)
    return a, b


def random_mul_pairs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = f32_pairs(rng, n)
    k = n // 4
    # products around the subnormal range: exponents summing to -175..-115
    ea = rng.integers(-149, 40, k)
    a[:k] = scaled(rng, k, 0, 1) * np.ldexp(F32(1.0), ea).astype(F32)
    b[:k] = scaled(rng, k, 0, 1) * np.ldexp(1.0, np.clip(rng.integers(-175, -115, k) - ea,
                                                         -149, 127)).astype(F32)
    # a subnormal operand times anything in range
    a[k:2 * k] = (rng.integers(1, 2**23, k, dtype=np.uint64).astype(np.uint32)
                  | (rng.integers(0, 2, k, dtype=np.uint64).astype(np.uint32) << 31)).view(F32)
    b[k:2 * k] = scaled(rng, k, -20, 128)
    # products around overflow: exponents summing to 120..135
    ea = rng.integers(0, 128, k)
    a[2 * k:3 * k] = scaled(rng, k, 0, 1) * np.ldexp(1.0, ea).astype(F32)
    b[2 * k:3 * k] = scaled(rng, k, 0, 1) * np.ldexp(1.0, np.clip(rng.integers(120, 136, k) - ea,
                                                                   -149, 127)).astype(F32)
    return a, b


def test_random_and_edge_vectors(bench):
    """Over a million vectors per operator (random, close pairs, alignment and subnormal
    ranges for the adder; subnormal products and overflow for the multiplier)."""
    rng = np.random.default_rng(20240613)
    n = 1_100_000
    with np.errstate(all="ignore"):  # (infinities and NaN among the operands)
        vectors = {"fadd": random_add_pairs(rng, n), "fsub": random_add_pairs(rng, n),
                   "fmul": random_mul_pairs(rng, n)}
    run(bench, vectors)


def test_all_pairs_of_edge_values(bench):
    extra = np.array([TINY, -TINY, 2 * TINY, 3 * TINY, np.ldexp(1.0, -126) - TINY,
                      np.ldexp(1.0, -126) + TINY, 0.5, 0.75, 1 + 2.0**-23, 1 - 2.0**-24,
                      2.0**24, 2.0**-24, 3.0, -3.0, MAX / 2, np.ldexp(1.0, 127), 1e-40, -1e-40,
                      np.ldexp(1.5, -75), np.ldexp(1.0, -74), -np.nan], dtype=F32)
    values = np.concatenate([F32_EDGES, -F32_EDGES, extra])
    a, b = (x.ravel().astype(F32) for x in np.meshgrid(values, values))
    run(bench, {"fadd": (a, b), "fsub": (a, b), "fmul": (a, b)})


def pairs(*items) -> tuple[np.ndarray, np.ndarray]:
    a, b = zip(*items)
    return np.array(a, dtype=F32), np.array(b, dtype=F32)


def test_addition_cases(bench):
    one_ulp = F32(2.0**-23)
    add = pairs(
        (1.0, 2.0**-24),                  # tie, even stays: 1.0
        (1.0 + 2.0**-23, 2.0**-24),       # tie, odd rounds up
        (1.0, 2.0**-24 + 2.0**-47),       # above the tie: up
        (1.0, -2.0**-25),                 # 1 - 2^-25: rounds back to 1.0 (tie below 1)
        (1.0, -(2.0**-25 + 2.0**-48)),    # just below: 1 - 2^-24
        (2.0**24, 1.0),                   # tie: 2^24
        (2.0**24, 3.0),                   # tie: up to 2^24 + 4
        (MAX, MAX),                       # overflow: inf
        (MAX, np.ldexp(1.0, 103)),        # exactly half an ulp: tie to even, inf
        (MAX, np.ldexp(1.0, 102)),        # below half: MAX
        (-MAX, -MAX),                     # -inf
        (1.5, -1.5), (-1.5, 1.5),         # exact cancellation: +0
        (TINY, -TINY), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0), (0.0, 0.0),
        (np.inf, -np.inf), (np.inf, np.inf), (-np.inf, 1.0), (np.nan, 1.0), (1.0, np.nan),
        (TINY, TINY),                     # subnormal + subnormal
        (np.ldexp(1.0, -126) - TINY, TINY),           # up to the smallest normal
        (np.ldexp(1.0, -126), -TINY),     # down to the largest subnormal
        (np.ldexp(1.0, -125), -np.ldexp(1.0, -126) - TINY),  # d = 1, subnormal difference
        (1.0, -(1.0 - one_ulp / 2)),      # massive cancellation: 2^-24
        (1.0 + one_ulp, -1.0),            # 2^-23
        (3.0, -2.0**-30),                 # far, subtraction, sticky
        (1.0, 2.0**-30), (1.0, -2.0**-30), (1.0, 2.0**-200),
    )
    sub = (add[0], -add[1])  # the same cases through SUB = 1
    # (-0) - (+0) = -0 and (+0) - (+0) = +0 directly
    sub = (np.concatenate([sub[0], pairs((-0.0, 0.0), (0.0, 0.0), (-0.0, -0.0))[0]]),
           np.concatenate([sub[1], pairs((-0.0, 0.0), (0.0, 0.0), (-0.0, -0.0))[1]]))
    run(bench, {"fadd": add, "fsub": sub})


def test_multiplication_cases(bench):
    mul = pairs(
        (TINY, 0.5),                      # 2^-150: a tie, to even: 0
        (TINY, -0.5),                     # -0
        (TINY, 1.5),                      # 1.5 * 2^-149: tie, up to 2 * 2^-149
        (TINY, 0.75),                     # above half: TINY
        (3 * TINY, 0.5),                  # 1.5 tiny: tie to even 2 tiny
        (TINY, 2.0**24),                  # subnormal times normal: normal 2^-125
        (1e-40, 1e10), (-1e-40, 3.0),     # subnormal operands
        (np.ldexp(1.0, -126), 0.5),       # the smallest normal halved: subnormal
        (np.ldexp(1.0, -126) - TINY, 1.0 + 2.0**-23),  # rounds up to the smallest normal
        (np.ldexp(1.0, -100), np.ldexp(1.0, -30)),     # 2^-130, subnormal
        (1.0 + 2.0**-23, 1.0 + 2.0**-23),              # 1 + 2^-22 + 2^-46: sticky
        (1.0 + 2.0**-23, 1.0 - 2.0**-24),              # ties near 1
        (MAX, 2.0), (MAX, -1.0 - 2.0**-23), (np.ldexp(1.0, 64), np.ldexp(1.0, 64)),
        (MAX, 1.0),                       # no overflow
        (np.sqrt(MAX), np.sqrt(MAX)),
        (0.0, np.inf), (-0.0, np.inf), (np.inf, 0.0), (np.nan, 2.0), (2.0, -np.nan),
        (np.inf, -2.0), (-np.inf, -np.inf), (np.inf, TINY),
        (0.0, -1.0), (-0.0, -0.0), (-0.0, 5.0), (TINY, TINY), (-TINY, TINY), (0.0, MAX),
    )
    run(bench, {"fmul": mul})


@pytest.mark.parametrize("module,params", [("vichls_fadd", {"SUB": 0}),
                                           ("vichls_fadd", {"SUB": 1}),
                                           ("vichls_fmul", {})])
def test_lint_clean(module, params):
    text = template_text(module)
    for name, value in params.items():
        text, n = re.subn(rf"parameter {name} = \d+", f"parameter {name} = {value}", text)
        assert n == 1, f"{module} has no parameter {name}"
    assert lint_verilog(text, module) == []
