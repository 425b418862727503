"""Loop pipelining figures (the targets of the loop-optimization issue), measured in
simulation next to the numbers they are held to.

Kernels, int32:

- gemm 32×32 (``acc = 0; for k: acc += A[i, k] * B[k, j]; C[i, j] = acc``): no directives;
  innermost loop pipelined (target: II=1 and cycles within 1.15× of the trip-count
  product plus the pipeline depths); plus unroll 4 of the reduction with cyclic
  partitions of 4 (target: a further ≥ 3.5× fewer cycles);
- dot product of 1024: no directives; pipelined; unrolled by 8 with cyclic partitions of
  8 and pipelined (target: ≤ 1024/8 + 20 cycles);
- FIR, 16 taps: examples/fir.py at N = 1024 outputs with its schedule (shift register
  completely partitioned, pipelined at II=1); target: N + depth cycles for the filter
  loop (the 16 coefficient reads before it are reported apart).

Every design is compiled (timed; target ≤ 5 s each), simulated in one Verilator build on
random inputs, and checked bit for bit against the Python call before its cycles are
printed.

    python benchmarks/pipelining.py
"""

from __future__ import annotations

import sys
import time

import numpy as np

import vichls
from vichls import int32, kernel

GEMM_N = 32
DOT_N = 1024
FIR_N = 1024


@kernel
def gemm(A: int32[GEMM_N, GEMM_N], B: int32[GEMM_N, GEMM_N], C: int32[GEMM_N, GEMM_N]):
    for i in range(GEMM_N):
        for j in range(GEMM_N):
            acc: int32 = 0
            for k in range(GEMM_N):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@kernel
def dot(x: int32[DOT_N], y: int32[DOT_N]) -> int32:
    s: int32 = 0
    for i in range(DOT_N):
        s += x[i] * y[i]
    return s


def _fir_example(n: int):
    """examples/fir.py's kernel (and its schedule), rebuilt with N = n outputs."""
    from pathlib import Path

    from vichls.frontend.kernel import load_source

    path = Path(__file__).resolve().parent.parent / "examples" / "fir.py"
    text = path.read_text()
    assert "\nN = 256\n" in text, "examples/fir.py no longer sets N = 256"
    namespace = load_source(text.replace("\nN = 256\n", f"\nN = {n}\n"), f"{path}[N={n}]")
    return namespace["fir"], namespace["s"]


fir, fir_pipelined = _fir_example(FIR_N)


def designs():
    """(name, schedule) for every measured design."""
    out = [("gemm plain", vichls.customize(gemm)),
           ("gemm pipeline k", vichls.customize(gemm).pipeline("k"))]
    s = vichls.customize(gemm).pipeline("k").unroll("k", 4)
    s.partition("A", dim=2, factor=4).partition("B", dim=1, factor=4)
    out.append(("gemm pipeline k, unroll 4", s))
    out.append(("dot plain", vichls.customize(dot)))
    out.append(("dot pipeline", vichls.customize(dot).pipeline("i")))
    s = vichls.customize(dot).pipeline("i").unroll("i", 8)
    s.partition("x", factor=8).partition("y", factor=8)
    out.append(("dot pipeline, unroll 8", s))
    out.append(("fir plain", vichls.customize(fir)))
    out.append(("fir pipeline", fir_pipelined))  # the example's own schedule
    return out


def main() -> int:
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.inputs import copy_args, random_args
    from vichls.results import differences, results_of

    rng = np.random.default_rng(2026)
    rows, sims, calls, expected = [], [], {}, {}
    for name, schedule in designs():
        print(f"compiling {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        design = schedule.build("fpga")
        seconds = time.perf_counter() - t0
        k = schedule.kernel
        args = random_args(k.signature, rng)
        work = copy_args(args)
        expected[name] = results_of(k.signature, work, k(*work))
        tag = name.replace(" ", "_").replace(",", "")
        sims.append(SimDesign(design.verilog, design.signature, name=tag,
                              partitions=design.partitions))
        calls[tag] = [args]
        rows.append((name, tag, k, design.report, seconds))
    print("building the simulation ...", file=sys.stderr, flush=True)
    model = build_simulation(sims)
    results = model.run_many(calls, max_cycles=10_000_000)
    cycles, wrong = {}, []
    print(f"{'design':<28} {'cycles':>7} {'II':>4} {'depth':>5} {'trips':>6} "
          f"{'compile s':>9} {'LUT':>6} {'DSP':>4}  bit-exact")
    for name, tag, k, report, seconds in rows:
        res = results[tag][0]
        got = (res.ret, {p.name: res.arrays[p.name] for p in k.signature.params if p.is_array})
        exact = not differences(expected[name], got)
        if not exact:
            wrong.append(name)
        cycles[name] = res.cycles
        pipes = [loop for loop in report["loops"] if loop.get("pipelined")]
        ii = ",".join(str(p["ii"]) for p in pipes) or "-"
        depth = ",".join(str(p["depth"]) for p in pipes) or "-"
        trips = ",".join(str(p["trip_count"]) for p in pipes) or "-"
        res_ = report["resources"]
        print(f"{name:<28} {res.cycles:>7} {ii:>4} {depth:>5} {trips:>6} {seconds:>9.2f} "
              f"{res_['lut']:>6} {res_['dsp']:>4}  {'yes' if exact else 'NO'}")
        for warning in report.get("warnings", []):
            print(f"    warning: {warning}")

    def pipe(name):
        return next(loop for loop in next(r for r in rows if r[0] == name)[3]["loops"]
                    if loop.get("pipelined"))

    print("\ntargets:")
    p = pipe("gemm pipeline k")
    bound = GEMM_N ** 3 + p["depth"]
    print(f"  gemm pipelined: II={p['ii']} (target 1); cycles / (trip product + depth) = "
          f"{cycles['gemm pipeline k']} / {bound} = {cycles['gemm pipeline k'] / bound:.3f} "
          f"(target <= 1.15)")
    print(f"  gemm unroll 4: {cycles['gemm pipeline k'] / cycles['gemm pipeline k, unroll 4']:.2f}x "
          f"fewer cycles than pipelined alone (target >= 3.5)")
    print(f"  dot 1024 unroll 8: {cycles['dot pipeline, unroll 8']} cycles "
          f"(target <= {DOT_N // 8 + 20})")
    p = pipe("fir pipeline")
    loop_cycles = (p["trip_count"] - 1) * p["ii"] + p["depth"]
    print(f"  fir: filter loop II={p['ii']}, {loop_cycles} cycles = N + depth - 1 "
          f"(N={FIR_N}, depth {p['depth']}); the whole design {cycles['fir pipeline']} cycles "
          f"with the coefficient reads")
    if wrong:
        print(f"results differ from Python: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
