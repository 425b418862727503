"""vichls.onnx.quant against onnxruntime's CPU provider, bit for bit.

Each numpy reference is compared with onnxruntime on seeded random cases (int8 and uint8,
per-tensor and per-channel), including cases built to tell apart the candidate float
orderings (division versus reciprocal in QuantizeLinear, the order of the combined scale's
operations, the fused multiply-adds of QLinearAdd). Whole models made in the test and
quantized with onnxruntime's quantizer (QDQ and operator forms) are evaluated node by node
with the references on the graph onnxruntime actually runs, and compared with onnxruntime.
The requantization plans are checked against the reference over their accumulator ranges,
and a quantized dense layer (and a QLinearAdd) compiled from the generated kernel source is
compared with onnxruntime in its Python call, its CPU build and RTL simulation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vichls.onnx import quant as Q  # noqa: E402

TP = {np.dtype(np.int8): TensorProto.INT8, np.dtype(np.uint8): TensorProto.UINT8,
      np.dtype(np.int32): TensorProto.INT32, np.dtype(np.float32): TensorProto.FLOAT}
F32 = np.float32


def _model(nodes, inputs, outputs, inits=(), opset=21):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset),
                                                helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 10
    return m


def _vi(name, arr_or_dtype, shape=None):
    is_array = isinstance(arr_or_dtype, (np.ndarray, np.generic))
    dt = np.dtype(arr_or_dtype.dtype if is_array else arr_or_dtype)
    return helper.make_tensor_value_info(name, TP[dt], list(shape if shape is not None
                                                            else arr_or_dtype.shape))


def _init(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def _session(model_or_path, level=None, threads=1):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.log_severity_level = 3
    if level is not None:
        so.graph_optimization_level = level
    src = model_or_path if isinstance(model_or_path, str) else model_or_path.SerializeToString()
    return ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])


def _run(model, feeds):
    return _session(model).run(None, feeds)


def _rand(rng, dtype, shape):
    lo, hi = Q.qrange(dtype)
    return rng.integers(lo, hi + 1, shape).astype(dtype)


def _scale(rng, lo=-3.0, hi=-1.0, size=None):
    v = np.asarray(rng.uniform(0.5, 2.0, size) * 10.0 ** rng.uniform(lo, hi, size), F32)
    return v if size is not None else F32(v)


DTYPES = [np.dtype(np.int8), np.dtype(np.uint8)]


# --------------------------------------------------------------------------------------
# QuantizeLinear / DequantizeLinear
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("per_axis", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_quantize_linear_divides_and_rounds_half_to_even(dtype, per_axis):
    rng = np.random.default_rng(11 + per_axis)
    mism_recip = 0
    for _ in range(25):
        c = 3
        scale = _scale(rng, size=c if per_axis else None)
        zp = _rand(rng, dtype, c if per_axis else ())
        x = (rng.standard_normal((4, c, 64)) * 60 * np.max(scale)).astype(F32)
        sc = scale.reshape(1, -1, 1) if per_axis else scale
        ties = ((rng.integers(-200, 200, (4, c, 16)) + 0.5) * sc).astype(F32)
        x[..., :16] = ties
        x[0, 0, 16:21] = [np.inf, -np.inf, 1e30, -1e30, np.nan]  # NaN: the lower bound
        m = _model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1)],
                   [_vi("x", x)], [_vi("y", dtype, x.shape)], [_init("s", scale), _init("z", zp)])
        y, = _run(m, {"x": x})
        ref = Q.quantize_linear(x, scale, zp, axis=1)
        assert ref.dtype == y.dtype and np.array_equal(ref, y)
        lo, hi = Q.qrange(dtype)
        zpb = zp.astype(np.int32).reshape(1, -1, 1) if per_axis else np.int32(zp)
        with np.errstate(over="ignore", invalid="ignore"):
            recip = np.clip(np.rint(x * (F32(1) / sc)) + zpb, lo, hi).astype(dtype)
        mism_recip += int((recip != y).sum())
    assert mism_recip > 0  # the cases do tell division from multiplication by 1/scale


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dequantize_linear(dtype):
    rng = np.random.default_rng(12)
    for per_axis in (False, True):
        scale = _scale(rng, size=5 if per_axis else None)
        zp = _rand(rng, dtype, 5 if per_axis else ())
        q = _rand(rng, dtype, (3, 5, 40))
        m = _model([helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)],
                   [_vi("q", q)], [_vi("y", np.float32, q.shape)],
                   [_init("s", scale), _init("z", zp)])
        y, = _run(m, {"q": q})
        ref = Q.dequantize_linear(q, scale, zp, axis=1)
        assert np.array_equal(ref.view(np.int32), y.view(np.int32))


# --------------------------------------------------------------------------------------
# MatMulInteger / QLinearMatMul / QGemm
# --------------------------------------------------------------------------------------

def _weight_dtypes(adt):
    return [np.dtype(np.int8), np.dtype(np.uint8)] if adt == np.uint8 else [np.dtype(np.int8)]


@pytest.mark.parametrize("adt", DTYPES, ids=str)
def test_matmul_integer(adt):
    rng = np.random.default_rng(21)
    for trial in range(12):
        for bdt in _weight_dtypes(adt):
            M, K, N = (int(v) for v in rng.integers(1, 40, 3))
            a, b = _rand(rng, adt, (M, K)), _rand(rng, bdt, (K, N))
            za = _rand(rng, adt, ())
            zb = _rand(rng, bdt, N if trial % 2 else ())
            m = _model([helper.make_node("MatMulInteger", ["a", "b", "za", "zb"], ["y"])],
                       [_vi("a", a), _vi("b", b)], [_vi("y", np.int32, (M, N))],
                       [_init("za", za), _init("zb", zb)])
            y, = _run(m, {"a": a, "b": b})
            assert np.array_equal(Q.matmul_integer(a, b, za, zb), y)


@pytest.mark.parametrize("adt", DTYPES, ids=str)
def test_qlinear_matmul_random(adt):
    rng = np.random.default_rng(22)
    for trial in range(30):
        bdt = _weight_dtypes(adt)[trial % len(_weight_dtypes(adt))]
        M, K, N = int(rng.integers(1, 9)), int(rng.integers(1, 300)), int(rng.integers(1, 40))
        a, b = _rand(rng, adt, (M, K)), _rand(rng, bdt, (K, N))
        per_col = trial % 3 == 0
        sa, sy = _scale(rng), _scale(rng, -1, 1)
        sb = _scale(rng, size=N if per_col else None)
        za, zy = _rand(rng, adt, ()), _rand(rng, adt, ())
        zb = (np.zeros(N if per_col else (), bdt) if bdt == np.int8
              else _rand(rng, bdt, N if per_col else ()))
        const_b = trial % 2 == 0
        inits = [_init(n, v) for n, v in (("sa", sa), ("za", za), ("sb", sb), ("zb", zb),
                                          ("sy", sy), ("zy", zy))]
        inputs = [_vi("a", a)]
        feeds = {"a": a}
        if const_b:
            inits.append(_init("b", b))
        else:
            inputs.append(_vi("b", b))
            feeds["b"] = b
        m = _model([helper.make_node("QLinearMatMul",
                                     ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])],
                   inputs, [_vi("y", adt, (M, N))], inits)
        y, = _run(m, feeds)
        assert np.array_equal(Q.qlinear_matmul(a, sa, za, b, sb, zb, sy, zy), y), trial


def test_qlinear_matmul_combined_scale_order():
    """Scales whose combined value differs in float32 with the order of the operations, and
    accumulators where that changes the rounding: only ``(sa * sb) / sy`` matches."""
    rng = np.random.default_rng(23)
    accs = np.arange(-16000, 16001)
    others = {"sa*(sb/sy)": lambda a, b, y: a * (b / y), "(sa/sy)*sb": lambda a, b, y: a / y * b}
    told = {k: 0 for k in others}
    cases = 0
    while cases < 12:
        sa, sb = F32(rng.uniform(0.01, 0.1)), F32(rng.uniform(0.01, 0.1))
        sy = F32(sa * sb / rng.uniform(0.004, 0.0075))
        s = Q.output_scales(sa, sb, sy)[0]
        ref = Q.requantize(accs, s, np.int8(0), np.int8)
        diff = np.zeros(accs.shape, bool)
        for f in others.values():
            diff |= Q.requantize(accs, F32(f(sa, sb, sy)), np.int8(0), np.int8) != ref
        if not diff.any():
            continue
        cases += 1
        acc = accs[diff]
        a1 = np.clip(np.rint(acc / 127), -128, 127).astype(np.int64)
        a = np.stack([a1, acc - 127 * a1], 1).astype(np.int8)
        b = np.array([[127], [1]], np.int8)
        inits = [_init(n, v) for n, v in (("sa", sa), ("za", np.int8(0)), ("sb", sb),
                                          ("zb", np.int8(0)), ("sy", sy), ("zy", np.int8(0)),
                                          ("b", b))]
        m = _model([helper.make_node("QLinearMatMul",
                                     ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])],
                   [_vi("a", a)], [_vi("y", np.int8, (len(acc), 1))], inits)
        y, = _run(m, {"a": a})
        assert np.array_equal(Q.qlinear_matmul(a, sa, 0, b, sb, 0, sy, np.int8(0)), y)
        for k, f in others.items():
            told[k] += int((Q.requantize(acc, F32(f(sa, sb, sy)), 0, np.int8) != y[:, 0]).sum())
    assert all(v > 0 for v in told.values()), told


def test_requantize_rounds_the_accumulator_to_float32_first():
    """|acc| > 2**24: float32(acc) rounds before the multiplication (MLAS cvtdq2ps)."""
    rng = np.random.default_rng(24)
    K = 1100
    a = np.full((64, K), 255, np.uint8)
    a[:, :64] = rng.integers(0, 256, (64, 64))
    b = np.full((K, 3), 127, np.int8)
    acc = a.astype(np.int64) @ b.astype(np.int64)
    assert acc.min() > 2**24
    sa, sb = F32(1.0), F32(1.0)
    sy = F32(acc.max() / 100.0)
    inits = [_init(n, v) for n, v in (("sa", sa), ("za", np.uint8(0)), ("sb", sb),
                                      ("zb", np.int8(0)), ("sy", sy), ("zy", np.uint8(0)),
                                      ("b", b))]
    m = _model([helper.make_node("QLinearMatMul",
                                 ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])],
               [_vi("a", a)], [_vi("y", np.uint8, (64, 3))], inits)
    y, = _run(m, {"a": a})
    assert np.array_equal(Q.qlinear_matmul(a, sa, np.uint8(0), b, sb, np.int8(0), sy,
                                           np.uint8(0)), y)


@pytest.mark.parametrize("adt", DTYPES, ids=str)
def test_qgemm(adt):
    rng = np.random.default_rng(25)
    for trial in range(16):
        M, K, N = int(rng.integers(1, 8)), int(rng.integers(1, 200)), int(rng.integers(1, 24))
        ta, tb = trial % 2, (trial // 2) % 2
        a = _rand(rng, adt, (K, M) if ta else (M, K))
        b = _rand(rng, np.int8, (N, K) if tb else (K, N))
        per_col = trial % 3 == 0
        sa, sb = _scale(rng), _scale(rng, size=N if per_col else None)
        za = _rand(rng, adt, ())
        zb = np.zeros(N if per_col else (), np.int8)
        c = rng.integers(-5000, 5000, N).astype(np.int32)
        float_out = trial % 4 == 3
        names = ["a", "sa", "za", "b", "sb", "zb", "c"]
        inits = [_init(n, v) for n, v in (("sa", sa), ("za", za), ("sb", sb), ("zb", zb),
                                          ("b", b), ("c", c))]
        if float_out:
            out = _vi("y", np.float32, (M, N))
            sy = zy = None
        else:
            sy, zy = _scale(rng, -1, 1), _rand(rng, adt, ())
            names += ["sy", "zy"]
            inits += [_init("sy", sy), _init("zy", zy)]
            out = _vi("y", adt, (M, N))
        m = _model([helper.make_node("QGemm", names, ["y"], domain="com.microsoft",
                                     transA=ta, transB=tb)], [_vi("a", a)], [out], inits)
        y, = _run(m, {"a": a})
        ref = Q.qgemm(a, sa, za, b, sb, zb, c, sy, zy, trans_a=ta, trans_b=tb)
        assert ref.dtype == y.dtype and np.array_equal(ref, y), trial


# --------------------------------------------------------------------------------------
# ConvInteger / QLinearConv
# --------------------------------------------------------------------------------------

def _conv_case(rng, adt, wdt, trial):
    group = [1, 1, 2, 0][trial % 4]  # 0: depthwise
    cin = int(rng.integers(1, 4)) * (2 if group == 2 else 1)
    if group == 0:
        cin = int(rng.integers(2, 9))
        group, m = cin, cin
    else:
        m = int(rng.integers(1, 5)) * group
    k = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    hw = [int(rng.integers(max(k), 9)), int(rng.integers(max(k), 9))]
    attrs = dict(pads=[int(v) for v in rng.integers(0, 2, 4)],
                 strides=[int(v) for v in rng.integers(1, 3, 2)],
                 dilations=[1, 1] if trial % 5 else [2, 1], group=group)
    if attrs["dilations"][0] == 2:
        hw[0] = max(hw[0], 2 * k[0])
    x = _rand(rng, adt, (int(rng.integers(1, 3)), cin, *hw))
    w = _rand(rng, wdt, (m, cin // group, *k))
    return x, w, attrs


@pytest.mark.parametrize("adt", DTYPES, ids=str)
def test_conv_integer(adt):
    rng = np.random.default_rng(31)
    for trial in range(12):
        x, w, attrs = _conv_case(rng, adt, np.uint8 if adt == np.uint8 else np.int8, trial)
        if attrs["group"] != 1:  # ConvInteger on the CPU takes group 1 only
            attrs["group"] = 1
            w = _rand(rng, w.dtype, (w.shape[0], x.shape[1], *w.shape[2:]))
        zx, zw = _rand(rng, adt, ()), _rand(rng, w.dtype, ())
        m = _model([helper.make_node("ConvInteger", ["x", "w", "zx", "zw"], ["y"], **attrs)],
                   [_vi("x", x)], [helper.make_tensor_value_info("y", TensorProto.INT32, None)],
                   [_init("w", w), _init("zx", zx), _init("zw", zw)], opset=17)
        y, = _run(m, {"x": x})
        assert np.array_equal(Q.conv_integer(x, w, zx, zw, **attrs), y), trial


@pytest.mark.parametrize("adt", DTYPES, ids=str)
def test_qlinear_conv(adt):
    """Per-tensor and per-channel, with and without bias, groups and depthwise, constant
    int8 weights of zero point 0 (MLAS's symmetric convolution kernels) and not."""
    rng = np.random.default_rng(32)
    for trial in range(40):
        wdt = _weight_dtypes(adt)[trial % len(_weight_dtypes(adt))]
        x, w, attrs = _conv_case(rng, adt, wdt, trial)
        m_out = w.shape[0]
        per_ch = trial % 3 != 0
        sx, sy = _scale(rng), _scale(rng, -1, 1)
        sw = _scale(rng, size=m_out if per_ch else None)
        zx, zy = _rand(rng, adt, ()), _rand(rng, adt, ())
        zw = (np.zeros(m_out if per_ch else (), wdt) if wdt == np.int8 and trial % 4 != 1
              else np.full(m_out if per_ch else (), _rand(rng, wdt, ()), wdt))
        bias = rng.integers(-20000, 20000, m_out).astype(np.int32) if trial % 2 else None
        names = ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy"] + (["b"] if bias is not None
                                                                   else [])
        inits = [_init(n, v) for n, v in (("sx", sx), ("zx", zx), ("w", w), ("sw", sw),
                                          ("zw", zw), ("sy", sy), ("zy", zy))]
        if bias is not None:
            inits.append(_init("b", bias))
        m = _model([helper.make_node("QLinearConv", names, ["y"], **attrs)], [_vi("x", x)],
                   [helper.make_tensor_value_info("y", TP[np.dtype(adt)], None)], inits)
        y, = _run(m, {"x": x})
        ref = Q.qlinear_conv(x, sx, zx, w, sw, zw, sy, zy, bias, **attrs)
        assert ref.shape == y.shape and np.array_equal(ref, y), (trial, attrs)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_qlinear_global_average_pool(dtype):
    rng = np.random.default_rng(33)
    for trial in range(12):
        hw = [int(v) for v in rng.integers(1, 12, 2)]
        x = _rand(rng, dtype, (2, int(rng.integers(1, 20)), *hw))
        sx, sy = _scale(rng), _scale(rng, -3, -1)
        zx, zy = _rand(rng, dtype, ()), _rand(rng, dtype, ())
        m = _model([helper.make_node("QLinearGlobalAveragePool", ["x", "sx", "zx", "sy", "zy"],
                                     ["y"], domain="com.microsoft")],
                   [_vi("x", x)], [helper.make_tensor_value_info("y", TP[dtype], None)],
                   [_init(n, v) for n, v in (("sx", sx), ("zx", zx), ("sy", sy), ("zy", zy))],
                   opset=17)
        y, = _run(m, {"x": x})
        assert np.array_equal(Q.qlinear_global_average_pool(x, sx, zx, sy, zy), y), trial


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_qlinear_average_pool(dtype):
    rng = np.random.default_rng(34)
    for trial in range(16):
        k = [int(v) for v in rng.integers(1, 4, 2)]
        attrs = dict(kernel_shape=k, strides=[int(v) for v in rng.integers(1, 3, 2)],
                     pads=[int(rng.integers(0, k[i % 2])) for i in range(4)],
                     count_include_pad=trial % 2)
        x = _rand(rng, dtype, (1, int(rng.integers(1, 6)), int(rng.integers(3, 10)),
                               int(rng.integers(3, 10))))
        sx, sy = _scale(rng), _scale(rng, -3, -1)
        zx, zy = _rand(rng, dtype, ()), _rand(rng, dtype, ())
        m = _model([helper.make_node("QLinearAveragePool", ["x", "sx", "zx", "sy", "zy"],
                                     ["y"], domain="com.microsoft", **attrs)],
                   [_vi("x", x)], [helper.make_tensor_value_info("y", TP[dtype], None)],
                   [_init(n, v) for n, v in (("sx", sx), ("zx", zx), ("sy", sy), ("zy", zy))],
                   opset=17)
        y, = _run(m, {"x": x})
        assert np.array_equal(Q.qlinear_average_pool(x, sx, zx, sy, zy, **attrs), y), \
            (trial, attrs)


