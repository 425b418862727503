"""The integer arithmetic of onnxruntime's CPU provider for quantized ONNX operators.

Two halves:

1. numpy references that reproduce, bit for bit, what onnxruntime's CPU execution provider
   (its MLAS library, on an x86-64 machine with AVX2 and FMA) computes for
   ``QuantizeLinear``, ``DequantizeLinear``, ``MatMulInteger``, ``ConvInteger``,
   ``QLinearMatMul``, ``QLinearConv``, ``QGemm`` and ``QLinearAdd`` (int8 and uint8,
   per-tensor and per-channel scales);
2. plans and kernel-language source text for the requantizations, so that a code generator
   can emit them and the kernel's Python call, its CPU build and its RTL agree with
   onnxruntime bit for bit.

What onnxruntime computes (established from its source, MLAS's quantize.cpp,
qladd_avx2.cpp and the QLinearMatMul/QLinearConv/QGemm kernels, and checked by experiment:
tests/test_onnx_quant.py):

- ``QuantizeLinear``: ``v = x / scale`` (a float32 division, not a multiplication by the
  reciprocal), clamped in float to ``[qmin - zp, qmax - zp]``, rounded half to even, plus
  ``zp``. Per-axis: the same with each channel's scale and zero point.
- ``DequantizeLinear``: ``float32(int32(q) - zp) * scale``, one float32 multiplication.
- ``QLinearMatMul``/``QLinearConv``/``QGemm`` (``MlasRequantizeOutput``): the exact int32
  accumulator ``acc = sum((x - zx) * (w - zw)) + bias`` becomes
  ``clamp(round_half_even(float32(float32(acc) * s)) + zy, qmin, qmax)`` where the combined
  scale is computed once in float32 as ``s = (x_scale * w_scale[c]) / y_scale`` (in that
  order; ``QGemm``: ``(alpha * x_scale) * w_scale[c] / y_scale``), per output channel
  ``c`` for per-channel weights. ``float32(acc)`` rounds when ``|acc| > 2**24``.
- ``QLinearAdd`` (AVX2 kernel, compiled with floating-point contraction): with
  ``ra = float32(a_scale / c_scale)``, ``rb = float32(b_scale / c_scale)`` and
  ``F = float32(zc - fma(ra, za, float32(rb * zb)))``, the output is
  ``sat(round_half_even(fma(a, ra, fma(b, rb, F))))``. When ``a`` is the one-element
  operand, onnxruntime swaps the operands (the same formula with a and b exchanged).
- ``MatMulInteger``/``ConvInteger``: the exact int32 sum, nothing else.
- ``QLinearGlobalAveragePool``: ``acc = sum(x) - zx * N`` requantized as above with
  ``s = x_scale / (y_scale * float32(N))``; ``QLinearAveragePool``: float32 throughout
  (dequantize, sum in window order, divide by the count, ``round(y / y_scale + zy)``).
- ``MaxPool`` on int8/uint8 (the QDQ pair around it is dropped): the integer maximum.

A requantization ``acc -> q`` is monotone in ``acc``, so it is ``qmin`` plus the number of
its steps (thresholds) at or below ``acc``. ``plan_requant`` finds the thresholds of
onnxruntime's float function over the accumulator range the weights allow (bisection), and
looks for an integer multiply-add-shift ``(acc * M + R) >> S`` with the same thresholds
(linear constraints on M and R; a proof of equality, not a sample). Where float32 rounding of
the product lands exactly on a half and the tie goes the other way, no such M, R exist; the
plan then fits the exact product's thresholds and lists the few accumulators where the two
step counts differ, each corrected by +-1. Failing that (exact ties, e.g. a power-of-two
scale, or more than ``max_exceptions`` corrections) it plans the float32 mirror of
onnxruntime's arithmetic, exact by construction but dearer in hardware.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = [
    "ORT_SEMANTICS",
    "qrange", "fma_f32", "quantize_linear", "dequantize_linear", "output_scales",
    "requantize", "matmul_integer", "conv_integer", "qlinear_matmul", "qgemm",
    "qlinear_conv", "qlinear_add", "global_average_pool_scale", "qlinear_global_average_pool",
    "qlinear_average_pool",
    "accumulator_range", "IntRequant", "FloatRequant", "plan_requant", "apply_plan",
    "requant_source",
    "AddPlan", "plan_qlinear_add", "qlinear_add_source", "qlinear_add_table",
    "quantize_source", "dequantize_source",
]

#: The onnxruntime build the references were established against (its CPU provider's
#: choices depend on the processor: the QLinearAdd formula is that of the AVX2+FMA kernel).
ORT_SEMANTICS = "onnxruntime 1.32 CPU provider, x86-64 with AVX2/FMA (MLAS)"

_F32 = np.float32


def qrange(dtype) -> tuple[int, int]:
    """(qmin, qmax) of int8 or uint8 (a numpy dtype or its name)."""
    info = np.iinfo(np.dtype(dtype))
    if info.bits != 8:
        raise ValueError(f"quantized type must be int8 or uint8, not {np.dtype(dtype)}")
    return int(info.min), int(info.max)


def _f32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float32)


# --------------------------------------------------------------------------------------
# float32 fused multiply-add, exactly rounded
# --------------------------------------------------------------------------------------

def fma_f32(x, y, z) -> np.ndarray:
    """``round_to_float32(x * y + z)`` with one rounding (as the FMA instruction), for
    float32 arrays (broadcast). The product of two float32 values is exact in float64; the
    float64 sum's error is recovered exactly (TwoSum), and it only matters when the float64
    sum falls exactly on a float32 midpoint. Overflow and subnormal results are not needed
    here and not handled specially."""
    xd, yd, zd = (_f32(v).astype(np.float64) for v in (x, y, z))
    p = xd * yd
    s = p + zd
    bp = s - zd
    e = (p - bp) + (zd - (s - bp))
    r = s.astype(np.float32)
    r64 = r.astype(np.float64)
    toward = np.where(s > r64, _F32(np.inf), _F32(-np.inf)).astype(np.float32)
    other = np.nextafter(r, toward)
    mid = (s != r64) & (s == (r64 + other.astype(np.float64)) / 2)
    lo = np.minimum(r, other)
    hi = np.maximum(r, other)
    out = np.where(mid & (e > 0), hi, np.where(mid & (e < 0), lo, r))
    return np.asarray(out, dtype=np.float32)


# --------------------------------------------------------------------------------------
# QuantizeLinear / DequantizeLinear
# --------------------------------------------------------------------------------------

def _per_axis(param, ndim: int, axis: int) -> np.ndarray:
    """A scale or zero point shaped to broadcast along ``axis`` (a scalar stays one)."""
    p = np.asarray(param)
    if p.size == 1:
        return p.reshape(())
    shape = [1] * ndim
    shape[axis % ndim] = p.size
    return p.reshape(shape)


def quantize_linear(x, scale, zero_point=None, axis: int = 1, dtype=None) -> np.ndarray:
    """onnxruntime's QuantizeLinear (MlasQuantizeLinear): ``x / scale`` in float32, clamped
    to ``[qmin - zp, qmax - zp]``, rounded half to even, plus ``zp``. The output type is the
    zero point's (or ``dtype``, default uint8)."""
    x = _f32(x)
    out_dtype = np.dtype(dtype if dtype is not None else
                         (np.asarray(zero_point).dtype if zero_point is not None else np.uint8))
    lo, hi = qrange(out_dtype)
    s = _per_axis(_f32(scale), x.ndim, axis)
    zp = _per_axis(np.asarray(0 if zero_point is None else zero_point, np.int32), x.ndim, axis)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        v = x / s
    v = np.minimum(np.maximum(v, _f32(lo - zp)), _f32(hi - zp))  # SSE max/min: NaN -> bound
    v = np.where(np.isnan(v), _f32(lo - zp), v)
    return (np.rint(v).astype(np.int32) + zp).astype(out_dtype)


