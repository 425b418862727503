"""An ONNX model read into a short list of layers with static shapes.

``read_model(path_or_model)`` loads a ``ModelProto`` with the ``onnx`` package, infers every
tensor's shape (``onnx.shape_inference``, strict), and walks the graph's nodes in their order
(ONNX keeps them topologically sorted) into ``Layer`` records that code generation
(vichls/onnx/codegen.py) turns into one kernel each:

- ``dense``: ``Gemm``, or ``MatMul`` by a constant matrix, with the following ``Add`` of a
  constant vector folded in as its bias and a following ``Relu``/``Clip`` as its activation
  (when the dense layer's result feeds nothing else);
- ``elementwise``: ``Relu``, ``Clip`` and ``Add`` (of two tensors of one shape, or of a
  tensor and a constant) that could not be fused;
- ``copy``: ``Flatten``/``Reshape`` between shapes of different ranks (one of them flat);
  between flat shapes, and ``Identity``/``Dropout``, the tensor is only renamed;
- ``softmax``: ``Softmax`` over the last axis of a vector (tables for the exponential and
  the reciprocal, in fixed point);
- ``concat``: ``Concat`` of activations along any axis but the batch's;
- ``argmax``: ``ArgMax`` over the last axis of a flat tensor, the graph's last node;
- ``conv``: ``Conv`` (2-D; grouped and depthwise too), with a following per-channel ``Add``, ``Relu``/``Clip``
  folded in as for dense layers; ``BatchNormalization`` after a dense or conv layer is folded
  into its weights and bias;
- ``pool``: ``MaxPool``, ``AveragePool`` (no padding), ``GlobalAveragePool``.

A leading batch dimension of 1 (or symbolic) is dropped from every tensor of rank 2 or
more. Weights are kept as float64 numpy arrays (alpha and beta of ``Gemm`` folded in);
their conversion to the layer's precision is code generation's. Anything else is refused
with an ``OnnxError`` naming the node, its op type and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vichls.errors import VichlsError


class OnnxError(VichlsError):
    """An ONNX model vichls cannot read or does not support (names the node where there
    is one)."""


@dataclass
class Tensor:
    name: str                  # the ONNX name
    shape: tuple[int, ...]     # batch dimension of 1 dropped
    onnx_shape: tuple[int, ...]


@dataclass
class Layer:
    kind: str                  # dense | conv | pool | elementwise | copy | argmax; quantized
    #                            models (vichls/onnx/qmodel.py) add quantize | dequantize | qadd
    node: str                  # the ONNX name of the layer's main node (or its op and index)
    op_type: str
    inputs: list[str]          # tensor names (activations only)
    output: str
    fused: list[str] = field(default_factory=list)  # ONNX names of the nodes folded in
    weight: np.ndarray | None = None   # dense: [N, K], y[o] = sum_i x[i] * W[o, i] + b[o]
    bias: np.ndarray | None = None     # dense: [N] or None
    activation: tuple | None = None    # None, ("relu",), ("clip", lo, hi)
    op: tuple | None = None            # elementwise: ("relu",) ("clip", lo, hi)
    #                                    ("add",) ("add_const", array)
    attrs: dict = field(default_factory=dict)  # conv / pool: strides, pads, kernel


@dataclass
class Model:
    name: str
    inputs: list[Tensor]
    outputs: list[Tensor]
    tensors: dict[str, Tensor]
    layers: list[Layer]
    onnx_model: object = None
    source: str = "<model>"
    quant: dict | None = None  # a quantized model: tensor name -> QParams of its integers


def _onnx():
    try:
        import onnx
    except ImportError:
        raise VichlsError("reading ONNX models needs the onnx package: pip install "
                          "'vichls[onnx]'") from None
    return onnx


def load_proto(path_or_model):
    """The ``ModelProto`` of a path or of a model given as one; and a name for messages."""
    onnx = _onnx()
    if isinstance(path_or_model, onnx.ModelProto):
        return path_or_model, (path_or_model.graph.name or "<model>")
    path = Path(path_or_model)
    if not path.is_file():
        raise OnnxError(f"no such file: {path}")
    try:
        return onnx.load(str(path)), str(path)
    except Exception as e:  # a file that is not a model
        raise OnnxError(f"cannot read the ONNX model: {type(e).__name__}: {e}", str(path)) from None


def _drop_batch(shape: tuple[int, ...]) -> tuple[int, ...]:
    if len(shape) >= 2 and shape[0] == 1:
        return shape[1:]
    return shape


def read_model(path_or_model) -> Model:
    return read_float(*load_proto(path_or_model))


def read_float(proto, source: str) -> Model:
    """A float model's ``ModelProto`` read into layers (``source`` names it in messages)."""
    onnx = _onnx()
    from onnx import numpy_helper

    try:
        inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=True)
    except Exception as e:
        raise OnnxError(f"the model's shapes cannot be inferred: {e}", source) from None
    g = inferred.graph
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 13)

    consts: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    tensors: dict[str, Tensor] = {}

    def add_tensor(vi, where: str):
        t = vi.type.tensor_type
        if not t.HasField("shape"):
            raise OnnxError(f"tensor '{vi.name}' ({where}) has no known shape", source)
        dims = []
        for k, d in enumerate(t.shape.dim):
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            elif k == 0:
                dims.append(1)  # a symbolic batch dimension: one sample per call
            else:
                raise OnnxError(f"tensor '{vi.name}' ({where}) has a symbolic dimension "
                                f"'{d.dim_param}' other than the batch: shapes must be static",
                                source)
        onnx_shape = tuple(dims)
        tensors[vi.name] = Tensor(vi.name, _drop_batch(onnx_shape), onnx_shape)

    float_types = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16)
    inputs = []
    for vi in g.input:
        if vi.name in consts:
            continue  # (an initializer listed among the inputs, as older exporters do)
        if vi.type.tensor_type.elem_type not in float_types:
            raise OnnxError(f"model input '{vi.name}' is not a float tensor (element type "
                            f"{onnx.TensorProto.DataType.Name(vi.type.tensor_type.elem_type)})",
                            source)
        add_tensor(vi, "a model input")
        inputs.append(tensors[vi.name])
    for vi in list(g.value_info) + list(g.output):
        add_tensor(vi, "a model output" if vi in g.output else "an intermediate result")
    outputs = [tensors[vi.name] for vi in g.output]

    # consumers of each tensor (to know when a result feeds only the next node)
    uses: dict[str, int] = {}
    for n in g.node:
        for name in n.input:
            uses[name] = uses.get(name, 0) + 1
    for o in g.output:
        uses[o.name] = uses.get(o.name, 0) + 1

    alias: dict[str, str] = {}     # renamed tensors (Flatten of a flat tensor, Identity, ...)
    layers: list[Layer] = []
    producer: dict[str, Layer] = {}

    def real(name: str) -> str:
        while name in alias:
            name = alias[name]
        return name

    def attrs(n) -> dict:
        return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}

    def fail(n, k: int, why: str):
        label = n.name or f"#{k}"
        raise OnnxError(f"node '{label}' ({n.op_type}): {why}", source)

    def const_of(n, k, name: str, what: str) -> np.ndarray:
        if name not in consts:
            fail(n, k, f"its {what} ('{name}') must be a constant (an initializer)")
        return consts[name].astype(np.float64)

    def activation_input(n, k, name: str) -> str:
        if name in consts:
            fail(n, k, f"input '{name}' is a constant where an activation tensor is expected")
        r = real(name)
        if r not in tensors:
            fail(n, k, f"input '{name}' has no known shape")
        return r

    def fusable(name: str) -> Layer | None:
        """The dense layer producing ``name`` when nothing else reads ``name``."""
        lay = producer.get(name)
        if lay is not None and lay.kind in ("dense", "conv") and uses.get(name, 0) == 1 \
                and lay.activation is None and name not in alias.values():
            return lay
        return None

    def rename_output(lay: Layer, old: str, new: str) -> None:
        lay.output = new
        del producer[old]
        producer[new] = lay

    for k, n in enumerate(g.node):
        label = n.name or f"{n.op_type}_{k}"
        a = attrs(n)
        op = n.op_type
        if n.domain not in ("", "ai.onnx"):
            fail(n, k, f"operators of domain '{n.domain}' are not supported")
        if op == "Constant":
            if "value" not in a:
                fail(n, k, "only Constant nodes with a 'value' tensor are supported")
            consts[n.output[0]] = numpy_helper.to_array(a["value"])
            continue
        out = n.output[0]
        if op in ("Gemm", "MatMul"):
            x = activation_input(n, k, n.input[0])
            xs = tensors[x].shape
            if len(xs) != 1:
                fail(n, k, f"its input '{n.input[0]}' has shape {tensors[x].onnx_shape}; "
                           "dense layers take one vector per call (batch 1)")
            if op == "Gemm":
                if a.get("transA", 0):
                    fail(n, k, "transA=1 is not supported (the activation must be the row "
                               "vector A)")
                b = const_of(n, k, n.input[1], "matrix B")
                w = b if a.get("transB", 0) else b.T
                w = w * float(a.get("alpha", 1.0))
                bias = None
                if len(n.input) > 2 and n.input[2]:
                    c = const_of(n, k, n.input[2], "bias C") * float(a.get("beta", 1.0))
                    bias = np.broadcast_to(c.reshape(-1) if c.size == w.shape[0] else c,
                                           (w.shape[0],)).astype(np.float64).copy() \
                        if c.size in (1, w.shape[0]) else None
                    if bias is None:
                        fail(n, k, f"bias C of shape {c.shape} does not broadcast to one value "
                                   "per output")
            else:
                b = const_of(n, k, n.input[1], "second operand")
                if b.ndim != 2:
                    fail(n, k, f"the constant operand has {b.ndim} dimensions; 2 are supported")
                w, bias = b.T, None
            if w.shape[1] != xs[0]:
                fail(n, k, f"the weights take {w.shape[1]} inputs, the input has {xs[0]}")
            lay = Layer("dense", label, op, [x], out, weight=np.array(w, np.float64), bias=bias)
        elif op == "Add":
            left, right = n.input[0], n.input[1]
            if left in consts and right not in consts:
                left, right = right, left
            if right in consts:
                c = consts[right].astype(np.float64)
                x = activation_input(n, k, left)
                dense = fusable(x)
                shape = tensors[x].shape
                per_out = c.size in (1, dense.weight.shape[0]) if dense is not None else False
                if dense is not None and dense.kind == "conv" and c.size > 1:
                    trailing = c.shape[-3:] if c.ndim >= 3 else ()
                    per_out = len(trailing) == 3 and trailing[1:] == (1, 1) \
                        and trailing[0] == dense.weight.shape[0]
                if dense is not None and per_out:
                    extra = np.broadcast_to(c.reshape(-1), (dense.weight.shape[0],))
                    dense.bias = extra.copy() if dense.bias is None else dense.bias + extra
                    dense.fused.append(label)
                    rename_output(dense, x, out)
                    continue
                try:
                    full = np.broadcast_to(c.reshape(c.shape[-len(shape):] if c.ndim > len(shape)
                                                     and all(d == 1 for d in c.shape[:-len(shape)])
                                                     else c.shape), shape).copy()
                except ValueError:
                    fail(n, k, f"the constant of shape {c.shape} does not broadcast to the "
                               f"tensor's shape {shape}")
                lay = Layer("elementwise", label, op, [x], out, op=("add_const", full))
            else:
                x, y = activation_input(n, k, left), activation_input(n, k, right)
                if tensors[x].shape != tensors[y].shape:
                    fail(n, k, f"adding tensors of shapes {tensors[x].onnx_shape} and "
                               f"{tensors[y].onnx_shape}: broadcasting between activations "
                               "is not supported")
                lay = Layer("elementwise", label, op, [x, y], out, op=("add",))
        elif op in ("Relu", "Clip"):
            x = activation_input(n, k, n.input[0])
            if op == "Relu":
                act = ("relu",)
            else:
                lo, hi = a.get("min", -np.inf), a.get("max", np.inf)  # (opset < 11)
                if len(n.input) > 1 and n.input[1]:
                    lo = float(const_of(n, k, n.input[1], "minimum").reshape(()))
                if len(n.input) > 2 and n.input[2]:
                    hi = float(const_of(n, k, n.input[2], "maximum").reshape(()))
                act = ("clip", float(lo), float(hi))
            dense = fusable(x)
            if dense is not None:
                dense.activation = act
                dense.fused.append(label)
                rename_output(dense, x, out)
                continue
            lay = Layer("elementwise", label, op, [x], out, op=act)
        elif op in ("Flatten", "Reshape", "Identity", "Dropout", "Squeeze", "Unsqueeze"):
            x = activation_input(n, k, n.input[0])
            if op == "Dropout" and len(n.output) > 1 and n.output[1]:
                fail(n, k, "its mask output is not supported")
            if out not in tensors:
                fail(n, k, f"the shape of its result '{out}' is not known")
            src, dst = tensors[x].shape, tensors[out].shape
            if int(np.prod(src)) != int(np.prod(dst)):
                fail(n, k, f"reshaping {src} to {dst} changes the number of elements")
            if src == dst or (len(src) == 1 and len(dst) == 1):
                alias[out] = x
                continue
            if len(src) != 1 and len(dst) != 1:
                fail(n, k, f"reshaping {tensors[x].onnx_shape} to {tensors[out].onnx_shape}: "
                           "one side must be flat (rank 1 after the batch dimension)")
            lay = Layer("copy", label, op, [x], out)
        elif op == "ArgMax":
            x = activation_input(n, k, n.input[0])
            shape = tensors[x].shape
            axis = a.get("axis", 0)
            onnx_rank = len(tensors[x].onnx_shape)
            if axis < 0:
                axis += onnx_rank
            if len(shape) != 1 or axis != onnx_rank - 1:
                fail(n, k, "only an ArgMax over the last axis of a vector (batch 1) is "
                           "supported")
            if a.get("select_last_index", 0):
                fail(n, k, "select_last_index=1 is not supported")
            if out not in [o.name for o in g.output]:
                fail(n, k, "ArgMax is supported as the graph's last node only")
            lay = Layer("argmax", label, op, [x], out)
        elif op == "Softmax":
            x = activation_input(n, k, n.input[0])
            onnx_rank = len(tensors[x].onnx_shape)
            axis = a.get("axis", -1 if opset >= 13 else 1)
            axis = axis + onnx_rank if axis < 0 else axis
            if len(tensors[x].shape) != 1 or axis != onnx_rank - 1:
                fail(n, k, "only a Softmax over the last axis of a vector (batch 1) is "
                           "supported")
            lay = Layer("softmax", label, op, [x], out)
        elif op == "BatchNormalization":
            x = activation_input(n, k, n.input[0])
            dense = fusable(x)
            if dense is None:
                fail(n, k, "only a BatchNormalization right after a Gemm, MatMul or Conv "
                           "(which nothing else reads) is supported: it is folded into it")
            if a.get("training_mode", 0) or len([o for o in n.output if o]) != 1:
                fail(n, k, "training mode is not supported")
            gamma, beta, mean, var = (const_of(n, k, n.input[j], what) for j, what in
                                      ((1, "scale"), (2, "bias"), (3, "mean"), (4, "variance")))
            scale = gamma / np.sqrt(var + float(a.get("epsilon", 1e-5)))
            n_out = dense.weight.shape[0]
            if scale.size != n_out:
                fail(n, k, f"{scale.size} channels where the layer before has {n_out}")
            dense.weight = dense.weight * scale.reshape((n_out,) + (1,) * (dense.weight.ndim - 1))
            b0 = dense.bias if dense.bias is not None else np.zeros(n_out)
            dense.bias = (b0 - mean) * scale + beta
            dense.fused.append(label)
            rename_output(dense, x, out)
            continue
        elif op == "Conv":
            x = activation_input(n, k, n.input[0])
            xs = tensors[x].shape
            if len(xs) != 3:
                fail(n, k, f"input of shape {tensors[x].onnx_shape}: 2-D convolutions of one "
                           "sample (N=1, C, H, W) are supported")
            w = const_of(n, k, n.input[1], "weights")
            group = int(a.get("group", 1))
            if group < 1 or xs[0] % group or (w.ndim == 4 and w.shape[0] % group):
                fail(n, k, f"group={group} does not divide the {xs[0]} input channels and "
                           f"the {w.shape[0]} output channels")
            if w.ndim != 4 or w.shape[1] * group != xs[0]:
                fail(n, k, f"weights of shape {w.shape} for an input of {xs[0]} channels"
                           + (f" in {group} groups" if group > 1 else ""))
            if any(d != 1 for d in a.get("dilations", [1, 1])):
                fail(n, k, "dilations other than 1 are not supported")
            if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
                fail(n, k, "auto_pad SAME_* is not supported: give the pads")
            bias = const_of(n, k, n.input[2], "bias") if len(n.input) > 2 and n.input[2] \
                else None
            lay = Layer("conv", label, op, [x], out, weight=w, bias=bias,
                        attrs={"strides": tuple(a.get("strides", [1, 1])),
                               "pads": tuple(a.get("pads", [0, 0, 0, 0])), "group": group})
        elif op in ("MaxPool", "AveragePool"):
            x = activation_input(n, k, n.input[0])
            if len(tensors[x].shape) != 3:
                fail(n, k, "2-D pooling of one sample (N=1, C, H, W) is supported")
            if any(p != 0 for p in a.get("pads", [0, 0, 0, 0])) or a.get("ceil_mode", 0) \
                    or any(d != 1 for d in a.get("dilations", [1, 1])) \
                    or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
                fail(n, k, "padding, ceil_mode and dilations are not supported")
            if len([o for o in n.output if o]) != 1:
                fail(n, k, "the indices output is not supported")
            kernel = tuple(a["kernel_shape"])
            lay = Layer("pool", label, op, [x], out,
                        attrs={"kernel": kernel, "strides": tuple(a.get("strides", [1, 1])),
                               "kind": "max" if op == "MaxPool" else "avg"})
        elif op == "GlobalAveragePool":
            x = activation_input(n, k, n.input[0])
            if len(tensors[x].shape) != 3:
                fail(n, k, "2-D pooling of one sample (N=1, C, H, W) is supported")
            _, h, w_ = tensors[x].shape
            lay = Layer("pool", label, op, [x], out,
                        attrs={"kernel": (h, w_), "strides": (1, 1), "kind": "avg"})
        elif op == "Concat":
            xs = [activation_input(n, k, name) for name in n.input]
            shapes = [tensors[x].shape for x in xs]
            onnx_rank = len(tensors[xs[0]].onnx_shape)
            axis = a.get("axis", 0)
            axis = axis + onnx_rank if axis < 0 else axis
            at = axis - (onnx_rank - len(shapes[0]))  # (the batch dimension dropped)
            if at < 0:
                fail(n, k, "a concatenation along the batch axis is not supported (one "
                           "sample per call)")
            if len({len(sh) for sh in shapes}) != 1 or any(
                    sh[:at] + sh[at + 1:] != shapes[0][:at] + shapes[0][at + 1:] for sh in shapes):
                fail(n, k, f"the inputs' shapes {[tensors[x].onnx_shape for x in xs]} differ "
                           f"on an axis other than {axis}")
            lay = Layer("concat", label, op, xs, out, attrs={"axis": at})
        else:
            fail(n, k, "this operator is not supported")
        if len([o for o in n.output if o]) != 1:
            fail(n, k, "nodes with several outputs are not supported")
        if out not in tensors:
            fail(n, k, f"the shape of its result '{out}' is not known")
        layers.append(lay)
        producer[out] = lay
    # graph outputs that are only renamed tensors get a copy (they are parameters of their own)
    for o in outputs:
        if o.name in alias:
            src = real(o.name)
            if src in [i.name for i in inputs] or src in [p.name for p in outputs]:
                raise OnnxError(f"model output '{o.name}' is another input or output "
                                "renamed: nothing to compute", source)
            lay = producer.get(src)
            if lay is None:
                raise OnnxError(f"model output '{o.name}' is not computed by any node", source)
            lay.output = o.name  # the producer writes the output directly
            producer[o.name] = lay
            del producer[src]
            for other in layers:
                other.inputs = [o.name if i == src else i for i in other.inputs]
        elif o.name not in producer:
            raise OnnxError(f"model output '{o.name}' is not computed by any node", source)
    if not layers:
        raise OnnxError("the model has no node to compute", source)
    for lay in layers:
        for name in lay.inputs + [lay.output]:
            if name not in tensors:
                raise OnnxError(f"node '{lay.node}' ({lay.op_type}): tensor '{name}' has no "
                                "known shape", source)
    name = g.name or (Path(source).stem if source != "<model>" else "model")
    return Model(name, inputs, outputs, tensors, layers, proto, source)