# --------------------------------------------------------------------------------------
# QLinearAdd
# --------------------------------------------------------------------------------------

def _qladd_model(dt, sa, za, sb, zb, sc, zc, shape_a, shape_b, shape_c):
    return _model([helper.make_node("QLinearAdd", ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"],
                                    ["c"], domain="com.microsoft")],
                  [_vi("a", dt, shape_a), _vi("b", dt, shape_b)], [_vi("c", dt, shape_c)],
                  [_init(n, v) for n, v in (("sa", sa), ("za", za), ("sb", sb), ("zb", zb),
                                            ("sc", sc), ("zc", zc))], opset=17)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_qlinear_add_every_pair(dtype):
    """All 65536 input pairs, same-shape operands, random scales and zero points."""
    rng = np.random.default_rng(41)
    lo, hi = Q.qrange(dtype)
    v = np.arange(lo, hi + 1).astype(dtype)
    a, b = np.repeat(v, 256), np.tile(v, 256)
    for _ in range(8):
        sa, sb, sc = _scale(rng), _scale(rng), _scale(rng)
        za, zb, zc = (_rand(rng, dtype, ()) for _ in range(3))
        m = _qladd_model(dtype, sa, za, sb, zb, sc, zc, [65536], [65536], [65536])
        y, = _run(m, {"a": a, "b": b})
        assert np.array_equal(Q.qlinear_add(a, sa, za, b, sb, zb, sc, zc), y)