def dequantize_linear(q, scale, zero_point=None, axis: int = 1) -> np.ndarray:
    """onnxruntime's DequantizeLinear: ``float32(int32(q) - zp) * scale``."""
    q = np.asarray(q)
    s = _per_axis(_f32(scale), q.ndim, axis)
    zp = _per_axis(np.asarray(0 if zero_point is None else zero_point, np.int32), q.ndim, axis)
    return ((q.astype(np.int32) - zp).astype(np.float32) * s).astype(np.float32)


# --------------------------------------------------------------------------------------
# requantization of int32 accumulators (MlasRequantizeOutput)
# --------------------------------------------------------------------------------------

def output_scales(x_scale, w_scale, y_scale, alpha: float = 1.0) -> np.ndarray:
    """The combined float32 scale(s) of QLinearMatMul/QLinearConv (``(x * w[c]) / y``) and
    QGemm (``((alpha * x) * w[c]) / y``), one per weight scale."""
    xs = _F32(np.asarray(x_scale, np.float32).reshape(-1)[0])
    ys = _F32(np.asarray(y_scale, np.float32).reshape(-1)[0])
    ws = _f32(w_scale).reshape(-1)
    if alpha != 1.0:
        xs = _F32(_F32(alpha) * xs)
    return ((xs * ws).astype(np.float32) / ys).astype(np.float32)


def requantize(acc, scale, zero_point, dtype, axis: int = -1) -> np.ndarray:
    """``clamp(round_half_even(float32(float32(acc) * scale)) + zp)``: the requantization of
    MlasRequantizeOutput (and of the symmetric convolution kernels). ``scale`` is one float32
    or one per index of ``axis`` of ``acc`` (per output channel)."""
    acc = np.asarray(acc)
    if acc.dtype != np.int32:
        acc = acc.astype(np.int64)
        if acc.size and (acc.min() < -2**31 or acc.max() >= 2**31):
            raise OverflowError("accumulator outside int32")
        acc = acc.astype(np.int32)
    lo, hi = qrange(dtype)
    s = _f32(scale).reshape(-1)
    if s.size > 1:
        shape = [1] * acc.ndim
        shape[axis % acc.ndim] = s.size
        s = s.reshape(shape)
    else:
        s = s.reshape(())
    zp = int(np.asarray(zero_point).reshape(-1)[0])
    with np.errstate(over="ignore", invalid="ignore"):
        v = acc.astype(np.float32) * s
    v = np.minimum(np.maximum(v, _F32(lo - zp)), _F32(hi - zp))
    return (np.rint(v).astype(np.int32) + zp).astype(np.dtype(dtype))


# --------------------------------------------------------------------------------------
# integer matrix products and convolutions
# --------------------------------------------------------------------------------------

def _zp_column(zp, n: int) -> np.ndarray:
    z = np.asarray(0 if zp is None else zp).astype(np.int64).reshape(-1)
    return z.reshape(()) if z.size == 1 else z.reshape(n)


def matmul_integer(a, b, a_zero_point=None, b_zero_point=None) -> np.ndarray:
    """MatMulInteger: ``(a - za) @ (b - zb)`` exactly, as int32 (``zb`` may be per column).
    2-D operands, or a batch of them (numpy matmul broadcasting)."""
    a = np.asarray(a).astype(np.int64) - np.asarray(
        0 if a_zero_point is None else a_zero_point).astype(np.int64).reshape(())
    b = np.asarray(b)
    b = b.astype(np.int64) - _zp_column(b_zero_point, b.shape[-1])
    acc = a @ b
    if acc.size and (acc.min() < -2**31 or acc.max() >= 2**31):
        raise OverflowError("MatMulInteger accumulator outside int32")
    return acc.astype(np.int32)


def qlinear_matmul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
                   y_zero_point) -> np.ndarray:
    """QLinearMatMul: MatMulInteger then MlasRequantizeOutput with ``(sa * sb[n]) / sy``
    (per output column ``n`` when ``b``'s scale is per column)."""
    acc = matmul_integer(a, b, a_zero_point, b_zero_point)
    s = output_scales(a_scale, b_scale, y_scale)
    y_dtype = np.asarray(y_zero_point).dtype
    return requantize(acc, s, y_zero_point, y_dtype, axis=-1)


def qgemm(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c=None, y_scale=None,
          y_zero_point=None, trans_a: int = 0, trans_b: int = 0,
          alpha: float = 1.0) -> np.ndarray:
    """com.microsoft QGemm: ``acc = (a' - za) @ (b' - zb) + c`` (c: int32 bias, beta 1),
    then with ``y_scale`` the requantization with ``((alpha * sa) * sb[n]) / sy``; without,
    ``float32(acc) * ((alpha * sa) * sb[n])`` as float32."""
    a = np.asarray(a)
    b = np.asarray(b)
    if trans_a:
        a = a.T
    if trans_b:
        b = b.T
    acc = matmul_integer(a, b, a_zero_point, b_zero_point).astype(np.int64)
    if c is not None:
        acc = acc + np.asarray(c).astype(np.int64)
    acc = acc.astype(np.int32)  # MLAS adds in int32 (wrapping)
    if y_scale is None:
        xs = _F32(np.asarray(a_scale, np.float32).reshape(-1)[0])
        s = (_F32(_F32(alpha) * xs) * _f32(b_scale).reshape(-1)).astype(np.float32)
        return (acc.astype(np.float32) * (s if s.size > 1 else s[0])).astype(np.float32)
    s = output_scales(a_scale, b_scale, y_scale, alpha)
    return requantize(acc, s, y_zero_point, np.asarray(y_zero_point).dtype, axis=-1)


