"""Fixed point (``fixed``/``ufixed``) against ap_fixed itself, exhaustively on small types.

Three layers, each against an independent reference:

- ``vichls.types.quantize`` (the exact Python meaning of a conversion, used for constants
  and arguments) against ap_fixed's conversions: every raw value of nine source types into
  eight target formats, in all 7 x 4 quantization and overflow modes;
- the kernels' own conversions and operations (integer operations on raw bits built by
  frontend/fixed_point.py), called from Python: against ap_fixed for conversions, ``+ - *``,
  the comparisons, unary minus and shifts, and against exact rational arithmetic for
  ``min``, ``max`` and ``abs`` (which ap_fixed does not define), on every pair of raw values;
- the same kernels compiled for the CPU and simulated as RTL (one simulator build): bit for
  bit what the Python call gives.

The headers come from the hls4ml wheel (a test dependency); without them or g++ these tests
fail rather than skip.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import fixed_oracle as oracle
from e2e import assert_outcome, run_batch
from vichls.frontend import fixed_point as FX
from vichls.frontend.kernel import load_file
from vichls.types import (
    OVERFLOW_MODES,
    QUANT_MODES,
    FixedType,
    as_fixed,
    convert_raw,
    fixed,
    from_bits,
    int8,
    int_,
    to_bits,
    type_name,
    ufixed,
    uint8,
)

MODES = list(itertools.product(QUANT_MODES, OVERFLOW_MODES))

# -- quantize against ap_fixed -------------------------------------------------------------

SOURCES = [fixed(8, 3), ufixed(8, 5), fixed(8, -2), fixed(6, 9), ufixed(7, 0), int8, uint8,
           fixed(1, 1), ufixed(1, 0)]
FORMATS = [(5, 2, True), (5, 3, False), (4, 6, True), (8, -1, True), (6, -1, False),
           (10, 4, True), (1, 1, True), (2, 0, False)]
QUANTIZE_CASES = [oracle.Conversion(s, FixedType(w, signed, i, q, o))
                  for s in SOURCES for (w, i, signed) in FORMATS for q, o in MODES]

# -- kernels: conversions, operations, unary operations ----------------------------------------

#: (source, target format): each kernel converts every raw value of the source in all modes
CONVERSIONS = [(fixed(8, 3), (5, 2, True)), (fixed(8, 3), (5, 3, False)),
               (ufixed(8, 5), (4, 6, True)), (fixed(8, -2), (8, -1, True)),
               (int8, (6, -1, False)), (fixed(6, 9), (1, 1, True))]
#: (source, integer target): casts to an integer type round toward zero and wrap
INTEGER_CASTS = [(fixed(8, 3), int_(5)), (ufixed(8, 5), uint8), (fixed(8, -2), int8)]
#: operand types of the binary operations, every pair of raw values
OPERANDS = [(fixed(8, 3), fixed(8, -1)), (fixed(6, 2), ufixed(5, 3)),
            (ufixed(6, 1), ufixed(5, 6)), (fixed(6, 3), int_(4)), (uint8, fixed(4, 0))]
#: unary minus, abs and shifts by every amount from -(W + 1) to W + 1
UNARY = [fixed(8, 3), ufixed(6, 2), fixed(5, -1)]


def _name(t) -> str:
    return type_name(t).replace("'", '"')


def _conversion_kernel(k: int, source, fmt) -> str:
    w, i, signed = fmt
    outs = [f"o{m}: {_name(FixedType(w, signed, i, q, o))}[N{k}]" for m, (q, o) in enumerate(MODES)]
    body = "\n".join(f"        o{m}[i] = a[i]" for m in range(len(MODES)))
    return (f"N{k} = {1 << source.width}\n\n@kernel\n"
            f"def conv{k}(a: {_name(source)}[N{k}], {', '.join(outs)}):\n"
            f"    for i in range(N{k}):\n{body}\n")


def _cast_kernel(k: int, source, target) -> str:
    return (f"@kernel\ndef cast{k}(a: {_name(source)}[{1 << source.width}], "
            f"o: {_name(target)}[{1 << source.width}]):\n"
            f"    for i in range({1 << source.width}):\n        o[i] = {_name(target)}(a[i])\n")


def _result_types(a, b):
    return (FX.sum_type(a, b, "add"), FX.sum_type(a, b, "sub"), FX.product_type(a, b),
            FX.common_fixed_type(a, b))


def _ops_kernel(k: int, a, b) -> str:
    s, d, p, m = _result_types(a, b)
    n = 1 << (a.width + b.width)
    cmps = ["lt", "le", "gt", "ge", "eq", "ne"]
    syms = ["<", "<=", ">", ">=", "==", "!="]
    params = [f"a: {_name(a)}[{n}]", f"b: {_name(b)}[{n}]", f"s: {_name(s)}[{n}]",
              f"d: {_name(d)}[{n}]", f"p: {_name(p)}[{n}]", f"mn: {_name(m)}[{n}]",
              f"mx: {_name(m)}[{n}]"] + [f"{c}: bool_[{n}]" for c in cmps]
    body = ["s[i] = a[i] + b[i]", "d[i] = a[i] - b[i]", "p[i] = a[i] * b[i]",
            "mn[i] = min(a[i], b[i])", "mx[i] = max(a[i], b[i])"]
    body += [f"{c}[i] = a[i] {sym} b[i]" for c, sym in zip(cmps, syms)]
    lines = "\n".join(f"        {x}" for x in body)
    return (f"@kernel\ndef ops{k}({', '.join(params)}):\n    for i in range({n}):\n{lines}\n")


def _amounts(a) -> list[int]:
    return list(range(-(a.width + 1), a.width + 2))


def _unary_kernel(k: int, a) -> str:
    f = as_fixed(a)
    n = (1 << a.width) * len(_amounts(a))
    neg = FixedType(f.width + 1, True, f.int_bits + 1)
    ab = neg if f.signed else f
    return (f"@kernel\ndef un{k}(a: {_name(a)}[{n}], k: int8[{n}], n: {_name(neg)}[{n}], "
            f"ab: {_name(ab)}[{n}], sl: {_name(a)}[{n}], sr: {_name(a)}[{n}], "
            f"c1: {_name(a)}[{n}], c2: {_name(a)}[{n}]):\n"
            f"    for i in range({n}):\n"
            f"        n[i] = -a[i]\n        ab[i] = abs(a[i])\n"
            f"        sl[i] = a[i] << k[i]\n        sr[i] = a[i] >> k[i]\n"
            f"        c1[i] = a[i] << 2\n        c2[i] = a[i] >> -1\n")


#: a conversion reads its operand several times: a stream get in it must still happen once
#: (it happened three times before conversions bound their operand with a Let)
STREAMED = """
@kernel
def streamed(x: stream[fixed(8, 3)], y: stream[fixed(10, 4, quant="rnd_conv", overflow="sat")],
             n: int32):
    q: stream[fixed(12, 6), 8] = stream[fixed(12, 6), 8]()
    for i in range(n):
        q.put(x.get() * 1.5)
    for i in range(n):
        y.put(q.get() - 0.1)
