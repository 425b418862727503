"""Small ONNX models for the tests, made with onnx.helper from seeded or trained weights
(nothing is downloaded)."""

from __future__ import annotations

import numpy as np

import onnx
from onnx import TensorProto, helper, numpy_helper


def _model(nodes, inputs, outputs, inits, name="net"):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def mlp(sizes=(16, 64, 32, 32, 5), seed=0, argmax=False, matmul=False, name="jet"):
    """Dense layers (Gemm, or MatMul then Add with matmul=True) with ReLU between them."""
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    prev = "x"
    for k in range(len(sizes) - 1):
        w = (rng.standard_normal((sizes[k], sizes[k + 1])) / np.sqrt(sizes[k])).astype(np.float32)
        b = (rng.standard_normal(sizes[k + 1]) * 0.1).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{k}"), numpy_helper.from_array(b, f"b{k}")]
        if matmul:
            nodes.append(helper.make_node("MatMul", [prev, f"w{k}"], [f"m{k}"], name=f"matmul{k}"))
            nodes.append(helper.make_node("Add", [f"m{k}", f"b{k}"], [f"h{k}"], name=f"add{k}"))
        else:
            nodes.append(helper.make_node("Gemm", [prev, f"w{k}", f"b{k}"], [f"h{k}"],
                                          name=f"dense{k}"))
        prev = f"h{k}"
        if k < len(sizes) - 2:
            nodes.append(helper.make_node("Relu", [prev], [f"r{k}"], name=f"relu{k}"))
            prev = f"r{k}"
    if argmax:
        nodes.append(helper.make_node("ArgMax", [prev], ["cls"], axis=1, keepdims=1,
                                      name="argmax"))
        outs = [helper.make_tensor_value_info("cls", TensorProto.INT64, [1, 1])]
    else:
        outs = [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, sizes[-1]])]
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, sizes[0]])]
    return _model(nodes, ins, outs, inits, name)