def _plain_add(a, sa, za, b, sb, zb, sc, zc, dt):
    """The FMA-free float formula (for telling the candidates apart)."""
    ra, rb = F32(F32(sa) / F32(sc)), F32(F32(sb) / F32(sc))
    f = F32(F32(zc) - F32(F32(ra * F32(za)) + F32(rb * F32(zb))))
    u = F32(F32(a.astype(F32) * ra) + F32(F32(b.astype(F32) * rb) + f))
    lo, hi = Q.qrange(dt)
    return np.clip(np.rint(u), lo, hi).astype(dt)


def test_qlinear_add_fused_multiply_adds_and_scalar_operands():
    """Scales chosen where the FMA-free formula differs; one-element operands on either
    side (onnxruntime swaps the operands when ``a`` is the one-element one)."""
    rng = np.random.default_rng(42)
    told = cases = 0
    for dt in DTYPES * 6:
        lo, hi = Q.qrange(dt)
        v = np.arange(lo, hi + 1).astype(dt)
        for _ in range(500):
            sa, sb, sc = _scale(rng), _scale(rng), _scale(rng)
            za, zb, zc = (_rand(rng, dt, ()) for _ in range(3))
            a, b = np.repeat(v, 256), np.tile(v, 256)
            ref = Q.qlinear_add(a, sa, za, b, sb, zb, sc, zc)
            if np.array_equal(ref, _plain_add(a, sa, za, b, sb, zb, sc, zc, dt)):
                continue
            cases += 1
            y, = _run(_qladd_model(dt, sa, za, sb, zb, sc, zc, [65536], [65536], [65536]),
                      {"a": a, "b": b})
            assert np.array_equal(ref, y)
            told += int((_plain_add(a, sa, za, b, sb, zb, sc, zc, dt) != y).sum())
            for scalar in ("a", "b"):
                s = v[rng.integers(0, 256, 4)]
                for sv in s:
                    one = np.array([sv], dt)
                    shapes = ([1], [256], [256]) if scalar == "a" else ([256], [1], [256])
                    feeds = {"a": one, "b": v} if scalar == "a" else {"a": v, "b": one}
                    y, = _run(_qladd_model(dt, sa, za, sb, zb, sc, zc, *shapes), feeds)
                    assert np.array_equal(
                        Q.qlinear_add(feeds["a"], sa, za, feeds["b"], sb, zb, sc, zc), y)
            break
    assert cases >= 10 and told > 0


