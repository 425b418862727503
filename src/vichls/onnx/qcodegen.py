"""Kernel source for integer-quantized models (read by vichls/onnx/qmodel.py).

``generate_quantized(model, boundary, io, parallelism, dataflow)`` writes the same kind of
kernel file as vichls/onnx/codegen.py (one kernel per layer, a top kernel, a schedule; the
float path's loops, parallelism and partitioning are reused as they are) with integer
arithmetic that equals onnxruntime's CPU provider bit for bit:

- dense and convolution layers sum ``acc = bias' + sum(x * (w - zw))`` over the raw
  quantized inputs in an integer accumulator just wide enough (``bias'`` folds the input's
  zero point in, a padded border holds it: the sum is onnxruntime's int32 accumulator),
  each product in a type just wide enough, then requantize with
  ``quant.plan_requant``/``quant.requant_source`` (the integer multiply-add-shift plan where
  one exists, proven equal over the whole accumulator range; the float32 mirror otherwise);
- ``QLinearAdd`` (and its QDQ form) with ``quant.qlinear_add_source`` (a 256-entry table of
  the inner fused multiply-add, then the outer one in exact fixed point);
- max pooling and reshapes on the integers as they are.

``boundary="quantized"`` (the default) makes the top kernel's parameters the quantized
tensors after the model inputs' ``QuantizeLinear`` and before the outputs'
``DequantizeLinear`` (int8/uint8 arrays, under the model's input and output names);
``boundary="float"`` keeps the float32 tensors and quantizes (``quant.quantize_source``)
and dequantizes (``quant.dequantize_source``) in the design.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vichls.onnx import quant as Q
from vichls.onnx.codegen import DEFAULT_PRECISION, Arith, Generated, _Gen, _ident
from vichls.onnx.model import Layer, Model, OnnxError
from vichls.types import FixedType, FloatType

BOUNDARIES = ("quantized", "float")
#: accumulators corrected one by one before a requantization falls back to float32 (each
#: is a comparison and an add; the float plan is a float32 multiplier and conversions)
MAX_EXCEPTIONS = 8


def _bits(lo: int, hi: int) -> int:
    """Signed bits holding every integer of [lo, hi]."""
    return max(int(lo).bit_length() if lo >= 0 else int(-lo - 1).bit_length(),
               int(hi).bit_length() if hi >= 0 else int(-hi - 1).bit_length()) + 1


def with_boundary(model: Model) -> Model:
    """The model with its boundary quantization dropped: each model input read by one
    ``quantize`` layer stands for that layer's integer result, each model output written
    by a ``dequantize`` layer for the integers it reads."""
    quant = dict(model.quant)
    rename: dict[str, str] = {}
    in_names = {t.name for t in model.inputs}
    out_names = {t.name for t in model.outputs}
    keep = []
    for lay in model.layers:
        if lay.kind == "quantize" and lay.inputs[0] in in_names:
            if lay.inputs[0] in rename.values():
                raise OnnxError(f"node '{lay.node}' (QuantizeLinear): model input "
                                f"'{lay.inputs[0]}' is quantized twice; use boundary='float'",
                                model.source)
            rename[lay.output] = lay.inputs[0]
            quant[lay.inputs[0]] = quant[lay.output]
        elif lay.kind == "dequantize" and lay.output in out_names:
            if lay.inputs[0] in rename or lay.inputs[0] in in_names:
                raise OnnxError(f"node '{lay.node}' (DequantizeLinear): its input is another "
                                "model input or output; use boundary='float'", model.source)
            rename[lay.inputs[0]] = lay.output
            quant[lay.output] = quant[lay.inputs[0]]
        else:
            keep.append(lay)
    layers = [replace(lay, inputs=[rename.get(i, i) for i in lay.inputs],
                      output=rename.get(lay.output, lay.output)) for lay in keep]
    if not layers:
        raise OnnxError("the model has nothing to compute between its quantization and "
                        "dequantization", model.source)
    return replace(model, layers=layers, quant=quant)


class QGen(_Gen):
    def __init__(self, model: Model, boundary: str, io: str, parallelism, dataflow):
        if boundary not in BOUNDARIES:
            raise OnnxError(f"boundary must be 'quantized' or 'float', got {boundary!r}")
        self.boundary = boundary
        if boundary == "quantized":
            model = with_boundary(model)
        super().__init__(model, DEFAULT_PRECISION, io, parallelism, dataflow)
        self.q = model.quant
        self.plans: list[dict] = []

    # -- types -----------------------------------------------------------------------------
    def input_type(self, t):
        return self.q[t.name].dtype if t.name in self.q else "float32"

    def zero(self, t) -> str:
        if isinstance(t, (FixedType, FloatType)) or t == "float32":
            return "0.0"
        return "0"

    def pad_value(self, lay: Layer, tx) -> str:
        return str(lay.attrs["q"].x.zp)

    def alias(self, base: str, bits: int) -> str:
        """A module-level integer type of ``bits`` bits."""
        name = _ident(base, self.taken)
        self.consts.append(f"{name} = vichls.int_({bits})")
        return name

    # -- dense and convolution layers --------------------------------------------------------
    def arith(self, lay: Layer, tx, terms: int, name: str, channel: str) -> Arith:
        q = lay.attrs["q"]
        n_out = lay.weight.shape[0]
        wd = lay.weight.reshape(n_out, -1).astype(np.int64)
        bias = lay.bias.astype(np.int64)
        qlo, qhi = Q.qrange(q.x.dtype)
        xmag = max(abs(qlo), abs(qhi))
        wlo, whi = int(wd.min()), int(wd.max())
        w_t = "int8" if -128 <= wlo and whi <= 127 else f"vichls.int_({_bits(wlo, whi)})"
        pmag = xmag * max(abs(wlo), abs(whi), 1)
        p_t = self.alias(f"{name}_prod_t", _bits(-pmag, pmag))
        amag = int(np.max(np.abs(bias) + np.abs(wd).sum(axis=1) * xmag))
        acc_t = self.alias(f"{name}_acc_t", max(_bits(-amag, amag), 2))
        w = self.const(f"{name}_w", lay.weight, w_t)
        b = self.const(f"{name}_b", lay.bias, acc_t)
        try:
            plan = Q.plan_requant(q.scales, q.y.zp, q.y.dtype, q.acc_min, q.acc_max,
                                  max_exceptions=MAX_EXCEPTIONS)
        except OverflowError as e:
            raise OnnxError(f"node '{lay.node}' ({lay.op_type}): {e}", self.m.source) from None
        per_channel = len(plan.scales) > 1
        prefix = _ident(f"rq_{name}", self.taken)
        mod, body = Q.requant_source(plan, "acc", "q", channel=channel if per_channel else None,
                                     prefix=prefix, indent="")
        self.consts += mod
        tables = []
        up = prefix.upper()
        for line in mod:
            table = line.split(" = ", 1)[0]
            if "vichls.const(" not in line:
                continue
            if table in (f"{up}_E", f"{up}_D"):
                width = max(len(e) for e in plan.exceptions)
                self.shapes[table] = (n_out, width)
                self.want(table, 2, width)
            else:
                self.shapes[table] = (n_out,)
            tables.append(table)
        self.plans.append({"node": lay.node, "kind": plan.kind,
                           "exceptions": sum(len(e) for e in plan.exceptions)
                           if plan.kind == "int" else 0,
                           "shift": getattr(plan, "shift", None)})
        return Arith(q.y.dtype, w, b, acc_t, f"{b}[{channel}]", "q", lines=body, tables=tables,
                     product=p_t + "({x}) * " + p_t + "({w})")

    # -- element-wise integer layers -------------------------------------------------------
    def _eltwise(self, lay: Layer, name: str, out_t, lines_of, result: str,
                 const: tuple | None = None) -> None:
        """An element-wise kernel: locals ``v0``, ``v1``, ... hold the inputs' elements
        (``const``: (position, table name) of a constant operand among them);
        ``lines_of(values)`` are the statements computing ``result``."""
        shape = self.m.tensors[lay.output].shape
        ins = self.in_vars(lay)
        tys = [self.elem_type(x) for x in lay.inputs]
        params, vals, idx, lines, ind = self._elementwise_head(tys, shape, str)
        if const is not None:
            pos, table, ty = const
            vals.insert(pos, f"{table}[{', '.join(idx)}]")
            tys.insert(pos, ty)
        for k, (ty, v) in enumerate(zip(tys, vals)):
            lines.append(f"{ind}v{k}: {ty} = {v}")
        lines += [ind + line for line in lines_of([f"v{k}" for k in range(len(tys))])]
        self._elementwise_tail(lay, name, out_t, out_t, params, lines, ind, idx, ins, result)

    def layer_quantize(self, lay: Layer) -> None:
        p = lay.attrs["q"]
        name = _ident(lay.node, self.taken)
        self._eltwise(lay, name, p.dtype, lambda v: Q.quantize_source(
            np.float32(p.scale), np.asarray(p.zp, p.dtype), p.dtype, v[0], "q", indent=""), "q")

    def layer_dequantize(self, lay: Layer) -> None:
        p = lay.attrs["q"]
        name = _ident(lay.node, self.taken)
        self._eltwise(lay, name, "float32", lambda v: Q.dequantize_source(
            np.float32(p.scale), p.zp, v[0], "d", indent=""), "d")

    def layer_qadd(self, lay: Layer) -> None:
        plan = lay.attrs["plan"]
        name = _ident(lay.node, self.taken)
        prefix = _ident(f"qa_{name}", self.taken)
        mod, body = Q.qlinear_add_source(plan, "v0", "v1", "s", prefix=prefix, indent="",
                                         table=True)
        self.consts += mod
        const = None
        if lay.attrs.get("const") is not None:
            pos, values = lay.attrs["const"]
            if self.io == "stream":
                values = values.reshape(-1)
            const = (pos, self.const(f"{name}_c", values, plan.dtype), plan.dtype)
        self._eltwise(lay, name, plan.dtype, lambda v: body, "s", const)


    def layer_qgap(self, lay: Layer) -> None:
        """QLinearGlobalAveragePool: per channel ``acc = sum(x) - zx * count``, requantized
        with onnxruntime's scale ``sx / (sy * count)``."""
        a, yq = lay.attrs, lay.attrs["q"]
        x = lay.inputs[0]
        tx = self.elem_type(x)
        c_n, h_n, w_n = self.m.tensors[x].shape
        name = _ident(lay.node, self.taken)
        lo, hi = a["acc"]
        acc_t = self.alias(f"{name}_acc_t", _bits(min(lo, 0), max(hi, 0)))
        plan = Q.plan_requant(np.float32(a["scale"]), yq.zp, yq.dtype, lo, hi,
                              max_exceptions=MAX_EXCEPTIONS)
        prefix = _ident(f"rq_{name}", self.taken)
        mod, body = Q.requant_source(plan, "acc", "q", prefix=prefix, indent="        ")
        self.consts += mod
        self.plans.append({"node": lay.node, "kind": plan.kind,
                           "exceptions": sum(len(e) for e in plan.exceptions)
                           if plan.kind == "int" else 0, "shift": getattr(plan, "shift", None)})
        xin = self.in_vars(lay)[0]
        y = self.out_var(lay, yq.dtype, (c_n, 1, 1))
        if self.io == "stream":
            params = f"x: stream[{tx}], y: stream[{yq.dtype}]"
            value, store = "x.get()", "y.put(q)"
        else:
            params = f"x: {self.arr(tx, (c_n, h_n, w_n))}, y: {self.arr(yq.dtype, (c_n, 1, 1))}"
            value, store = "x[c, i, j]", "y[c, 0, 0] = q"
            self.rolled(xin)
            self.rolled(y)
        self.kernels.append(
            f"@kernel\ndef {name}({params}):\n    for c in range({c_n}):\n"
            f"        acc: {acc_t} = {-a['zx'] * a['count']}\n"
            f"        for i in range({h_n}):\n            for j in range({w_n}):\n"
            f"                acc += {acc_t}({value})\n" + "\n".join(body)
            + f"\n        {store}\n\n")
        self._finish_layer(lay, name, [xin, y], ".pipeline(\"j\")")


    def layer_qavgpool(self, lay: Layer) -> None:
        """QLinearAveragePool as onnxruntime computes it, in float32: each input
        dequantized, summed in window order (rows, then columns), divided by the count,
        then ``round_half_even(y / sy + zy)``, clamped."""
        xq, yq = lay.attrs["x"], lay.attrs["q"]
        x = lay.inputs[0]
        tx = self.elem_type(x)
        c_n, h_n, w_n = self.m.tensors[x].shape
        _, oh_n, ow_n = self.m.tensors[lay.output].shape
        kh_n, kw_n = lay.attrs["kernel"]
        sh, sw = lay.attrs["strides"]
        name = _ident(lay.node, self.taken)
        xin = self.in_vars(lay)[0]
        lo, hi = Q.qrange(yq.dtype)
        f32 = Q._f32_literal
        row = f"oh * {sh} + kh" if sh != 1 else "oh + kh"
        col = f"ow * {sw} + kw" if sw != 1 else "ow + kw"
        xa, head, extra = "x", "", ""
        if self.io == "stream":
            xa = _ident(f"{name}_in", self.taken)
            self.shapes[xa] = (c_n, h_n, w_n)
            head = (f"    {xa}: {self.arr(tx, (c_n, h_n, w_n))} = 0\n"
                    f"    for j0 in range({c_n}):\n        for j1 in range({h_n}):\n"
                    f"            for j2 in range({w_n}):\n"
                    f"                {xa}[j0, j1, j2] = x.get()\n")
            extra = ".pipeline(\"j2\")"
            self.rolled(xa)
        deq = Q.dequantize_source(np.float32(xq.scale), xq.zp, f"{xa}[c, {row}, {col}]", "d",
                                  indent=" " * 24)
        y = self.out_var(lay, yq.dtype, (c_n, oh_n, ow_n))
        if self.io == "stream":
            params = f"x: stream[{tx}], y: stream[{yq.dtype}]"
            store = "y.put(q)"
        else:
            params = (f"x: {self.arr(tx, (c_n, h_n, w_n))}, "
                      f"y: {self.arr(yq.dtype, (c_n, oh_n, ow_n))}")
            store = "y[c, oh, ow] = q"
            self.rolled(xin)
            self.rolled(y)
        ind = " " * 16
        self.kernels.append(
            f"@kernel\ndef {name}({params}):\n" + head
            + f"    for c in range({c_n}):\n        for oh in range({oh_n}):\n"
            f"            for ow in range({ow_n}):\n{ind}acc: float32 = 0.0\n"
            f"{ind}for kh in range({kh_n}):\n{ind}    for kw in range({kw_n}):\n"
            + "\n".join(deq) + f"\n{ind}        acc = acc + d\n"
            f"{ind}v: float32 = acc / float32({f32(kh_n * kw_n)})\n"
            f"{ind}v = v / float32({f32(yq.scale)}) + float32({f32(yq.zp)})\n"
            f"{ind}v = min(float32({f32(hi)}), max(float32({f32(lo)}), v))\n"
            f"{ind}r: fixed(10, 10, quant=\"rnd_conv\", overflow=\"sat\") = v\n"
            f"{ind}q: {yq.dtype} = {yq.dtype}(int32(r))\n{ind}{store}\n\n")
        self._finish_layer(lay, name, [xin, y], f".pipeline(\"kw\"){extra}")


def generate_quantized(model: Model, boundary: str = "quantized", io: str = "memory",
                       parallelism=None, dataflow: bool | None = None) -> Generated:
    gen = QGen(model, boundary, io, parallelism, dataflow)
    out = gen.run()
    out.plans = gen.plans
    return out
