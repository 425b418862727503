"""Quantized ONNX models for the tests: float models made with onnx.helper (weights trained
on sklearn's digits, which ship with it, or seeded), quantized with onnxruntime's
quantize_static over a few calibration samples (nothing is downloaded)."""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

import onnx
from onnx import TensorProto, helper, numpy_helper


def _model(nodes, inits, in_shape, out_shape, name):
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                       list(in_shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                         list(out_shape))],
                          initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 9
    onnx.checker.check_model(m)
    return m


@lru_cache(maxsize=None)
def digits():
    """sklearn's 8x8 digits scaled to [0, 1] (float32) and their labels."""
    from sklearn.datasets import load_digits

    d = load_digits()
    return (d.data / 16.0).astype(np.float32), d.target


def digits_mlp(hidden: int = 24):
    """A 64-hidden-10 MLP (Gemm, Relu, Gemm) trained on the digits."""
    from sklearn.neural_network import MLPClassifier

    x, y = digits()
    clf = MLPClassifier(hidden_layer_sizes=(hidden,), max_iter=200, random_state=0)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(x[:1200], y[:1200])
    inits, nodes, prev = [], [], "x"
    for k, (w, b) in enumerate(zip(clf.coefs_, clf.intercepts_)):
        inits += [numpy_helper.from_array(w.T.astype(np.float32), f"w{k}"),
                  numpy_helper.from_array(b.astype(np.float32), f"b{k}")]
        out = "y" if k == len(clf.coefs_) - 1 else f"h{k}"
        nodes.append(helper.make_node("Gemm", [prev, f"w{k}", f"b{k}"], [out], transB=1,
                                      name=f"dense{k}"))
        prev = out
        if k < len(clf.coefs_) - 1:
            nodes.append(helper.make_node("Relu", [prev], [f"r{k}"], name=f"relu{k}"))
            prev = f"r{k}"
    return _model(nodes, inits, (1, 64), (1, 10), "mlp")


def _inits():
    inits = []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr, np.float32), name))
        return name
    return inits, init


def digits_cnn(seed: int = 0, channels: int = 4):
    """Conv 3x3 (seeded filters) + Relu + MaxPool 2 + Flatten + Gemm on the 8x8 digits, the
    Gemm fitted (least squares on one-hot labels) to the features."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((channels, 1, 3, 3)) * 0.5).astype(np.float32)
    b1 = (rng.standard_normal(channels) * 0.1).astype(np.float32)
    x, y = digits()
    imgs = x.reshape(-1, 1, 8, 8)
    feats = np.stack([_conv_relu_pool(im, w1, b1) for im in imgs[:600]])
    a = np.hstack([feats, np.ones((len(feats), 1))])
    coef, *_ = np.linalg.lstsq(a, np.eye(10)[y[:600]], rcond=None)
    inits, init = _inits()
    nodes = [helper.make_node("Conv", ["x", init("w1", w1), init("b1", b1)], ["c1"],
                              name="conv1"),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2],
                              name="pool1"),
             helper.make_node("Flatten", ["p1"], ["f"], name="flatten"),
             helper.make_node("Gemm", ["f", init("wg", coef[:-1].T), init("bg", coef[-1])],
                              ["y"], transB=1, name="fc")]
    return _model(nodes, inits, (1, 1, 8, 8), (1, 10), "cnn")


def digits_cnn_average(seed: int = 0):
    """``digits_cnn`` with an AveragePool where its MaxPool is (same fitted layers)."""
    m = digits_cnn(seed)
    for n in m.graph.node:
        if n.op_type == "MaxPool":
            n.op_type = "AveragePool"
            n.name = "avgpool"
    return m


def _conv_relu_pool(im, w, b):
    c, _, kh, kw = w.shape
    oh, ow = im.shape[1] - kh + 1, im.shape[2] - kw + 1
    out = np.zeros((c, oh, ow), np.float32)
    for i in range(kh):
        for j in range(kw):
            out += w[:, 0, i, j][:, None, None] * im[0, i:i + oh, j:j + ow][None]
    out = np.maximum(out + b[:, None, None], 0)
    return out[:, :oh // 2 * 2, :ow // 2 * 2].reshape(c, oh // 2, 2, ow // 2, 2).max(
        axis=(2, 4)).reshape(-1)


def residual_cnn(seed: int = 3):
    """Conv (padded) + Relu, Conv (padded) + Relu, Add of the two (a skip connection),
    MaxPool, Flatten, Gemm: seeded weights, 8x8 input."""
    rng = np.random.default_rng(seed)
    inits, init = _inits()

    def W(*shape, s=0.3):
        return rng.standard_normal(shape) * s
    nodes = [helper.make_node("Conv", ["x", init("w1", W(4, 1, 3, 3)), init("b1", W(4, s=0.1))],
                              ["c1"], pads=[1, 1, 1, 1], name="conv1"),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", init("w2", W(4, 4, 3, 3, s=0.2)),
                                       init("b2", W(4, s=0.1))], ["c2"], pads=[1, 1, 1, 1],
                              name="conv2"),
             helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
             helper.make_node("Add", ["r2", "r1"], ["a"], name="skip"),
             helper.make_node("MaxPool", ["a"], ["p"], kernel_shape=[2, 2], strides=[2, 2],
                              name="pool"),
             helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
             helper.make_node("Gemm", ["f", init("wg", W(10, 64, s=0.2)),
                                       init("bg", W(10, s=0.1))], ["y"], transB=1, name="fc")]
    return _model(nodes, inits, (1, 1, 8, 8), (1, 10), "residual")


class Calibration:
    """onnxruntime's CalibrationDataReader over the first ``n`` digits (or normal samples)."""

    def __init__(self, shape, n: int = 16, seed: int = 0, name: str = "x"):
        x, _ = digits()
        if int(np.prod(shape)) == 64:
            data = x[-n:].reshape((n,) + tuple(shape))
        else:
            data = np.random.default_rng(seed).standard_normal((n,) + tuple(shape))
        self.items = iter([{name: d.astype(np.float32)} for d in data])

    def get_next(self):
        return next(self.items, None)