"""


def _source() -> str:
    parts = ["from vichls import kernel, fixed, ufixed, int_, uint_, int8, uint8, bool_, "
             "int32, stream\n", STREAMED]
    parts += [_conversion_kernel(k, s, f) for k, (s, f) in enumerate(CONVERSIONS)]
    parts += [_cast_kernel(k, s, t) for k, (s, t) in enumerate(INTEGER_CASTS)]
    parts += [_ops_kernel(k, a, b) for k, (a, b) in enumerate(OPERANDS)]
    parts += [_unary_kernel(k, a) for k, a in enumerate(UNARY)]
    return "\n\n".join(parts)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("fixed")) / "fixed_kernels.py"
    path.write_text(_source())
    return load_file(path)


@pytest.fixture(scope="module")
def ap_fixed():
    """ap_fixed's answers for every case of this file (one g++ build)."""
    cases = list(QUANTIZE_CASES)
    cases += [oracle.Conversion(s, FixedType(w, sg, i, q, o))
              for s, (w, i, sg) in CONVERSIONS for q, o in MODES]
    cases += [oracle.Conversion(s, FixedType(t.width, t.signed, t.width, "trn_zero", "wrap"))
              for s, t in INTEGER_CASTS]
    cases += [oracle.Operations(a, b) for a, b in OPERANDS]
    cases += [oracle.Unary(a) for a in UNARY]
    return dict(zip(cases, oracle.Oracle(cases).run()))


def _all_raw(t) -> np.ndarray:
    return np.array([t.wrap(r) for r in range(1 << t.width)], dtype=np.int64)


def _arg(t, raw) -> np.ndarray:
    """An argument array holding ``raw`` bits of ``t``, as a call takes it."""
    raw = np.asarray(raw, dtype=t.dtype)
    return from_bits(raw, t) if isinstance(t, FixedType) else raw


