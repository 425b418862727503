"""Dataflow figures (the targets of the graph-level issue), measured in simulation next to
the numbers they are held to.

Designs, int32, N = 1024:

- three stages (examples/dataflow.py), each a loop pipelined at II=1, chained through
  local arrays written and read in order (so FIFOs): in sequence, and with ``s.dataflow()``
  (target: total cycles <= 1.1 N + the sum of the stage depths, not 3 N);
- the same three stages as sub-kernels connected by explicit streams, with stream
  parameters on the top (ap_fifo), pipelined through ``compose``;
- a producer at II=1 feeding a consumer at II=2 (three reads of one array per element on
  two ports): it must run at the consumer's rate, and the report must name the consumer as
  the bottleneck;
- consecutive calls: three back-to-back calls of a two-task design connected by a
  ping-pong buffer, against three times one call.

Every design is compiled (timed), simulated in one Verilator build, and checked bit for
bit against its Python call before its cycles are printed.

    python benchmarks/dataflow.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # when run as a script

import vichls  # noqa: E402
from benchmarks.measure import example, measure  # noqa: E402
from vichls import int32, kernel, stream  # noqa: E402

N = 1024


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


def designs():
    stages = vichls.customize(three_stages).pipeline("i").pipeline("j").pipeline("k")
    assert _example["N"] == N
    kernels = vichls.customize(three_kernels)
    for sub in (load, compute, store):
        kernels.compose(vichls.customize(sub).pipeline("i"))
    pair = vichls.customize(pingpong_pair).pipeline("i").pipeline("j").dataflow()
    return [
        ("3 stages, in sequence", stages),
        ("3 stages, dataflow", stages_dataflow),
        ("3 kernels on streams, dataflow", kernels.dataflow()),
        ("II 1 -> II 2, dataflow", vichls.customize(uneven).pipeline("i").pipeline("j").dataflow()),
        ("ping-pong pair, dataflow", pair),
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
    print(f"  3 stages: dataflow {cycles['3 stages, dataflow']} cycles vs in sequence "
          f"{cycles['3 stages, in sequence']} (target <= 1.1 N + depths = {bound:.0f}); "
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
    if wrong:
        print(f"results differ from Python: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
