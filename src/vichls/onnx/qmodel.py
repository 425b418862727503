"""Integer-quantized ONNX models read into integer layers.

``read_quantized(proto, source)`` reads a model quantized by onnxruntime's quantizer
(``onnxruntime.quantization.quantize_static``) into the ``Layer`` records of
vichls/onnx/model.py, computed in integers exactly as onnxruntime's CPU provider computes
them (the references and requantization plans are vichls/onnx/quant.py's):

- operator form: ``QLinearConv``, ``QLinearMatMul``, ``QGemm`` (com.microsoft),
  ``QLinearAdd`` (com.microsoft), and ``MaxPool``/``Flatten``/``Reshape``/... on quantized
  tensors;
- QDQ form: ``DequantizeLinear`` -> ``Conv``/``Gemm``/``MatMul``/``Add`` -> one
  ``QuantizeLinear`` is recognised as the operator onnxruntime's graph transformer makes of
  it (``QLinearConv``, ``QGemm``, ``QLinearMatMul``, ``QLinearAdd``), with the weights and
  int32 bias taken from the ``DequantizeLinear`` of constants; ``DequantizeLinear`` ->
  ``MaxPool``/``Flatten``/... -> ``QuantizeLinear`` of the same scale and zero point is the
  integer operator (onnxruntime drops such pairs);
- the boundary: a ``QuantizeLinear`` of a model input becomes a ``quantize`` layer, a
  ``DequantizeLinear`` into a model output a ``dequantize`` layer (code generation drops
  both for the default quantized boundary); an ``ArgMax`` of a dequantized tensor reads
  the integers (dequantization is increasing).

A dense or convolution layer keeps ``weight`` as the integer differences ``w - zw`` and
``bias`` as onnxruntime's int32 bias less ``zx * sum(w - zw)`` per output, so that the
sum ``bias + sum(x * (w - zw))`` over the raw quantized inputs is onnxruntime's exact
accumulator ``bias + sum((x - zx) * (w - zw))`` (a padded border holds ``zx``);
``attrs["q"]`` holds the requantization (``QMac``). Anything onnxruntime would compute in
float (a float operator between a ``DequantizeLinear`` and a ``QuantizeLinear`` that it
does not fuse, per-axis activation scales, a float tensor read by an integer operator) is
refused with an ``OnnxError`` naming the node.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vichls.onnx import quant as Q
from vichls.onnx.model import Layer, Model, OnnxError, Tensor, _drop_batch, _onnx

#: operators that mark a graph as quantized
QUANT_OPS = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "QGemm",
             "QLinearAdd", "MatMulInteger", "ConvInteger", "DynamicQuantizeLinear",
             "QLinearAveragePool", "QLinearGlobalAveragePool", "QLinearLeakyRelu",
             "QLinearSigmoid", "QLinearConcat", "QLinearMul", "QAttention"}

#: shape-only operators onnxruntime runs on quantized tensors
SHAPE_OPS = ("Flatten", "Reshape", "Squeeze", "Unsqueeze", "Identity")


def is_quantized(proto) -> bool:
    return any(n.op_type in QUANT_OPS for n in proto.graph.node)


@dataclass(frozen=True)
class QParams:
    """A quantized tensor's (per-tensor) scale, zero point and element type."""
    scale: float      # a float32 value
    zp: int
    dtype: str        # "int8" | "uint8"


@dataclass
class QMac:
    """The requantization of a dense or convolution layer: input and output parameters,
    the float32 scale per output channel and the accumulator range the weights allow."""
    x: QParams
    y: QParams
    scales: np.ndarray      # float32, one per output channel (or one)
    acc_min: np.ndarray
    acc_max: np.ndarray