def _raw(t, values) -> list[int]:
    return [int(x) for x in (to_bits(values, t) if isinstance(t, FixedType) else values)]


def _zeros(t, n: int) -> np.ndarray:
    return np.zeros(n, dtype=np.float64 if isinstance(t, FixedType) else t.dtype)


# -- 1. the exact conversion of vichls.types ---------------------------------------------------


def test_quantize_is_ap_fixed_on_every_value(ap_fixed):
    wrong = []
    for case in QUANTIZE_CASES:
        for raw, want in zip(_all_raw(case.source), ap_fixed[case]):
            got = convert_raw(int(raw), case.source, case.target)
            if got != want:
                wrong.append(f"{case.source!r} raw {raw} -> {case.target!r}: {got}, "
                             f"ap_fixed {want}")
    assert not wrong, f"{len(wrong)} conversions differ, e.g.:\n" + "\n".join(wrong[:10])


# -- 2. the kernels, called from Python ---------------------------------------------------------


def _conversion_calls(kernels):
    for k, (source, (w, i, signed)) in enumerate(CONVERSIONS):
        n = 1 << source.width
        targets = [FixedType(w, signed, i, q, o) for q, o in MODES]
        args = (_arg(source, _all_raw(source)), *[_zeros(t, n) for t in targets])
        yield f"conv{k}", kernels[f"conv{k}"], source, targets, args


def test_conversions_in_kernels_are_ap_fixed(kernels, ap_fixed):
    for name, kernel, source, targets, args in _conversion_calls(kernels):
        kernel(*args)
        for t, out in zip(targets, args[1:]):
            want = ap_fixed[oracle.Conversion(source, t)]
            assert _raw(t, out) == want, f"{name}: {source!r} -> {t!r}"


def test_casts_to_integers_round_toward_zero_and_wrap(kernels, ap_fixed):
    for k, (source, target) in enumerate(INTEGER_CASTS):
        out = np.zeros(1 << source.width, dtype=target.dtype)
        kernels[f"cast{k}"](_arg(source, _all_raw(source)), out)
        goal = FixedType(target.width, target.signed, target.width, "trn_zero", "wrap")
        assert [int(x) for x in out] == ap_fixed[oracle.Conversion(source, goal)], \
            f"{source!r} -> {target!r}"


def _pairs(a, b):
    ra, rb = _all_raw(a), _all_raw(b)
    return np.repeat(ra, len(rb)), np.tile(rb, len(ra))


def _ops_args(a, b):
    s, d, p, m = _result_types(a, b)
    ra, rb = _pairs(a, b)
    n = len(ra)
    return (ra, rb), (_arg(a, ra), _arg(b, rb), _zeros(s, n), _zeros(d, n), _zeros(p, n),
                      _zeros(m, n), _zeros(m, n), *[np.zeros(n, dtype=bool) for _ in range(6)])


def test_operations_in_kernels_are_ap_fixed(kernels, ap_fixed):
    for k, (a, b) in enumerate(OPERANDS):
        (ra, rb), args = _ops_args(a, b)
        kernels[f"ops{k}"](*args)
        types, rows = ap_fixed[oracle.Operations(a, b)]
        s, d, p, m = _result_types(a, b)
        assert [s, d, p] == types, f"result types of {a!r} and {b!r}"
        got_s, got_d, got_p = _raw(s, args[2]), _raw(d, args[3]), _raw(p, args[4])
        for j, (ws, wd, wp, cmps) in enumerate(rows):
            where = f"{a!r} {ra[j]} and {b!r} {rb[j]}"
            assert (got_s[j], got_d[j], got_p[j]) == (ws, wd, wp), where
            assert tuple(bool(args[7 + c][j]) for c in range(6)) == cmps, where
        # min and max: ap_fixed has none; exact rational arithmetic
        fa, fb = as_fixed(a), as_fixed(b)
        for j in range(len(ra)):
            x, y = fa.value_of(int(ra[j])), fb.value_of(int(rb[j]))
            assert Fraction(args[5][j]) == min(x, y) and Fraction(args[6][j]) == max(x, y)


def _unary_args(a):
    f = as_fixed(a)
    amounts = _amounts(a)
    raw = np.repeat(_all_raw(a), len(amounts))
    k = np.tile(np.array(amounts, dtype=np.int8), 1 << a.width)
    n = len(raw)
    neg = FixedType(f.width + 1, True, f.int_bits + 1)
    ab = neg if f.signed else f
    return raw, k, (_arg(a, raw), k, _zeros(neg, n), _zeros(ab, n), *[_zeros(a, n)
                                                                      for _ in range(4)])