def quantize(model, fmt: str = "QDQ", act: str = "QUInt8", wt: str = "QInt8",
             per_channel: bool = False):
    """``model`` quantized by onnxruntime's quantize_static (a ModelProto)."""
    import logging

    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    logging.getLogger().setLevel(logging.ERROR)  # its advice to pre-process the model
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    if model.opset_import[0].version < 13:  # QuantizeLinear per axis needs opset 13
        model.opset_import[0].version = 13
    with tempfile.TemporaryDirectory() as d:
        src, dst = str(Path(d) / "f.onnx"), str(Path(d) / "q.onnx")
        onnx.save(model, src)
        quantize_static(src, dst, Calibration(shape, name=model.graph.input[0].name),
                        quant_format=QuantFormat[fmt],
                        activation_type=QuantType[act], weight_type=QuantType[wt],
                        per_channel=per_channel)
        return onnx.load(dst)


def preprocessed(model):
    """``model`` through onnxruntime's quant_pre_process (folds BatchNormalization into the
    convolutions, as its quantizer expects)."""
    from onnxruntime.quantization.shape_inference import quant_pre_process

    model.opset_import[0].version = max(model.opset_import[0].version, 13)
    with tempfile.TemporaryDirectory() as d:
        src, dst = str(Path(d) / "m.onnx"), str(Path(d) / "p.onnx")
        onnx.save(model, src)
        quant_pre_process(src, dst, skip_symbolic_shape=True)
        return onnx.load(dst)


def session(model):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])


def samples(model, n: int, seed: int = 0) -> list[np.ndarray]:
    """``n`` inputs (batch-less float32): digits, with every third scaled up and noisy (to
    reach the clamps); normal samples for inputs of another size."""
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim][1:]
    x, _ = digits()
    rng = np.random.default_rng(seed)
    if int(np.prod(shape)) != 64:
        return [rng.standard_normal(shape).astype(np.float32) * (1 + k % 3) for k in range(n)]
    pick = rng.choice(len(x), n, replace=False)
    out = []
    for k, i in enumerate(pick):
        v = x[i].reshape(shape)
        if k % 3 == 2:
            v = v * 3 + rng.standard_normal(shape) * 0.5
        out.append(v.astype(np.float32))
    return out