def conv_integer(x, w, x_zero_point=None, w_zero_point=None, *, pads=None, strides=None,
                 dilations=None, group: int = 1) -> np.ndarray:
    """ConvInteger (NCHW, any number of spatial dimensions): the exact int32 sum of
    ``(x - zx) * (w - zw)``; padding reads ``zx`` (it contributes nothing). ``zw`` may be
    per output channel."""
    x = np.asarray(x)
    w = np.asarray(w)
    nsp = x.ndim - 2
    pads = list(pads) if pads else [0] * (2 * nsp)
    strides = list(strides) if strides else [1] * nsp
    dilations = list(dilations) if dilations else [1] * nsp
    zx = np.asarray(0 if x_zero_point is None else x_zero_point).astype(np.int64).reshape(())
    zw = np.asarray(0 if w_zero_point is None else w_zero_point).astype(np.int64).reshape(-1)
    m = w.shape[0]
    xd = x.astype(np.int64) - zx
    wd = w.astype(np.int64) - (zw.reshape([m] + [1] * (w.ndim - 1)) if zw.size > 1 else zw[0])
    xp = np.pad(xd, [(0, 0), (0, 0)] + [(pads[i], pads[i + nsp]) for i in range(nsp)])
    n, cin = x.shape[:2]
    ksz = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - dilations[i] * (ksz[i] - 1) - 1) // strides[i] + 1
              for i in range(nsp)]
    cg = cin // group
    mg = m // group
    y = np.zeros([n, m] + out_sp, np.int64)
    for g in range(group):
        xg = xp[:, g * cg:(g + 1) * cg]
        wg = wd[g * mg:(g + 1) * mg]
        for kidx in np.ndindex(*ksz):
            sl = [slice(None), slice(None)]
            for i in range(nsp):
                start = kidx[i] * dilations[i]
                sl.append(slice(start, start + strides[i] * (out_sp[i] - 1) + 1, strides[i]))
            patch = xg[tuple(sl)]  # n, cg, *out
            wk = wg[(slice(None), slice(None)) + kidx]  # mg, cg
            y[:, g * mg:(g + 1) * mg] += np.einsum("nc...,mc->nm...", patch, wk)
    if y.size and (y.min() < -2**31 or y.max() >= 2**31):
        raise OverflowError("ConvInteger accumulator outside int32")
    return y.astype(np.int32)


def qlinear_conv(x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point,
                 bias=None, *, pads=None, strides=None, dilations=None,
                 group: int = 1) -> np.ndarray:
    """QLinearConv: ConvInteger plus the int32 bias, requantized per output channel with
    ``(sx * sw[m]) / sy``."""
    acc = conv_integer(x, w, x_zero_point, w_zero_point, pads=pads, strides=strides,
                       dilations=dilations, group=group).astype(np.int64)
    if bias is not None:
        b = np.asarray(bias).astype(np.int64)
        acc = acc + b.reshape([1, -1] + [1] * (acc.ndim - 2))
    s = output_scales(x_scale, w_scale, y_scale)
    return requantize(acc.astype(np.int32), s, y_zero_point,
                      np.asarray(y_zero_point).dtype, axis=1)


# --------------------------------------------------------------------------------------
# pooling (com.microsoft QLinearGlobalAveragePool, QLinearAveragePool)
# --------------------------------------------------------------------------------------

def global_average_pool_scale(x_scale, y_scale, image_size: int) -> np.float32:
    """MLAS's scale for QLinearGlobalAveragePool: ``x / (y * float32(image_size))``."""
    xs = _F32(np.asarray(x_scale, np.float32).reshape(-1)[0])
    ys = _F32(np.asarray(y_scale, np.float32).reshape(-1)[0])
    return _F32(xs / _F32(ys * _F32(image_size)))


def qlinear_global_average_pool(x, x_scale, x_zero_point, y_scale, y_zero_point,
                                channels_last: int = 0) -> np.ndarray:
    """QLinearGlobalAveragePool: per channel ``acc = sum(x) - zx * image_size`` (int32),
    requantized (MlasRequantizeOutput) with :func:`global_average_pool_scale`."""
    x = np.asarray(x)
    sp = tuple(range(1, x.ndim - 1)) if channels_last else tuple(range(2, x.ndim))
    image = int(np.prod([x.shape[d] for d in sp]))
    zx = int(np.asarray(x_zero_point).reshape(-1)[0])
    acc = x.astype(np.int64).sum(axis=sp, keepdims=True) - zx * image
    s = global_average_pool_scale(x_scale, y_scale, image)
    return requantize(acc.astype(np.int32), s, y_zero_point, np.asarray(y_zero_point).dtype)


def qlinear_average_pool(x, x_scale, x_zero_point, y_scale, y_zero_point, *, kernel_shape,
                         strides=None, pads=None, count_include_pad: int = 0) -> np.ndarray:
    """QLinearAveragePool (2-D, NCHW, ceil_mode 0): each input dequantized to
    ``float32(x - zx) * sx``, summed in float32 in window order (rows, then columns), divided
    by the element count (float32), then ``clamp(round_half_even(float32(y / sy + zy)))``:
    the zero point is added in float before the rounding (unlike QuantizeLinear)."""
    x = np.asarray(x)
    kh, kw = kernel_shape
    sh, sw = strides if strides else (1, 1)
    pt, pl, pb, pr = pads if pads else (0, 0, 0, 0)
    n, c, h, w = x.shape
    oh, ow = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
    dt = np.asarray(y_zero_point).dtype
    lo, hi = qrange(dt)
    xf = dequantize_linear(x, x_scale, x_zero_point)
    ys = _F32(np.asarray(y_scale, np.float32).reshape(-1)[0])
    zy = _F32(int(np.asarray(y_zero_point).reshape(-1)[0]))
    out = np.zeros((n, c, oh, ow), dt)
    for ph in range(oh):
        h0, h1 = max(ph * sh - pt, 0), min(ph * sh - pt + kh, h)
        for pw in range(ow):
            w0, w1 = max(pw * sw - pl, 0), min(pw * sw - pl + kw, w)
            acc = np.zeros((n, c), np.float32)
            for i in range(h0, h1):
                for j in range(w0, w1):
                    acc = (acc + xf[:, :, i, j]).astype(np.float32)
            count = kh * kw if count_include_pad else (h1 - h0) * (w1 - w0)
            v = (acc / _F32(count)).astype(np.float32)
            v = ((v / ys).astype(np.float32) + zy).astype(np.float32)
            out[:, :, ph, pw] = np.clip(np.rint(v), lo, hi).astype(dt)
    return out


# --------------------------------------------------------------------------------------
# QLinearAdd (com.microsoft), the AVX2 kernel
# --------------------------------------------------------------------------------------

