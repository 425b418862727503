"""A fast simulation bench for the floating-point units of rtl_templates/ (not a test file).

Millions of operand vectors through a unit are too many for a cocotb bench (Python runs
every cycle), so this module writes a small C++ bench for Verilator instead: a top module
that instantiates every unit under test side by side, and a ``main`` that feeds each unit
one vector per cycle in which the clock enable is high, holds the clock enable low on a
pseudo-random eighth of the cycles (every stage must then keep its value) and records what
each unit gives ``latency`` enabled cycles after its operands went in. One model is built
for all units of a run.

The units' common interface: ``clk``, ``ce`` (clock enable), operand inputs ``a`` (and
``b`` for a two-operand unit), result output ``r``; operands presented in an enabled cycle
give their result ``latency`` enabled cycles later (0: combinational, read in the same
cycle).

``simulate_units(cases, vectors, work)`` returns each unit's results as ``uint64`` arrays.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vichls.backend.verilog.printer import template_text
from vichls.flows.tools import verilator_env, verilator_executable

TOP = "float_units_top"


@dataclass(frozen=True)
class UnitCase:
    """One instance of a unit under test."""

    name: str  # a C identifier, unique in the run
    module: str  # the module of rtl_templates/ (file module.v)
    latency: int  # enabled cycles from operands to result
    in_widths: tuple[int, ...]  # widths of a (and b)
    out_width: int
    params: dict[str, int] = field(default_factory=dict)
    #: further template files the module instantiates
    needs: tuple[str, ...] = ()


def _top(cases: list[UnitCase]) -> str:
    ports = ["input wire clk", "input wire ce"]
    body = []
    for c in cases:
        for name, w in zip("ab", c.in_widths):
            ports.append(f"input wire [{w - 1}:0] {c.name}_{name}")
        ports.append(f"output wire [{c.out_width - 1}:0] {c.name}_r")
        params = ", ".join(f".{k}({v})" for k, v in sorted(c.params.items()))
        conns = [".clk(clk)", ".ce(ce)"] + [f".{n}({c.name}_{n})" for n in "ab"[:len(c.in_widths)]]
        conns.append(f".r({c.name}_r)")
        body.append(f"    {c.module} {'#(' + params + ') ' if params else ''}u_{c.name} "
                    f"({', '.join(conns)});")
    return (f"module {TOP} (\n    " + ",\n    ".join(ports) + "\n);\n" + "\n".join(body)
            + "\nendmodule\n")


def _bench(cases: list[UnitCase]) -> str:
    lines = [
        "#include <cstdint>", "#include <cstdio>", "#include <cstdlib>", "#include <vector>",
        f'#include "V{TOP}.h"', '#include "verilated.h"', "",
        "static std::vector<uint64_t> load(const char* path) {",
        "    std::vector<uint64_t> v; FILE* f = fopen(path, \"rb\"); if (!f) exit(3);",
        "    uint64_t x; while (fread(&x, 8, 1, f) == 1) v.push_back(x); fclose(f); return v;",
        "}", "",
        "static void save(const char* path, const std::vector<uint64_t>& v) {",
        "    FILE* f = fopen(path, \"wb\"); if (!f) exit(4);",
        "    fwrite(v.data(), 8, v.size(), f); fclose(f);",
        "}", "",
        "int main(int argc, char** argv) {",
        "    VerilatedContext* ctx = new VerilatedContext; ctx->commandArgs(argc, argv);",
        f"    V{TOP}* top = new V{TOP}{{ctx}};",
        "    uint64_t seed = strtoull(argv[1], nullptr, 10) | 1;",
        "    size_t longest = 0;",
    ]
    for c in cases:
        k = len(c.in_widths)
        lines += [
            f'    std::vector<uint64_t> in_{c.name} = load("{c.name}.in");',
            f"    size_t n_{c.name} = in_{c.name}.size() / {k};",
            f"    std::vector<uint64_t> out_{c.name}(n_{c.name});",
            f"    if (n_{c.name} + {c.latency} > longest) longest = n_{c.name} + {c.latency};",
        ]
    lines += [
        "    top->clk = 0; top->ce = 0; top->eval();",
        "    size_t j = 0;  // enabled cycles so far",
        "    while (j < longest) {",
        "        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;",
        "        bool enabled = (seed & 7) != 0;",
        "        top->ce = enabled;",
    ]
    for c in cases:
        k = len(c.in_widths)
        for idx, n in enumerate("ab"[:k]):
            mask = f"0x{(1 << c.in_widths[idx]) - 1:x}ULL"
            lines.append(f"        top->{c.name}_{n} = (j < n_{c.name} ? in_{c.name}[j * {k} + {idx}]"
                         f" : (seed >> {8 + 16 * idx})) & {mask};")
    lines.append("        top->eval();")
    lines.append("        if (enabled) {")
    for c in cases:
        lines.append(f"            if (j >= {c.latency} && j - {c.latency} < n_{c.name}) "
                     f"out_{c.name}[j - {c.latency}] = top->{c.name}_r;")
    lines += [
        "            j++;",
        "        }",
        "        top->clk = 1; top->eval(); top->clk = 0; top->eval();",
        "    }",
    ]
    for c in cases:
        lines.append(f'    save("{c.name}.out", out_{c.name});')
    lines += ["    top->final(); delete top; delete ctx; return 0;", "}", ""]
    return "\n".join(lines)


def build_units(cases: list[UnitCase], work: Path) -> Path:
    """Build the bench of ``cases`` in ``work``; the executable's path."""
    work.mkdir(parents=True, exist_ok=True)
    modules = sorted({c.module for c in cases} | {m for c in cases for m in c.needs})
    sources = []
    for m in modules:
        (work / f"{m}.v").write_text(template_text(m))
        sources.append(f"{m}.v")
    (work / "top.v").write_text(_top(cases))
    (work / "bench.cpp").write_text(_bench(cases))
    cmd = [str(verilator_executable()), "--cc", "--exe", "--build", "-j", "2",
           "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", TOP,
           "-Mdir", "obj", "top.v", *sources, "bench.cpp", "-o", "bench",
           "-CFLAGS", "-O1",
           # (the wheel's verilated.mk leaves the flag that includes the precompiled header
           # empty, which breaks a model split over several files: GCC's is given)
           "-MAKEFLAGS", "OPT_FAST=-O1 OPT_SLOW=-O1 OPT_GLOBAL=-O1 CFG_CXXFLAGS_PCH_I=-include"]
    proc = subprocess.run(cmd, cwd=work, env=verilator_env(), capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"the Verilator build of the unit bench failed:\n"
                           f"{(proc.stdout + proc.stderr)[-4000:]}")
    return work / "obj" / "bench"


