"""The Python source of a vichls kernel file for a model read by vichls/onnx/model.py.

``generate(model, precision, io, parallelism, dataflow)`` writes one ``@kernel`` per layer
(weights as ``vichls.const`` tables of the layer's precision, read from the ``WEIGHTS``
dictionary of numpy arrays), a top kernel that calls the layers in graph order through
local arrays (``io="memory"``) or local streams (``io="stream"``, tensors element by element
in C order), and a module-level ``schedule = vichls.customize(top)`` whose directives come
from each layer's parallelism (multiply-accumulates per cycle; hls4ml's reuse factor is its
inverse). The text is meant to be read and edited: ``vichls compile model.onnx --emit
python`` writes it with the weights beside it (``.npz``).

On streams (C order, one element per cycle) an unpadded convolution in a dataflow design
that would otherwise be slower than the other layers (``_readers``) is two tasks: a reader
(``<layer>_read``) puts the stream into a ping-pong buffer (a local
array of the top, partitioned for the window's reads) while the layer computes the call
before from the other bank; a pooling whose windows tile its input takes it as it comes
(``pool_rows``: a line of registers, no buffer); the other layers read their input into a
buffer of their own first.

Dense layers are output-stationary: ``acc = b[o]; acc += x[i] * W[o, i]`` in an accumulator
wide enough for every partial sum (the product's bits plus ``ceil(log2(K + 1))``, at most 64),
then the activation and the conversion to the layer's type. Parallelism ``P`` of a layer with
``K`` inputs and ``N`` outputs: below ``K``, the ``i`` loop is unrolled by the largest divisor
``u`` of ``K`` not above ``P`` and pipelined (``N * K / u`` cycles); from ``K`` on, the ``o``
loop is unrolled by the largest divisor ``v`` of ``N`` with ``v * K <= P`` and pipelined (the
``i`` loop unrolled inside: ``N / v`` cycles); at ``N * K`` both loops are unrolled. The
arrays read and written are partitioned to match (the top's locals and parameters, the
weight tables); an activation array between two layers gets the larger of the two factors.
"""

from __future__ import annotations

import keyword
import math
import re
from dataclasses import dataclass, field

import numpy as np

from vichls.onnx.model import Layer, Model, OnnxError
from vichls.types import FixedType, FloatType, fixed, float32, ufixed

DEFAULT_PRECISION = "fixed(16, 6)"
RESERVED = {"range", "min", "max", "abs", "int_", "uint_", "vichls", "kernel", "stream", "fixed",
            "ufixed", "float32", "int32", "np", "WEIGHTS", "schedule", "const", "top"}


def parse_precision(spec, where: str):
    """A precision: a vichls type (``fixed(16, 6)``, ``float32``) or its spelling."""
    if isinstance(spec, (FixedType, FloatType)):
        return spec
    if not isinstance(spec, str):
        raise OnnxError(f"precision of {where}: expected a string such as 'fixed(16, 6)' or "
                        f"'float32', got {spec!r}")
    try:
        t = eval(spec, {"__builtins__": {}}, {"fixed": fixed, "ufixed": ufixed, "float32": float32,
                                             "ap_fixed": fixed, "ap_ufixed": ufixed})
    except Exception as e:
        raise OnnxError(f"precision of {where}: cannot read {spec!r} ({e}); write "
                        "fixed(W, I[, quant=..., overflow=...]), ufixed(...) or float32") from None
    if not isinstance(t, (FixedType, FloatType)):
        raise OnnxError(f"precision of {where}: {spec!r} is not a fixed-point type or float32")
    return t


def spell(t) -> str:
    if isinstance(t, str):
        return t
    return "float32" if isinstance(t, FloatType) else t.name


def _ident(name: str, taken: set[str]) -> str:
    s = re.sub(r"\W", "_", name)
    if not s or s[0].isdigit():
        s = "t_" + s
    if keyword.iskeyword(s) or s in RESERVED or s.startswith("__"):
        s = s.strip("_") + "_"
        if keyword.iskeyword(s) or s in RESERVED:
            s = s + "x"
    base, k = s, 2
    while s in taken:
        s = f"{base}_{k}"
        k += 1
    taken.add(s)
    return s


def _divisor_at_most(n: int, p: int) -> int:
    return max(d for d in range(1, n + 1) if n % d == 0 and d <= max(1, p))


@dataclass
class Arith:
    """The arithmetic of a multiply-accumulate layer (dense or convolution): the result's
    type, the weight and bias tables, the accumulator's type and first value, the product of
    an input by a weight, and the statements (``lines``, unindented) that turn ``acc`` into
    the stored ``result``. ``tables`` are further per-output-channel tables (partitioned as
    the bias is)."""
    out_t: object
    w: str
    b: str | None
    acc_t: str
    init: str
    result: str
    lines: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    product: str = "{x} * {w}"

    def mac(self, x: str, w: str) -> str:
        return "acc += " + self.product.format(x=x, w=w)

    def finish(self, indent: str, store: str) -> str:
        """The statements computing the result, then ``store`` (with ``{}`` for it)."""
        return "".join(f"{indent}{line}\n" for line in self.lines) + \
            f"{indent}{store.format(self.result)}\n"


@dataclass
class Generated:
    source: str
    weights: dict[str, np.ndarray]
    top: str
    params: list[str]               # the top's parameter names (inputs, then outputs)
    layers: list[dict] = field(default_factory=list)  # per layer: name, node, macs, parallelism
    plans: list[dict] = field(default_factory=list)   # quantized: each requantization's plan


