"""hls4ml's jet-tagging MLP (16-64-32-32-5, ReLU, fixed(16, 6)) compiled from ONNX by
vichls.onnx: latency, interval, resources and the latency/DSP trade at reuse factors 1, 4
and 16 (parallelism = ceil(MACs / reuse) per layer), every design simulated and checked bit
for bit against its Python call, and the Python call against onnxruntime.

    python benchmarks/onnx_mlp.py [--reuse 1,4,16] [--runs 5] [--no-synth] [--markdown F]

The weights are seeded (normal, scaled by 1/sqrt(fan-in)); the model is built with
onnx.helper. The clock is 200 MHz (5 ns). Columns: compile (CPU seconds of the FPGA
build, this process's: the wall clock of a shared machine says little),
latency (the report's, cycles; without dataflow the interval between calls is the latency),
sim (simulated cycles of a call, and mismatches against the Python call), the
multiplier bound (MACs per layer / multipliers per layer, summed: the cycles the layers'
multiply-accumulates need at that parallelism), DSP/LUT/FF (Yosys synth_xilinx, xc7; the
report's estimate with --no-synth), and the accuracy against onnxruntime's float result.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import vichls.onnx as vo  # noqa: E402

SIZES = (16, 64, 32, 32, 5)
CLOCK_NS = 5.0


def jet_mlp(seed: int = 0):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits, prev = [], [], "x"
    for k in range(len(SIZES) - 1):
        w = (rng.standard_normal((SIZES[k], SIZES[k + 1])) / np.sqrt(SIZES[k]))
        b = rng.standard_normal(SIZES[k + 1]) * 0.1
        inits += [numpy_helper.from_array(w.astype(np.float32), f"w{k}"),
                  numpy_helper.from_array(b.astype(np.float32), f"b{k}")]
        nodes.append(helper.make_node("Gemm", [prev, f"w{k}", f"b{k}"], [f"h{k}"],
                                      name=f"dense{k}"))
        prev = f"h{k}"
        if k < len(SIZES) - 2:
            nodes.append(helper.make_node("Relu", [prev], [f"r{k}"], name=f"relu{k}"))
            prev = f"r{k}"
    g = helper.make_graph(nodes, "jet", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, SIZES[0]])], [helper.make_tensor_value_info(
            prev, TensorProto.FLOAT, [1, SIZES[-1]])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


def parallelism_for(reuse: int) -> dict:
    return {f"dense{k}": math.ceil(SIZES[k] * SIZES[k + 1] / reuse) for k in range(len(SIZES) - 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reuse", default="1,4,16")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--markdown", metavar="FILE")
    args = ap.parse_args()
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.driver.fpga import compile_fpga
    from vichls.results import differences

    model = jet_mlp()
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal(SIZES[0]) for _ in range(args.runs)]
    acc = vo.accuracy(model, np.random.default_rng(2).standard_normal((200, SIZES[0])))
    rows, designs, calls, expected = [], [], {}, {}
    for reuse in [int(r) for r in args.reuse.split(",")]:
        name = f"jet_r{reuse}"
        par = parallelism_for(reuse)
        kern, sched = vo.load(model, parallelism=par)
        info = vo.source(model, parallelism=par).layers
        t0, c0 = time.perf_counter(), time.process_time()
        design = compile_fpga(sched.module(), clock_period_ns=CLOCK_NS)
        seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
        sig = kern.signature
        arg_sets = [vo.arguments(sig, [x]) for x in inputs]
        expected[name] = []
        for a in arg_sets:
            work = tuple(np.copy(v) for v in a)
            kern(*work)
            expected[name].append((None, {p.name: w for p, w in zip(sig.params, work)}))
        calls[name] = arg_sets
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
        bound = sum(math.ceil(i["macs"] / i["parallelism"]) for i in info)
        rows.append({"name": name, "reuse": reuse, "parallelism": [i["parallelism"] for i in info],
                     "compile_s": seconds, "compile_cpu_s": cpu_seconds, "latency": design.report["latency"].get("max"),
                     "estimate": design.report.get("resources", {}), "bound": bound,
                     "verilog": design.deliverable, "top": design.signature.name})
        print(f"{name}: compiled in {seconds:.1f} s ({cpu_seconds:.1f} s of CPU), latency {rows[-1]['latency']} cycles",
              file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    sim = build_simulation(designs)
    print(f"simulator built in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    results = sim.run_many(calls)
    failed = 0
    for row in rows:
        res = results[row["name"]]
        row["cycles"] = max(r.cycles for r in res)
        row["mismatches"] = sum(1 for e, r in zip(expected[row["name"]], res)
                                if differences(e, (None, r.arrays)))
        failed += row["mismatches"]
        if not args.no_synth:
            from vichls.flows.synth import synth_xilinx_resources

            t0 = time.perf_counter()
            row["yosys"] = synth_xilinx_resources(row["verilog"], row["top"])
            row["synth_s"] = time.perf_counter() - t0
            print(f"{row['name']}: Yosys in {row['synth_s']:.0f} s", file=sys.stderr, flush=True)
    lines = [f"# jet-tagging MLP {'-'.join(map(str, SIZES))} from ONNX, fixed(16, 6), "
             f"{1000 / CLOCK_NS:.0f} MHz", "",
             f"- accuracy of the Python call against onnxruntime on 200 normal inputs: argmax "
             f"agrees on {acc['agree']} of {acc['samples']}, largest absolute error "
             f"{acc['max_abs_error']:.4f}",
             f"- {args.runs} simulated calls per design, each checked bit for bit against the "
             "Python call", "",
             "| reuse | MACs/cycle per layer | compile CPU s | latency | sim cycles | mismatches "
             "| mult. bound | DSP | LUT | FF | estimate DSP/LUT |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        y = row.get("yosys", {})
        est = row["estimate"]
        lines.append(f"| {row['reuse']} | {'/'.join(map(str, row['parallelism']))} | "
                     f"{row['compile_cpu_s']:.1f} | {row['latency']} | {row['cycles']} | "
                     f"{row['mismatches']} | {row['bound']} | {y.get('dsp', '-')} | "
                     f"{y.get('lut', '-')} | {y.get('ff', '-')} | {est.get('dsp')}/{est.get('lut')} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