def read_quantized(proto, source: str) -> Model:
    """A quantized model's ``ModelProto`` read into integer layers (``source`` names it in
    messages); ``Model.quant`` maps each integer tensor to its ``QParams``."""
    onnx = _onnx()
    from onnx import numpy_helper

    try:
        inferred = onnx.shape_inference.infer_shapes(proto)
    except Exception as e:
        raise OnnxError(f"the model's shapes cannot be inferred: {e}", source) from None
    g = inferred.graph
    consts: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    known: dict[str, tuple] = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        t = vi.type.tensor_type
        dims = list(t.shape.dim) if t.HasField("shape") else []
        # static shapes, but for a symbolic batch dimension (one sample per call)
        if dims and all(d.HasField("dim_value") for d in dims[1:]):
            known[vi.name] = tuple(d.dim_value if d.HasField("dim_value") else 1 for d in dims)
    graph_inputs = [vi.name for vi in g.input if vi.name not in consts]
    graph_outputs = [vi.name for vi in g.output]
    uses: dict[str, list] = {}
    for n in g.node:
        for name in n.input:
            if name:
                uses.setdefault(name, []).append(n)

    tensors: dict[str, Tensor] = {}
    qp: dict[str, QParams] = {}          # integer activation tensors
    deq: dict[str, str] = {}             # float tensor -> the integer tensor it dequantizes
    cdeq: dict[str, tuple] = {}          # float constant -> (q, scale, zp, axis)
    alias: dict[str, str] = {}
    layers: list[Layer] = []
    handled: set[int] = set()            # QuantizeLinear nodes folded into an operator
    qdq_nodes: list = []                 # float operators recognised in QDQ form
    node_index = {id(n): k for k, n in enumerate(g.node)}

    def real(name):
        while name in alias:
            name = alias[name]
        return name

    def fail(n, why: str):
        k = node_index[id(n)]
        label = n.name or f"#{k}"
        raise OnnxError(f"node '{label}' ({n.op_type}): {why}", source)

    def attrs(n) -> dict:
        return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}

    def add_tensor(name: str, onnx_shape: tuple):
        tensors[name] = Tensor(name, _drop_batch(tuple(onnx_shape)), tuple(onnx_shape))

    def const(n, name: str, what: str) -> np.ndarray:
        if name not in consts:
            fail(n, f"its {what} ('{name}') must be a constant (an initializer)")
        return consts[name]

    def scalar_params(n, scale_name: str, zp_name: str | None, what: str) -> QParams:
        s = np.asarray(const(n, scale_name, f"{what} scale"), np.float32)
        z = np.asarray(const(n, zp_name, f"{what} zero point")) if zp_name else \
            np.zeros((), np.uint8)
        if s.size != 1 or z.size != 1:
            fail(n, f"per-axis scales of the {what} (an activation) are not supported")
        if z.dtype not in (np.int8, np.uint8):
            fail(n, f"the {what} is of type {z.dtype}: int8 and uint8 are supported")
        return QParams(float(s.reshape(-1)[0]), int(z.reshape(-1)[0]), z.dtype.name)

    def int_input(n, name: str, what: str = "input") -> str:
        """An integer activation tensor read by a quantized operator."""
        r = real(name)
        if r not in qp:
            fail(n, f"its {what} '{name}' is not a quantized activation tensor")
        return r

    def dq_input(n, name: str) -> str:
        """The integer tensor behind a DequantizeLinear read by a float operator."""
        if name in deq:
            return deq[name]
        fail(n, f"its input '{name}' is not the DequantizeLinear of a quantized tensor: "
                "onnxruntime computes this operator in float, which vichls does not "
                "reproduce bit for bit")

    def single_quantize(n) -> object:
        """The one QuantizeLinear reading the float result of ``n`` (as onnxruntime's QDQ
        fusion requires)."""
        out = n.output[0]
        readers = uses.get(out, [])
        if out in graph_outputs or len(readers) != 1 or readers[0].op_type != "QuantizeLinear":
            fail(n, "its float result must feed exactly one QuantizeLinear (the QDQ form); "
                    "otherwise onnxruntime computes it in float, which vichls does not "
                    "reproduce bit for bit")
        return readers[0]

    def pool_operands(n, a: dict, operator_form: bool) -> tuple:
        """(input tensor, its and the output's quantization, output tensor) of a pooling
        node: QLinear*Pool (operator form), or the float pooling in its QDQ group."""
        if operator_form:
            if a.get("channels_last", 0):
                fail(n, "channels_last=1 is not supported")
            x = int_input(n, n.input[0])
            xq = scalar_params(n, n.input[1], n.input[2], "input")
            if xq != qp[x]:
                fail(n, "its input scale and zero point differ from the input tensor's")
            yq = scalar_params(n, n.input[3], n.input[4] if len(n.input) > 4 else None,
                               "output")
            return x, xq, yq, n.output[0]
        qdq_nodes.append(n)
        x = dq_input(n, n.input[0])
        qn = single_quantize(n)
        handled.add(node_index[id(qn)])
        yq = scalar_params(qn, qn.input[1], qn.input[2] if len(qn.input) > 2 else None,
                           "output")
        return x, qp[x], yq, qn.output[0]

    def weight_of(n, name: str, what: str):
        """(integer array, scale array, zero point array, axis) of a constant weight given
        as an integer initializer (operator form) or the DequantizeLinear of one (QDQ)."""
        if name in cdeq:
            return cdeq[name]
        fail(n, f"its {what} '{name}' is not the DequantizeLinear of a constant")

    def operand(n, name: str, s_name: str | None, z_name: str | None, what: str):
        """(activation or None, constant or None, QParams) of an input of QLinearAdd (scale
        and zero point given) or of an Add in QDQ form (from its DequantizeLinear)."""
        if s_name is not None:
            params = scalar_params(n, s_name, z_name, what)
            if name in consts:
                c = consts[name]
                if c.dtype.name != params.dtype:
                    fail(n, f"the constant '{name}' is {c.dtype}, its zero point {params.dtype}")
                return None, c, params
            x = int_input(n, name, what)
            if params != qp[x]:
                fail(n, f"the scale and zero point of its {what} differ from the tensor's")
            return x, None, params
        if name in cdeq:
            c, sc, zp, _ = cdeq[name]
            if sc.size != 1 or zp.size > 1 or c.dtype not in (np.int8, np.uint8):
                fail(n, f"the constant '{name}' must be int8/uint8 with one scale")
            return None, c, QParams(float(sc.reshape(-1)[0]), int(zp.reshape(-1)[0]) if zp.size
                                    else 0, c.dtype.name)
        x = dq_input(n, name)
        return x, None, qp[x]

    def per_channel(n, arr, n_out: int, what: str) -> np.ndarray:
        a = np.asarray(arr).reshape(-1)
        if a.size == 1:
            return np.broadcast_to(a, (n_out,)).copy()
        if a.size != n_out:
            fail(n, f"the {what} has {a.size} values; one, or one per output channel "
                    f"({n_out}), is supported")
        return a.copy()

    def mac_layer(n, kind: str, label: str, x: str, out: str, w_int: np.ndarray,
                  zw: np.ndarray, w_scale: np.ndarray, bias, xq: QParams, yq: QParams,
                  alpha: float = 1.0, extra: dict | None = None) -> Layer:
        """A dense ([N, K] weights) or convolution ([M, C, kh, kw]) layer in integers."""
        n_out = w_int.shape[0]
        if w_int.dtype not in (np.int8, np.uint8):
            fail(n, f"weights of type {w_int.dtype}: int8 and uint8 are supported")
        zw = per_channel(n, zw, n_out, "weights' zero point")
        sw = per_channel(n, np.asarray(w_scale, np.float32), n_out, "weights' scale")
        wd = w_int.astype(np.int64) - zw.astype(np.int64).reshape((n_out,) + (1,) * (w_int.ndim - 1))
        b = np.zeros(n_out, np.int64)
        if bias is not None:
            bias = np.asarray(bias)
            if bias.dtype != np.int32 or bias.size != n_out:
                fail(n, f"the bias must be int32 with one value per output ({n_out}), not "
                        f"{bias.dtype} of shape {bias.shape}")
            b = bias.astype(np.int64).reshape(-1)
        flat = wd.reshape(n_out, -1)
        lo, hi = Q.accumulator_range(flat, 0, xq.dtype, xq.zp, bias=b, axis=0)
        if lo.min() < -2**31 or hi.max() >= 2**31:
            fail(n, "its int32 accumulator can overflow (onnxruntime's would wrap): not "
                    "supported")
        scales = Q.output_scales(np.float32(xq.scale), sw, np.float32(yq.scale), alpha)
        folded = b - xq.zp * flat.sum(axis=1)
        q = QMac(xq, yq, np.asarray(scales, np.float32), lo, hi)
        return Layer(kind, label, n.op_type, [x], out, weight=wd.astype(np.float64),
                     bias=folded.astype(np.float64), attrs={"q": q, **(extra or {})})

    def conv_attrs(n, x: str, w_shape) -> dict:
        a = attrs(n)
        xs = tensors[x].shape
        if len(xs) != 3:
            fail(n, f"input of shape {tensors[x].onnx_shape}: 2-D convolutions of one sample "
                    "(N=1, C, H, W) are supported")
        group = int(a.get("group", 1))
        if group < 1 or xs[0] % group or (len(w_shape) == 4 and w_shape[0] % group):
            fail(n, f"group={group} does not divide the {xs[0]} input channels and the "
                    f"{w_shape[0]} output channels")
        if len(w_shape) != 4 or w_shape[1] * group != xs[0]:
            fail(n, f"weights of shape {tuple(w_shape)} for an input of {xs[0]} channels"
                    + (f" in {group} groups" if group > 1 else ""))
        if any(d != 1 for d in a.get("dilations", [1, 1])):
            fail(n, "dilations other than 1 are not supported")
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
            fail(n, "auto_pad SAME_* is not supported: give the pads")
        strides = tuple(a.get("strides", [1, 1]))
        pads = tuple(a.get("pads", [0, 0, 0, 0]))
        c, h, w = xs
        oh = (h + pads[0] + pads[2] - w_shape[2]) // strides[0] + 1
        ow = (w + pads[1] + pads[3] - w_shape[3]) // strides[1] + 1
        return {"strides": strides, "pads": pads, "group": group,
                "out_shape": (1, w_shape[0], oh, ow)}

    def dense_input(n, x: str) -> str:
        if len(tensors[x].shape) != 1:
            fail(n, f"its input has shape {tensors[x].onnx_shape}; dense layers take one "
                    "vector per call (batch 1)")
        return x

    def finish(lay: Layer, onnx_shape: tuple, params: QParams | None):
        add_tensor(lay.output, onnx_shape)
        if params is not None:
            qp[lay.output] = params
        layers.append(lay)

    def gemm_weights(n, a: dict, w_int, zw, sw, x: str):
        """[N, K] weights of a Gemm/QGemm (transB) or MatMul ([K, N])."""
        if a.get("transA", 0):
            fail(n, "transA=1 is not supported (the activation must be the row vector A)")
        if w_int.ndim != 2:
            fail(n, f"the weights have {w_int.ndim} dimensions; 2 are supported")
        w = w_int if a.get("transB", 0) else w_int.T
        if w.shape[1] != tensors[x].shape[0]:
            fail(n, f"the weights take {w.shape[1]} inputs, the input has "
                    f"{tensors[x].shape[0]}")
        return np.ascontiguousarray(w), zw, sw

    for t in graph_inputs:
        if t not in known:
            raise OnnxError(f"tensor '{t}' (a model input) has no known shape", source)
        add_tensor(t, known[t])

    for k, n in enumerate(g.node):
        if k in handled:
            continue
        op = n.op_type
        a = attrs(n)
        label = n.name or f"{op}_{k}"
        if n.domain not in ("", "ai.onnx", "com.microsoft"):
            fail(n, f"operators of domain '{n.domain}' are not supported")
        if op == "Constant":
            if "value" not in a:
                fail(n, "only Constant nodes with a 'value' tensor are supported")
            consts[n.output[0]] = numpy_helper.to_array(a["value"])
            continue
        out = n.output[0]
        if op == "DequantizeLinear":
            src = n.input[0]
            if src in consts:
                zp = consts[n.input[2]] if len(n.input) > 2 and n.input[2] else \
                    np.zeros((), consts[src].dtype)
                cdeq[out] = (consts[src], np.asarray(const(n, n.input[1], "scale"), np.float32),
                             np.asarray(zp), a.get("axis", 1))
                continue
            x = int_input(n, src)
            if a.get("axis", 1) != 1 and np.asarray(consts.get(n.input[1], 0)).size > 1:
                fail(n, "per-axis dequantization of an activation is not supported")
            params = scalar_params(n, n.input[1], n.input[2] if len(n.input) > 2 else None,
                                   "dequantized tensor")
            if params != qp[x]:
                fail(n, "it dequantizes with another scale or zero point than the tensor's "
                        "quantization")
            if out in graph_outputs:
                lay = Layer("dequantize", label, op, [x], out, attrs={"q": params})
                finish(lay, tensors[x].onnx_shape, None)
            deq[out] = x
            continue
        if op == "QuantizeLinear":
            src = real(n.input[0])
            if src not in graph_inputs:
                fail(n, f"it quantizes '{n.input[0]}', a float tensor computed in float "
                        "(only model inputs, and the results of operators onnxruntime fuses "
                        "with their QuantizeLinear, are supported)")
            params = scalar_params(n, n.input[1], n.input[2] if len(n.input) > 2 else None,
                                   "quantized tensor")
            lay = Layer("quantize", label, op, [src], out, attrs={"q": params})
            finish(lay, tensors[src].onnx_shape, params)
            continue
        if op in ("QLinearConv", "QLinearMatMul", "QGemm"):
            x = int_input(n, n.input[0])
            xq = scalar_params(n, n.input[1], n.input[2], "input")
            if xq != qp[x]:
                fail(n, "its input scale and zero point differ from the input tensor's")
            w_int = const(n, n.input[3], "weights")
            sw = np.asarray(const(n, n.input[4], "weights' scale"), np.float32)
            zw = np.asarray(const(n, n.input[5], "weights' zero point")) if n.input[5] else \
                np.zeros(1, w_int.dtype)
            if op == "QLinearConv":
                yq = scalar_params(n, n.input[6], n.input[7], "output")
                bias = const(n, n.input[8], "bias") if len(n.input) > 8 and n.input[8] \
                    else None
                ca = conv_attrs(n, x, w_int.shape)
                shape = ca.pop("out_shape")
                lay = mac_layer(n, "conv", label, x, out, w_int, zw, sw, bias, xq, yq,
                                extra=ca)
            else:
                dense_input(n, x)
                if op == "QGemm":
                    if len(n.input) < 9 or not n.input[7]:
                        fail(n, "a QGemm without an output scale (a float result) is not "
                                "supported")
                    yq = scalar_params(n, n.input[7], n.input[8] if len(n.input) > 8
                                       else None, "output")
                    bias = const(n, n.input[6], "bias") if n.input[6] else None
                    alpha = float(a.get("alpha", 1.0))
                else:
                    yq = scalar_params(n, n.input[6], n.input[7], "output")
                    bias, alpha = None, 1.0
                    a = {"transB": 0}
                w, zw2, sw2 = gemm_weights(n, a, w_int, zw, sw, x)
                lay = mac_layer(n, "dense", label, x, out, w, zw2, sw2, bias, xq, yq, alpha)
                shape = (1, w.shape[0])
            finish(lay, shape, yq)
            continue
        if op in ("Conv", "Gemm", "MatMul"):
            qdq_nodes.append(n)
            x = dq_input(n, n.input[0])
            qn = single_quantize(n)
            handled.add(node_index[id(qn)])
            xq = qp[x]
            yq = scalar_params(qn, qn.input[1], qn.input[2] if len(qn.input) > 2 else None,
                               "output")
            w_int, sw, zw, w_axis = weight_of(n, n.input[1], "weights")
            bias = None
            if len(n.input) > 2 and n.input[2]:
                b_int, _, _, _ = weight_of(n, n.input[2], "bias")
                bias = b_int
            if op == "Conv":
                if sw.size > 1 and w_axis not in (0, -4):
                    fail(n, "per-channel weight scales must run over the output channels")
                ca = conv_attrs(n, x, w_int.shape)
                shape = ca.pop("out_shape")
                lay = mac_layer(n, "conv", label, x, qn.output[0], w_int, zw, sw, bias, xq,
                                yq, extra=ca)
            else:
                dense_input(n, x)
                if op == "MatMul":
                    a = {"transB": 0}
                if sw.size > 1:
                    out_axis = 0 if a.get("transB", 0) else 1
                    if w_axis % 2 != out_axis:
                        fail(n, "per-channel weight scales must run over the outputs")
                if op == "Gemm" and bias is not None and float(a.get("beta", 1.0)) != 1.0:
                    fail(n, "beta other than 1 with a quantized bias is not supported")
                w, zw2, sw2 = gemm_weights(n, a, w_int, zw, sw, x)
                lay = mac_layer(n, "dense", label, x, qn.output[0], w, zw2, sw2, bias, xq, yq,
                                float(a.get("alpha", 1.0)) if op == "Gemm" else 1.0)
                shape = (1, w.shape[0])
            lay.fused.append(qn.name or f"QuantizeLinear_{node_index[id(qn)]}")
            finish(lay, shape, yq)
            continue
        if op in ("QLinearAdd", "Add"):
            if op == "QLinearAdd":
                ops = [operand(n, n.input[0], n.input[1], n.input[2], "first input"),
                       operand(n, n.input[3], n.input[4], n.input[5], "second input")]
                pc = scalar_params(n, n.input[6], n.input[7] if len(n.input) > 7 else None,
                                   "output")
                dst = out
            else:
                qdq_nodes.append(n)
                ops = [operand(n, name, None, None, "input") for name in n.input[:2]]
                qn = single_quantize(n)
                handled.add(node_index[id(qn)])
                pc = scalar_params(qn, qn.input[1], qn.input[2] if len(qn.input) > 2 else None,
                                   "output")
                dst = qn.output[0]
            (xa, ca, pa), (xb, cb, pb) = ops
            if not (pa.dtype == pb.dtype == pc.dtype):
                fail(n, "its inputs and output must be of one type (int8 or uint8)")
            if xa is None and xb is None:
                fail(n, "adding two constants is not supported")
            shape_a = tensors[xa].onnx_shape if xa is not None else ca.shape
            shape_b = tensors[xb].onnx_shape if xb is not None else cb.shape
            act = tensors[xa if xa is not None else xb]
            try:
                if np.broadcast_shapes(shape_a, shape_b) != tuple(act.onnx_shape):
                    raise ValueError
            except ValueError:
                fail(n, f"adding tensors of shapes {tuple(shape_a)} and {tuple(shape_b)}: "
                        "broadcasting between activations, or to a larger shape, is not "
                        "supported")
            constant = None
            for pos, c in ((0, ca), (1, cb)):
                if c is not None:
                    full = np.broadcast_to(c, act.onnx_shape).reshape(act.shape)
                    constant = (pos, full.astype(np.float64))
            try:
                plan = Q.plan_qlinear_add(pa.scale, pa.zp, pb.scale, pb.zp, pc.scale, pc.zp,
                                          pa.dtype,
                                          a_is_scalar=Q._a_is_spanwise_scalar(shape_a, shape_b))
            except ValueError as e:
                fail(n, str(e))
            lay = Layer("qadd", label, op, [x for x in (xa, xb) if x is not None], dst,
                        attrs={"plan": plan, "q": pc, "const": constant})
            finish(lay, act.onnx_shape, pc)
            continue
        if op in ("QLinearGlobalAveragePool", "GlobalAveragePool"):
            x, xq, yq, dst = pool_operands(n, a, op == "QLinearGlobalAveragePool")
            if len(tensors[x].shape) != 3:
                fail(n, "2-D pooling of one sample (N=1, C, H, W) is supported")
            if xq.dtype != yq.dtype:
                fail(n, "its input and output must be of one type")
            c, h, w = tensors[x].shape
            count = h * w
            qlo, qhi = Q.qrange(xq.dtype)
            lay = Layer("qgap", label, op, [x], dst, attrs={
                "q": yq, "zx": xq.zp, "count": count,
                "scale": float(Q.global_average_pool_scale(np.float32(xq.scale),
                                                           np.float32(yq.scale), count)),
                "acc": (count * (qlo - xq.zp), count * (qhi - xq.zp))})
            finish(lay, (1, c, 1, 1), yq)
            continue
        if op in ("MaxPool",) + SHAPE_OPS:
            qdq = n.input[0] in deq
            if qdq:
                x = deq[n.input[0]]
                qn = single_quantize(n)
                yq = scalar_params(qn, qn.input[1], qn.input[2] if len(qn.input) > 2 else None,
                                   "output")
                if yq != qp[x]:
                    fail(n, "the QuantizeLinear after it has another scale or zero point than "
                            "the DequantizeLinear before it: onnxruntime computes it in float")
                handled.add(node_index[id(qn)])
                dst = qn.output[0]
            else:
                x = int_input(n, n.input[0])
                dst = out
            if op == "MaxPool":
                if len(tensors[x].shape) != 3:
                    fail(n, "2-D pooling of one sample (N=1, C, H, W) is supported")
                if any(p != 0 for p in a.get("pads", [0, 0, 0, 0])) or a.get("ceil_mode", 0) \
                        or any(d != 1 for d in a.get("dilations", [1, 1])) or \
                        a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID",
                                                             "VALID"):
                    fail(n, "padding, ceil_mode and dilations are not supported")
                if len([o for o in n.output if o]) != 1:
                    fail(n, "the indices output is not supported")
                kh, kw = a["kernel_shape"]
                sh, sw_ = a.get("strides", [1, 1])
                c, h, w = tensors[x].shape
                lay = Layer("pool", label, op, [x], dst,
                            attrs={"kernel": (kh, kw), "strides": (sh, sw_), "kind": "max"})
                finish(lay, (1, c, (h - kh) // sh + 1, (w - kw) // sw_ + 1), qp[x])
                continue
            shape = _reshaped(op, a, tensors[x].onnx_shape, consts, n) if out not in known \
                else known[out]
            if shape is None:
                fail(n, f"the shape of its result '{out}' is not known")
            known[out] = shape
            src_s, dst_shape = tensors[x].shape, _drop_batch(known[out])
            if src_s == dst_shape or (len(src_s) == 1 and len(dst_shape) == 1):
                alias[dst] = x
                continue
            if len(src_s) != 1 and len(dst_shape) != 1:
                fail(n, f"reshaping {tensors[x].onnx_shape} to {known[out]}: one side must be "
                        "flat (rank 1 after the batch dimension)")
            lay = Layer("copy", label, op, [x], dst)
            finish(lay, known[out], qp[x])
            continue
        if op == "ArgMax":
            src = n.input[0]
            x = deq[src] if src in deq else int_input(n, src)
            if len(tensors[x].shape) != 1 or a.get("axis", 0) not in (-1, 1):
                fail(n, "only an ArgMax over the last axis of a vector (batch 1) is supported")
            if a.get("select_last_index", 0):
                fail(n, "select_last_index=1 is not supported")
            if out not in graph_outputs:
                fail(n, "ArgMax is supported as the graph's last node only")
            if qp[x].scale <= 0:
                fail(n, "a dequantization scale must be positive")
            lay = Layer("argmax", label, op, [x], out)
            finish(lay, known.get(out, (1, 1)), None)
            continue
        if op in ("MatMulInteger", "ConvInteger", "DynamicQuantizeLinear"):
            fail(n, "the dynamic-quantization operators (quantize_dynamic) are not supported: "
                    "their scales are computed in float at run time; quantize the model with "
                    "quantize_static")
        if op == "BatchNormalization":
            fail(n, "onnxruntime computes it in float between the quantized operators: fold "
                    "it into the convolution before quantizing (onnxruntime.quantization."
                    "quant_pre_process does)")
        if op in ("AveragePool", "QLinearAveragePool"):
            x, xq, yq, dst = pool_operands(n, a, op == "QLinearAveragePool")
            if len(tensors[x].shape) != 3:
                fail(n, "2-D pooling of one sample (N=1, C, H, W) is supported")
            if any(p != 0 for p in a.get("pads", [0, 0, 0, 0])) or a.get("ceil_mode", 0) \
                    or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID",
                                                            "VALID"):
                fail(n, "padding and ceil_mode are not supported")
            if xq.dtype != yq.dtype:
                fail(n, "its input and output must be of one type")
            kh, kw = a["kernel_shape"]
            sh, sw_ = a.get("strides", [1, 1])
            c, h, w = tensors[x].shape
            lay = Layer("qavgpool", label, op, [x], dst,
                        attrs={"kernel": (kh, kw), "strides": (sh, sw_), "x": xq, "q": yq})
            finish(lay, (1, c, (h - kh) // sh + 1, (w - kw) // sw_ + 1), yq)
            continue
        if op in ("Relu", "Clip", "Sigmoid", "Mul", "Cast", "Softmax", "Concat"):
            fail(n, "onnxruntime computes this operator in float between the quantized "
                    "ones (vichls supports only graphs it runs in integers)")
        fail(n, "this operator is not supported in quantized models")

    for o in graph_outputs:
        if o in alias:
            fail_out = real(o)
            lay = next((lay for lay in layers if lay.output == fail_out), None)
            if lay is None:
                raise OnnxError(f"model output '{o}' is not computed by any node", source)
            lay.output = o
            tensors[o] = tensors[fail_out]
            if fail_out in qp:
                qp[o] = qp[fail_out]
            for other in layers:
                other.inputs = [o if i == fail_out else i for i in other.inputs]
        elif not any(lay.output == o for lay in layers):
            raise OnnxError(f"model output '{o}' is not computed by any node (a quantized "
                            "model's outputs are the DequantizeLinear of quantized tensors)",
                            source)
    inputs = [tensors[t] for t in graph_inputs]
    outputs = [tensors[o] for o in graph_outputs]
    for t in inputs:
        readers = uses.get(t.name, [])
        if any(r.op_type != "QuantizeLinear" for r in readers):
            raise OnnxError(f"model input '{t.name}' is read by a float operator: only its "
                            "QuantizeLinear is supported", source)
    if qdq_nodes:
        _check_onnxruntime_fuses(proto, qdq_nodes, qp, source)
    name = g.name or (Path(source).stem if source != "<model>" else "model")
    return Model(name, inputs, outputs, tensors, layers, proto, source, quant=qp)


def _reshaped(op: str, a: dict, shape: tuple, consts: dict, n) -> tuple | None:
    """The result shape of a Flatten or Reshape (of a constant shape) whose output shape
    inference left unknown (after com.microsoft operators)."""
    if op == "Flatten":
        axis = a.get("axis", 1) % max(len(shape), 1)
        return (int(np.prod(shape[:axis])), int(np.prod(shape[axis:])))
    if op == "Reshape" and len(n.input) > 1 and n.input[1] in consts:
        want = [int(v) for v in np.asarray(consts[n.input[1]]).reshape(-1)]
        dims = [shape[k] if v == 0 and not a.get("allowzero", 0) else v
                for k, v in enumerate(want)]
        if dims.count(-1) == 1:
            rest = int(np.prod([d for d in dims if d != -1]))
            dims[dims.index(-1)] = int(np.prod(shape)) // max(rest, 1)
        return tuple(dims)
    if op == "Identity":
        return tuple(shape)
    return None


#: operators that onnxruntime runs on quantized integers (anything else computes in float)
_INTEGER_OPS = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "QGemm",
                "QLinearAdd", "QLinearGlobalAveragePool", "QLinearAveragePool", "MaxPool", "Flatten", "Reshape", "Squeeze", "Unsqueeze",
                "Identity", "ArgMax", "Constant"}


def _check_onnxruntime_fuses(proto, qdq_nodes: list, qp: dict, source: str) -> None:
    """Refuse the float operators of a QDQ graph that onnxruntime leaves in float.

    onnxruntime fuses ``DequantizeLinear -> op -> QuantizeLinear`` into an integer operator
    only where its selectors allow it; with int8 activations on x86 its int8-to-uint8
    rewrite leaves some groups (a quantized tensor read by several operators) unfused, and
    those run on its float kernels, whose sums vichls does not reproduce bit for bit. Where
    onnxruntime is installed, the graph it actually runs (its optimizer at the extended
    level) is checked for float operators; without it, int8 activations in QDQ form are
    refused (uint8 ones fuse wherever the QDQ form is as the quantizer writes it)."""
    try:
        import onnxruntime as ort
    except ImportError:
        ort = None
    if ort is None:
        if any(p.dtype == "int8" for p in qp.values()):
            n = qdq_nodes[0]
            raise OnnxError(f"node '{n.name or n.op_type}' ({n.op_type}): with int8 activations "
                            "in QDQ form, whether onnxruntime computes it in integers depends on "
                            "its graph rewrites, which vichls checks with onnxruntime: install "
                            "it (pip install 'vichls[onnx]'), or quantize with uint8 "
                            "activations or in operator form", source)
        return
    import tempfile

    onnx = _onnx()
    with tempfile.TemporaryDirectory() as d:
        so = ort.SessionOptions()
        so.log_severity_level = 3
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        so.optimized_model_filepath = str(Path(d) / "optimized.onnx")
        try:
            ort.InferenceSession(proto.SerializeToString(), so,
                                 providers=["CPUExecutionProvider"])
        except Exception as e:
            raise OnnxError(f"onnxruntime cannot run the model: {e}", source) from None
        optimized = onnx.load(so.optimized_model_filepath)
    names = {n.name for n in qdq_nodes if n.name}
    outputs = {n.output[0]: n for n in qdq_nodes}
    for n in optimized.graph.node:
        if n.op_type in _INTEGER_OPS:
            continue
        orig = outputs.get(n.output[0]) if n.output else None
        label = n.name if n.name in names or orig is None else (orig.name or orig.op_type)
        raise OnnxError(f"node '{label}' ({n.op_type}): onnxruntime computes it in float32 "
                        "(it does not fuse this DequantizeLinear/QuantizeLinear group into an "
                        "integer operator, as with int8 activations read by several "
                        "operators); vichls does not reproduce float sums bit for bit: "
                        "quantize with uint8 activations or in operator form", source)