def simulate_units(cases: list[UnitCase], vectors: dict[str, list[np.ndarray]], work: Path,
                   seed: int = 1, executable: Path | None = None) -> dict[str, np.ndarray]:
    """Run every unit of ``cases`` on its operand arrays (``vectors[name]``: one array per
    operand, all of one length, values as unsigned integers of the operand's width); each
    unit's results as a ``uint64`` array. ``executable``: a bench already built for these
    cases (``build_units``)."""
    exe = executable or build_units(cases, work)
    for c in cases:
        operands = [np.asarray(v).astype(np.uint64) for v in vectors[c.name]]
        if len(operands) != len(c.in_widths):
            raise ValueError(f"{c.name}: {len(c.in_widths)} operand arrays expected")
        np.stack(operands, axis=1).astype("<u8").tofile(work / f"{c.name}.in")
    proc = subprocess.run([str(exe), str(seed)], cwd=work, capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"the unit bench failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return {c.name: np.fromfile(work / f"{c.name}.out", dtype="<u8") for c in cases}


# -- values ------------------------------------------------------------------------------------

F32_EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.1, -0.5, 1.5, 2.0,
                      np.finfo(np.float32).max, -np.finfo(np.float32).max,
                      np.finfo(np.float32).tiny, -np.finfo(np.float32).tiny,
                      np.finfo(np.float32).smallest_subnormal, 2.0 ** -140, 2.0 ** -127,
                      3.0e38, 1.0e-45, 65504.0, 16777216.0, 16777217.0, 2.0 ** 31, 2.0 ** 63,
                      -2.0 ** 31, 2.0 ** 64], dtype=np.float32)


def f32_values(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` float32 values mixing random bit patterns (every class of number), random
    magnitudes across the range, subnormals and the edges."""
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    scaled = (rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)).astype(np.float32)
    sub = (rng.integers(0, 2**23, n, dtype=np.uint64).astype(np.uint32)
           | (rng.integers(0, 2, n, dtype=np.uint64).astype(np.uint32) << 31)).view(np.float32)
    pick = rng.random(n)
    out = np.where(pick < 0.4, bits, np.where(pick < 0.8, scaled, sub)).astype(np.float32)
    edge = rng.random(n) < 0.1
    out[edge] = F32_EDGES[rng.integers(0, len(F32_EDGES), int(edge.sum()))]
    return out


def f32_pairs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs: independent values, and on a third of them a second operand close to
    the first (cancellation, ties and rounding at every distance)."""
    a = f32_values(rng, n)
    b = f32_values(rng, n)
    near = rng.random(n) < 0.33
    steps = rng.integers(-40, 40, n).astype(np.int64)
    moved = (a.view(np.uint32).astype(np.int64) + steps) & 0xFFFFFFFF
    flip = (rng.random(n) < 0.5).astype(np.int64) << 31
    b = np.where(near, (moved ^ flip).astype(np.uint32).view(np.float32), b)
    return a, b


def bits(x: np.ndarray) -> np.ndarray:
    """float32 values as uint64 bit patterns."""
    return np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)


def float_mismatches(want: np.ndarray, got_bits: np.ndarray) -> np.ndarray:
    """Indices where the unit's float32 results differ from ``want`` (any NaN equals any
    NaN; signed zeros differ)."""
    got = got_bits.astype(np.uint32).view(np.float32)
    want = np.asarray(want, dtype=np.float32)
    both_nan = np.isnan(want) & np.isnan(got)
    same = want.view(np.uint32) == got.view(np.uint32)
    return np.nonzero(~(same | both_nan))[0]