class _Gen:
    def __init__(self, model: Model, precision, io: str, parallelism, dataflow: bool | None):
        if io not in ("memory", "stream"):
            raise OnnxError(f"io must be 'memory' or 'stream', got {io!r}")
        self.m, self.io = model, io
        self.dataflow = (io == "stream") if dataflow is None else bool(dataflow)
        self.taken: set[str] = set()
        self.precision = precision if isinstance(precision, dict) else {"default": precision}
        known = {lay.node for lay in model.layers} | {f for lay in model.layers for f in lay.fused}
        known |= {t.name for t in model.inputs} | {"default"}
        for key in self.precision:
            if key not in known:
                raise OnnxError(f"precision given for '{key}', which is neither a node of the "
                                f"model nor one of its inputs (nodes: "
                                f"{', '.join(sorted(known - {'default'}))})")
        self.default = parse_precision(self.precision.get("default", DEFAULT_PRECISION),
                                       "the model")
        self.parallelism = parallelism
        if isinstance(parallelism, dict):
            for key in parallelism:
                if key != "default" and key not in known:
                    raise OnnxError(f"parallelism given for '{key}', which is not a node of "
                                    "the model")
        self.var: dict[str, str] = {}     # tensor -> identifier in the top
        self.ttype: dict[str, object] = {}
        self.weights: dict[str, np.ndarray] = {}
        self.kernels: list[str] = []
        self.consts: list[str] = []
        self.calls: list[str] = []
        self.locals: list[str] = []
        self.compose: list[str] = []
        self.part: dict[str, dict] = {}   # array -> {dim: factor or "complete"}, with shape
        self.shapes: dict[str, tuple] = {}
        self.param_names: set[str] = set()
        self.layer_info: list[dict] = []
        self.readers: set[str] = set()  # convolutions with a reader task (_readers)
        self.consumers: dict[str, int] = {}
        for lay in model.layers:
            for t in lay.inputs:
                self.consumers[t] = self.consumers.get(t, 0) + 1

    # -- helpers ---------------------------------------------------------------------------
    def prec_of(self, lay: Layer):
        for key in [lay.node, *lay.fused]:
            if key in self.precision:
                return parse_precision(self.precision[key], f"node '{key}'")
        return self.default

    def par_of(self, lay: Layer, macs: int) -> int:
        p = self.parallelism
        if isinstance(p, dict):
            p = next((p[k] for k in [lay.node, *lay.fused] if k in p), p.get("default"))
        if p is None:
            return -1  # the layer's default
        if p == "full":
            return macs
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise OnnxError(f"parallelism of node '{lay.node}': expected a positive integer "
                            f"(multiply-accumulates per cycle) or 'full', got {p!r}")
        return min(p, macs)

    def want(self, array: str, dim: int, factor: int, role: str = "read") -> None:
        """Record that a layer reads (``role="read"``) or writes (``"write"``) ``factor``
        elements of ``array`` at a time on ``dim`` (1-based) in each iteration of a loop
        (all of them at constant indices when ``factor`` is the dimension's size), or
        one at a time (``"rolled"``, factor 1)."""
        self.part.setdefault(array, {}).setdefault(dim, []).append((factor, role))

    def rolled(self, array: str) -> None:
        """A layer reads or writes ``array`` one element at a time."""
        for dim in range(1, len(self.shapes[array]) + 1):
            self.want(array, dim, 1, "rolled")

    def _write_factors(self, array: str, dim: int) -> list[int]:
        return [f for f, role in self.part.get(array, {}).get(dim, []) if role == "write"] \
            or [1]

    def _full(self, array: str, size: int) -> bool:
        """Is every access to ``array`` so far at constant indices (registers)?"""
        entries = self.part.get(array, {}).get(1, [])
        return bool(entries) and all(f >= size for f, _ in entries)

    def _written_in_groups(self, array: str, size: int) -> bool:
        """Was ``array`` written a few elements per iteration of a loop (so that its banks
        are as many as those, fewer than ``size``)?"""
        entries = self.part.get(array, {}).get(1, [])
        return any(role == "write" and 1 < f < size for f, role in entries)

    def elem_type(self, tensor: str):
        return self.ttype[tensor]

    def arr(self, t, shape) -> str:
        return f"{spell(t)}[{', '.join(str(d) for d in shape)}]"

    def zero(self, t) -> str:
        return "0.0"

    def input_type(self, t):
        """The element type of model input ``t``: its precision."""
        return parse_precision(self.precision.get(t.name, spell(self.default))
                               if t.name in self.precision else self.default,
                               f"input '{t.name}'")

    def pad_value(self, lay: Layer, tx) -> str:
        """What the zero border of a padded convolution's input holds."""
        return self.zero(tx)

    def arith(self, lay: Layer, tx, terms: int, name: str, channel: str) -> Arith:
        """The arithmetic of dense or convolution layer ``lay`` (``terms`` products per
        output, input elements of type ``tx``; ``channel`` indexes the output channel):
        the layer's precision for weights, bias and result, an accumulator wide enough
        for every partial sum, the activation on the result."""
        t = self.prec_of(lay)
        w = self.const(f"{name}_w", lay.weight, t)
        b = self.const(f"{name}_b", lay.bias, t) if lay.bias is not None else None
        acc_t = self._acc_type(lay, tx, t, terms)
        return Arith(t, w, b, acc_t, f"{b}[{channel}]" if b else "0.0",
                     self.activation("acc", lay.activation))

    # -- the model -------------------------------------------------------------------------
    def run(self) -> Generated:
        m = self.m
        top_name = _ident(m.name if m.name else "model", self.taken)
        params = []
        for t in m.inputs:
            v = _ident(t.name, self.taken)
            self.var[t.name] = v
            self.param_names.add(v)
            self.shapes[v] = t.shape
            self.ttype[t.name] = self.input_type(t)
            params.append(v)
        for t in m.outputs:
            v = _ident(t.name, self.taken)
            self.var[t.name] = v
            self.param_names.add(v)
            self.shapes[v] = t.shape
            params.append(v)
        self.readers = self._readers()
        for lay in m.layers:
            self.layer(lay)
        # the top kernel
        sig = []
        for t in m.inputs + m.outputs:
            ty = self.ttype[t.name]
            if self.io == "stream":
                sig.append(f"{self.var[t.name]}: stream[{spell(ty)}]")
            else:
                sig.append(f"{self.var[t.name]}: {self.arr(ty, t.shape)}")
            self.shapes[self.var[t.name]] = t.shape
        body = self.locals + self.calls
        top = [f"@kernel\ndef {top_name}({', '.join(sig)}):"] + [f"    {line}" for line in body]
        # the schedule
        sched = [f"schedule = vichls.customize({top_name})"]
        if self.dataflow:
            sched.append("schedule.dataflow()")
        sched += self.compose
        channels = set()
        if self.dataflow and self.io == "memory":  # channels between tasks are not partitioned
            channels = set(self.var.values())
        for array, dims in self.part.items():
            if array in channels:
                continue
            shape = self.shapes[array]
            is_param = array in self.param_names
            if self.io == "stream" and is_param:
                continue
            # registers (complete) only where every access is at a constant index: a loop
            # left rolled over a completely partitioned array would be unrolled by it
            every = all(dim in dims and min(f for f, _ in dims[dim]) >= shape[dim - 1]
                        for dim in range(1, len(shape) + 1))
            if every and not is_param:
                sched.append(f"schedule.partition({array!r}, kind=\"complete\")")
                continue
            for dim, entries in sorted(dims.items()):
                size = shape[dim - 1]
                # a loop writing v elements per iteration needs the bank count to divide v
                # (each store then has a bank of its own); readers get what is left
                writes = [f for f, role in entries if role == "write" and 1 < f < size]
                if writes:
                    f = math.gcd(*writes)
                else:
                    f = min(max(f for f, _ in entries), size)
                if f > 1:
                    sched.append(f"schedule.partition({array!r}, dim={dim}, factor={f}, "
                                 "kind=\"cyclic\")")
        header = [
            f'"""vichls kernels for the ONNX model {m.source!r}, written by vichls.onnx.',
            "",
            f"io={self.io!r}; the top kernel's parameters: {', '.join(params)}.",
            "Layers (ONNX node: kernel, multiply-accumulates, parallelism per cycle):",
        ]
        for info in self.layer_info:
            header.append(f"  {info['node']} ({info['op']}): {info['kernel']}, {info['macs']} "
                          f"MACs, {info['parallelism']} per cycle")
        header += ['"""', "",
                   "import numpy as np  # noqa: F401",
                   "",
                   "import vichls",
                   "from vichls import fixed, float32, int8, int32, kernel, stream, ufixed, uint8  # noqa: F401",
                   "",
                   "if \"WEIGHTS\" not in globals():  # written out: the weights are beside",
                   "    WEIGHTS = dict(np.load(__file__[:-3] + \".npz\"))",
                   ""]
        text = "\n".join(header + self.consts + [""] + self.kernels + ["", ""] + top
                         + ["", ""] + sched) + "\n"
        return Generated(text, self.weights, top_name, params, self.layer_info)

    def out_var(self, lay: Layer, ty, shape) -> str:
        """The identifier of the layer's output in the top (a parameter, a local array or a
        local stream), declared as needed."""
        self.ttype[lay.output] = ty
        if lay.output in self.var:
            return self.var[lay.output]
        v = _ident(lay.output, self.taken)
        self.var[lay.output] = v
        self.shapes[v] = shape
        if self.io == "stream":
            self.locals.append(f"{v} = stream[{spell(ty)}, 2]()")
        else:
            self.locals.append(f"{v}: {self.arr(ty, shape)} = {self.zero(ty)}")
        return v

    def in_vars(self, lay: Layer) -> list[str]:
        """The top's identifiers of the layer's inputs; in stream mode a stream read by
        several layers is first copied into one stream per reader."""
        out = []
        for t in lay.inputs:
            v = self.var[t]
            if self.io == "stream" and self.consumers[t] > 1:
                v = self.fork(t)
            out.append(v)
        return out

    def fork(self, t: str) -> str:
        forks = getattr(self, "_forks", {})
        self._forks = forks
        if t not in forks:
            n = self.consumers[t]
            ty = self.ttype[t]
            size = int(np.prod(self.m.tensors[t].shape))
            name = _ident(f"fork_{t}", self.taken)
            outs = [_ident(f"{self.var[t]}_{k}", self.taken) for k in range(n)]
            params = ", ".join(f"y{k}: stream[{spell(ty)}]" for k in range(n))
            puts = "\n".join(f"        y{k}.put(v)" for k in range(n))
            self.kernels.append(f"@kernel\ndef {name}(x: stream[{spell(ty)}], {params}):\n"
                                f"    for i in range({size}):\n        v: {spell(ty)} = x.get()\n"
                                f"{puts}\n\n")
            # each copy deep enough for the whole tensor: where the branches meet again
            # (a residual block's skip connection), the layers on the longer branch take
            # their whole input before they give anything, and the short branch's FIFO
            # holds the tensor meanwhile (a shallower one deadlocks the graph)
            for o in outs:
                self.locals.append(f"{o} = stream[{spell(ty)}, {size}]()")
            self.calls.append(f"{name}({self.var[t]}, {', '.join(outs)})")
            self.compose.append(f"schedule.compose(vichls.customize({name}).pipeline(\"i\"))")
            forks[t] = list(outs)
        return forks[t].pop(0)

    def const(self, base: str, values: np.ndarray, ty) -> str:
        name = _ident(base, self.taken)
        self.weights[name] = np.asarray(values, np.float64)
        self.consts.append(f"{name} = vichls.const(WEIGHTS[{name!r}], {spell(ty)})")
        self.shapes[name] = tuple(values.shape)
        return name

    # -- the parallelism a layer can take -------------------------------------------------
    def points(self, lay: Layer) -> list[int]:
        """The multiply-accumulates per cycle ``lay`` can run at, ascending: a parallelism
        request equal to one of them gets exactly it (what layer_dense and layer_conv
        choose); [] for a layer without multiply-accumulates."""
        if lay.kind == "dense":
            n_out, k_in = lay.weight.shape
            pts = {u for u in range(1, k_in) if k_in % u == 0}
            wide = self.io == "memory" and not self.dataflow
            pts |= {k_in * v for v in range(1, n_out + 1) if n_out % v == 0
                    and (v == 1 or wide)}
            if self.dataflow and self.io == "memory":
                pts = {p for p in pts if p <= 2}
            return sorted(pts)
        if lay.kind == "conv":
            co_n, cig, kh_n, kw_n = lay.weight.shape
            win = kh_n * kw_n
            pts = {1, kw_n} | {u * win for u in range(1, cig + 1) if cig % u == 0}
            groups = lay.attrs.get("group", 1)
            if self.io == "memory" and not self.dataflow and \
                    (groups == 1 or (cig == 1 and co_n == groups)):
                # v output channels per cycle (layer_conv: oh, ow, co with co unrolled)
                pts |= {v * cig * win for v in range(2, co_n + 1) if co_n % v == 0}
            return sorted(pts)
        return []

    # -- layers ----------------------------------------------------------------------------
    def layer(self, lay: Layer) -> None:
        getattr(self, "layer_" + lay.kind)(lay)

    def layer_dense(self, lay: Layer) -> None:
        x = lay.inputs[0]
        tx = self.elem_type(x)
        n_out, k_in = lay.weight.shape
        macs = n_out * k_in
        name = _ident(lay.node, self.taken)
        ar = self.arith(lay, tx, k_in, name, "o")
        t, w, b, acc_t, init = ar.out_t, ar.w, ar.b, ar.acc_t, ar.init
        y = self.out_var(lay, t, (n_out,))
        xin = self.in_vars(lay)[0]
        par = self.par_of(lay, macs)
        if par == -1:
            par = k_in  # one output per cycle
        if self.dataflow and self.io == "memory":
            par = min(par, 2)  # a channel between tasks gives two reads per cycle
        if self.io == "stream":
            par = min(par, k_in)  # a stream takes one element per cycle: one output
        if self.io == "stream":
            # the vector is read into a buffer of the layer's own (named after the layer:
            # the top's schedule partitions it by that name)
            xb = _ident(f"{name}_in", self.taken)
            self.shapes[xb] = (k_in,)
            src = (f"@kernel\ndef {name}(x: stream[{spell(tx)}], y: stream[{spell(t)}]):\n"
                   f"    {xb}: {self.arr(tx, (k_in,))} = {self.zero(tx)}\n"
                   f"    for j in range({k_in}):\n        {xb}[j] = x.get()\n"
                   f"    for o in range({n_out}):\n        acc: {acc_t} = {init}\n"
                   f"        for i in range({k_in}):\n            {ar.mac(f'{xb}[i]', f'{w}[o, i]')}\n"
                   + ar.finish("        ", "y.put({})") + "\n")
            self.calls.append(f"{name}({xin}, {y})")
            xarr, yarr = xb, None
            self.rolled(xb)  # (written one element at a time)
            extra = ".pipeline(\"j\")"
        if par >= macs:
            directives = ".unroll(\"o\").unroll(\"i\")"
            u, v = k_in, n_out
        elif par >= k_in:
            v = _divisor_at_most(n_out, par // k_in)
            u = k_in
            directives = (f".unroll(\"o\", {v})" if v > 1 else "") + ".pipeline(\"o\")"
        else:
            u, v = _divisor_at_most(k_in, par), 1
            directives = (f".unroll(\"i\", {u})" if u > 1 else "") + ".pipeline(\"i\")"
        if self.io == "memory":
            # every input at once while the layer before wrote them a few per cycle (as
            # many banks as that): copy them into registers of this layer's own first
            copy = u == k_in and v < n_out and self._written_in_groups(xin, k_in)
            xr = _ident(f"{name}_x", self.taken) if copy else "x"
            head = (f"    {xr}: {self.arr(tx, (k_in,))} = {self.zero(tx)}\n"
                    f"    for j in range({k_in}):\n"
                    f"        {xr}[j] = x[j]\n") if copy else ""
            src = (f"@kernel\ndef {name}(x: {self.arr(tx, (k_in,))}, y: {self.arr(t, (n_out,))}):\n"
                   + head +
                   f"    for o in range({n_out}):\n        acc: {acc_t} = {init}\n"
                   f"        for i in range({k_in}):\n            {ar.mac(f'{xr}[i]', f'{w}[o, i]')}\n"
                   + ar.finish("        ", "y[o] = {}") + "\n")
            self.calls.append(f"{name}({xin}, {y})")
            xarr, yarr = xin, y
            extra = ""
            if copy:  # (unrolled before partitioning: each read names its bank)
                directives = ".unroll(\"j\")" + directives
                self.shapes[xr] = (k_in,)
                self.want(xr, 1, k_in)
                self.want(xin, 1, max(self._write_factors(xin, 1)), "read")
                xarr = None
        self.kernels.append(src)
        self.compose.append(f"schedule.compose(vichls.customize({name}){directives}{extra})")
        if xarr is not None:
            self.want(xarr, 1, u, "read")
        if yarr is not None:
            self.want(yarr, 1, v, "write")
        self.want(w, 1, v)
        self.want(w, 2, u)
        for table in ([b] if b else []) + ar.tables:
            self.want(table, 1, v)
        self.layer_info.append({"node": lay.node, "op": "+".join([lay.op_type] + lay.fused)
                                if lay.fused else lay.op_type, "kernel": name, "macs": macs,
                                "parallelism": u * v})

    def _acc_type(self, lay: Layer, tx, t, terms: int) -> str:
        """The accumulator of ``terms`` products of ``tx`` by ``t`` and a bias."""
        if isinstance(t, FloatType) or isinstance(tx, FloatType):
            if not (isinstance(t, FloatType) and isinstance(tx, FloatType)):
                raise OnnxError(f"node '{lay.node}' ({lay.op_type}): mixing float32 and fixed "
                                "point between layers is not supported")
            return "float32"
        guard = math.ceil(math.log2(terms + 1))
        width = min(64, tx.width + t.width + guard)
        ib = tx.int_bits + t.int_bits + guard
        if ib > 64:
            raise OnnxError(f"node '{lay.node}' ({lay.op_type}): the accumulator needs "
                            f"{ib} integer bits; use narrower precisions")
        return f"fixed({width}, {ib})"

    def _conv_mode(self, lay: Layer, par: int) -> tuple[str, int, int, int]:
        """A convolution's loop at parallelism ``par`` (-1: its default): the mode (the
        whole window and ``v`` output channels per cycle, ``u`` input channels' windows,
        one window row, one product), ``u``, ``v`` and the products per cycle."""
        co_n, cig, kh_n, kw_n = lay.weight.shape
        groups = lay.attrs.get("group", 1)
        depthwise = groups > 1 and cig == 1 and co_n // groups == 1
        win, terms = kh_n * kw_n, cig * kh_n * kw_n
        v = u = 1
        if par == -1 or par >= terms:
            mode, u = "window", cig
            if par > terms and self.io == "memory" and not self.dataflow \
                    and (groups == 1 or depthwise):
                v = _divisor_at_most(co_n, par // terms)
        elif par >= win and cig > 1:
            mode, u = "ci", _divisor_at_most(cig, par // win)
        elif par >= kw_n:
            mode = "kh"
        else:
            mode = "kw"
        return mode, u, v, {"window": v * terms, "ci": u * win, "kh": kw_n, "kw": 1}[mode]

    def _readers(self) -> set[str]:
        """The convolutions that get a reader task (on streams, in a dataflow design): the
        unpadded ones that would otherwise take longer than the design's interval, reading
        their input and then computing. Each layer's cycles are estimated as one element
        per cycle of its input (or output) and its multiply-accumulates over its
        parallelism; a reader task costs a ping-pong buffer (two copies of the input, in
        as many banks as the window's reads) and a call's latency, for nothing where the
        layer is not among the slowest."""
        if self.io != "stream" or not self.dataflow:
            return set()
        cycles, candidates = {}, set()
        for lay in self.m.layers:
            moved = max(int(np.prod(self.m.tensors[t].shape)) for t in lay.inputs + [lay.output])
            compute = 0
            if lay.kind == "conv":
                macs = int(np.prod(self.m.tensors[lay.output].shape)) * \
                    int(np.prod(lay.weight.shape[1:]))
                compute = math.ceil(macs / self._conv_mode(lay, self.par_of(lay, macs))[3])
                moved = int(np.prod(self.m.tensors[lay.inputs[0]].shape))
                if not any(lay.attrs["pads"]):
                    candidates.add(lay.node)
            elif lay.kind == "dense":
                n_out, k_in = lay.weight.shape
                par = self.par_of(lay, n_out * k_in)
                compute = math.ceil(n_out * k_in / min(k_in if par == -1 else par, k_in))
            cycles[lay.node] = (moved, compute)
        base = max((max(*cycles[n]) if n in candidates else sum(cycles[n]) for n in cycles),
                   default=0)
        return {n for n in candidates if sum(cycles[n]) > base}

    def layer_conv(self, lay: Layer) -> None:
        x = lay.inputs[0]
        tx = self.elem_type(x)
        co_n, cig, kh_n, kw_n = lay.weight.shape   # cig: input channels per group
        ci_n, h_n, w_n = self.m.tensors[x].shape
        _, oh_n, ow_n = self.m.tensors[lay.output].shape
        sh, sw = lay.attrs["strides"]
        groups = lay.attrs.get("group", 1)
        cog = co_n // groups                        # output channels per group
        depthwise = groups > 1 and cig == 1 and cog == 1
        win = kh_n * kw_n
        terms = cig * win
        macs = co_n * oh_n * ow_n * terms
        name = _ident(lay.node, self.taken)
        ar = self.arith(lay, tx, terms, name, "co")
        t, w, b, acc_t, init = ar.out_t, ar.w, ar.b, ar.acc_t, ar.init
        y = self.out_var(lay, t, (co_n, oh_n, ow_n))
        xin = self.in_vars(lay)[0]
        pads = lay.attrs["pads"]
        hp, wp = h_n + pads[0] + pads[2], w_n + pads[1] + pads[3]
        padded = any(pads)
        # the parallelism: the whole window (and v output channels) per cycle; u input
        # channels' windows per cycle (the ci loop pipelined); one window row; one product
        mode, u, v, eff = self._conv_mode(lay, self.par_of(lay, macs))
        # the input channel a product reads
        if groups == 1:
            xch = "ci" if cig > 1 else "0"
        elif depthwise:
            xch = "co"
        elif cig == 1:
            xch = f"co // {cog}"
        elif cog == 1:
            xch = f"co * {cig} + ci"
        else:
            xch = f"co // {cog} * {cig} + ci"
        wci = "ci" if cig > 1 else "0"
        row = f"oh * {sh} + kh" if sh != 1 else "oh + kh"
        col = f"ow * {sw} + kw" if sw != 1 else "ow + kw"
        # the input goes into a buffer of the layer's own (zeros around it when padded;
        # always with streams): the window reads it without conditions
        buffered = self.io == "stream" or padded
        xa = _ident(f"{name}_in", self.taken) if buffered else "x"
        # with dataflow, a stream's buffer is a channel from a reader task (the parameter x),
        # where the reader writes every element in order (unpadded: see conv_reader)
        split = lay.node in self.readers
        mac = ar.mac(f"{'x' if split else xa}[{xch}, {row}, {col}]", f"{w}[co, {wci}, kh, kw]")
        store = "y.put({})" if self.io == "stream" else "y[co, oh, ow] = {}"
        # output channels innermost when several are computed at once (memory io only)
        outer = ([("oh", oh_n), ("ow", ow_n), ("co", co_n)] if v > 1
                 else [("co", co_n), ("oh", oh_n), ("ow", ow_n)])
        body = "".join(f"{'    ' * (k + 1)}for {var} in range({n}):\n"
                       for k, (var, n) in enumerate(outer))
        ind = "    " * 4
        body += f"{ind}acc: {acc_t} = {init}\n"
        inner = ([("ci", cig)] if cig > 1 else []) + [("kh", kh_n), ("kw", kw_n)]
        body += "".join(f"{ind}{'    ' * k}for {var} in range({n}):\n"
                        for k, (var, n) in enumerate(inner))
        body += f"{ind}{'    ' * len(inner)}{mac}\n" + ar.finish(ind, store)
        head = ""
        if split:
            # two tasks: a reader puts the stream into a buffer, the layer computes from it;
            # the buffer is a ping-pong channel between them, so the reader takes the next
            # call's input while the layer computes (the interval is the slower of the two)
            self.shapes[xa] = (ci_n, hp, wp)
            self.rolled(xa)
            reader = self.conv_reader(name, tx, (ci_n, h_n, w_n))
            src = (f"@kernel\ndef {name}(x: {self.arr(tx, (ci_n, hp, wp))}, "
                   f"y: stream[{spell(t)}]):\n" + body + "\n")
            self.kernels.append(src)
            self.locals.append(f"{xa}: {self.arr(tx, (ci_n, hp, wp))} = {self.zero(tx)}")
            self.calls.append(f"{reader}({xin}, {xa})")
            self.calls.append(f"{name}({xa}, {y})")
            buffered, extra = False, ""
        elif buffered:
            self.shapes[xa] = (ci_n, hp, wp)
            at = (f"j0, j1 + {pads[0]}, j2 + {pads[1]}" if padded else "j0, j1, j2")
            value = "x.get()" if self.io == "stream" else "x[j0, j1, j2]"
            head = (f"    {xa}: {self.arr(tx, (ci_n, hp, wp))} = "
                    f"{self.pad_value(lay, tx) if padded else self.zero(tx)}\n"
                    f"    for j0 in range({ci_n}):\n        for j1 in range({h_n}):\n"
                    f"            for j2 in range({w_n}):\n"
                    f"                {xa}[{at}] = {value}\n")
            self.rolled(xa)
        if not split:
            xparam = (f"stream[{spell(tx)}]" if self.io == "stream"
                      else self.arr(tx, (ci_n, h_n, w_n)))
            yparam = (f"stream[{spell(t)}]" if self.io == "stream"
                      else self.arr(t, (co_n, oh_n, ow_n)))
            src = f"@kernel\ndef {name}(x: {xparam}, y: {yparam}):\n" + head + body + "\n"
            extra = ".pipeline(\"j2\")" if buffered else ""
            self.kernels.append(src)
            self.calls.append(f"{name}({xin}, {y})")
        xarr = xa if buffered or self.io == "stream" else xin
        if self.io == "memory":
            if v > 1:
                self.want(y, 1, v, "write")
                self.want(y, 2, 1, "write")
                self.want(y, 3, 1, "write")
            else:
                self.rolled(y)
            if buffered:
                self.rolled(xin)
        if mode == "window":   # the window's products at once, v outputs per cycle
            # (every output channel at once: the co loop, innermost, unrolled in ow's)
            directives = (f".unroll(\"co\", {v}).pipeline(\"co\")" if 1 < v < co_n
                          else ".pipeline(\"ow\")")
        elif mode == "ci":
            directives = (f".unroll(\"ci\", {u})" if u > 1 else "") + ".pipeline(\"ci\")"
        else:
            directives = f".pipeline(\"{mode}\")"
        xdim1 = v if depthwise else u if cig > 1 and mode in ("window", "ci") else 1
        self.want(xarr, 1, xdim1)
        self.want(xarr, 2, kh_n if mode in ("window", "ci") else 1)
        self.want(xarr, 3, kw_n if mode != "kw" else 1)
        self.want(w, 1, v)
        self.want(w, 2, u if mode in ("window", "ci") else 1)
        self.want(w, 3, kh_n if mode in ("window", "ci") else 1)
        self.want(w, 4, kw_n if mode != "kw" else 1)
        for table in ([b] if b else []) + ar.tables:
            self.want(table, 1, v)
        self.compose.append(f"schedule.compose(vichls.customize({name}){directives}{extra})")
        self.layer_info.append({"node": lay.node, "op": "+".join([lay.op_type] + lay.fused)
                                if lay.fused else lay.op_type, "kernel": name, "macs": macs,
                                "parallelism": eff})

    def conv_reader(self, name: str, tx, shape) -> str:
        """An unpadded convolution's reader task (stream -> its ping-pong buffer, in C
        order, one element per cycle): its kernel's name. Padded layers keep the buffer
        in their own task: there the top's initialisation of the buffer (the border)
        would join the reader's task, a loop over the whole buffer in every call, and a
        border written by the reader either breaks the in-order writes or, with a guarded
        get, makes its loop II=2."""
        reader = _ident(f"{name}_read", self.taken)
        c_n, h_n, w_n = shape
        self.kernels.append(
            f"@kernel\ndef {reader}(x: stream[{spell(tx)}], b: {self.arr(tx, shape)}):\n"
            f"    for j0 in range({c_n}):\n        for j1 in range({h_n}):\n"
            f"            for j2 in range({w_n}):\n                b[j0, j1, j2] = x.get()\n\n")
        loops = ".pipeline(\"j2\")"
        self.compose.append(f"schedule.compose(vichls.customize({reader}){loops})")
        return reader

    def layer_pool(self, lay: Layer) -> None:
        x = lay.inputs[0]
        tx = self.elem_type(x)
        c_n, h_n, w_n = self.m.tensors[x].shape
        _, oh_n, ow_n = self.m.tensors[lay.output].shape
        kh_n, kw_n = lay.attrs["kernel"]
        sh, sw = lay.attrs["strides"]
        name = _ident(lay.node, self.taken)
        xin = self.in_vars(lay)[0]
        xa = "x"
        if self.io == "stream":
            xa = _ident(f"{name}_in", self.taken)
            self.shapes[xa] = (c_n, h_n, w_n)
        row = f"oh * {sh} + kh" if sh != 1 else "oh + kh"
        col = f"ow * {sw} + kw" if sw != 1 else "ow + kw"
        if lay.attrs["kind"] == "max":
            t = tx
            first = f"{xa}[c, {row.replace('kh', '0')}, {col.replace('kw', '0')}]"
            inner = (f"                m: {spell(tx)} = {first}\n"
                     f"                for kh in range({kh_n}):\n"
                     f"                    for kw in range({kw_n}):\n"
                     f"                        m = max(m, {xa}[c, {row}, {col}])\n")
            result = "m"
        else:
            t = self.prec_of(lay)
            count = kh_n * kw_n
            if isinstance(tx, FloatType):
                acc_t, inv_t = "float32", float32
            else:
                guard = math.ceil(math.log2(count + 1))
                acc_t = f"fixed({min(64, tx.width + guard)}, {tx.int_bits + guard})"
                inv_t = fixed(32, 1)
            inv = self.const(f"{name}_scale", np.array([1.0 / count]), inv_t)
            inner = (f"                m: {acc_t} = 0.0\n"
                     f"                for kh in range({kh_n}):\n"
                     f"                    for kw in range({kw_n}):\n"
                     f"                        m += {xa}[c, {row}, {col}]\n")
            result = f"m * {inv}[0]"
        y = self.out_var(lay, t, (c_n, oh_n, ow_n))
        if self.io == "stream" and lay.attrs["kind"] == "avg" and (oh_n, ow_n) == (1, 1) \
                and (kh_n, kw_n) == (h_n, w_n):
            # a global average over a stream in C order: each channel's elements arrive
            # together, summed as they come (no buffer, one element per cycle)
            self.kernels.append(
                f"@kernel\ndef {name}(x: stream[{spell(tx)}], y: stream[{spell(t)}]):\n"
                f"    for c in range({c_n}):\n        m: {acc_t} = 0.0\n"
                f"        for i in range({h_n * w_n}):\n            m += x.get()\n"
                f"        y.put({result})\n\n")
            self._finish_layer(lay, name, [xin, y], ".pipeline(\"i\")")
            return
        if self.io == "stream" and (sh, sw) == (kh_n, kw_n) and h_n == oh_n * kh_n \
                and w_n == ow_n * kw_n and ow_n <= self.LINE_REGISTERS:
            self.pool_rows(lay, name, xin, y, tx, t, acc_t if lay.attrs["kind"] == "avg"
                           else spell(tx), result)
            return
        store = f"y.put({result})" if self.io == "stream" else f"y[c, oh, ow] = {result}"
        # as many channels per cycle as the layer before writes at once (its output's
        # banks on the channel dimension; memory io): the loops run oh, ow, c, with c
        # unrolled by that many, so a layer of v channels per cycle is not waited for
        vc = 1
        if self.io == "memory" and kh_n * kw_n <= 16:
            vc = _divisor_at_most(c_n, max(self._write_factors(xin, 1)))
        loops = [("oh", oh_n), ("ow", ow_n), ("c", c_n)] if vc > 1 else \
            [("c", c_n), ("oh", oh_n), ("ow", ow_n)]
        body = "".join(f"{'    ' * (k + 1)}for {var} in range({n}):\n"
                       for k, (var, n) in enumerate(loops)) + inner + f"                {store}\n"
        if self.io == "stream":
            src = (f"@kernel\ndef {name}(x: stream[{spell(tx)}], y: stream[{spell(t)}]):\n"
                   f"    {xa}: {self.arr(tx, (c_n, h_n, w_n))} = {self.zero(tx)}\n"
                   f"    for j0 in range({c_n}):\n        for j1 in range({h_n}):\n"
                   f"            for j2 in range({w_n}):\n"
                   f"                {xa}[j0, j1, j2] = x.get()\n" + body + "\n")
            extra = ".pipeline(\"j2\")"
            self.rolled(xa)
        else:
            src = (f"@kernel\ndef {name}(x: {self.arr(tx, (c_n, h_n, w_n))}, "
                   f"y: {self.arr(t, (c_n, oh_n, ow_n))}):\n" + body + "\n")
            extra = ""
            if vc > 1:
                for dim, f in ((1, vc), (2, 1), (3, 1)):
                    self.want(y, dim, f, "write")
            else:
                self.rolled(y)
        self.kernels.append(src)
        self.calls.append(f"{name}({xin}, {y})")
        # one output per cycle (vc with channels at once) when the window is small; else
        # one input per cycle
        parr = xa if self.io == "stream" else xin
        if kh_n * kw_n <= 16:
            self.want(parr, 2, kh_n)
            self.want(parr, 3, kw_n)
            self.want(parr, 1, vc)
            directives = (f".unroll(\"c\", {vc}).pipeline(\"c\")" if 1 < vc < c_n
                          else ".pipeline(\"ow\")")
        else:
            self.rolled(parr)
            directives = ".pipeline(\"kw\")"
        self.compose.append(f"schedule.compose(vichls.customize({name}){directives}{extra})")
        self.layer_info.append({"node": lay.node, "op": lay.op_type, "kernel": name, "macs": 0,
                                "parallelism": vc})

    #: pooling on streams takes its input as it comes when a row of outputs is at most
    #: this long (a register each); else it buffers the input first
    LINE_REGISTERS = 64

    def pool_rows(self, lay: Layer, name: str, xin: str, y: str, tx, t, acc_t: str,
                  result: str) -> None:
        """Pooling on a stream in C order whose windows tile the input (stride = kernel,
        nothing left over): one input per cycle, taken once. A window row is combined in
        a register as its elements arrive (``r``), then with the rows of that window
        before it, which wait in a line of registers, one per output column (``lb0`` is
        the oldest, the current column's: the line shifts by one per window row, so no
        register is indexed by a variable, which would make the recurrence too long for
        II=1); an output goes out with its window's last element. Memory: a row of
        outputs instead of the whole input, and no cycles spent buffering it."""
        c_n, h_n, w_n = self.m.tensors[lay.inputs[0]].shape
        _, oh_n, ow_n = self.m.tensors[lay.output].shape
        kh_n, kw_n = lay.attrs["kernel"]
        op = ("max({}, {})" if lay.attrs["kind"] == "max" else "{} + {}").format
        regs = [f"lb{k}" for k in range(ow_n)]
        lines = [(0, f"v: {spell(tx)} = x.get()"),
                 (0, f"r = v if kw == 0 else {op('r', 'v')}" if kw_n > 1 else "r = v")]
        ind = 0
        if kw_n > 1:  # a window row complete
            lines.append((0, f"if kw == {kw_n - 1}:"))
            ind = 1
        if kh_n > 1:  # combined with the window's rows before, passed along the line
            lines.append((ind, f"s: {acc_t} = r if kh == 0 else {op('lb0', 'r')}"))
            lines += [(ind, f"{a} = {b}") for a, b in zip(regs, regs[1:] + ["s"])]
            lines.append((ind, f"if kh == {kh_n - 1}:"))
            ind += 1
        else:
            lines.append((ind, f"s: {acc_t} = r"))
        lines.append((ind, f"y.put({'s' + result[1:]})"))  # (result is of m)
        self.kernels.append(
            f"@kernel\ndef {name}(x: stream[{spell(tx)}], y: stream[{spell(t)}]):\n"
            + "".join(f"    {reg}: {acc_t} = {self.zero(tx)}\n" for reg in regs + ["r"])
            + f"    for g in range({c_n * oh_n}):\n        for kh in range({kh_n}):\n"
            f"            for ow in range({ow_n}):\n                for kw in range({kw_n}):\n"
            + "".join(f"{' ' * (20 + 4 * k)}{line}\n" for k, line in lines) + "\n")
        self._finish_layer(lay, name, [xin, y], ".pipeline(\"kw\")")

    def activation(self, v: str, act) -> str:
        if act is None:
            return v
        if act[0] == "relu":
            return f"{v} if {v} > 0.0 else 0.0"
        lo, hi = act[1], act[2]
        e = v
        if math.isfinite(lo):
            e = f"max({e}, {lo!r})"
        if math.isfinite(hi):
            e = f"min({e}, {hi!r})"
        return e

    def _loops(self, shape, indent: int = 1):
        idx = [f"i{k}" for k in range(len(shape))]
        lines = [("    " * (indent + k)) + f"for {i} in range({d}):" for k, (i, d)
                 in enumerate(zip(idx, shape))]
        return idx, lines, "    " * (indent + len(shape))

    def layer_elementwise(self, lay: Layer) -> None:
        t = self.prec_of(lay)
        shape = self.m.tensors[lay.output].shape
        ins = self.in_vars(lay)
        tys = [self.elem_type(x) for x in lay.inputs]
        name = _ident(lay.node, self.taken)
        op = lay.op
        c = None
        if op[0] == "add_const":
            c = self.const(f"{name}_c", op[1].reshape(-1) if self.io == "stream" else op[1], t)
        params, vals, idx, lines, ind = self._elementwise_head(tys, shape, spell)
        if op[0] == "add":
            e = f"{vals[0]} + {vals[1]}"
        elif op[0] == "add_const":
            e = f"{vals[0]} + {c}[{', '.join(idx)}]"
        else:
            e = self.activation("v", op)
            lines.append(f"{ind}v: {spell(tys[0])} = {vals[0]}")
        self._elementwise_tail(lay, name, t, spell(t), params, lines, ind, idx, ins, e)

    def _finish_layer(self, lay: Layer, name: str, args: list[str], directives: str) -> None:
        """A layer without multiply-accumulates done: its call in the top (on ``args``),
        its kernel's directives in the schedule, its record."""
        self.calls.append(f"{name}({', '.join(args)})")
        self.compose.append(f"schedule.compose(vichls.customize({name}){directives})")
        self.layer_info.append({"node": lay.node, "op": lay.op_type, "kernel": name, "macs": 0,
                                "parallelism": 1})

    def _elementwise_head(self, tys, shape, spelled) -> tuple:
        """An element-wise kernel's parameters, its inputs' element at the loops' indices
        (``x0[i0, i1]``, or ``x0.get()``), the loops' variables, its lines so far (the
        loops) and the indent of their body; ``spelled(type)`` spells an element type."""
        if self.io == "stream":
            params = [f"x{k}: stream[{spelled(ty)}]" for k, ty in enumerate(tys)]
            vals = [f"x{k}.get()" for k in range(len(tys))]
            return params, vals, ["i"], [f"    for i in range({int(np.prod(shape))}):"], \
                "        "
        params = [f"x{k}: {self.arr(ty, shape)}" for k, ty in enumerate(tys)]
        idx, lines, ind = self._loops(shape)
        at = ", ".join(idx)
        return params, [f"x{k}[{at}]" for k in range(len(tys))], idx, lines, ind

    def _elementwise_tail(self, lay: Layer, name: str, t, t_spelled: str, params, lines, ind,
                          idx, ins, result: str) -> None:
        """The output ``result`` (of type ``t``) stored or put, the kernel and its call, its
        pipeline and the layer's record."""
        shape = self.m.tensors[lay.output].shape
        y = self.out_var(lay, t, shape)
        if self.io == "stream":
            params.append(f"y: stream[{t_spelled}]")
            lines.append(f"{ind}y.put({result})")
        else:
            params.append(f"y: {self.arr(t, shape)}")
            lines.append(f"{ind}y[{', '.join(idx)}] = {result}")
        self.kernels.append(f"@kernel\ndef {name}({', '.join(params)}):\n" + "\n".join(lines)
                            + "\n\n")
        if self.io == "memory":
            for a in ins + [y]:
                self.rolled(a)
        self._finish_layer(lay, name, ins + [y], f".pipeline({idx[-1]!r})")

    def layer_copy(self, lay: Layer) -> None:
        x = lay.inputs[0]
        ty = self.elem_type(x)
        src, dst = self.m.tensors[x].shape, self.m.tensors[lay.output].shape
        name = _ident(lay.node, self.taken)
        xin = self.in_vars(lay)[0]
        y = self.out_var(lay, ty, dst)
        size = int(np.prod(src))
        if self.io == "stream":
            body = f"    for i in range({size}):\n        y.put(x.get())\n"
            params = f"x: stream[{spell(ty)}], y: stream[{spell(ty)}]"
            loop = "i"
        else:
            multi = src if len(dst) == 1 else dst
            idx, lines, ind = self._loops(multi)
            strides = [int(np.prod(multi[k + 1:])) for k in range(len(multi))]
            flat = " + ".join(f"{s} * {i}" if s != 1 else i for s, i in zip(strides, idx))
            at = ", ".join(idx)
            lines.append(f"{ind}y[{flat}] = x[{at}]" if len(dst) == 1
                         else f"{ind}y[{at}] = x[{flat}]")
            body = "\n".join(lines) + "\n"
            params = f"x: {self.arr(ty, src)}, y: {self.arr(ty, dst)}"
            loop = idx[-1]
        self.kernels.append(f"@kernel\ndef {name}({params}):\n{body}\n")
        if self.io == "memory":
            self.rolled(xin)
            self.rolled(y)
        self._finish_layer(lay, name, [xin, y], f".pipeline({loop!r})")

    def layer_concat(self, lay: Layer) -> None:
        """The inputs side by side along the axis: in memory, each input copied into its
        slice of the output; on streams (C order), for each index of the axes before the
        concatenation axis, each input's block of elements in turn."""
        axis = lay.attrs["axis"]
        shapes = [self.m.tensors[x].shape for x in lay.inputs]
        tys = [self.elem_type(x) for x in lay.inputs]
        t = tys[0]
        if any(ty != t for ty in tys):
            t = self.prec_of(lay)
        out_shape = self.m.tensors[lay.output].shape
        name = _ident(lay.node, self.taken)
        ins = self.in_vars(lay)
        y = self.out_var(lay, t, out_shape)
        loops = []
        if self.io == "stream":
            outer = int(np.prod(out_shape[:axis]))
            params = [f"x{k}: stream[{spell(ty)}]" for k, ty in enumerate(tys)]
            lines = [f"    for o in range({outer}):"]
            for k, sh in enumerate(shapes):
                block = int(np.prod(sh[axis:]))
                lines += [f"        for e{k} in range({block}):", f"            y.put(x{k}.get())"]
                loops.append(f"e{k}")
            params.append(f"y: stream[{spell(t)}]")
        else:
            params = [f"x{k}: {self.arr(ty, sh)}" for k, (ty, sh) in enumerate(zip(tys, shapes))]
            params.append(f"y: {self.arr(t, out_shape)}")
            lines, offset = [], 0
            for k, sh in enumerate(shapes):
                idx = [f"k{k}d{d}" for d in range(len(sh))]  # (no "_": flattened names join by it)
                lines += [f"{'    ' * (d + 1)}for {v} in range({n}):"
                          for d, (v, n) in enumerate(zip(idx, sh))]
                at = [f"{v} + {offset}" if d == axis and offset else v for d, v in enumerate(idx)]
                lines.append(f"{'    ' * (len(sh) + 1)}y[{', '.join(at)}] = "
                             f"x{k}[{', '.join(idx)}]")
                offset += sh[axis]
                loops.append(idx[-1])
            for a in ins + [y]:
                self.rolled(a)
        self.kernels.append(f"@kernel\ndef {name}({', '.join(params)}):\n" + "\n".join(lines)
                            + "\n\n")
        self._finish_layer(lay, name, ins + [y], "".join(f".pipeline({v!r})" for v in loops))

    #: the exponential's table: exp(-k / EXP_SCALE) for k below EXP_ENTRIES (a range of 16)
    EXP_ENTRIES, EXP_SCALE = 1024, 64
    #: the reciprocal's table at most this long
    RECIP_ENTRIES = 1024

    def layer_softmax(self, lay: Layer) -> None:
        """``y_i = e_i / sum(e)`` with ``e_i = exp(x_i - max(x))``, as hls4ml computes it in
        fixed point: the exponential from a table indexed by ``(max - x_i) * 64`` (1,024
        entries, ``ufixed(18, 1)``: arguments below -16 read the last, about 1e-7), the sum
        of N of them in [1, N], its reciprocal from a table indexed by ``(sum - 1) * 2^F``
        (the largest F that keeps it within 1,024 entries; each entry the reciprocal at
        the middle of its step), and one product per output."""
        x = lay.inputs[0]
        tx, t = self.elem_type(x), self.prec_of(lay)
        if isinstance(tx, FloatType) or isinstance(t, FloatType):
            raise OnnxError(f"node '{lay.node}' ({lay.op_type}): a Softmax in float32 is not "
                            "supported (vichls kernels have no exponential); give it a "
                            "fixed-point precision, or end the graph with the logits or an "
                            "ArgMax, which Softmax does not change")
        n = self.m.tensors[x].shape[0]
        name = _ident(lay.node, self.taken)
        xin = self.in_vars(lay)[0]
        y = self.out_var(lay, t, (n,))
        g = max(1, math.ceil(math.log2(n)))
        table_t, sum_t = ufixed(18, 1), f"ufixed({18 + g}, {1 + g})"
        exp_tab = self.const(f"{name}_exp", np.exp(-np.arange(self.EXP_ENTRIES)
                                                   / self.EXP_SCALE), table_t)
        frac = max(0, int(math.floor(math.log2((self.RECIP_ENTRIES - 1) / max(1, n - 1)))))
        steps = (n - 1) * (1 << frac) + 1
        recip = self.const(f"{name}_recip", 1.0 / (1.0 + (np.arange(steps) + 0.5)
                                                   / (1 << frac)), table_t)
        diff_t = f"ufixed({tx.width + 1}, {tx.int_bits + 1})"
        xa = "x"
        if self.io == "stream":   # the maximum first: the vector is read into a buffer
            xa = _ident(f"{name}_in", self.taken)
            self.shapes[xa] = (n,)
            head = (f"    {xa}: {self.arr(tx, (n,))} = 0.0\n    for j in range({n}):\n"
                    f"        {xa}[j] = x.get()\n")
            params = f"x: stream[{spell(tx)}], y: stream[{spell(t)}]"
            store = "y.put(e[i] * inv)"
        else:
            head = ""
            params = f"x: {self.arr(tx, (n,))}, y: {self.arr(t, (n,))}"
            store = "y[i] = e[i] * inv"
        body = (f"    m: {spell(tx)} = {xa}[0]\n    for k in range(1, {n}):\n"
                f"        m = max(m, {xa}[k])\n"
                f"    e: {self.arr(table_t, (n,))} = 0.0\n    s: {sum_t} = 0.0\n"
                f"    for h in range({n}):\n        d: {diff_t} = m - {xa}[h]\n"
                f"        a: int32 = int32(d * {float(self.EXP_SCALE)})\n"
                f"        v: {spell(table_t)} = {exp_tab}[min(a, {self.EXP_ENTRIES - 1})]\n"
                f"        e[h] = v\n        s += v\n"
                f"    r: int32 = int32((s - 1.0) * {float(1 << frac)})\n"
                f"    inv: {spell(table_t)} = {recip}[min(r, {steps - 1})]\n"
                f"    for i in range({n}):\n        {store}\n")
        self.kernels.append(f"@kernel\ndef {name}({params}):\n{head}{body}\n")
        if self.io == "memory":
            self.rolled(xin)
            self.rolled(y)
        loops = (["j"] if self.io == "stream" else []) + ["k", "h", "i"]
        self._finish_layer(lay, name, [xin, y], "".join(f".pipeline({v!r})" for v in loops))

    def layer_argmax(self, lay: Layer) -> None:
        x = lay.inputs[0]
        ty = self.elem_type(x)
        n = self.m.tensors[x].shape[0]
        name = _ident(lay.node, self.taken)
        xin = self.in_vars(lay)[0]
        shape = self.m.tensors[lay.output].shape
        y = self.out_var(lay, "int32", shape)
        if self.io == "stream":
            src = (f"@kernel\ndef {name}(x: stream[{spell(ty)}], y: stream[int32]):\n"
                   f"    best: {spell(ty)} = x.get()\n    at: int32 = 0\n"
                   f"    for i in range(1, {n}):\n        v: {spell(ty)} = x.get()\n"
                   "        if v > best:  # ties keep the first index, as ONNX's ArgMax\n"
                   "            best = v\n            at = i\n    y.put(at)\n\n")
        else:
            src = (f"@kernel\ndef {name}(x: {self.arr(ty, (n,))}, y: int32[{shape[0]}]):\n"
                   f"    best: {spell(ty)} = x[0]\n    at: int32 = 0\n"
                   f"    for i in range(1, {n}):\n        v: {spell(ty)} = x[i]\n"
                   "        if v > best:  # ties keep the first index, as ONNX's ArgMax\n"
                   "            best = v\n            at = i\n    y[0] = at\n\n")
        self.kernels.append(src)
        self.calls.append(f"{name}({xin}, {y})")
        par = self.par_of(lay, n)
        if self.io == "memory" and (par >= n or self._full(xin, n)):
            self.compose.append(f"schedule.compose(vichls.customize({name}).unroll(\"i\"))")
            self.want(xin, 1, n)
        else:
            if self.io == "memory":
                self.rolled(xin)
            self.compose.append(f"schedule.compose(vichls.customize({name}).pipeline(\"i\"))")
        self.layer_info.append({"node": lay.node, "op": lay.op_type, "kernel": name, "macs": 0,
                                "parallelism": 1})


def generate(model: Model, precision=DEFAULT_PRECISION, io: str = "memory", parallelism=None,
             dataflow: bool | None = None) -> Generated:
    return _Gen(model, precision, io, parallelism, dataflow).run()