def test_unary_operations_and_shifts(kernels, ap_fixed):
    for idx, a in enumerate(UNARY):
        f = as_fixed(a)
        raw, k, args = _unary_args(a)
        kernels[f"un{idx}"](*args)
        neg_type, rows = ap_fixed[oracle.Unary(a)]
        neg = FixedType(f.width + 1, True, f.int_bits + 1)
        assert neg == neg_type
        got_n, got_sl, got_sr = _raw(neg, args[2]), _raw(a, args[4]), _raw(a, args[5])
        got_c1, got_c2 = _raw(a, args[6]), _raw(a, args[7])
        for j in range(len(raw)):
            r, amount = int(raw[j]), int(k[j])
            want_neg, shifts = rows[r & ((1 << a.width) - 1)]
            assert got_n[j] == want_neg
            assert Fraction(args[3][j]) == abs(f.value_of(r))
            if abs(amount) < a.width:  # where ap_fixed defines a shift
                assert (got_sl[j], got_sr[j]) == shifts[amount], (r, amount)
            else:  # at or beyond the width: everything shifted out (the sign for >>)
                fill = -1 if f.signed and r < 0 else 0
                assert got_sl[j] == (0 if amount > 0 else fill), (r, amount)
                assert got_sr[j] == (fill if amount > 0 else 0), (r, amount)
            assert got_c1[j] == shifts[2][0] and got_c2[j] == shifts[-1][1]


def _streamed_args():
    from vichls import stream
    values = [1.0, -2.5, 3.96875, -4.0, 0.03125, 2.0]
    return (stream[fixed(8, 3)](values),
            stream[fixed(10, 4, quant="rnd_conv", overflow="sat")](), len(values)), values


def test_a_stream_get_converted_is_read_once(kernels):
    (x, y, n), values = _streamed_args()
    kernels["streamed"](x, y, n)
    middle, out = fixed(12, 6), fixed(10, 4, quant="rnd_conv", overflow="sat")
    want = [out(Fraction(middle(Fraction(v) * Fraction(3, 2))) - Fraction(0.1))
            for v in values]
    assert len(x) == 0 and list(y) == want


# -- 3. the same kernels on the CPU and in RTL -------------------------------------------------


def test_cpu_and_rtl_compute_what_python_does(kernels):
    items = []
    for name, kernel, _, _, args in _conversion_calls(kernels):
        items.append((name, kernel, [args]))
    for k, (source, target) in enumerate(INTEGER_CASTS):
        items.append((f"cast{k}", kernels[f"cast{k}"],
                      [(_arg(source, _all_raw(source)),
                        np.zeros(1 << source.width, dtype=target.dtype))]))
    for k, (a, b) in enumerate(OPERANDS):
        items.append((f"ops{k}", kernels[f"ops{k}"], [_ops_args(a, b)[1]]))
    for k, a in enumerate(UNARY):
        items.append((f"un{k}", kernels[f"un{k}"], [_unary_args(a)[2]]))
    items.append(("streamed", kernels["streamed"], [_streamed_args()[0]]))
    outcomes = run_batch(items)
    for out in outcomes.values():
        assert_outcome(out)


def test_a_narrow_signed_product_is_costed_as_one_dsp_block(tmp_path):
    """``fixed(18, 4) * fixed(16, 2)`` is a 34-bit multiply of sign-extended operands: on the
    xc7 one DSP48 block (as Yosys infers it), combinational, not a 34-bit multiplier of ten
    blocks. (The estimate said 10 per product before; a 16-tap FIR said 160 DSPs, Yosys 16.)"""
    path = tmp_path / "mac.py"
    path.write_text("from vichls import kernel, fixed\n\n\n@kernel\n"
                    "def mac(x: fixed(18, 4)[8], w: fixed(16, 2)[8]) -> fixed(40, 12):\n"
                    "    acc: fixed(40, 12) = 0.0\n    for i in range(8):\n"
                    "        acc += x[i] * w[i]\n    return acc\n")
    import vichls

    hw = vichls.customize(load_file(path)["mac"]).build(target="fpga")
    assert hw.report["resources"]["dsp"] == 1
    assert "vichls_mul" not in hw.verilog  # combinational: no pipelined multiplier cell