def branches(seed=1):
    """Flatten of a 2x3 input, a dense layer, a Clip and an Add of two tensors (a skip
    connection), a constant Add and a Reshape to 2x2 at the end."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((6, 4)).astype(np.float32) * 0.5
    c = rng.standard_normal(4).astype(np.float32) * 0.2
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(c, "c"),
             numpy_helper.from_array(np.array([-0.5], np.float32), "lo"),
             numpy_helper.from_array(np.array([0.75], np.float32), "hi"),
             numpy_helper.from_array(np.array([1, 2, 2], np.int64), "shape")]
    nodes = [
        helper.make_node("Flatten", ["in 0"], ["flat"], name="flatten", axis=1),
        helper.make_node("MatMul", ["flat", "w"], ["d"], name="mm"),
        helper.make_node("Clip", ["d", "lo", "hi"], ["clipped"], name="clip"),
        helper.make_node("Add", ["d", "clipped"], ["sum"], name="skip"),
        helper.make_node("Add", ["sum", "c"], ["biased"], name="addc"),
        helper.make_node("Reshape", ["biased", "shape"], ["out"], name="reshape"),
    ]
    ins = [helper.make_tensor_value_info("in 0", TensorProto.FLOAT, [1, 2, 3])]
    outs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 2, 2])]
    return _model(nodes, ins, outs, inits, "branches")


def cnn(seed=0, size=8):
    """Conv 3x3 (padded) + BatchNormalization + Relu, MaxPool 2x2, Conv 3x3 + Relu,
    GlobalAveragePool, Flatten, Gemm, ArgMax: a tiny image classifier."""
    rng = np.random.default_rng(seed)
    c1, c2 = 3, 4
    inits = [numpy_helper.from_array(a.astype(np.float32), n) for n, a in (
        ("k1", rng.standard_normal((c1, 1, 3, 3)) * 0.5), ("kb1", rng.standard_normal(c1) * 0.1),
        ("g", 1 + rng.standard_normal(c1) * 0.1), ("be", rng.standard_normal(c1) * 0.1),
        ("mu", rng.standard_normal(c1) * 0.1), ("var", 0.5 + rng.random(c1)),
        ("k2", rng.standard_normal((c2, c1, 3, 3)) * 0.3),
        ("w", rng.standard_normal((c2, 3))), ("b", rng.standard_normal(3) * 0.1))]
    nodes = [
        helper.make_node("Conv", ["img", "k1", "kb1"], ["c1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "g", "be", "mu", "var"], ["n1"], name="bn1"),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "k2"], ["c2"], name="conv2", kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g2"], name="gap"),
        helper.make_node("Flatten", ["g2"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "w", "b"], ["logits"], name="fc"),
        helper.make_node("ArgMax", ["logits"], ["cls"], name="argmax", axis=1),
    ]
    ins = [helper.make_tensor_value_info("img", TensorProto.FLOAT, [1, 1, size, size])]
    outs = [helper.make_tensor_value_info("cls", TensorProto.INT64, [1, 1])]
    return _model(nodes, ins, outs, inits, "cnn")


def with_op(op_type: str, **attrs):
    """A dense layer followed by one node of ``op_type`` (for the errors; a
    BatchNormalization after a Relu, which cannot be folded)."""
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    inits = [numpy_helper.from_array(w, "w")] + [
        numpy_helper.from_array(np.ones(3, np.float32), n) for n in ("s", "b", "m", "v")]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["d"], name="mm")]
    if op_type == "BatchNormalization":
        nodes += [helper.make_node("Relu", ["d"], ["d2"], name="relu"),
                  helper.make_node(op_type, ["d2", "s", "b", "m", "v"], ["y"], name="the_node")]
    else:
        nodes.append(helper.make_node(op_type, ["d"], ["y"], name="the_node", **attrs))
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])]
    return _model(nodes, ins, outs, inits)


def digits_mlp(hidden=16, seed=0):
    """A 64-hidden-10 MLP trained on sklearn's digits (shipped with scikit-learn), as ONNX
    with an ArgMax at the end; and the digits (scaled to [0, 1]) and their labels."""
    from sklearn.datasets import load_digits
    from sklearn.neural_network import MLPClassifier

    digits = load_digits()
    x = digits.data / 16.0
    clf = MLPClassifier(hidden_layer_sizes=(hidden,), max_iter=300, random_state=seed)
    clf.fit(x[:1200], digits.target[:1200])
    inits, nodes, prev = [], [], "pixels"
    for k, (w, b) in enumerate(zip(clf.coefs_, clf.intercepts_)):
        inits += [numpy_helper.from_array(w.astype(np.float32), f"w{k}"),
                  numpy_helper.from_array(b.astype(np.float32), f"b{k}")]
        nodes.append(helper.make_node("Gemm", [prev, f"w{k}", f"b{k}"], [f"z{k}"],
                                      name=f"fc{k}"))
        prev = f"z{k}"
        if k == 0:
            nodes.append(helper.make_node("Relu", [prev], ["a0"], name="relu0"))
            prev = "a0"
    nodes.append(helper.make_node("ArgMax", [prev], ["digit"], axis=1, keepdims=0,
                                  name="argmax"))
    ins = [helper.make_tensor_value_info("pixels", TensorProto.FLOAT, [1, 64])]
    outs = [helper.make_tensor_value_info("digit", TensorProto.INT64, [1])]
    return _model(nodes, ins, outs, inits, "digits"), x[1200:], digits.target[1200:]


def separable(seed=0, channels=4, out_channels=8, size=8, classes=3):
    """A MobileNet-style depthwise-separable block: a 3x3 depthwise Conv (group = channels,
    padded) + BatchNormalization + Clip(0, 6), a 1x1 pointwise Conv + BatchNormalization +
    Clip(0, 6), GlobalAveragePool, Flatten and a Gemm to the logits."""
    rng = np.random.default_rng(seed)
    c, d = channels, out_channels

    def bn(prefix, n):
        return [(f"{prefix}g", 1 + rng.standard_normal(n) * 0.1),
                (f"{prefix}b", rng.standard_normal(n) * 0.1),
                (f"{prefix}m", rng.standard_normal(n) * 0.1), (f"{prefix}v", 0.5 + rng.random(n))]

    arrays = [("kd", rng.standard_normal((c, 1, 3, 3)) * 0.5)] + bn("d", c) + [
        ("kp", rng.standard_normal((d, c, 1, 1)) * 0.5)] + bn("p", d) + [
        ("lo", np.array(0.0)), ("hi", np.array(6.0)),
        ("w", rng.standard_normal((d, classes)) * 0.5), ("b", rng.standard_normal(classes) * 0.1)]
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in arrays]
    nodes = [
        helper.make_node("Conv", ["img", "kd"], ["c1"], name="depthwise", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], group=c),
        helper.make_node("BatchNormalization", ["c1", "dg", "db", "dm", "dv"], ["n1"], name="bn1"),
        helper.make_node("Clip", ["n1", "lo", "hi"], ["r1"], name="relu6_1"),
        helper.make_node("Conv", ["r1", "kp"], ["c2"], name="pointwise", kernel_shape=[1, 1]),
        helper.make_node("BatchNormalization", ["c2", "pg", "pb", "pm", "pv"], ["n2"], name="bn2"),
        helper.make_node("Clip", ["n2", "lo", "hi"], ["r2"], name="relu6_2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "w", "b"], ["logits"], name="fc"),
    ]
    ins = [helper.make_tensor_value_info("img", TensorProto.FLOAT, [1, c, size, size])]
    outs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes])]
    return _model(nodes, ins, outs, inits, "separable")


def residual(seed=0, channels=3, size=6, kernel=3):
    """A ResNet-style basic block: Conv kernel x kernel (padded to keep the size) + Relu,
    Conv likewise, the block's input added back (the skip connection), Relu."""
    rng = np.random.default_rng(seed)
    c, k, p = channels, kernel, kernel // 2
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in (
        ("k1", rng.standard_normal((c, c, k, k)) * 0.3), ("b1", rng.standard_normal(c) * 0.1),
        ("k2", rng.standard_normal((c, c, k, k)) * 0.3), ("b2", rng.standard_normal(c) * 0.1))]
    nodes = [
        helper.make_node("Conv", ["x", "k1", "b1"], ["c1"], name="conv1", kernel_shape=[k, k],
                         pads=[p, p, p, p]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "k2", "b2"], ["c2"], name="conv2", kernel_shape=[k, k],
                         pads=[p, p, p, p]),
        helper.make_node("Add", ["c2", "x"], ["s"], name="skip"),
        helper.make_node("Relu", ["s"], ["y"], name="relu2"),
    ]
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, size, size])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, size, size])]
    return _model(nodes, ins, outs, inits, "residual")