# --------------------------------------------------------------------------------------
# whole quantized models, both formats
# --------------------------------------------------------------------------------------

def _quantized(tmp_path, model, reader, fmt, act, wt, per_channel):
    """``model`` quantized by onnxruntime's quantize_static: (the graph onnxruntime runs,
    at its EXTENDED level, without the hardware-specific layout changes of the highest
    level, which change no value; a session at the default level and threads, as a user
    runs it)."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    src, dst = str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx")
    onnx.save(model, src)
    quantize_static(src, dst, reader, quant_format=QuantFormat[fmt],
                    activation_type=QuantType[act], weight_type=QuantType[wt],
                    per_channel=per_channel)
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = str(tmp_path / "opt.onnx")
    ort.InferenceSession(dst, so, providers=["CPUExecutionProvider"])
    return onnx.load(str(tmp_path / "opt.onnx")), _session(dst, threads=0)


def _float_model(rng):
    inits = []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr, np.float32), name))
        return name

    def W(*shape, s=0.3):
        return rng.standard_normal(shape) * s

    n = [helper.make_node("Conv", ["x", init("w1", W(8, 3, 3, 3)), init("b1", W(8, s=0.1))],
                          ["c1"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c1"], ["r1"]),
         helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("Conv", ["p1", init("w2", W(8, 8, 3, 3, s=0.2)),
                                   init("b2", W(8, s=0.1))], ["c2"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c2"], ["r2"]),
         helper.make_node("Add", ["r2", "p1"], ["a2"]),
         helper.make_node("Conv", ["a2", init("w3", W(8, 1, 3, 3))], ["c3"], pads=[1, 1, 1, 1],
                          group=8),
         helper.make_node("Relu", ["c3"], ["r3"]),
         helper.make_node("AveragePool", ["r3"], ["ap"], kernel_shape=[3, 3], strides=[2, 2],
                          pads=[1, 1, 1, 1]),
         helper.make_node("GlobalAveragePool", ["ap"], ["gp"]),
         helper.make_node("Flatten", ["gp"], ["f"]),
         helper.make_node("MatMul", ["f", init("wm", W(8, 16, s=0.3))], ["mm"]),
         helper.make_node("Add", ["mm", init("bm", W(16, s=0.1))], ["mmb"]),
         helper.make_node("Relu", ["mmb"], ["mr"]),
         helper.make_node("Gemm", ["mr", init("wg", W(6, 16)), init("bg", W(6, s=0.1))], ["y"],
                          transB=1)]
    m = helper.make_model(
        helper.make_graph(n, "net", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                   [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6])],
                          initializer=inits),
        opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 9
    return m


def _maxpool_int(x, kernel_shape, strides, pads=None, **_):
    kh, kw = kernel_shape
    sh, sw = strides
    assert not pads or not any(pads)
    n, c, h, w = x.shape
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.full((n, c, oh, ow), -np.inf if x.dtype == np.float32 else np.iinfo(x.dtype).min,
                  x.dtype)
    for i in range(kh):
        for j in range(kw):
            out = np.maximum(out, x[:, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw])
    return out


def _evaluate(model, feeds):
    """Evaluate an onnxruntime-optimized quantized graph node by node with the references.
    Float operators whose float32 result is exactly defined (Add, Relu, MaxPool) are
    evaluated in float32; any other (a float Conv, MatMul, Gemm) is refused."""
    env = dict(feeds)
    for t in model.graph.initializer:
        env[t.name] = numpy_helper.to_array(t)
    for node in model.graph.node:
        ins = [env[i] if i else None for i in node.input]
        at = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        op = node.op_type
        if op == "QuantizeLinear":
            out = Q.quantize_linear(ins[0], ins[1], ins[2], axis=at.get("axis", 1))
        elif op == "DequantizeLinear":
            out = Q.dequantize_linear(ins[0], ins[1], ins[2], axis=at.get("axis", 1))
        elif op == "Add" and ins[0].dtype == np.float32:
            out = (ins[0] + ins[1]).astype(np.float32)  # one IEEE addition, as MLAS's
        elif op == "Relu" and ins[0].dtype == np.float32:
            out = np.maximum(ins[0], F32(0))
        elif op == "QLinearConv":
            out = Q.qlinear_conv(*ins[:8], ins[8] if len(ins) > 8 else None,
                                 pads=at.get("pads"), strides=at.get("strides"),
                                 dilations=at.get("dilations"), group=at.get("group", 1))
        elif op == "QLinearMatMul":
            out = Q.qlinear_matmul(*ins)
        elif op == "QLinearAdd":
            out = Q.qlinear_add(*ins)
        elif op == "QGemm":
            ins += [None] * (9 - len(ins))
            out = Q.qgemm(*ins[:6], c=ins[6], y_scale=ins[7], y_zero_point=ins[8],
                          trans_a=at.get("transA", 0), trans_b=at.get("transB", 0),
                          alpha=at.get("alpha", 1.0))
        elif op == "QLinearGlobalAveragePool":
            out = Q.qlinear_global_average_pool(*ins, channels_last=at.get("channels_last", 0))
        elif op == "QLinearAveragePool":
            assert not at.get("channels_last", 0) and not at.get("ceil_mode", 0)
            out = Q.qlinear_average_pool(*ins, kernel_shape=at["kernel_shape"],
                                         strides=at.get("strides"), pads=at.get("pads"),
                                         count_include_pad=at.get("count_include_pad", 0))
        elif op == "MaxPool":  # exact on floats too (a maximum)
            out = _maxpool_int(ins[0], **at)
        elif op == "Flatten":
            x = ins[0]
            ax = at.get("axis", 1)
            out = x.reshape(int(np.prod(x.shape[:ax])), -1)
        elif op == "Reshape":
            out = ins[0].reshape(ins[1])
        else:
            raise AssertionError(f"no reference for {op} ({node.name})")
        env[node.output[0]] = out
    return [env[o.name] for o in model.graph.output]


class _Reader:
    def __init__(self, rng, n=12):
        self.items = iter([{"x": rng.standard_normal((1, 3, 8, 8)).astype(np.float32)}
                           for _ in range(n)])

    def get_next(self):
        return next(self.items, None)


QUANT_CASES = [("QDQ", "QUInt8", "QInt8", False), ("QDQ", "QUInt8", "QInt8", True),
               ("QDQ", "QUInt8", "QUInt8", False), ("QOperator", "QUInt8", "QInt8", True),
               ("QOperator", "QUInt8", "QUInt8", False), ("QOperator", "QInt8", "QInt8", False),
               ("QOperator", "QInt8", "QInt8", True)]


@pytest.mark.parametrize("fmt,act,wt,per_channel", QUANT_CASES)
def test_quantized_models_match_onnxruntime(tmp_path, fmt, act, wt, per_channel):
    rng = np.random.default_rng(51)
    opt, sess = _quantized(tmp_path, _float_model(rng), _Reader(rng), fmt, act, wt,
                           per_channel)
    for k in range(6):
        x = (rng.standard_normal((1, 3, 8, 8)) * (1 + k)).astype(np.float32)
        y, = sess.run(None, {"x": x})
        ref, = _evaluate(opt, {"x": x})
        assert np.array_equal(ref.view(np.int32), y.view(np.int32)), k


def test_int8_qdq_models_keep_float_operators():
    """A finding kept as a test: with int8 activations in QDQ form, onnxruntime's int8 to
    uint8 rewrite leaves some DequantizeLinear -> float op -> QuantizeLinear groups (MaxPool,
    Conv, Add) unfused, so part of the model runs in float32 on MLAS's float kernels."""
    import tempfile

    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    rng = np.random.default_rng(52)
    with tempfile.TemporaryDirectory() as d:
        src, dst = str(Path(d) / "f.onnx"), str(Path(d) / "q.onnx")
        onnx.save(_float_model(rng), src)
        quantize_static(src, dst, _Reader(rng), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
        so = ort.SessionOptions()
        so.log_severity_level = 3
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        so.optimized_model_filepath = str(Path(d) / "opt.onnx")
        ort.InferenceSession(dst, so, providers=["CPUExecutionProvider"])
        ops = [n.op_type for n in onnx.load(str(Path(d) / "opt.onnx")).graph.node]
    assert "Conv" in ops and "MaxPool" in ops and "QLinearConv" in ops


# --------------------------------------------------------------------------------------
# requantization plans
# --------------------------------------------------------------------------------------

def test_plans_agree_with_the_reference_over_their_whole_range():
    """Exhaustively over every accumulator of small ranges, and at random plus at every
    step (threshold) of large ones, both plan kinds equal ``requantize``."""
    rng = np.random.default_rng(61)
    kinds = set()
    for trial in range(15):
        dt = DTYPES[trial % 2]
        K = [4, 8, 16, 72, 200][trial % 5]
        w = np.clip(np.rint(rng.standard_normal((K, 4)) * 40), -127, 127).astype(np.int8)
        zx = int(_rand(rng, dt, ()))
        lo, hi = Q.accumulator_range(w, 0, dt, zx, axis=1)
        s = Q.output_scales(_scale(rng), _scale(rng, -3, -1, 4), _scale(rng, -2, 0))
        zy = _rand(rng, dt, ())
        for prefer in ("int", "float"):
            plan = Q.plan_requant(s, zy, dt, lo, hi, prefer=prefer)
            kinds.add(plan.kind)
            if plan.kind == "int" and plan.exceptions:
                kinds.add("int with exceptions")
            for c in range(4):
                if hi[c] - lo[c] < 1_000_000:
                    acc = np.arange(lo[c], hi[c] + 1)
                else:
                    thr = Q._thresholds(F32(s[c]), int(zy), dt, int(lo[c]), int(hi[c]))
                    acc = np.unique(np.concatenate([
                        rng.integers(lo[c], hi[c] + 1, 200_000), thr, thr - 1,
                        [lo[c], hi[c]]]).clip(lo[c], hi[c]))
                ref = Q.requantize(acc, s[c], zy, dt)
                assert np.array_equal(Q.apply_plan(plan, acc, np.full(acc.shape, c)), ref)
    assert kinds == {"int", "float", "int with exceptions"}


def test_plan_without_exceptions_falls_back_to_float():
    rng = np.random.default_rng(62)
    for _ in range(50):
        w = np.clip(np.rint(rng.standard_normal((72, 4)) * 40), -127, 127).astype(np.int8)
        lo, hi = Q.accumulator_range(w, 0, np.uint8, 128, axis=1)
        s = Q.output_scales(_scale(rng), _scale(rng, -3, -1, 4), _scale(rng, -2, 0))
        plan = Q.plan_requant(s, 7, np.uint8, lo, hi)
        if plan.kind == "int" and plan.exceptions:
            again = Q.plan_requant(s, 7, np.uint8, lo, hi, max_exceptions=0)
            assert again.kind == "float"
            return
    raise AssertionError("no case with exceptions")


def test_power_of_two_scale_needs_the_float_plan():
    """Exact ties (scale 0.5: 0.5 -> 0, 1.5 -> 2) cannot come from one multiply-add-shift."""
    plan = Q.plan_requant(F32(0.5), 0, np.int8, -1000, 1000)
    assert plan.kind == "float"
    acc = np.arange(-1000, 1001)
    assert np.array_equal(Q.apply_plan(plan, acc), Q.requantize(acc, F32(0.5), 0, np.int8))


def test_plan_refuses_accumulators_beyond_int32():
    with pytest.raises(OverflowError):
        Q.plan_requant(F32(0.01), 0, np.int8, -2**31 - 1, 0)


# --------------------------------------------------------------------------------------
# generated kernel source: Python call, CPU build and RTL against onnxruntime
# --------------------------------------------------------------------------------------

K_IN, N_OUT = 8, 4


def _dense_case(seed, per_channel):
    rng = np.random.default_rng(seed)
    w = rng.integers(-127, 128, (K_IN, N_OUT)).astype(np.int8)
    sa, sy = F32(0.02), F32(0.07)
    sw = _scale(rng, -3, -2, N_OUT if per_channel else None)
    za, zy = np.uint8(rng.integers(100, 156)), np.uint8(rng.integers(0, 256))
    bias = rng.integers(-3000, 3000, N_OUT).astype(np.int32)
    return w, sa, za, sw, sy, zy, bias


def _dense_source(name, w, za, plan, bias):
    mod, body = Q.requant_source(plan, "acc", "q", channel="n", indent=" " * 8)
    wl = w.astype(int).tolist()
    return "\n".join(
        [f"W_{name} = vichls.const({wl!r}, int8)",
         f"B_{name} = vichls.const({bias.astype(int).tolist()!r}, int32)"]
        + mod + ["", "", "@kernel",
                 f"def {name}(x: uint8[{K_IN}], y: uint8[{N_OUT}]):",
                 f"    for n in range({N_OUT}):",
                 f"        acc: int32 = B_{name}[n]",
                 f"        for k in range({K_IN}):",
                 f"            acc += (int32(x[k]) - {int(za)}) * int32(W_{name}[k, n])"]
        + body + ["        y[n] = q", ""])


def _add_source(name, plan, n):
    body = Q.qlinear_add_source(plan, "a[i]", "b[i]", "c_", indent=" " * 8)
    return "\n".join(["", "", "@kernel", f"def {name}(a: int8[{n}], b: int8[{n}], "
                      f"c: int8[{n}]):", f"    for i in range({n}):"] + body
                     + ["        c[i] = c_", ""])


def _exception_case():
    """A per-channel int8 plan (4 channels, 72-term accumulators) with exceptions, and
    accumulator vectors (channel i % 4) holding every exception, every step and its
    predecessor, and random values."""
    rng = np.random.default_rng(76)
    while True:
        w = np.clip(np.rint(rng.standard_normal((72, 4)) * 40), -127, 127).astype(np.int8)
        lo, hi = Q.accumulator_range(w, 0, np.int8, -3, axis=1)
        s = Q.output_scales(_scale(rng), _scale(rng, -3, -1, 4), _scale(rng, -2, 0))
        plan = Q.plan_requant(s, 5, np.int8, lo, hi)
        if plan.kind == "int" and sum(len(e) for e in plan.exceptions) >= 3:
            break
    special = [[a for a, _ in plan.exceptions[c]] for c in range(4)]
    for c in range(4):
        thr = Q._thresholds(F32(s[c]), 5, np.int8, int(lo[c]), int(hi[c]))
        thr = thr[(thr > lo[c]) & (thr <= hi[c])]
        special[c] += list(np.concatenate([thr, thr - 1]))
    args = []
    for k in range(4):
        acc = np.zeros((16, 4), np.int64)
        for c in range(4):
            pool = special[c][k * 16:(k + 1) * 16]
            acc[:, c] = rng.integers(lo[c], hi[c] + 1, 16)
            acc[:len(pool), c] = pool
        args.append(acc.reshape(-1).astype(np.int32))
    return plan, args


def test_generated_kernels_match_onnxruntime_on_cpu_and_rtl(tmp_path):
    """A quantized dense layer 8x4 (uint8 activations, const int8 weights, int32 bias) with
    the integer plan (per-channel scales) and with the float plan (per-tensor), and a
    QLinearAdd over 64 pairs: the Python call, the CPU build and the RTL simulation equal
    onnxruntime's QGemm / QLinearAdd outputs bit for bit; and a per-channel integer
    requantization with exceptions, fed its exceptions and steps, equals the reference."""
    from e2e import assert_outcome, run_batch
    from vichls.frontend.kernel import load_file

    header = ["import numpy as np", "import vichls",
              "from vichls import kernel, int8, uint8, int32, int64, float32, fixed, ufixed"]
    cases = {}
    parts = list(header)
    for name, seed, per_channel, prefer in (("dense_int", 71, True, "int"),
                                           ("dense_float", 72, False, "float")):
        w, sa, za, sw, sy, zy, bias = _dense_case(seed, per_channel)
        lo, hi = Q.accumulator_range(w, 0, np.uint8, za, bias=bias, axis=1)
        s = Q.output_scales(sa, sw, sy)
        plan = Q.plan_requant(s, zy, np.uint8, lo, hi, prefer=prefer)
        assert plan.kind == prefer
        cases[name] = (w, sa, za, sw, sy, zy, bias)
        parts.append(_dense_source(name, w, za, plan, bias))
    rng = np.random.default_rng(73)
    sa, sb, sc = _scale(rng), _scale(rng), _scale(rng)
    za, zb, zc = (_rand(rng, np.int8, ()) for _ in range(3))
    add_plan = Q.plan_qlinear_add(sa, za, sb, zb, sc, zc, np.int8)
    parts.append(_add_source("qladd", add_plan, 64))
    tmod, tbody = Q.qlinear_add_source(add_plan, "a[i]", "b[i]", "c_", prefix="qt",
                                       indent=" " * 8, table=True)
    parts += tmod + ["", "", "@kernel", "def qladd_table(a: int8[64], b: int8[64], "
                     "c: int8[64]):", "    for i in range(64):"] + tbody + ["        c[i] = c_", ""]
    exc_plan, exc_args = _exception_case()
    mod, body = Q.requant_source(exc_plan, "acc[i]", "q", channel="i % 4", prefix="rx",
                                 indent=" " * 8)
    parts += mod + ["", "", "@kernel", "def requant_exc(acc: int32[64], y: int8[64]):",
                    "    for i in range(64):"] + body + ["        y[i] = q", ""]
    path = tmp_path / "qkernels.py"
    path.write_text("\n".join(parts))
    kernels = load_file(path)

    items = []
    for name, (w, sa_, za_, sw, sy, zy, bias) in cases.items():
        xs = [rng.integers(0, 256, (1, K_IN)).astype(np.uint8) for _ in range(3)]
        xs[0][0, :] = 255
        m = _model([helper.make_node("QGemm", ["a", "sa", "za", "b", "sb", "zb", "c", "sy", "zy"],
                                     ["y"], domain="com.microsoft")],
                   [_vi("a", np.uint8, (1, K_IN))], [_vi("y", np.uint8, (1, N_OUT))],
                   [_init(n, v) for n, v in (("sa", sa_), ("za", za_), ("b", w), ("sb", sw),
                                             ("zb", np.zeros(np.shape(sw), np.int8)),
                                             ("c", bias), ("sy", sy), ("zy", zy))])
        sess = _session(m)
        for x in xs:
            want, = sess.run(None, {"a": x})
            y = np.zeros(N_OUT, np.uint8)
            kernels[name](x[0].copy(), y)
            assert np.array_equal(y, want[0]), name
        items.append((name, kernels[name], [(x[0].copy(), np.zeros(N_OUT, np.uint8))
                                            for x in xs]))
    v = np.arange(-128, 128).astype(np.int8)
    pairs = [(rng.choice(v, 64), rng.choice(v, 64)) for _ in range(3)]
    sess = _session(_qladd_model(np.int8, sa, za, sb, zb, sc, zc, [64], [64], [64]))
    for a, b in pairs:
        want, = sess.run(None, {"a": a, "b": b})
        for name in ("qladd", "qladd_table"):
            c = np.zeros(64, np.int8)
            kernels[name](a.copy(), b.copy(), c)
            assert np.array_equal(c, want), name
    for name in ("qladd", "qladd_table"):
        items.append((name, kernels[name], [(a.copy(), b.copy(), np.zeros(64, np.int8))
                                            for a, b in pairs]))
    for acc in exc_args:
        y = np.zeros(64, np.int8)
        kernels["requant_exc"](acc.copy(), y)
        s4 = np.asarray(exc_plan.scales, F32)
        want = Q.requantize(acc.reshape(16, 4), s4, np.int8(exc_plan.zero_point), np.int8)
        assert np.array_equal(y, want.reshape(-1))
    items.append(("requant_exc", kernels["requant_exc"],
                  [(acc.copy(), np.zeros(64, np.int8)) for acc in exc_args]))
    for out in run_batch(items).values():
        assert_outcome(out)


def test_qlinear_add_source_every_pair_python_call(tmp_path):
    """The generated QLinearAdd statements over all 65536 pairs (Python call) against the
    reference: int8 with same-shape operands (inline form), uint8 with ``a`` the one-element
    operand (table form)."""
    from vichls.frontend.kernel import load_file

    rng = np.random.default_rng(74)
    for dt, a_is_scalar in ((DTYPES[0], False), (DTYPES[1], True)):
        tname = dt.name
        lo, hi = Q.qrange(dt)
        v = np.arange(lo, hi + 1).astype(dt)
        if True:
            sa, sb, sc = _scale(rng), _scale(rng), _scale(rng)
            za, zb, zc = (_rand(rng, dt, ()) for _ in range(3))
            plan = Q.plan_qlinear_add(sa, za, sb, zb, sc, zc, dt, a_is_scalar=a_is_scalar)
            # the inline form for int8, the table form for uint8
            if a_is_scalar:
                mod, body = Q.qlinear_add_source(plan, "a[i]", "b[i]", "c_", indent=" " * 8,
                                                 table=True)
            else:
                mod, body = [], Q.qlinear_add_source(plan, "a[i]", "b[i]", "c_",
                                                     indent=" " * 8)
            src = "\n".join(["import vichls",
                             "from vichls import kernel, int8, uint8, int32, float32, fixed, "
                             "ufixed"] + mod + ["", "", "@kernel",
                             f"def add(a: {tname}[65536], b: {tname}[65536], "
                             f"c: {tname}[65536]):", "    for i in range(65536):"]
                            + body + ["        c[i] = c_", ""])
            path = tmp_path / f"add_{tname}_{a_is_scalar}.py"
            path.write_text(src)
            k = load_file(path)["add"]
            a, b = np.repeat(v, 256), np.tile(v, 256)
            c = np.zeros(65536, dt)
            k(a, b, c)
            if a_is_scalar:  # each a value as the one-element operand against every b
                want = np.concatenate([Q.qlinear_add(np.array([x], dt), sa, za, v, sb, zb, sc,
                                                     zc) for x in v])
            else:
                want = Q.qlinear_add(a, sa, za, b, sb, zb, sc, zc)
            assert np.array_equal(c, want), (tname, a_is_scalar)


def test_quantize_and_dequantize_source(tmp_path):
    from vichls.frontend.kernel import load_file

    rng = np.random.default_rng(75)
    parts = ["from vichls import kernel, int8, uint8, int32, float32, fixed"]
    params = []
    for i, dt in enumerate(DTYPES):
        s, zp = _scale(rng), _rand(rng, dt, ())
        params.append((dt, s, zp))
        parts += ["", "", "@kernel",
                  f"def qd{i}(x: float32[512], q: {dt.name}[512], d: float32[512]):",
                  "    for i in range(512):"]
        parts += Q.quantize_source(s, zp, dt, "x[i]", "q_", indent=" " * 8)
        parts += ["        q[i] = q_"]
        parts += Q.dequantize_source(s, zp, "q[i]", "d_", indent=" " * 8)
        parts += ["        d[i] = d_"]
    path = tmp_path / "qd.py"
    path.write_text("\n".join(parts) + "\n")
    ks = load_file(path)
    for i, (dt, s, zp) in enumerate(params):
        x = (rng.standard_normal(512) * 100 * s).astype(F32)
        x[:64] = ((rng.integers(-300, 300, 64) + 0.5) * s).astype(F32)
        x[64:68] = [np.inf, -np.inf, np.nan, 1e30]
        q = np.zeros(512, dt)
        d = np.zeros(512, F32)
        ks[f"qd{i}"](x, q, d)
        assert np.array_equal(q, Q.quantize_linear(x, s, zp))
        assert np.array_equal(d.view(np.int32), Q.dequantize_linear(q, s, zp).view(np.int32))


def _mlp(rng):
    inits = []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr, np.float32), name))
        return name

    n, prev = [], "x"
    for i, (k, m) in enumerate(((64, 32), (32, 16))):
        n += [helper.make_node("MatMul", [prev, init(f"w{i}", rng.standard_normal((k, m)) * 0.2)],
                               [f"m{i}"]),
              helper.make_node("Add", [f"m{i}", init(f"b{i}", rng.standard_normal(m) * 0.1)],
                               [f"a{i}"]),
              helper.make_node("Relu", [f"a{i}"], [f"r{i}"])]
        prev = f"r{i}"
    n.append(helper.make_node("Gemm", [prev, init("wg", rng.standard_normal((16, 5)) * 0.3),
                                       init("bg", rng.standard_normal(5) * 0.1)], ["y"]))
    m = helper.make_model(
        helper.make_graph(n, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                   [2, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
                          initializer=inits),
        opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 9
    return m


class _MlpReader:
    def __init__(self, rng, n=12):
        self.items = iter([{"x": rng.standard_normal((2, 64)).astype(np.float32)}
                           for _ in range(n)])

    def get_next(self):
        return next(self.items, None)


@pytest.mark.parametrize("fmt,act,wt,per_channel",
                         [("QDQ", "QInt8", "QInt8", False), ("QDQ", "QInt8", "QInt8", True),
                          ("QDQ", "QUInt8", "QInt8", True), ("QOperator", "QUInt8", "QUInt8",
                                                             False)])
def test_quantized_mlps_match_onnxruntime(tmp_path, fmt, act, wt, per_channel):
    """MLPs (MatMul, bias Add, Relu, Gemm); with int8 QDQ, onnxruntime leaves the bias
    Add in float32 between a DequantizeLinear pair and a QuantizeLinear (evaluated so)."""
    rng = np.random.default_rng(53)
    opt, sess = _quantized(tmp_path, _mlp(rng), _MlpReader(rng), fmt, act, wt, per_channel)
    for k in range(8):
        x = (rng.standard_normal((2, 64)) * (1 + k)).astype(np.float32)
        y, = sess.run(None, {"x": x})
        ref, = _evaluate(opt, {"x": x})
        assert np.array_equal(ref.view(np.int32), y.view(np.int32)), k
