"""Dataflow figures (the targets of the graph-level issue), measured in simulation next to
the numbers they are held to.

Designs, int32, N = 1024:

- three stages (examples/dataflow.py), each a loop pipelined at II=1, chained through
  local arrays written and read in order (so FIFOs): without dataflow (the three pipelined
  loops in a row are fused into one pipeline, transforms/fpga/fuse_pipelines.py), and with
  ``s.dataflow()`` (target: total cycles <= 1.1 N + the sum of the stage depths, not 3 N);
- the same three stages as sub-kernels connected by explicit streams, with stream
  parameters on the top (ap_fifo), pipelined through ``compose``;
- a producer at II=1 feeding a consumer at II=2 (three reads of one array per element on
  two ports): it must run at the consumer's rate, and the report must name the consumer as
  the bottleneck;
- consecutive calls: three back-to-back calls of a two-task design connected by a
  ping-pong buffer, against three times one call;
- chains of five tasks run back to back (six calls): five loops pipelined at II=1 on
  ping-pong buffers (each reads its input reversed), and a tiny quantized CNN whose five
  layers (convolution, ReLU, max-pool, dense, argmax) are sub-kernels. For each, the
  interval measured between calls in steady state next to the report's interval, the
  bottleneck task's latency and the latency of one call (the whole chain).

Every design is compiled (timed), simulated in one Verilator build, and checked bit for
bit against its Python call before its cycles are printed.

    python benchmarks/dataflow.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # when run as a script

import numpy as np  # noqa: E402

import vichls  # noqa: E402
from benchmarks.measure import example, measure  # noqa: E402
from vichls import int8, int32, kernel, stream  # noqa: E402

N = 1024
CALLS = 6  # back-to-back calls of the chains


_example = example("dataflow.py")
three_stages = _example["stages"]  # N = 1024, chained through two arrays
stages_dataflow = _example["s"]  # each loop pipelined, dataflow


@kernel
def load(src: int32[N], out: stream[int32]):
    for i in range(N):
        out.put(src[i])


@kernel
def compute(inp: stream[int32], out: stream[int32]):
    for i in range(N):
        v = inp.get()
        out.put(v * 3 + (v >> 2))


@kernel
def store(inp: stream[int32], dst: int32[N]):
    for i in range(N):
        dst[i] = inp.get()


@kernel
def three_kernels(src: int32[N], dst: int32[N]):
    s1 = stream[int32, 2]()
    s2 = stream[int32, 2]()
    load(src, s1)
    compute(s1, s2)
    store(s2, dst)


@kernel
def uneven(x: int32[N], w: int32[N], y: int32[N]):
    a: int32[N] = 0
    for i in range(N):
        a[i] = x[i] + i
    for j in range(N):
        y[j] = a[j] + w[j] + w[(j + 1) % N] + w[(j + 2) % N]


@kernel
def pingpong_pair(x: int32[N], y: int32[N], c: int32):
    a: int32[N] = 0
    for i in range(N):
        a[i] = x[i] * c
    for j in range(N):
        y[j] = a[N - 1 - j] + j


@kernel
def chain5(x: int32[N], y: int32[N], c: int32):
    """Five tasks on four ping-pong buffers (each reads its input reversed)."""
    a: int32[N] = 0
    b: int32[N] = 0
    d: int32[N] = 0
    e: int32[N] = 0
    for i in range(N):
        a[i] = x[i] * c
    for j in range(N):
        b[j] = a[N - 1 - j] + j
    for k in range(N):
        d[k] = b[N - 1 - k] ^ c
    for m in range(N):
        e[m] = d[N - 1 - m] - m
    for n in range(N):
        y[n] = e[N - 1 - n] + c


# a tiny quantized CNN: 10x10 int8 image, 4 3x3 filters, ReLU, 2x2 max-pool, 64 -> 10
# dense, argmax; the weights are constants of the design
_weights = np.random.default_rng(7)
CONV_W = vichls.const(_weights.integers(-8, 8, (4, 3, 3)), int8)
DENSE_W = vichls.const(_weights.integers(-8, 8, (10, 64)), int8)


@kernel
def conv_layer(img: int8[10, 10], conv: int32[4, 8, 8]):
    for co in range(4):
        for h in range(8):
            for w in range(8):
                acc: int32 = 0
                for kh in range(3):
                    for kw in range(3):
                        acc += int32(img[h + kh, w + kw]) * int32(CONV_W[co, kh, kw])
                conv[co, h, w] = acc >> 2


@kernel
def relu_layer(conv: int32[4, 8, 8], act: int32[4, 8, 8]):
    for c in range(4):
        for h in range(8):
            for w in range(8):
                act[c, h, w] = max(conv[c, h, w], 0)


@kernel
def pool_layer(act: int32[4, 8, 8], pool: int32[64]):
    for c in range(4):
        for ph in range(4):
            for pw in range(4):
                pool[c * 16 + ph * 4 + pw] = max(
                    max(act[c, 2 * ph, 2 * pw], act[c, 2 * ph, 2 * pw + 1]),
                    max(act[c, 2 * ph + 1, 2 * pw], act[c, 2 * ph + 1, 2 * pw + 1]))


@kernel
def dense_layer(pool: int32[64], scores: int32[10]):
    for o in range(10):
        s: int32 = 0
        for i in range(64):
            s += pool[i] * int32(DENSE_W[o, i])
        scores[o] = s


@kernel
def argmax_layer(scores: int32[10], label: int32[1]):
    best: int32 = 0
    for k in range(1, 10):
        if scores[k] > scores[best]:
            best = k
    label[0] = best


@kernel
def tiny_cnn(img: int8[10, 10], label: int32[1]):
    conv: int32[4, 8, 8] = 0
    act: int32[4, 8, 8] = 0
    pool: int32[64] = 0
    scores: int32[10] = 0
    conv_layer(img, conv)
    relu_layer(conv, act)
    pool_layer(act, pool)
    dense_layer(pool, scores)
    argmax_layer(scores, label)


def cnn_schedule():
    s = vichls.customize(tiny_cnn)
    for layer, loop in ((conv_layer, "w"), (relu_layer, "w"), (pool_layer, "pw"),
                        (dense_layer, "i")):
        s.compose(vichls.customize(layer).pipeline(loop))
    return s.dataflow()


CHAINS = ("5-task chain, dataflow", "tiny CNN, 5 layer tasks")


def designs():
    stages = vichls.customize(three_stages).pipeline("i").pipeline("j").pipeline("k")
    assert _example["N"] == N
    kernels = vichls.customize(three_kernels)
    for sub in (load, compute, store):
        kernels.compose(vichls.customize(sub).pipeline("i"))
    pair = vichls.customize(pingpong_pair).pipeline("i").pipeline("j").dataflow()
    return [
        ("3 stages, no dataflow (fused)", stages),
        ("3 stages, dataflow", stages_dataflow),
        ("3 kernels on streams, dataflow", kernels.dataflow()),
        ("II 1 -> II 2, dataflow", vichls.customize(uneven).pipeline("i").pipeline("j").dataflow()),
        ("ping-pong pair, dataflow", pair),
        (CHAINS[0], vichls.customize(chain5).pipeline("i").pipeline("j").pipeline("k")
         .pipeline("m").pipeline("n").dataflow()),
        (CHAINS[1], cnn_schedule()),
    ]


def main() -> int:
    from vichls.inputs import copy_args

    rows, model = measure(designs())
    cycles = {row.name: row.cycles for row in rows}
    wrong = [row.name for row in rows if not row.exact]
    print(f"{'design':<32} {'cycles':>7} {'tasks':>5} {'channels':<22} {'bottleneck':<12} "
          f"{'compile s':>9}  bit-exact")
    for row in rows:
        df = row.report.get("dataflow")
        tasks = str(len(df["tasks"])) if df else "-"
        channels = ",".join(f"{c['kind']}{c.get('depth', '')}" for c in df["channels"]) if df else "-"
        bottleneck = df["bottleneck"] if df else "-"
        print(f"{row.name:<32} {row.cycles:>7} {tasks:>5} {channels:<22} {bottleneck:<12} "
              f"{row.compile_s:>9.2f}  {'yes' if row.exact else 'NO'}")
        for warning in row.report.get("warnings", []):
            print(f"    warning: {warning}")

    report_of = {row.name: row.report for row in rows}
    depths = sum(loop["depth"] for loop in report_of["3 stages, dataflow"]["loops"]
                 if loop.get("pipelined"))
    bound = 1.1 * N + depths
    print("\ntargets:")
    print(f"  3 stages: dataflow {cycles['3 stages, dataflow']} cycles vs without dataflow, fused "
          f"{cycles['3 stages, no dataflow (fused)']} (target <= 1.1 N + depths = {bound:.0f}); "
          f"on streams {cycles['3 kernels on streams, dataflow']}")
    uneven_report = report_of["II 1 -> II 2, dataflow"]
    iis = {loop["task"]: loop["ii"] for loop in uneven_report["loops"] if loop.get("pipelined")}
    print(f"  II {iis}: {cycles['II 1 -> II 2, dataflow']} cycles = "
          f"{cycles['II 1 -> II 2, dataflow'] / N:.2f} per element (the slowest stage's II is "
          f"{max(iis.values())}); bottleneck reported: "
          f"{uneven_report['dataflow']['bottleneck']}")
    pair = next(row for row in rows if row.name == "ping-pong pair, dataflow")
    repeated = model.run_repeated(pair.tag, copy_args(pair.args), 3, max_cycles=10_000_000)
    one = cycles["ping-pong pair, dataflow"]
    print(f"  ping-pong pair: 3 back-to-back calls {repeated.cycles} cycles vs 3 x one call "
          f"{3 * one} ({3 * one / repeated.cycles:.2f}x from overlapping calls); done edges "
          f"{repeated.done_edges}")
    print(f"\nchains, {CALLS} back-to-back calls (results checked against Python after the "
          "last call):")
    print(f"  {'design':<26} {'measured interval':>17} {'report interval':>15} "
          f"{'bottleneck latency':>18} {'one call':>8}  bit-exact")
    for name in CHAINS:
        row = next(r for r in rows if r.name == name)
        repeated = model.run_repeated(row.tag, copy_args(row.args), CALLS, max_cycles=10_000_000)
        want = copy_args(row.args)
        for _ in range(CALLS):
            row.kernel(*want)
        exact = all((repeated.arrays[p.name] == w).all()
                    for p, w in zip(row.kernel.signature.params, want) if p.is_array)
        if not exact:
            wrong.append(f"{name} ({CALLS} calls)")
        df = row.report["dataflow"]
        bottleneck = next(t["latency"] for t in df["tasks"] if t["name"] == df["bottleneck"])
        gaps = [b - a for a, b in zip(repeated.done_edges, repeated.done_edges[1:])]
        print(f"  {name:<26} {gaps[-1]:>17} {df['interval']:>15} {bottleneck:>18} "
              f"{row.cycles:>8}  {'yes' if exact else 'NO'}   (gaps {gaps})")
    if wrong:
        print(f"results differ from Python: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
