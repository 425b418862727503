"""float32 on the FPGA: kernels compiled to Verilog with the floating-point units of
rtl_templates/ (vichls_fadd, _fmul, _fdiv, _fsqrt, _fcmp, _itof, _ftoi), simulated, and
compared bit for bit with the Python call (numpy float32) and the CPU build.

The units themselves are checked on millions of vectors each in tests/test_float_rtl_*.py;
here the compiler's side: scheduling at their latencies, sharing, pipelining (a float
accumulation is a recurrence of the adder's latency, and the report says so), memories and
ports of f32, constants, the sign-bit ops, conversions (the operator library reads each
unit's latency from its template).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vichls
from vichls.frontend.kernel import load_file
from vichls.targets import oplib

from e2e import Scheduled, assert_outcome, run_batch
from float_rtl import f32_pairs
from test_float32 import SOURCE as CPU_SOURCE

# the operators' kernel is the CPU test's own (tests/test_float32.py), compiled here for the FPGA
OPS = CPU_SOURCE[CPU_SOURCE.index("@kernel\ndef ops("):CPU_SOURCE.index("@kernel\ndef casts(")]

SOURCE = '''
from vichls import kernel, float32, int8, int32, int64, uint16, uint64, bool_, sqrt
import vichls


''' + OPS + '''
@kernel
def casts(f: float32[N], i8: int8[N], i32: int32[N], u16: uint16[N], i64: int64[N],
          u64: uint64[N], of_i8: float32[N], of_i32: float32[N], of_u16: float32[N],
          of_i64: float32[N], of_u64: float32[N]):
    for i in range(N):
        of_i8[i] = float32(i8[i])
        of_i32[i] = float32(i32[i])
        of_u16[i] = float32(u16[i])
        of_i64[i] = float32(i64[i])
        of_u64[i] = float32(u64[i])
        i8[i] = int8(f[i])
        i32[i] = int32(f[i])
        u16[i] = uint16(f[i])
        i64[i] = int64(f[i])
        u64[i] = uint64(f[i])


@kernel
def dot(x: float32[64], y: float32[64]) -> float32:
    s: float32 = 0.0
    for i in range(64):
        s = s + x[i] * y[i]
    return s


@kernel
def saxpy(a: float32, x: float32[64], y: float32[64]):
    for i in range(64):
        y[i] = a * x[i] + y[i]


@kernel
def scalar_mix(x: float32, n: int32) -> float32:
    y: float32 = 0.1
    if x > 0.5:
        y = (x * 3 + y) / 2.5 - 1e-3
    else:
        y = sqrt(abs(x)) + float32(n)
    return max(y, -x)


dot_pipelined = vichls.customize(dot).pipeline("i")
saxpy_pipelined = vichls.customize(saxpy).pipeline("i")
saxpy_unrolled = vichls.customize(saxpy).unroll("i", factor=4).partition("x", dim=1, factor=4) \\
    .partition("y", dim=1, factor=4).pipeline("i")
'''

N = 512


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("float32_fpga")) / "floats.py"
    path.write_text(f"N = {N}\n" + SOURCE)
    return load_file(path)


def _zeros(kernel, skip: int) -> list:
    return [np.zeros(p.type.shape, dtype=p.scalar.dtype)
            for p in kernel.signature.params[skip:]]


def _int_values(rng, dtype, n):
    info = np.iinfo(dtype)
    edges = [0, 1, -1, info.min, info.max, info.max - 1, 2**24 + 1, 2**24 + 3, -(2**24) - 1,
             2**53 + 1, 2**63 - 2**39, 2**63 + 2**39 + 1]
    edge = np.array([e for e in edges if info.min <= e <= info.max], dtype=object).astype(dtype)
    v = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    v >>= rng.integers(0, info.bits, n).astype(dtype)  # every magnitude
    pick = rng.random(n) < 0.2
    v[pick] = edge[rng.integers(0, len(edge), int(pick.sum()))]
    return v


@pytest.fixture(scope="module")
def outcomes(kernels):
    rng = np.random.default_rng(2026)
    ops, casts = kernels["ops"], kernels["casts"]
    op_args = []
    for _ in range(2):
        a, b = f32_pairs(rng, N)
        op_args.append((a, b, *_zeros(ops, 2)))
    cast_args = []
    for _ in range(2):
        f = (rng.standard_normal(N) * 10.0 ** rng.integers(-3, 12, N)).astype(np.float32)
        f[:6] = [np.nan, np.inf, -np.inf, 3.0e9, -0.0, 2.0**70]
        ints = [_int_values(rng, d, N) for d in (np.int8, np.int32, np.uint16, np.int64,
                                                 np.uint64)]
        cast_args.append((f, *ints, *_zeros(casts, 6)))
    x, y = (rng.standard_normal(64).astype(np.float32) for _ in range(2))
    small = [(x, y), (x * np.float32(1e30), y * np.float32(1e10))]
    items = [
        ("ops", ops, op_args),
        ("casts", casts, cast_args),
        ("dot", kernels["dot"], small),
        ("dot_pipelined", Scheduled(kernels["dot_pipelined"]), small),
        ("saxpy", kernels["saxpy"], [(np.float32(1.5), x, y.copy()),
                                     (np.float32(-0.0), x, y.copy())]),
        ("saxpy_pipelined", Scheduled(kernels["saxpy_pipelined"]),
         [(np.float32(1.5), x, y.copy())]),
        ("saxpy_unrolled", Scheduled(kernels["saxpy_unrolled"]),
         [(np.float32(3.25), x, y.copy())]),
        ("scalar_mix", kernels["scalar_mix"],
         [(np.float32(v), n) for v, n in [(0.75, 3), (0.25, -7), (np.nan, 1), (-4.0, 2**31 - 1),
                                          (np.inf, 0), (1e-40, 5)]]),
    ]
    return run_batch(items)


@pytest.mark.parametrize("name", ["ops", "casts", "dot", "dot_pipelined", "saxpy",
                                  "saxpy_pipelined", "saxpy_unrolled", "scalar_mix"])
def test_rtl_computes_what_python_and_the_cpu_compute(outcomes, name):
    assert_outcome(outcomes[name])


def test_a_float_accumulation_is_a_recurrence_of_the_adders_latency(kernels):
    report = kernels["dot_pipelined"].build("fpga").report
    (loop,) = [loop for loop in report["loops"] if loop["pipelined"]]
    latency = oplib.float_latency("fadd")
    assert loop["ii"] == latency, loop
    assert "recurrence" in loop["ii_reason"], loop
    line = (f"N = {N}\n" + SOURCE).splitlines().index("        s = s + x[i] * y[i]") + 1
    assert f"arith.addf at line {line} takes {latency} cycles" in loop["ii_reason"], loop


def test_a_loop_without_a_recurrence_pipelines_at_ii_1(kernels, outcomes):
    report = kernels["saxpy_pipelined"].build("fpga").report
    (loop,) = [loop for loop in report["loops"] if loop["pipelined"]]
    assert loop["ii"] == 1, loop
    # 64 iterations, one per cycle, after the pipeline fills
    (cycles,) = set(outcomes["saxpy_pipelined"].cycles)
    assert cycles < 64 + 40, cycles


def test_on_the_ecp5_at_150_mhz_too(kernels, tmp_path):
    """The ECP5's timing (operands of a unit straight from registers) gives other
    schedules; they compute the same."""
    rng = np.random.default_rng(7)
    a, b = f32_pairs(rng, N)
    x, y = (rng.standard_normal(64).astype(np.float32) for _ in range(2))
    with oplib.use_device("ecp5"):
        outcomes = run_batch([
            ("ops_ecp5", kernels["ops"], [(a, b, *_zeros(kernels["ops"], 2))]),
            ("dot_ecp5", Scheduled(kernels["dot_pipelined"]), [(x, y)]),
        ], clock_period_ns=1000.0 / 150)
    for out in outcomes.values():
        assert_outcome(out)


def test_the_verilog_of_a_float_kernel_lints_clean(kernels):
    from vichls.flows.lint import lint_verilog

    design = vichls.customize(kernels["ops"]).build("fpga")
    assert lint_verilog(design.verilog, design.top) == []
