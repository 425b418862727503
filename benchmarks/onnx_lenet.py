"""A LeNet-5-style int8 CNN on sklearn's 8x8 digits, quantized by onnxruntime and compiled
from ONNX by vichls.onnx: latency, interval, resources and the multiplier bound side by
side, every design simulated and checked bit for bit against its Python call, and the
Python call against onnxruntime's CPU provider on the whole digits test set (bit for bit:
the mismatch count must be 0).

    python benchmarks/onnx_lenet.py [--runs 4] [--synth] [--auto] [--markdown F] [--keep DIR]

The network: Conv 3x3 1->8, ReLU, MaxPool 2, Conv 3x3 8->16, ReLU, Flatten, Gemm 16->10.
The first convolution's filters are seeded (normal); the rest (the second convolution,
which on a 3x3 input is a dense layer 72->16, and the last layer) is trained by sklearn's
MLPClassifier on the pooled features of the first 1,200 digits; the other 597 are the test
set. The float model is built with onnx.helper and quantized with onnxruntime's
quantize_static (QDQ form, uint8 activations, int8 per-channel weights, 64 calibration
digits). The clock is 200 MHz (5 ns). Columns: latency (the report's, cycles), interval
(the report's), interval (sim) (dataflow designs: the calls run back to back in one
simulation, the gap between the last two done edges; it must equal the report's), sim
(simulated cycles of a call alone, mismatches against the Python call), the
multiplier bound (per layer MACs / MACs per cycle, summed: the cycles the layers' products
need at that parallelism when the layers run one after another; the largest one for a
dataflow design), DSP/LUT (the report's estimate; Yosys synth_xilinx with --synth).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import vichls.onnx as vo  # noqa: E402

CLOCK_NS = 5.0
TRAIN = 1200


def digits():
    from sklearn.datasets import load_digits

    d = load_digits()
    return (d.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8), d.target


def conv1_pool(x, w, b):
    """Conv 3x3 (no padding), ReLU, MaxPool 2 of a batch [N, 1, 8, 8] -> [N, 8*3*3]."""
    n = len(x)
    out = np.zeros((n, w.shape[0], 6, 6), np.float32)
    for i in range(3):
        for j in range(3):
            out += w[None, :, 0, i, j, None, None] * x[:, :, i:i + 6, j:j + 6]
    out = np.maximum(out + b[None, :, None, None], 0)
    return out.reshape(n, w.shape[0], 3, 2, 3, 2).max(axis=(3, 5)).reshape(n, -1)


def lenet():
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((8, 1, 3, 3)) * 0.5).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.05).astype(np.float32)
    x, y = digits()
    feats = conv1_pool(x[:TRAIN], w1, b1)
    clf = MLPClassifier(hidden_layer_sizes=(16,), max_iter=600, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(feats, y[:TRAIN])
    w2 = clf.coefs_[0].T.reshape(16, 8, 3, 3)
    inits = []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr, np.float32), name))
        return name
    nodes = [
        helper.make_node("Conv", ["x", init("w1", w1), init("b1", b1)], ["c1"], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2],
                         name="pool1"),
        helper.make_node("Conv", ["p1", init("w2", w2), init("b2", clf.intercepts_[0])], ["c2"],
                         name="conv2"),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Flatten", ["r2"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", init("w3", clf.coefs_[1].T), init("b3", clf.intercepts_[1])],
                         ["y"], transB=1, name="dense"),
    ]
    g = helper.make_graph(nodes, "lenet", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, 1, 8, 8])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


class Calibration:
    def __init__(self, x):
        self.items = iter([{"x": v[None]} for v in x])

    def get_next(self):
        return next(self.items, None)


def quantized(model, x_calib):
    import logging

    import onnx
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    logging.getLogger().setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as d:
        src, dst = str(Path(d) / "f.onnx"), str(Path(d) / "q.onnx")
        onnx.save(model, src)
        quantize_static(src, dst, Calibration(x_calib), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        per_channel=True)
        return onnx.load(dst)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--synth", action="store_true", help="Yosys synth_xilinx resources")
    ap.add_argument("--markdown", metavar="FILE")
    ap.add_argument("--keep", metavar="DIR", help="write the quantized model there")
    ap.add_argument("--auto", action="store_true",
                    help="also the designs at parallelism='auto' (vichls.onnx.balance)")
    args = ap.parse_args()
    import onnxruntime as ort

    from vichls.driver.fpga import compile_fpga
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.inputs import copy_args
    from vichls.results import differences, results_of
    from vichls.signature import check_call_args

    t0 = time.perf_counter()
    x, labels = digits()
    model = quantized(lenet(), x[TRAIN - 64:TRAIN])
    if args.keep:
        import onnx
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        onnx.save(model, str(Path(args.keep) / "lenet_int8.onnx"))
    print(f"trained and quantized in {time.perf_counter() - t0:.0f} s", file=sys.stderr,
          flush=True)
    m = vo.read_model(model)
    test = x[TRAIN:]
    # the Python call (the golden reference) against onnxruntime on the whole test set
    t0 = time.perf_counter()
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    kern, _ = vo.load(m)
    mismatches = right_ort = right_vichls = 0
    for xi, label in zip(test, labels[TRAIN:]):
        ref = sess.run(None, {"x": xi[None]})[0].reshape(-1)
        got = vo.model_outputs(m, vo.run(kern, kern.signature,
                                         vo.design_inputs(m, [xi[0]])))[0].reshape(-1)
        mismatches += int(got.astype(np.float32).tobytes() != ref.tobytes())
        right_ort += int(np.argmax(ref) == label)
        right_vichls += int(np.argmax(got) == label)
    print(f"test set checked in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    rows, designs, calls, expected, sigs = [], [], {}, {}, {}
    variants = [("memory", {}), ("stream", {"io": "stream"})]
    if args.auto:
        variants += [("memory_auto", {"parallelism": "auto"}),
                     ("stream_auto", {"io": "stream", "parallelism": "auto"})]
    for name, options in variants:
        kern, sched = vo.load(m, **options)
        gen = vo.source(m, **options)
        c0 = time.process_time()
        design = compile_fpga(sched.module(), clock_period_ns=CLOCK_NS)
        cpu_s = time.process_time() - c0
        sig = kern.signature
        arg_sets = [tuple(check_call_args(sig, vo.arguments(sig, vo.design_inputs(m, [xi[0]]))))
                    for xi in test[:args.runs]]
        expected[name] = []
        for a in arg_sets:
            work = copy_args(a)
            expected[name].append(results_of(sig, work, kern(*work)))
        calls[name] = [copy_args(a) for a in arg_sets]
        sigs[name] = sig
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
        layers = [i for i in gen.layers if i["macs"]]
        bounds = [math.ceil(i["macs"] / i["parallelism"]) for i in layers]
        lat = design.report["latency"]
        rows.append({"name": name, "cpu_s": cpu_s,
                     "latency": lat.get("max") or f"{lat.get('min')} (min)",
                     "interval": design.report.get("dataflow", {}).get("interval",
                                                                          lat.get("max")),
                     "estimate": design.report.get("resources", {}),
                     "bound": max(bounds) if options.get("io") == "stream" else sum(bounds),
                     "macs": sum(i["macs"] for i in layers),
                     "per_cycle": "/".join(str(i["parallelism"]) for i in layers),
                     "plans": ", ".join(f"{p['node']}: {p['kind']}" + (
                         f" (shift {p['shift']}, {p['exceptions']} corrections)"
                         if p["kind"] == "int" else "") for p in gen.plans),
                     "verilog": design.deliverable, "top": design.signature.name,
                     "dataflow": "dataflow" in design.report})
        print(f"{name}: compiled in {cpu_s:.1f} s of CPU, latency {rows[-1]['latency']}",
              file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    sim = build_simulation(designs)
    print(f"simulator built in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    results = sim.run_many(calls)
    failed = mismatches
    for row in rows:
        res = results[row["name"]]
        row["cycles"] = max(r.cycles for r in res)
        sig = sigs[row["name"]]
        row["mismatches"] = 0
        for e, r, a in zip(expected[row["name"]], res, calls[row["name"]]):
            streams = {p.name: list(v) for p, v in zip(sig.params, a) if p.is_stream}
            row["mismatches"] += bool(differences(e, (r.ret, {**r.arrays, **streams})))
        failed += row["mismatches"]
        if row["dataflow"]:
            # the calls back to back: the input stream holds every call's elements in order;
            # the interval is the gap between the last two done edges
            sig = sigs[row["name"]]
            flat = np.concatenate([np.asarray(vo.design_inputs(m, [xi[0]])[0]).reshape(-1)
                                   for xi in test[:args.runs]])
            call = tuple(check_call_args(sig, vo.arguments(sig, [flat])))
            rep = sim.run_repeated(row["name"], call, args.runs, max_cycles=5_000_000)
            outs = [p.name for p in sig.params if p.is_stream and p.direction == "out"]
            want = {n: sum((list(e[1][n]) for e in expected[row["name"]]), []) for n in outs}
            got = {n: list(rep.streams.get(n, [])) for n in outs}
            row["mismatches"] += bool(differences((None, want), (None, got)))
            failed += bool(differences((None, want), (None, got)))
            row["sim_interval"] = rep.done_edges[-1] - rep.done_edges[-2]
            if row["sim_interval"] != row["interval"]:
                print(f"{row['name']}: the report's interval {row['interval']} is not the "
                      f"simulated {row['sim_interval']}", file=sys.stderr)
                failed += 1
        if args.synth:
            from vichls.flows.synth import synth_xilinx_resources

            row["yosys"] = synth_xilinx_resources(row["verilog"], row["top"])
    n = len(test)
    lines = [f"# LeNet-5-style int8 CNN on 8x8 digits from ONNX, {1000 / CLOCK_NS:.0f} MHz", "",
             f"- Python call against onnxruntime (CPU provider) on the {n} test digits: "
             f"{mismatches} mismatches (bit for bit)",
             f"- accuracy on the test digits: onnxruntime {right_ort}/{n}, vichls "
             f"{right_vichls}/{n}",
             f"- requantizations: {rows[0]['plans']}",
             f"- {args.runs} simulated calls per design, each checked bit for bit against the "
             "Python call", "",
             "| io | MACs/cycle per layer | compile CPU s | latency | interval | interval (sim) | "
             "sim cycles | mismatches | mult. bound | interval / bound | est. DSP / LUT | "
             "Yosys DSP / LUT |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for row in rows:
        est, y = row["estimate"], row.get("yosys", {})
        lines.append(f"| {row['name']} | {row['per_cycle']} | {row['cpu_s']:.1f} | "
                     f"{row['latency']} | {row['interval']} | {row.get('sim_interval', '-')} | "
                     f"{row['cycles']} | {row['mismatches']} | {row['bound']} | "
                     f"{row['interval'] / row['bound']:.2f} | {est.get('dsp')} / "
                     f"{est.get('lut')} | {y.get('dsp', '-')} / {y.get('lut', '-')} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
