"""Conversions between float32 and fixed point, exactly as ap_fixed converts.

float32 to ``fixed``/``ufixed`` applies the target's quantization and overflow modes to the
float's exact value; fixed to float32 rounds the exact value once to nearest even. Checked
for every quantization and overflow mode, widths 1 to 64, fractional bits from -60 to 124,
on random, edge and near-boundary float32 values, against ``vichls.types.quantize`` and
``float32_of`` on exact fractions (themselves checked against ap_fixed in
tests/test_fixed_point.py): the Python call of the kernel, the CPU build, and the RTL.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import vichls
from vichls.errors import KernelError
from vichls.frontend.kernel import load_file
from vichls.types import float32_of, quantize, to_bits

from float_rtl import f32_values

TYPES = [
    'fixed(16, 6, quant="rnd", overflow="sat")',
    'fixed(8, 3)',
    'ufixed(10, 4, quant="rnd_conv", overflow="sat_sym")',
    'fixed(20, 10, quant="trn_zero", overflow="sat_zero")',
    'fixed(6, 9, quant="rnd_inf", overflow="sat")',
    'fixed(24, 4, quant="rnd_zero", overflow="wrap")',
    'ufixed(4, -1, quant="rnd_min_inf", overflow="sat")',
    'fixed(64, 32, quant="rnd_conv", overflow="sat_sym")',
    'ufixed(64, 64, overflow="sat")',
    'fixed(64, -60, quant="rnd")',
    'fixed(32, 16, quant="rnd", overflow="sat_sym")',
    'fixed(1, 1)',
    'ufixed(64, 0, quant="trn", overflow="wrap")',
    'fixed(40, 100, quant="rnd_inf", overflow="sat")',
    'fixed(12, -112, quant="rnd_conv", overflow="sat")',
    'ufixed(33, 20, quant="trn_zero", overflow="sat_zero")',
]


def _source(n: int, types: list[str]) -> str:
    lines = ["from vichls import kernel, float32, fixed, ufixed", ""]
    lines += [f"T{k} = {t}" for k, t in enumerate(types)]
    params = ", ".join(f"y{k}: T{k}[{n}], z{k}: float32[{n}]" for k in range(len(types)))
    lines += ["", "", "@kernel", f"def conv(x: float32[{n}], {params}):",
              f"    for i in range({n}):"]
    for k in range(len(types)):
        lines += [f"        y{k}[i] = x[i]", f"        z{k}[i] = float32(y{k}[i])"]
    return "\n".join(lines) + "\n"


def _values(n: int, seed: int) -> np.ndarray:
    """Finite float32 values: random ones of every magnitude, and values at, beside and
    halfway between the LSBs of the types (ties of every rounding mode)."""
    rng = np.random.default_rng(seed)
    x = f32_values(rng, 2 * n)
    x = x[np.isfinite(x)][:n]
    lsb = 2.0 ** -rng.choice([0, 3, 6, 8, 10, 20, 32, 60], n)
    steps = rng.integers(-600, 600, n) / 2.0  # multiples of half an LSB
    near = (steps * lsb).astype(np.float32)
    return np.where(rng.random(n) < 0.4, near, x).astype(np.float32)


def _args(kernel, x: np.ndarray) -> list:
    out = [x.copy()]
    for p in kernel.signature.params[1:]:
        t = p.scalar
        dtype = np.float32 if t.name == "float32" else (
            np.float64 if t.crosses_as_float else t.dtype)
        out.append(np.zeros(len(x), dtype=dtype))
    return out


def _check(kernel, args: list, x: np.ndarray, label: str) -> None:
    types = [p.scalar for p in kernel.signature.params[1::2]]
    for k, t in enumerate(types):
        y, z = args[1 + 2 * k], args[2 + 2 * k]
        got = [int(v) for v in (to_bits(y, t) if t.crosses_as_float else y).tolist()]
        want = [t.wrap(quantize(Fraction(float(v)), t)) for v in x]
        bad = [i for i, (a, b) in enumerate(zip(want, got)) if a != b]
        assert not bad, (f"{label}: float32 -> {t!r}: {len(bad)} differ, first x={x[bad[0]]!r} "
                         f"want raw {want[bad[0]]}, got {got[bad[0]]}")
        back = np.array([float32_of(t.value_of(w)) for w in want], dtype=np.float32)
        bad = np.nonzero(back.view(np.uint32) != z.view(np.uint32))[0]
        assert not len(bad), (f"{label}: {t!r} -> float32: {len(bad)} differ, first raw "
                              f"{want[bad[0]]} want {back[bad[0]]!r} got {z[bad[0]]!r}")


@pytest.fixture(scope="module")
def conv(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("f2x")) / "conv.py"
    path.write_text(_source(4096, TYPES))
    return load_file(path)["conv"]


def test_python_and_cpu_convert_as_ap_fixed_does(conv):
    x = _values(4096, seed=11)
    for label, run in (("python", conv), ("cpu", vichls.customize(conv).build(target="cpu"))):
        args = _args(conv, x)
        run(*args)
        _check(conv, args, x, label)


def test_the_rtl_converts_as_ap_fixed_does(tmp_path):
    from e2e import assert_outcome, run_batch

    path = tmp_path / "conv.py"
    path.write_text(_source(256, TYPES))
    kernel = load_file(path)["conv"]
    x = _values(256, seed=12)
    (out,) = run_batch([("conv", kernel, [tuple(_args(kernel, x))])]).values()
    assert_outcome(out)  # RTL == CPU == Python, bit for bit
    args = _args(kernel, x)
    kernel(*args)
    _check(kernel, args, x, "python")


def test_a_signed_one_bit_integer_converts_to_minus_one(tmp_path):
    """Regression: int_(1) (values 0 and -1) converted to float32 as unsigned on the CPU."""
    path = tmp_path / "one.py"
    path.write_text("from vichls import kernel, float32, int_\n\n\n@kernel\n"
                    "def one(a: int_(1)[2], f: float32[2]):\n    for i in range(2):\n"
                    "        f[i] = float32(a[i])\n")
    kernel = load_file(path)["one"]
    cpu = vichls.customize(kernel).build(target="cpu")
    for run in (kernel, cpu):
        f = np.zeros(2, dtype=np.float32)
        run(np.array([0, -1], dtype=np.int8), f)
        assert f.tolist() == [0.0, -1.0]


def test_a_fixed_type_beyond_float32s_range_is_refused(tmp_path):
    path = tmp_path / "far.py"
    path.write_text("from vichls import kernel, float32, fixed\n\n\n@kernel\n"
                    "def far(a: fixed(8, -130)[2], f: float32[2]):\n    for i in range(2):\n"
                    "        f[i] = float32(a[i])\n")
    with pytest.raises(KernelError, match=r"far\.py:7:.*127 to 126"):
        load_file(path)["far"].tree()