def conv_pool(seed=0, size=10):
    """Unpadded convolutions and tiling poolings: Conv 3x3 (2 -> 3 channels) + Relu,
    MaxPool 2x2, Conv 1x1 (3 -> 4), AveragePool 2x2; the output is the pooled tensor."""
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in (
        ("k1", rng.standard_normal((3, 2, 3, 3)) * 0.4), ("b1", rng.standard_normal(3) * 0.1),
        ("k2", rng.standard_normal((4, 3, 1, 1)) * 0.5))]
    nodes = [
        helper.make_node("Conv", ["x", "k1", "b1"], ["c1"], name="conv1", kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="maxpool", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "k2"], ["c2"], name="conv2", kernel_shape=[1, 1]),
        helper.make_node("AveragePool", ["c2"], ["y"], name="avgpool", kernel_shape=[2, 2],
                         strides=[2, 2]),
    ]
    h = (size - 2) // 4
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, size, size])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, h, h])]
    return _model(nodes, ins, outs, inits, "conv_pool")


def grouped(seed=0, groups=2, size=5):
    """A grouped 3x3 Conv (4 input, 6 output channels in ``groups`` groups) + Relu."""
    rng = np.random.default_rng(seed)
    cig = 4 // groups if 4 % groups == 0 else 1
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in (
        ("k", rng.standard_normal((6, cig, 3, 3)) * 0.4), ("b", rng.standard_normal(6) * 0.1))]
    nodes = [helper.make_node("Conv", ["x", "k", "b"], ["c"], name="gconv", kernel_shape=[3, 3],
                              group=groups),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, size, size])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6, size - 2, size - 2])]
    g = helper.make_graph(nodes, "grouped", ins, outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def inception(seed=0, size=5):
    """Two convolutions of one input (1x1 and 3x3 padded) concatenated along the channels
    (an Inception-style block), then a Relu and a 1x1 Conv."""
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in (
        ("ka", rng.standard_normal((2, 3, 1, 1)) * 0.5),
        ("kb", rng.standard_normal((3, 3, 3, 3)) * 0.3),
        ("kc", rng.standard_normal((2, 5, 1, 1)) * 0.5))]
    nodes = [
        helper.make_node("Conv", ["x", "ka"], ["a"], name="branch1x1", kernel_shape=[1, 1]),
        helper.make_node("Conv", ["x", "kb"], ["b"], name="branch3x3", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Concat", ["a", "b"], ["c"], name="concat", axis=1),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("Conv", ["r", "kc"], ["y"], name="mix", kernel_shape=[1, 1]),
    ]
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, size, size])]
    return _model(nodes, ins, outs, inits, "inception")


def concat_last(seed=0):
    """Two dense layers of one vector concatenated along the last axis (of [1, 4] and
    [1, 3]), then a dense layer."""
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(np.asarray(a, np.float32), n) for n, a in (
        ("w0", rng.standard_normal((5, 4))), ("w1", rng.standard_normal((5, 3))),
        ("w2", rng.standard_normal((7, 2))))]
    nodes = [helper.make_node("MatMul", ["x", "w0"], ["a"], name="fa"),
             helper.make_node("MatMul", ["x", "w1"], ["b"], name="fb"),
             helper.make_node("Concat", ["a", "b"], ["c"], name="cat", axis=-1),
             helper.make_node("MatMul", ["c", "w2"], ["y"], name="fy")]
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 5])]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])]
    return _model(nodes, ins, outs, inits, "concat_last")


def with_softmax(seed=0):
    """An 8-12-10 MLP whose logits go through a Softmax (over the last axis)."""
    m = mlp(sizes=(8, 12, 10), seed=seed)
    g = m.graph
    g.node.append(helper.make_node("Softmax", [g.output[0].name], ["prob"], name="softmax",
                                   axis=-1))
    del g.output[:]
    g.output.append(helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10]))
    onnx.checker.check_model(m)
    return m


def onnxruntime_outputs(model, inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = {}
    for vi, x in zip(model.graph.input, inputs):
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        feed[vi.name] = np.asarray(x, np.float32).reshape(dims)
    return sess.run(None, feed)
