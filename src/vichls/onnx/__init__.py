"""ONNX models to vichls kernels (docs/onnx.md).

``load(model, precision="fixed(16, 6)", io="memory", parallelism=None)`` reads an ONNX model
(a path or a ``ModelProto``) and returns ``(kernel, schedule)``: the top kernel of generated
Python source (one kernel per layer, weights as constant tables; its Python call is the
golden reference) and its ``vichls.customize`` schedule, which the caller may change before
building. ``source(...)`` gives the generated text and weights; ``write(...)`` writes them
out as a kernel file and an ``.npz``; ``accuracy(...)`` compares a design with onnxruntime.
``vichls.onnx.quant`` holds onnxruntime's integer arithmetic for the quantized operators and
the kernel source of their requantizations (the quantized path's building blocks).
"""

from __future__ import annotations

import linecache
from pathlib import Path

import numpy as np

from vichls.errors import VichlsError
from vichls.onnx.balance import balance
from vichls.onnx.codegen import DEFAULT_PRECISION, Generated
from vichls.onnx.codegen import generate as _generate
from vichls.onnx.model import Model, OnnxError, read_model

__all__ = ["load", "source", "write", "accuracy", "run", "arguments", "OnnxError", "Model", "Generated",
           "read_model", "DEFAULT_PRECISION"]


def generate(m: Model, precision=DEFAULT_PRECISION, io: str = "memory", parallelism=None,
             dataflow: bool | None = None) -> Generated:
    """Code generation (vichls.onnx.codegen), with ``parallelism="auto"`` (or a dict whose
    ``"default"`` is ``"auto"``) chosen per layer by vichls.onnx.balance for the active
    device's DSP blocks and block RAMs."""
    if isinstance(parallelism, dict) and parallelism.get("default") == "auto":
        chosen = balance(m, precision, io, dataflow)
        parallelism = {**chosen, **{k: v for k, v in parallelism.items() if k != "default"}}
    elif isinstance(parallelism, str) and parallelism == "auto":
        parallelism = balance(m, precision, io, dataflow)
    return _generate(m, precision, io, parallelism, dataflow)


def source(model, precision=DEFAULT_PRECISION, io: str = "memory", parallelism=None,
           dataflow: bool | None = None) -> Generated:
    """The generated kernel file of ``model`` (``.source``) and its weights (``.weights``)."""
    m = model if isinstance(model, Model) else read_model(model)
    return generate(m, precision, io, parallelism, dataflow)


def _pseudo_name(m: Model) -> str:
    return f"{m.source} (vichls kernels)"


def load_generated(gen: Generated, filename: str) -> dict:
    """Execute generated source under ``filename`` (registered in ``linecache``, so that
    kernels find their source and messages quote it) with its weights; the namespace."""
    text = gen.source
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"__name__": f"_vichls_onnx_{abs(hash(filename)) % 10**12}",
                 "WEIGHTS": dict(gen.weights), "__file__": filename}
    code = compile(text, filename, "exec")
    exec(code, namespace)
    return namespace


def load(model, precision=DEFAULT_PRECISION, io: str = "memory", parallelism=None,
         dataflow: bool | None = None):
    """``(kernel, schedule)`` of an ONNX model (a path or a ``ModelProto``).

    precision: ``"fixed(W, I)"`` (with ``quant=``/``overflow=`` if wanted), ``"float32"``,
    or a dict from ONNX node names (and model input names, and ``"default"``) to those.
    io: ``"memory"`` (arrays) or ``"stream"`` (element by element in C order).
    parallelism: multiply-accumulates per cycle of each dense or convolution layer: None
    (one output per cycle), an int, ``"full"``, ``"auto"`` (balanced by vichls.onnx.balance
    within the device's DSP blocks), or a dict from node names (and ``"default"``) to those.
    dataflow: run the layers as concurrent tasks (default: with ``io="stream"``)."""
    m = model if isinstance(model, Model) else read_model(model)
    gen = generate(m, precision, io, parallelism, dataflow)
    ns = load_generated(gen, _pseudo_name(m))
    return ns[gen.top], ns["schedule"]


def write(model, out: str | Path, precision=DEFAULT_PRECISION, io: str = "memory",
          parallelism=None, dataflow: bool | None = None) -> tuple[Path, Path]:
    """Write the generated kernel file ``out`` (``.py``) and its weights beside it
    (``.npz``); returns both paths."""
    out = Path(out)
    if out.suffix != ".py":
        raise VichlsError(f"{out}: the kernel file's name must end in .py")
    gen = source(model, precision, io, parallelism, dataflow)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(gen.source)
    npz = out.with_suffix(".npz")
    np.savez(npz, **gen.weights)
    return out, npz


# -- running a design on model inputs ---------------------------------------------------------


