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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # when run as a script

import vichls  # noqa: E402
from benchmarks.measure import example, measure  # noqa: E402
from vichls import int32, kernel  # noqa: E402

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
    namespace = example("fir.py", {"\nN = 256\n": f"\nN = {n}\n"})
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
    rows, _ = measure(designs())
    cycles = {row.name: row.cycles for row in rows}
    wrong = [row.name for row in rows if not row.exact]
    print(f"{'design':<28} {'cycles':>7} {'II':>4} {'depth':>5} {'trips':>6} "
          f"{'compile s':>9} {'LUT':>6} {'DSP':>4}  bit-exact")
    for row in rows:
        pipes = [loop for loop in row.report["loops"] if loop.get("pipelined")]
        ii = ",".join(str(p["ii"]) for p in pipes) or "-"
        depth = ",".join(str(p["depth"]) for p in pipes) or "-"
        trips = ",".join(str(p["trip_count"]) for p in pipes) or "-"
        res_ = row.report["resources"]
        print(f"{row.name:<28} {row.cycles:>7} {ii:>4} {depth:>5} {trips:>6} {row.compile_s:>9.2f} "
              f"{res_['lut']:>6} {res_['dsp']:>4}  {'yes' if row.exact else 'NO'}")
        for warning in row.report.get("warnings", []):
            print(f"    warning: {warning}")

    def pipe(name):
        return next(loop for loop in next(r for r in rows if r.name == name).report["loops"]
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