def _add_constants(a_scale, a_zp, b_scale, b_zp, c_scale, c_zp):
    """(ra, rb, F) of MlasQLinearAddKernelAvx2Helper for primary operand a."""
    sc = _F32(c_scale)
    ra = _F32(_F32(a_scale) / sc)
    rb = _F32(_F32(b_scale) / sc)
    inner = fma_f32(ra, _F32(a_zp), _F32(rb * _F32(b_zp)))
    f = _F32(_F32(c_zp) - _F32(inner))
    return ra, rb, f


def _a_is_spanwise_scalar(shape_a, shape_b) -> bool:
    """Whether onnxruntime's broadcaster runs QLinearAdd with ``a`` as the one-element
    operand of each span: ``a`` is broadcast (size 1) along the innermost output dimension
    of size above 1 while ``b`` is not. (When ``b`` is the broadcast one, or neither is,
    the formula is the same-shape one.)"""
    out = np.broadcast_shapes(shape_a, shape_b)
    n = len(out)
    sa = (1,) * (n - len(shape_a)) + tuple(shape_a)
    sb = (1,) * (n - len(shape_b)) + tuple(shape_b)
    for d in range(n - 1, -1, -1):
        if out[d] == 1:
            continue
        return sa[d] == 1 and sb[d] != 1
    return False


def qlinear_add(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale,
                c_zero_point) -> np.ndarray:
    """QLinearAdd: ``sat(round_half_even(fma(a, ra, fma(b, rb, F))))`` (see the module
    docstring), with numpy broadcasting; where ``a`` is the operand broadcast along the
    innermost dimension, onnxruntime exchanges the operands' roles."""
    a = np.asarray(a)
    b = np.asarray(b)
    dt = a.dtype
    lo, hi = qrange(dt)
    scal = lambda v: np.asarray(v).reshape(-1)[0]  # noqa: E731
    sa, sb, sc = (_F32(scal(s)) for s in (a_scale, b_scale, c_scale))
    za, zb, zc = (int(scal(z)) for z in (a_zero_point, b_zero_point, c_zero_point))
    shape = np.broadcast_shapes(a.shape, b.shape)
    if _a_is_spanwise_scalar(a.shape, b.shape):
        prim, sec, ps, pz, ss, sz = b, a, sb, zb, sa, za
    else:
        prim, sec, ps, pz, ss, sz = a, b, sa, za, sb, zb
    rp, rs, f = _add_constants(ps, pz, ss, sz, sc, zc)
    t = fma_f32(np.broadcast_to(sec, shape).astype(np.float32), rs, f)
    u = fma_f32(np.broadcast_to(prim, shape).astype(np.float32), rp, t)
    out = np.rint(np.clip(u, lo, hi))  # cvtps2dq then saturating packs (|u| < 2**31 assumed)
    return out.astype(dt)


# --------------------------------------------------------------------------------------
# planning a requantization for hardware
# --------------------------------------------------------------------------------------