def _arg_for(p, value=None):
    """A kernel argument for parameter ``p``: the input ``value`` (or zeros for an output)."""
    from vichls.signature import python_dtype

    if p.is_stream:
        s = p.type(())
        if value is not None:
            for v in np.asarray(value).reshape(-1):
                s.put(v)
        return s
    shape = p.type.shape
    dtype = python_dtype(p.scalar)
    if value is None:
        return np.zeros(shape, dtype)
    return np.ascontiguousarray(np.asarray(value, np.float64).reshape(shape)).astype(dtype)


def arguments(signature, inputs: list) -> tuple:
    """The arguments of a call of the generated kernel on the model's ``inputs`` (numpy
    arrays of the inputs' batch-less shapes, or values that reshape to them): the inputs
    converted to the parameters' types, empty outputs (arrays of zeros, empty streams)."""
    return tuple(_arg_for(p, inputs[k] if k < len(inputs) else None)
                 for k, p in enumerate(signature.params))


def run(fn, signature, inputs: list) -> list[np.ndarray]:
    """Call ``fn`` (a kernel, or a CPU or simulation build of one) on the model's inputs;
    the outputs as float64 or integer numpy arrays, in the model's (batch-less) shapes."""
    n_in = len(inputs)
    args = arguments(signature, inputs)
    fn(*args)
    outs = []
    for p, a in zip(signature.params[n_in:], args[n_in:]):
        if p.is_stream:
            vals = []
            while not a.empty():
                vals.append(a.get())
            outs.append(np.asarray(vals))
        else:
            outs.append(np.asarray(a))
    return outs


def _logits_model(proto, m: Model):
    """The model cut before a final ArgMax (its input becomes the output), or None."""
    import onnx

    last = proto.graph.node[-1] if proto.graph.node else None
    if last is None or last.op_type != "ArgMax":
        return None
    cut = onnx.ModelProto()
    cut.CopyFrom(proto)
    del cut.graph.node[-1]
    src = last.input[0]
    t = m.tensors[src]
    del cut.graph.output[:]
    cut.graph.output.append(onnx.helper.make_tensor_value_info(
        src, onnx.TensorProto.FLOAT, list(t.onnx_shape)))
    return cut


def accuracy(model, inputs, precision=DEFAULT_PRECISION, io: str = "memory", parallelism=None,
             target: str = "python", dataflow: bool | None = None) -> dict:
    """Compare the design of ``model`` with onnxruntime's float result on ``inputs`` (an
    array whose first axis runs over samples; a model with one input).

    Returns ``{"samples", "argmax_agreement", "max_abs_error", "agree"}``: how often the
    design's argmax (its ArgMax output, or the argmax of its first output) equals
    onnxruntime's, and the largest absolute difference of the first output (of the ArgMax's
    input when the model ends with one). ``target``: "python" (the kernel's call, the golden
    reference), "cpu" or "sim" (a build of the schedule)."""
    try:
        import onnxruntime as ort
    except ImportError:
        raise VichlsError("vichls.onnx.accuracy needs onnxruntime: pip install "
                          "'vichls[onnx]'") from None
    m = model if isinstance(model, Model) else read_model(model)
    proto = m.onnx_model
    if len(m.inputs) != 1:
        raise VichlsError("accuracy() takes models of one input")
    cut = _logits_model(proto, m)
    data = np.asarray(inputs, np.float64)
    shape = m.inputs[0].onnx_shape
    per = int(np.prod(shape))
    if data.size % per:
        raise VichlsError(f"the inputs hold {data.size} values, not a whole number of samples "
                          f"of shape {shape}")
    data = data.reshape((-1,) + tuple(shape))

    def design(mdl):
        kern, sched = load(mdl, precision, io, parallelism, dataflow)
        fn = kern if target == "python" else sched.build(target)
        return fn, kern.signature

    def session(p):
        return ort.InferenceSession(p.SerializeToString(), providers=["CPUExecutionProvider"])

    fn, sig = design(m)
    sess = session(proto)
    in_name = proto.graph.input[0].name
    if cut is not None:
        cut_m = read_model(cut)
        logits_fn, logits_sig = design(cut_m)
        logits_sess = session(cut)
    agree, max_err = 0, 0.0
    for sample in data:
        x32 = sample.astype(np.float32)
        ref = sess.run(None, {in_name: x32})[0]
        got = run(fn, sig, [sample])[0]
        if cut is not None:
            ref_logits = logits_sess.run(None, {in_name: x32})[0]
            got_logits = run(logits_fn, logits_sig, [sample])[0]
            agree += int(np.asarray(got).reshape(-1)[0] == np.asarray(ref).reshape(-1)[0])
            max_err = max(max_err, float(np.max(np.abs(got_logits.reshape(-1)
                                                       - ref_logits.reshape(-1)))))
        else:
            agree += int(np.argmax(got.reshape(-1)) == np.argmax(ref.reshape(-1)))
            max_err = max(max_err, float(np.max(np.abs(got.reshape(-1) - ref.reshape(-1)))))
    n = len(data)
    return {"samples": n, "agree": agree, "argmax_agreement": agree / n if n else 1.0,
            "max_abs_error": max_err}
