"""Convolutional blocks from ONNX as dataflow accelerators: a MobileNet-style
depthwise-separable block, a ResNet-style residual block and a small CNN, compiled by
vichls.onnx with ``io="stream"`` (one dataflow task per layer, FIFOs between them) and
``parallelism="auto"`` (each layer's multiply-accumulates per cycle chosen by
vichls.onnx.balance to balance the layers within the xc7z020's DSP blocks).

    python benchmarks/onnx_blocks.py [--calls 4] [--no-synth] [--markdown FILE]

For each design: the parallelism chosen per layer; the slowest layer's bound (its
multiply-accumulates over its multipliers; where it reads its whole input into a buffer
first, plus those cycles, or, for an unpadded convolution, whose reader task fills a
ping-pong buffer while it computes, the longer of the two: what balance.py weighs); the interval between calls measured in
simulation (``--calls`` calls back to back, the gap between the last two done edges) next
to the report's; the latency of one call; interval over bound; DSP/LUT/FF (Yosys
synth_xilinx, or the report's estimate with ``--no-synth``); the largest error of the
Python call against onnxruntime (float32 model, fixed(16, 6) design) on 20 inputs. Every
simulated call is checked bit for bit against the Python call: one call alone, and the
back-to-back calls' whole output streams. The models are made with onnx.helper from seeded
weights (tests/onnx_models.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

import onnx_models as om  # noqa: E402
import vichls.onnx as vo  # noqa: E402
from vichls.onnx.balance import layer_cycles  # noqa: E402

MODELS = {
    "separable (MobileNet-style)": lambda: om.separable(channels=8, out_channels=16, size=8),
    "residual (ResNet-style)": lambda: om.residual(channels=4, size=8),
    "cnn (conv-pool-conv-gap-fc)": lambda: om.cnn(size=8),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=4)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--markdown", metavar="FILE")
    args = ap.parse_args()
    from vichls.driver.fpga import compile_fpga
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.results import differences, results_of

    rows, designs, singles = [], [], {}
    for label, make in MODELS.items():
        model = make()
        gen = vo.source(model, io="stream", parallelism="auto")
        kern, sched = vo.load(model, io="stream", parallelism="auto")
        t0 = time.process_time()
        design = compile_fpga(sched.module())
        cpu_s = time.process_time() - t0
        m = vo.read_model(model)
        x = np.random.default_rng(1).standard_normal(m.inputs[0].shape)
        sig = kern.signature
        call = vo.arguments(sig, [x])
        work = vo.arguments(sig, [x])
        kern(*work)
        expected = results_of(sig, work, None)
        tag = f"d{len(rows)}"
        singles[tag] = (call, expected)
        designs.append(SimDesign(design.verilog, design.signature, name=tag,
                                 partitions=design.partitions))
        # each layer's cycles as balance.py weighs them: its multiply-accumulates over its
        # multipliers, and its input's elements (one per cycle) where it reads them first
        layer_of = {lay.node: lay for lay in m.layers}
        bounds = {i["node"]: layer_cycles(layer_of[i["node"]], m, "stream", i["parallelism"])
                  for i in gen.layers if i["macs"]}
        slow = {"node": max(bounds, key=bounds.get)}
        bound = bounds[slow["node"]]
        worst = 0.0
        for k in range(20):
            xi = np.random.default_rng(100 + k).standard_normal(m.inputs[0].shape)
            got = vo.run(kern, sig, [xi])[0]
            ref = om.onnxruntime_outputs(model, [xi])[0]
            worst = max(worst, float(np.max(np.abs(got.reshape(-1) - ref.reshape(-1)))))
        rows.append({"label": label, "tag": tag, "report": design.report, "cpu_s": cpu_s,
                     "par": {i["node"]: i["parallelism"] for i in gen.layers if i["macs"]},
                     "slow": slow["node"], "bound": bound, "error": worst,
                     "x": x, "sig": sig, "kern": kern, "verilog": design.deliverable,
                     "top": design.signature.name})
        print(f"{label}: compiled in {cpu_s:.1f} s of CPU", file=sys.stderr, flush=True)
    model = build_simulation(designs)
    results = model.run_many({tag: [call] for tag, (call, _) in singles.items()})
    failed = []
    for row in rows:
        res = results[row["tag"]][0]
        outputs = [p.name for p in row["sig"].params[1:]]  # (the model's one input first)
        want1 = (None, {k: v for k, v in singles[row["tag"]][1][1].items() if k in outputs})
        if differences(want1, (res.ret, {k: res.streams[k] for k in outputs})):
            failed.append(row["label"])
        row["latency"] = res.cycles
        # back to back: the input stream holds every call's elements in order
        sig = row["sig"]
        reps = [np.asarray(row["x"]).reshape(-1)] * args.calls
        call = vo.arguments(sig, [np.concatenate(reps)])
        want = vo.arguments(sig, [row["x"]])
        row["kern"](*want)
        per_call = {p.name: list(a) for p, a in zip(sig.params, want) if p.is_stream
                    and p.name != sig.params[0].name}
        rep = model.run_repeated(row["tag"], call, args.calls, max_cycles=5_000_000)
        for name, values in per_call.items():
            if differences((None, {name: values * args.calls}),
                           (None, {name: list(rep.streams.get(name, []))})):
                failed.append(f"{row['label']} ({args.calls} calls)")
        row["interval"] = rep.done_edges[-1] - rep.done_edges[-2]
        if not args.no_synth:
            from vichls.flows.synth import synth_xilinx_resources

            row["yosys"] = synth_xilinx_resources(row["verilog"], row["top"])
    lines = ["# convolutional blocks from ONNX, io=stream, parallelism=auto (xc7z020 budget), "
             "fixed(16, 6), 100 MHz", "",
             f"- {args.calls} calls back to back per design (interval: the gap between the last "
             "two done edges); every call checked bit for bit against the Python call", "",
             "| model | MACs/cycle per layer (auto) | slowest layer | its bound | interval (sim) "
             "| interval (report) | interval / bound | latency | DSP | LUT | FF | max error vs "
             "onnxruntime | compile CPU s |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        y = row.get("yosys") or row["report"].get("resources", {})
        df = row["report"].get("dataflow", {})
        lines.append(
            f"| {row['label']} | {', '.join(f'{k} {v}' for k, v in row['par'].items())} | "
            f"{row['slow']} | {row['bound']} | {row['interval']} | {df.get('interval', '-')} | "
            f"{row['interval'] / row['bound']:.2f} | {row['latency']} | {y.get('dsp', '-')} | "
            f"{y.get('lut', '-')} | {y.get('ff', '-')} | {row['error']:.4f} | "
            f"{row['cpu_s']:.1f} |")
    if args.no_synth:
        lines.append("\n(DSP/LUT/FF: the report's estimate, --no-synth)")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    if failed:
        print(f"results differ from Python: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