def accumulator_range(w, w_zero_point, x_dtype, x_zero_point, bias=None,
                      axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per output channel, the least and greatest accumulator
    ``sum((x - zx) * (w - zw)) + bias`` over every input the type of ``x`` allows (padding,
    which reads ``zx``, contributes 0 and stays inside). ``axis`` of ``w`` is the output
    channel (0 for Conv weights [M, C/g, kh, kw], 1 for MatMul weights [K, N])."""
    w = np.moveaxis(np.asarray(w).astype(np.int64), axis, 0)
    m = w.shape[0]
    w = w.reshape(m, -1)
    zw = np.asarray(0 if w_zero_point is None else w_zero_point).astype(np.int64).reshape(-1)
    wd = w - (zw.reshape(m, 1) if zw.size > 1 else zw[0])
    qlo, qhi = qrange(x_dtype)
    zx = int(np.asarray(x_zero_point).reshape(-1)[0])
    dlo, dhi = qlo - zx, qhi - zx
    lo = np.minimum(wd * dlo, wd * dhi).sum(axis=1)
    hi = np.maximum(wd * dlo, wd * dhi).sum(axis=1)
    if bias is not None:
        bb = np.asarray(bias).astype(np.int64).reshape(-1)
        lo = lo + bb
        hi = hi + bb
    return lo, hi


def _reference_levels(acc: np.ndarray, s: np.float32, zp: int, lo: int, hi: int):
    v = acc.astype(np.float32) * s
    v = np.minimum(np.maximum(v, _F32(lo - zp)), _F32(hi - zp))
    return np.rint(v).astype(np.int64) + zp


def _thresholds(s: np.float32, zp: int, dtype, a0: int, a1: int) -> np.ndarray:
    """For each output level k in (qmin, qmax]: the least accumulator in [a0, a1] whose
    requantization is >= k (a0 when all are, a1 + 1 when none is)."""
    qlo, qhi = qrange(dtype)
    ks = np.arange(qlo + 1, qhi + 1, dtype=np.int64)
    lo = np.full(ks.shape, a0, np.int64)
    hi = np.full(ks.shape, a1 + 1, np.int64)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        ok = _reference_levels(np.clip(mid, a0, a1), s, zp, qlo, qhi) >= ks
        hi = np.where(active & ok, mid, hi)
        lo = np.where(active & ~ok, mid + 1, lo)


def _constraints(thr, zp, dtype, a0, a1):
    """Linear constraints on (M, R) for ``h(acc) = (acc * M + R) >> S`` to step exactly at
    ``thr``: lists of (t, q) with ``t*M + R >= q * 2**S`` (A) and with
    ``t*M + R <= q * 2**S - 1`` (B)."""
    qlo, _ = qrange(dtype)
    A, B = [], []
    for i, t in enumerate(thr.tolist()):
        q = qlo + 1 + i - zp  # level before the zero point is added
        if t <= a0:
            A.append((a0, q))
        elif t > a1:
            B.append((a1, q))
        else:
            A.append((t, q))
            B.append((t - 1, q))
    return A, B


def _solve(A, B, S: int, s: float, max_m: int):
    """An (M, R) meeting the constraints for shift S, with 0 <= M <= max_m, or None. For a
    given M the constraints hold exactly when max over A of ``q*2**S - t*M`` is at most the
    min over B of ``q*2**S - 1 - t*M``, i.e. when every (A, B) pair does:
    ``M * (tB - tA) <= (qB - qA) * 2**S - 1``; each pair bounds M from one side."""
    two = 1 << S
    m_lo, m_hi = 0, max_m
    if A and B:
        ta = np.array([t for t, _ in A], np.int64)
        qa = np.array([q for _, q in A], np.int64)
        tb = np.array([t for t, _ in B], np.int64)
        qb = np.array([q for _, q in B], np.int64)
        coef = tb[:, None] - ta[None, :]
        rhs = (qb[:, None] - qa[None, :]) * two - 1
        if np.any((coef == 0) & (rhs < 0)):
            return None
        pos, neg = coef > 0, coef < 0
        if pos.any():
            m_hi = min(m_hi, int((rhs[pos] // coef[pos]).min()))
        if neg.any():
            m_lo = max(m_lo, int((-((-rhs[neg]) // coef[neg])).max()))
    if m_lo > m_hi:
        return None
    m = min(max(round(s * two), m_lo), m_hi)
    r_lo = max((q * two - t * m for t, q in A), default=None)
    r_hi = min((q * two - 1 - t * m for t, q in B), default=None)
    half = two >> 1
    if r_lo is None:
        r_lo = min(half, r_hi)
    if r_hi is None:
        r_hi = max(half, r_lo)
    if r_lo > r_hi:
        raise AssertionError("internal: M inside its feasible interval without an R")
    return m, min(max(half, r_lo), r_hi)


def _reduce(A, B):
    """Only the binding constraints of each kind matter for a given M when t is shared;
    drop exact duplicates to keep the pairwise pass small."""
    return sorted(set(A)), sorted(set(B))


def _smallest_shift(A, B, top: int, s: float, max_m: int):
    """(S, M, R) with the smallest S <= top, or None. Feasibility is monotone in S below
    ``top`` ((M, R) at S gives (2M, 2R) at S + 1, and M stays under ``max_m`` there)."""
    sol = _solve(A, B, top, s, max_m)
    if sol is None:
        return None
    lo_s, hi_s, found = -1, top, (top, *sol)
    while hi_s - lo_s > 1:
        mid = (lo_s + hi_s) // 2
        sol = _solve(A, B, mid, s, max_m)
        if sol is None:
            lo_s = mid
        else:
            hi_s, found = mid, (mid, *sol)
    return found


@dataclass(frozen=True)
class IntRequant:
    """``q = clamp(((acc * multipliers[c] + offsets[c]) >> shift) + zero_point) + d``, equal
    to onnxruntime's float requantization for every accumulator in
    ``[acc_min[c], acc_max[c]]``: ``d`` is 0 except at the few accumulators listed in
    ``exceptions[c]`` as ``(acc, d)`` pairs (where float32 rounding puts a product exactly on a
    half and the tie goes the other way; none in most layers). Both functions are
    ``qmin + #{steps at or below acc}``; the steps of the linear part are computed exactly and
    the exceptions are precisely the accumulators where the two counts differ, so the
    equality is a proof, not a sample. ``acc * multiplier`` needs ``product_bits`` signed
    bits (at most 64)."""
    scales: tuple  # float32 values, per channel (one for per-tensor)
    zero_point: int
    dtype: str
    acc_min: tuple
    acc_max: tuple
    multipliers: tuple
    offsets: tuple
    shift: int
    product_bits: int
    exceptions: tuple = ()  # per channel: ((acc, d), ...)

    kind = "int"


@dataclass(frozen=True)
class FloatRequant:
    """The float32 mirror of onnxruntime's arithmetic: ``v = float32(acc) * scale[c]``,
    clamped to ``[qmin - zp, qmax - zp]``, rounded half to even, plus ``zp``."""
    scales: tuple
    zero_point: int
    dtype: str
    acc_min: tuple
    acc_max: tuple
    reason: str = ""

    kind = "float"


def _ideal_thresholds(s: np.float32, zp: int, dtype, a0: int, a1: int) -> list[int]:
    """Thresholds of ``clamp(round_half_even(acc * s) + zp)`` with the exact product (no
    float32 rounding of it), clipped to [a0, a1 + 1]."""
    qlo, qhi = qrange(dtype)
    sx = Fraction(float(s))
    out = []
    for k in range(qlo + 1, qhi + 1):
        half = Fraction(2 * (k - zp) - 1, 2)  # round_half_even(x) >= k - zp  <=>  x > half,
        x = half / sx                          # or x == half with k - zp even
        t = x.numerator // x.denominator + 1
        if x.denominator == 1 and (k - zp) % 2 == 0:
            t = x.numerator
        out.append(min(max(t, a0), a1 + 1))
    return out


def _linear_thresholds(m: int, r: int, S: int, zp: int, dtype, a0: int, a1: int) -> list[int]:
    """Thresholds of ``clamp(((acc * m + r) >> S) + zp)`` (m >= 0), clipped to [a0, a1 + 1]."""
    qlo, qhi = qrange(dtype)
    out = []
    for k in range(qlo + 1, qhi + 1):
        need = (k - zp) * (1 << S) - r  # acc * m >= need
        if m == 0:
            t = a0 if need <= 0 else a1 + 1
        else:
            t = -((-need) // m)
        out.append(min(max(t, a0), a1 + 1))
    return out


def _exceptions(t_ref, t_lin) -> list[tuple[int, int]]:
    """(acc, d) where ``#{t_ref <= acc} - #{t_lin <= acc}`` is not 0."""
    points = set()
    for a, b in zip(t_ref, t_lin):
        lo_, hi_ = min(a, b), max(a, b)
        if hi_ - lo_ > 64:
            return None
        points.update(range(lo_, hi_))
    ref = np.asarray(t_ref, np.int64)
    lin = np.asarray(t_lin, np.int64)
    out = []
    for acc in sorted(points):
        d = int((ref <= acc).sum() - (lin <= acc).sum())
        if d:
            out.append((acc, d))
    return out


def _int_requant_check(s, zp, dtype, a0, a1, m, r, S, exc=()) -> bool:
    """A second, independent look (the construction is the proof): the values at every
    threshold, its predecessor, every exception and the ends, in Python integers."""
    thr = _thresholds(_F32(s), zp, dtype, a0, a1)
    qlo, qhi = qrange(dtype)
    corr = dict(exc)
    probe = sorted({a0, a1} | {int(t) for t in thr if a0 <= t <= a1}
                   | {int(t) - 1 for t in thr if a0 < t <= a1} | set(corr))
    ref = _reference_levels(np.array(probe, np.int64), _F32(s), zp, qlo, qhi)
    got = [min(max(((a * m + r) >> S) + zp, qlo), qhi) + corr.get(a, 0) for a in probe]
    return ref.tolist() == got


def plan_requant(scales, zero_point, dtype, acc_min, acc_max, prefer: str = "int",
                 max_shift: int = 48, max_exceptions: int = 4) -> IntRequant | FloatRequant:
    """Plan the requantization of accumulators in ``[acc_min[c], acc_max[c]]`` (per channel,
    or scalars) with float32 ``scales`` (one, or one per channel) into ``dtype`` with
    ``zero_point``. With ``prefer="int"`` returns an ``IntRequant`` whenever a
    multiply-add-shift exists that is exact over the whole range (the smallest shift common
    to every channel), or one exact but at no more than ``max_exceptions`` accumulators per
    channel (then corrected one by one), else a ``FloatRequant``; ``prefer="float"`` always
    gives the float mirror."""
    dtype = np.dtype(dtype).name
    qrange(dtype)
    s_arr = _f32(scales).reshape(-1)
    lo_arr = np.asarray(acc_min, np.int64).reshape(-1)
    hi_arr = np.asarray(acc_max, np.int64).reshape(-1)
    n = max(s_arr.size, lo_arr.size, hi_arr.size)
    s_arr = np.broadcast_to(s_arr, n)
    lo_arr = np.broadcast_to(lo_arr, n)
    hi_arr = np.broadcast_to(hi_arr, n)
    zp = int(np.asarray(zero_point).reshape(-1)[0])
    if lo_arr.min() < -2**31 or hi_arr.max() >= 2**31:
        raise OverflowError("accumulator range outside int32: onnxruntime's int32 "
                            "accumulators would wrap")
    if n > 1 and np.all(s_arr == s_arr[0]):  # one scale: one plan over the union range
        s_arr, lo_arr, hi_arr, n = s_arr[:1], lo_arr.min(keepdims=True), \
            hi_arr.max(keepdims=True), 1
    common = dict(scales=tuple(float(v) for v in s_arr), zero_point=zp, dtype=dtype,
                  acc_min=tuple(int(v) for v in lo_arr), acc_max=tuple(int(v) for v in hi_arr))
    if prefer == "float":
        return FloatRequant(**common, reason="float requested")
    if not np.all(np.isfinite(s_arr)) or np.any(s_arr <= 0):
        return FloatRequant(**common, reason="scale not finite and positive")
    per = []
    for c in range(n):
        s, a0, a1 = _F32(s_arr[c]), int(lo_arr[c]), int(hi_arr[c])
        thr = _thresholds(s, zp, dtype, a0, a1)
        A, B = _reduce(*_constraints(thr, zp, dtype, a0, a1))
        mag = max(abs(a0), abs(a1), 1)
        max_m = (1 << 62) // mag
        # the largest shift whose multiplier (about s * 2**S) keeps acc * M within 62 bits
        top = min(max_shift, max(0, 61 - int(np.ceil(np.log2(float(s) * mag + 1)))))
        found = _smallest_shift(A, B, top, float(s), max_m)
        if found is None and max_exceptions > 0:
            # the exact product's steps, then the accumulators where float32 differs
            ideal = _ideal_thresholds(s, zp, dtype, a0, a1)
            found = _smallest_shift(*_reduce(*_constraints(np.asarray(ideal), zp, dtype, a0,
                                                           a1)), top, float(s), max_m)
        if found is None:
            return FloatRequant(**common, reason=f"no multiply-shift up to {max_shift} bits "
                                                  f"for channel {c}")
        per.append(found)
    S = max(p[0] for p in per)
    mults, offs, excs = [], [], []
    for c, (Sc, m, r) in enumerate(per):
        m, r = m << (S - Sc), r << (S - Sc)
        a0, a1 = int(lo_arr[c]), int(hi_arr[c])
        t_ref = _thresholds(_F32(s_arr[c]), zp, dtype, a0, a1).tolist()
        exc = _exceptions(t_ref, _linear_thresholds(m, r, S, zp, dtype, a0, a1))
        if exc is None or len(exc) > max_exceptions:
            return FloatRequant(**common, reason=f"channel {c}: too many exceptions")
        if not _int_requant_check(s_arr[c], zp, dtype, a0, a1, m, r, S, exc):
            raise AssertionError("internal: integer requantization failed its check")
        mults.append(m)
        offs.append(r)
        excs.append(tuple(exc))
    bits = max(max(abs(int(lo_arr[c]) * mults[c] + offs[c]),
                   abs(int(hi_arr[c]) * mults[c] + offs[c]), mults[c], abs(offs[c]),
                   abs(int(lo_arr[c])), abs(int(hi_arr[c]))).bit_length()
               for c in range(n)) + 1
    if bits > 64:
        return FloatRequant(**common, reason="product wider than 64 bits")
    return IntRequant(**common, multipliers=tuple(mults), offsets=tuple(offs), shift=S,
                      product_bits=bits,
                      exceptions=tuple(excs) if any(excs) else ())


def apply_plan(plan: IntRequant | FloatRequant, acc, channel=None) -> np.ndarray:
    """What the generated kernel code computes, in numpy (``channel``: index array or None
    for per-tensor): for checking plans."""
    acc = np.asarray(acc).astype(np.int64)
    c = 0 if channel is None or len(plan.scales) == 1 else np.asarray(channel)
    qlo, qhi = qrange(plan.dtype)
    if plan.kind == "int":
        if plan.product_bits <= 63:  # acc * M + R fits int64 (plan_requant checked)
            m = np.asarray(plan.multipliers, dtype=np.int64)[c]
            r = np.asarray(plan.offsets, dtype=np.int64)[c]
            q = (acc * m + r) >> plan.shift
        else:
            m = np.asarray(plan.multipliers, dtype=object)[c]
            r = np.asarray(plan.offsets, dtype=object)[c]
            p = acc.astype(object) * m + r
            q = np.vectorize(lambda v: v >> plan.shift, otypes=[object])(p).astype(np.int64)
        q = np.clip(q + plan.zero_point, qlo, qhi)
        if plan.exceptions:
            cc = np.broadcast_to(np.asarray(c), acc.shape)
            for ch, exc in enumerate(plan.exceptions):
                for a, d in exc:
                    q = q + np.where((cc == ch) & (acc == a), d, 0)
        return q.astype(plan.dtype)
    s = _f32(plan.scales)[c]
    return _reference_levels(acc, s, plan.zero_point, qlo, qhi).astype(plan.dtype)


# --------------------------------------------------------------------------------------
# kernel-language source text
# --------------------------------------------------------------------------------------

def _f32_literal(v) -> str:
    """A Python literal whose value is the float32 ``v`` exactly (np.float32 of it is v)."""
    f = float(_F32(v))
    if f != f or f in (float("inf"), float("-inf")):
        raise ValueError(f"no literal for {f}")
    return repr(f)


def _plus(v: int) -> str:
    """`` + v``, `` - |v|`` or nothing, to follow an expression."""
    return f" + {v}" if v > 0 else f" - {-v}" if v < 0 else ""


def _vichls_name(dtype: str) -> str:
    return {"int8": "int8", "uint8": "uint8"}[dtype]


def requant_source(plan: IntRequant | FloatRequant, acc: str, out: str,
                   channel: str | None = None, prefix: str = "rq",
                   indent: str = "    ") -> tuple[list[str], list[str]]:
    """Kernel-language text for one requantization.

    Returns ``(module_lines, body_lines)``: module-level definitions (the product's type
    ``{PREFIX}_T = vichls.int_(bits)`` and per-channel tables ``{PREFIX}_M``, ``{PREFIX}_R``,
    with exceptions ``{PREFIX}_E``, ``{PREFIX}_D`` (integer plan) or ``{PREFIX}_S`` (float
    plan); they need ``import numpy as np`` and
    ``import vichls``) and statements, each starting with ``indent``, that compute from
    the int32 expression ``acc`` a new local ``out`` of the output type (int8/uint8).
    ``channel`` is the output-channel index expression for a per-channel plan. Locals
    ``{prefix}_p``, ``{prefix}_q``, ``{prefix}_c`` (integer plan) or ``{prefix}_v``, ``{prefix}_r`` (float
    plan) are declared; use a distinct prefix for each requantization in one scope.

    The statements use: a ``product_bits``-bit multiply, add and shift, ``min``/``max`` and casts (integer plan);
    ``float32(acc) * scale``, ``min``/``max`` on float32 and a float32 to
    ``fixed(10, 10, quant="rnd_conv", overflow="sat")`` conversion, which rounds half to
    even like the x86 conversion onnxruntime uses (float plan).
    """
    per_channel = len(plan.scales) > 1
    if per_channel and channel is None:
        raise ValueError("a per-channel requantization needs the channel index expression")
    qlo, qhi = qrange(plan.dtype)
    tname = _vichls_name(plan.dtype)
    up = prefix.upper()
    mod: list[str] = []
    body: list[str] = []
    zp = plan.zero_point
    if plan.kind == "int":
        pt = f"{up}_T"
        mod.append(f"{pt} = vichls.int_({plan.product_bits})")
        if per_channel:
            mod.append(f"{up}_M = vichls.const({list(plan.multipliers)!r}, {pt})")
            mod.append(f"{up}_R = vichls.const({list(plan.offsets)!r}, {pt})")
            m_expr, r_expr = f"{up}_M[{channel}]", f"{up}_R[{channel}]"
        else:
            m_expr, r_expr = str(plan.multipliers[0]), str(plan.offsets[0])
        body.append(f"{indent}{prefix}_p: {pt} = {pt}({acc}) * {m_expr} + {r_expr}")
        plus = _plus(zp)
        body.append(f"{indent}{prefix}_q: {pt} = ({prefix}_p >> {plan.shift}){plus}")
        clamped = f"min(max({prefix}_q, {qlo}), {qhi})"
        if not plan.exceptions:
            body.append(f"{indent}{out}: {tname} = {tname}({clamped})")
            return mod, body
        body.append(f"{indent}{prefix}_c: int32 = 0")
        if per_channel:
            width = max(len(e) for e in plan.exceptions)
            accs, ds = [], []
            for c, exc in enumerate(plan.exceptions):
                a0, a1 = plan.acc_min[c], plan.acc_max[c]
                pad = a1 + 1 if a1 < 2**31 - 1 else a0 - 1  # never reached
                accs.append([a for a, _ in exc] + [pad] * (width - len(exc)))
                ds.append([d for _, d in exc] + [0] * (width - len(exc)))
            mod.append(f"{up}_E = vichls.const({accs!r}, vichls.int32)")
            mod.append(f"{up}_D = vichls.const({ds!r}, vichls.int8)")
            for e in range(width):
                body.append(f"{indent}{prefix}_c += int32({up}_D[{channel}, {e}]) if {acc} == "
                            f"{up}_E[{channel}, {e}] else 0")
        else:
            for a, d in plan.exceptions[0]:
                body.append(f"{indent}{prefix}_c += {d} if {acc} == {a} else 0")
        body.append(f"{indent}{out}: {tname} = {tname}({clamped} + {prefix}_c)")
        return mod, body
    if per_channel:
        vals = ", ".join(_f32_literal(v) for v in plan.scales)
        mod.append(f"{up}_S = vichls.const(np.array([{vals}], dtype=np.float32), "
                   f"vichls.float32)")
        s_expr = f"{up}_S[{channel}]"
    else:
        s_expr = f"float32({_f32_literal(plan.scales[0])})"
    lo_l, hi_l = _f32_literal(qlo - zp), _f32_literal(qhi - zp)
    body.append(f"{indent}{prefix}_v: float32 = float32({acc}) * {s_expr}")
    body.append(f"{indent}{prefix}_v = min(float32({hi_l}), max(float32({lo_l}), {prefix}_v))")
    body.append(f"{indent}{prefix}_r: fixed(10, 10, quant=\"rnd_conv\", overflow=\"sat\") = "
                f"{prefix}_v")
    plus = _plus(zp)
    body.append(f"{indent}{out}: {tname} = {tname}(int32({prefix}_r){plus})")
    return mod, body


# --------------------------------------------------------------------------------------
# QLinearAdd in the kernel language: exact fixed point where MLAS uses FMA
# --------------------------------------------------------------------------------------

def _dyadic(v: float) -> tuple[int, int]:
    """(m, e) with v == m * 2**e and m odd (or (0, 0))."""
    fr = Fraction(float(v))
    if fr == 0:
        return 0, 0
    num, den = fr.numerator, fr.denominator
    e = 0
    while num % 2 == 0:
        num //= 2
        e += 1
    e -= den.bit_length() - 1
    return num, e


def _fixed_for(values_lo: float, values_hi: float, lsb_exp: int, signed: bool = True):
    """(W, I) of a fixed type with LSB 2**lsb_exp holding every value in [lo, hi]."""
    mag = max(abs(values_lo), abs(values_hi), 2.0 ** lsb_exp)
    top = int(np.floor(np.log2(mag))) + 1  # 2**top > mag
    while 2.0 ** (top - 1) > mag:
        top -= 1
    while 2.0 ** top <= mag:
        top += 1
    int_bits = top + (1 if signed else 0)
    width = int_bits - lsb_exp
    return width, int_bits


@dataclass(frozen=True)
class AddPlan:
    """QLinearAdd as exact fixed point: ``t = float32(s * RS + F)`` (one rounding: the inner
    FMA), ``u = float32(p * RP + t)`` (the outer FMA), ``q = sat(round_half_even(u))``.
    ``primary`` says which input is ``p`` ("a", or "b" when a is the one-element operand)."""
    dtype: str
    primary: str
    rp: float
    rs: float
    f: float
    t_type: tuple  # (W, I) holding every t exactly
    rp_type: tuple
    rs_type: tuple
    f_type: tuple


def plan_qlinear_add(a_scale, a_zero_point, b_scale, b_zero_point, c_scale, c_zero_point,
                     dtype, a_is_scalar: bool = False) -> AddPlan:
    """Plan QLinearAdd for ``dtype`` inputs/outputs. Raises ValueError when an exact sum
    does not fit 64 bits (scale ratios too far apart) or the outer FMA could leave int32."""
    dtype = np.dtype(dtype).name
    qlo, qhi = qrange(dtype)
    scal = lambda v: np.asarray(v).reshape(-1)[0]  # noqa: E731
    sa, sb, sc = (_F32(scal(s)) for s in (a_scale, b_scale, c_scale))
    za, zb, zc = (int(scal(z)) for z in (a_zero_point, b_zero_point, c_zero_point))
    if a_is_scalar:
        primary, (rp, rs, f) = "b", _add_constants(sb, zb, sa, za, sc, zc)
    else:
        primary, (rp, rs, f) = "a", _add_constants(sa, za, sb, zb, sc, zc)
    vals = np.arange(qlo, qhi + 1, dtype=np.float32)
    t = fma_f32(vals, rs, f)
    u_ext = [float(qlo) * float(rp) + float(t.min()), float(qhi) * float(rp) + float(t.max()),
             float(qlo) * float(rp) + float(t.max()), float(qhi) * float(rp) + float(t.min())]
    if max(abs(v) for v in u_ext) >= 2.0 ** 30:
        raise ValueError("QLinearAdd: the sum can leave int32 (scale ratios too large)")
    e_rs, e_f, e_rp = (_dyadic(v)[1] for v in (rs, f, rp))
    e_t = min(e_rs, e_f)  # every t is a multiple of 2**e_t
    rp_type = _fixed_for(float(rp), float(rp), e_rp)
    rs_type = _fixed_for(float(rs), float(rs), e_rs)
    f_type = _fixed_for(float(f), float(f), e_f)
    t_type = _fixed_for(float(t.min()), float(t.max()), e_t)
    plan = AddPlan(dtype, primary, float(rp), float(rs), float(f), t_type, rp_type, rs_type,
                   f_type)
    for w, _ in (rp_type, rs_type, f_type, t_type):
        if w > 56:
            raise ValueError("QLinearAdd: an exact constant or sum needs more than 56 bits")
    # the sums' exact types (ap_fixed rules: product W1 + W2, sum one bit more)
    inner = _sum_type((8 + rs_type[0], 8 + rs_type[1]), f_type)
    outer = _sum_type((8 + rp_type[0], 8 + rp_type[1]), t_type)
    if max(inner[0], outer[0]) > 64:
        raise ValueError("QLinearAdd: the exact sums need more than 64 bits")
    return plan


def _sum_type(x: tuple, y: tuple) -> tuple:
    fx, fy = x[0] - x[1], y[0] - y[1]
    i = max(x[1], y[1]) + 1
    return i + max(fx, fy), i


def qlinear_add_table(plan: AddPlan) -> list[float]:
    """The inner FMA's 256 results ``t = fma(s, rs, F)``, for every value ``s`` of the
    secondary operand from qmin up (exact in the fixed type ``plan.t_type``)."""
    qlo, qhi = qrange(plan.dtype)
    vals = np.arange(qlo, qhi + 1, dtype=np.float32)
    return [float(v) for v in fma_f32(vals, _F32(plan.rs), _F32(plan.f))]


def qlinear_add_source(plan: AddPlan, a: str, b: str, out: str, prefix: str = "qa",
                       indent: str = "    ",
                       table: bool = False) -> list[str] | tuple[list[str], list[str]]:
    """Statements computing the new local ``out`` (int8/uint8) from the int8/uint8
    expressions ``a`` and ``b``: the exact sums are fixed point, each FMA's single rounding
    is a fixed-to-float32 conversion, and the final rounding a float32 to
    ``fixed(8, 8, quant="rnd_conv", overflow="sat")`` (``ufixed`` for uint8) conversion.

    With ``table=True`` the inner FMA is a 256-entry table ``{PREFIX}_T`` of its exact
    results instead (a ROM: one multiplier and two conversions fewer) and the result is
    ``(module_lines, body_lines)``."""
    p, s = (a, b) if plan.primary == "a" else (b, a)
    tname = _vichls_name(plan.dtype)
    fx = "ufixed" if plan.dtype == "uint8" else "fixed"
    qlo, _ = qrange(plan.dtype)

    def ftype(wi):
        return f"fixed({wi[0]}, {wi[1]})"
    tail = [
        f"{indent}{prefix}_rp: {ftype(plan.rp_type)} = {plan.rp!r}",
        f"{indent}{prefix}_u: float32 = float32({p} * {prefix}_rp + {prefix}_tx)",
        f"{indent}{prefix}_y: {fx}(8, 8, quant=\"rnd_conv\", overflow=\"sat\") = {prefix}_u",
        f"{indent}{out}: {tname} = {tname}({prefix}_y)",
    ]
    if table:
        up = prefix.upper()
        mod = [f"{up}_T = vichls.const({qlinear_add_table(plan)!r}, vichls.{ftype(plan.t_type)})"]
        body = [f"{indent}{prefix}_tx: {ftype(plan.t_type)} = "
                f"{up}_T[int32({s}) - ({qlo})]"] + tail
        return mod, body
    return [
        f"{indent}{prefix}_rs: {ftype(plan.rs_type)} = {plan.rs!r}",
        f"{indent}{prefix}_f: {ftype(plan.f_type)} = {plan.f!r}",
        f"{indent}{prefix}_t: float32 = float32({s} * {prefix}_rs + {prefix}_f)",
        f"{indent}{prefix}_tx: {ftype(plan.t_type)} = {prefix}_t",
    ] + tail


def quantize_source(scale, zero_point, dtype, x: str, out: str, prefix: str = "ql",
                    indent: str = "    ") -> list[str]:
    """Statements for QuantizeLinear of the float32 expression ``x`` into the new local
    ``out``: ``x / scale`` (float32 division), clamped (NaN to the lower bound, as the SSE
    max does), rounded half to even, plus the zero point."""
    dtype = np.dtype(dtype).name
    qlo, qhi = qrange(dtype)
    zp = int(np.asarray(zero_point).reshape(-1)[0])
    tname = _vichls_name(dtype)
    return [
        f"{indent}{prefix}_v: float32 = {x} / float32({_f32_literal(scale)})",
        f"{indent}{prefix}_v = min(float32({_f32_literal(qhi - zp)}), "
        f"max(float32({_f32_literal(qlo - zp)}), {prefix}_v))",
        f"{indent}{prefix}_r: fixed(10, 10, quant=\"rnd_conv\", overflow=\"sat\") = {prefix}_v",
        f"{indent}{out}: {tname} = {tname}(int32({prefix}_r){_plus(zp)})",
    ]


def dequantize_source(scale, zero_point, q: str, out: str, indent: str = "    ") -> list[str]:
    """Statements for DequantizeLinear of the int8/uint8 expression ``q`` into the new
    float32 local ``out``: ``float32(int32(q) - zp) * scale``."""
    zp = int(np.asarray(zero_point).reshape(-1)[0])
    return [f"{indent}{out}: float32 = float32(int32({q}){_plus(-zp)}) * "
            f"float32({_f32_literal(scale)})"]
