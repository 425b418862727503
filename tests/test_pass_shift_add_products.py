"""transforms/fpga/shift_add_products.py: products by constants with few signed digits become shifts
and adders, bit-identical at every width and signedness; others stay products."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects import arith

from loop_ir import assert_cpu_agrees
from vichls import int8, int32, int64, kernel, uint8, uint16
from vichls.targets import oplib
from vichls.driver.fpga import compile_fpga
from vichls.transforms.fpga.shift_add_products import shift_add_products, signed_digits


def test_signed_digits_are_the_non_adjacent_form_modulo_the_width():
    assert signed_digits(7, 32) == [(0, -1), (3, 1)]
    assert signed_digits(3, 8) == [(0, -1), (2, 1)]
    assert signed_digits(5, 8) == [(0, 1), (2, 1)]
    assert signed_digits(-1, 8) == [(0, -1)]  # 255 = 256 - 1, and 256 wraps away
    assert signed_digits(0, 8) == [] and signed_digits(256, 8) == []
    for width in (1, 3, 8):
        for c in range(-300, 300):
            digits = signed_digits(c, width)
            assert sum(s << p for p, s in digits) % (1 << width) == c % (1 << width)
            assert all(p < width for p, _ in digits)
            positions = [p for p, _ in digits]
            assert all(b - a > 1 for a, b in zip(positions, positions[1:]))  # non-adjacent


@kernel
def scaled(a: int8[16], b: uint8[16], c: int32[16], d: uint16[16], e: int64[16]):
    for i in range(16):
        a[i] = a[i] * 7 + a[i] * -3
        b[i] = b[i] * 10 + b[i] * 255
        c[i] = c[i] * 7 + c[i] * 1000003 + c[i] * -9
        d[i] = d[i] * 45 + d[i] * 4
        e[i] = e[i] * 3 + e[i] * -7


def _products(module):
    return [op for op in module.walk() if isinstance(op, arith.MuliOp)]


def test_products_become_shifts_and_adders_with_the_same_results():
    module = scaled.module()
    before = len(_products(module))
    shift_add_products(module, 4)
    left = _products(module)
    # 1000003 has seven signed digits, too many; 4 is a shift; uint8 255 is -1: 0 - x
    constants = sorted(op.operands[1].owner.value.value.data for op in left
                       if isinstance(op.operands[1].owner, arith.ConstantOp))
    assert constants == [4, 1000003] and before == 11
    assert_cpu_agrees(scaled, module, calls=8)


def test_zero_digits_leaves_every_product():
    module = scaled.module()
    shift_add_products(module, 0)
    assert len(_products(module)) == 11


@pytest.mark.parametrize("kind, width", list(itertools.product(("int", "uint"), (8, 16))))
def test_every_constant_at_narrow_widths(kind, width):
    """All constants of the width times random values, against numpy's wrapping product."""
    from vichls import int16

    dtype = {("int", 8): np.int8, ("uint", 8): np.uint8, ("int", 16): np.int16,
             ("uint", 16): np.uint16}[kind, width]
    step = 1 if width == 8 else 97
    consts = list(range(-(1 << (width - 1)) if kind == "int" else 0,
                        (1 << (width - 1)) if kind == "int" else (1 << width), step))
    rng = np.random.default_rng(width)
    x = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, size=64, dtype=dtype)
    for c in consts:
        digits = signed_digits(c, width)
        got = np.zeros_like(x)
        for position, sign in digits:
            term = (x.astype(np.int64) << position)
            got = (got.astype(np.int64) + sign * term).astype(dtype)
        want = (x.astype(np.int64) * c).astype(dtype)
        assert np.array_equal(got, want), c
    del int16


def test_the_ecp5_build_has_no_multiplier_for_few_digit_constants():
    with oplib.use_device("ecp5"):
        design = compile_fpga(scaled.module(), clock_period_ns=1000 / 150)
    products = [line for line in design.verilog.splitlines() if " * " in line]
    assert all("1000003" in line or "'d4" in line or "vichls_mul" in line
               for line in products), products
    plain = compile_fpga(scaled.module())  # xc7 keeps its products
    assert "* 32'd7;" in plain.verilog and "* 8'd7;" in plain.verilog
