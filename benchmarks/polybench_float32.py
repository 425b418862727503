"""The PolyBench kernels in float32 beside int32: simulated cycles without directives, and
in float32 with the directives the design-space exploration chooses.

For each PolyBench kernel of ``benchmarks.suite`` that has a float32 variant
(``benchmarks(size, element="float32")``: every one but floyd-warshall and nussinov), three
designs are compiled for the FPGA: the int32 kernel without directives, the float32 kernel
without directives, and the float32 kernel with the point ``vichls.dse.explore`` chooses
(the lowest estimated latency within the PYNQ-Z1 budget; each exploration bounded by
``--dse-time`` seconds of wall clock in ``--jobs`` processes, at the 10 ns clock of
``vichls bench``). All designs are simulated in ONE Verilator build on the suite's
deterministic inputs, and every result is checked bit for bit against the kernel's Python
call (numpy float32 for float32) before its cycles are reported. The bound is
``vichls.bench.bound.cycle_bound`` of the explored design; the estimates (LUT, DSP) are the
compile report's.

    python benchmarks/polybench_float32.py [--size small|mini] [--dse-time S] [--jobs N]
                                           [--markdown FILE] [NAME ...]

``--dse-time 0`` leaves the exploration out (the two designs without directives only).
Exit status 1 when a result differs from the Python call or a design fails.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.suite import SIZES, benchmarks  # noqa: E402


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _spelled(schedule) -> str:
    return "; ".join(d.spelled()[2:] for d in schedule.directives) or "none"


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def _explore(bench, seconds: float, jobs: int) -> dict:
    """The DSE's choice for ``bench`` (a float32 benchmark): its schedule's module and what
    the exploration did."""
    import vichls
    from vichls.dse import apply_directives, explore

    start = time.perf_counter()
    result = explore(bench.kernel, jobs=jobs, clock_period_ns=10.0, time_budget=seconds)
    schedule = vichls.customize(bench.kernel)
    if result.chosen is not None:
        apply_directives(schedule, result.chosen.directives)
    stop = ("time" if any("time budget" in n for n in result.notes) else
            "cap" if any("--max-points" in n for n in result.notes) else "done")
    return dict(module=schedule.module(), directives=_spelled(schedule),
                points=len(result.points), dse_s=time.perf_counter() - start, stop=stop,
                est_latency=result.chosen.latency if result.chosen else None,
                notes=result.notes)


def main(argv: list[str] | None = None) -> int:
    from vichls.bench.bound import cycle_bound
    from vichls.driver.fpga import compile_fpga
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.inputs import copy_args
    from vichls.results import differences, results_of

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="benchmarks (default: every float32 variant)")
    parser.add_argument("--size", choices=SIZES, default="small")
    parser.add_argument("--dse-time", type=float, default=60.0, metavar="S",
                        help="seconds of each kernel's exploration (default 60; 0: no DSE)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="DSE processes (default 1)")
    parser.add_argument("--markdown", metavar="F", help="also write the table as Markdown")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        floats = benchmarks(args.size, args.names or None, element="float32")
        ints = benchmarks(args.size, [b.name for b in floats])
    except KeyError as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 2
    dse = args.dse_time > 0

    rows: dict[str, dict] = {}
    designs, calls, expected = [], {}, {}

    def add(tag: str, bench, module) -> dict:
        """Compile ``module`` (of ``bench``'s kernel) and queue its simulation as ``tag``."""
        design = compile_fpga(module, clock_period_ns=10.0)
        name = f"{bench.name}/{tag}"
        inputs = bench.make_inputs()
        work = copy_args(inputs)
        expected[name] = results_of(bench.kernel.signature, work, bench.kernel(*work))
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
        calls[name] = [inputs]
        iis = [str(loop["ii"]) for loop in design.report.get("loops", []) if loop.get("pipelined")]
        res = design.report.get("resources", {})
        arrays = {p.name: a for p, a in zip(design.signature.params, inputs) if p.is_array}
        return dict(ii=",".join(iis) or "-", lut=res.get("lut"), dsp=res.get("dsp"),
                    bound=cycle_bound(module, 10.0, arrays).cycles)

    dse_seconds = 0.0
    for i32, f32 in zip(ints, floats):
        row = rows[f32.name] = {}
        _log(f"{f32.name}: compiling int32 and float32 without directives")
        row["int32"] = add("int32", i32, i32.kernel.module())
        row["float32"] = add("float32", f32, f32.kernel.module())
        if not dse:
            continue
        _log(f"{f32.name}: exploring ({args.dse_time:g} s, {args.jobs} job(s))")
        try:
            explored = _explore(f32, args.dse_time, args.jobs)
        except Exception as e:  # noqa: BLE001  (a failure row; the others go on)
            row["dse_error"] = f"{type(e).__name__}: {e}"
            _log(f"  DSE failed: {row['dse_error']}")
            continue
        dse_seconds += explored["dse_s"]
        try:
            row["dse"] = add("dse", f32, explored.pop("module")) | explored
        except Exception as e:  # noqa: BLE001
            row["dse_error"] = f"compiling the chosen point: {type(e).__name__}: {e}"
            _log(f"  {row['dse_error']}")
        _log(f"  chose {explored['directives']} ({explored['points']} points, "
             f"{explored['dse_s']:.0f} s)")

    _log(f"building one simulation of {len(designs)} designs ...")
    t0 = time.perf_counter()
    model = build_simulation(designs)
    build_s = time.perf_counter() - t0
    results = model.run_many(calls, max_cycles=50_000_000, raise_errors=False)

    wrong = []
    for name, res in results.items():
        kernel, tag = name.rsplit("/", 1)
        entry = rows[kernel][tag]
        if isinstance(res, Exception):
            entry["cycles"], entry["exact"] = None, False
            wrong.append(f"{name}: {res}")
            continue
        (call,) = res
        entry["cycles"] = call.cycles
        diffs = differences(expected[name], (call.ret, call.arrays))
        entry["exact"] = not diffs
        if diffs:
            wrong.append(f"{name}: " + "; ".join(diffs[:3]))

    header = ["kernel", "int32 none", "float32 none", "f32/i32", "float32 DSE", "speedup",
              "DSE cyc/bnd", "II", "est. LUT none/DSE", "est. DSP none/DSE", "DSE points, s",
              "bit-exact", "DSE's directives"]
    lines, ratios, speedups = [], [], []
    for name, row in rows.items():
        i, f, d = row["int32"], row["float32"], row.get("dse")
        ratio = f["cycles"] / i["cycles"] if f.get("cycles") and i.get("cycles") else None
        ratios.append(ratio)
        speedup = f["cycles"] / d["cycles"] if d and d.get("cycles") and f.get("cycles") else None
        speedups.append(speedup)
        exact = all(e.get("exact") for e in (i, f, d) if e is not None)
        if d is None:
            dse_cells = ["-", "-", "-", "-", f"{f['lut']}/-", f"{f['dsp']}/-", "-"]
            directives = row.get("dse_error", "-" if not dse else "no DSE")
        else:
            dse_cells = [str(d["cycles"]), f"{speedup:.2f}" if speedup else "-",
                         f"{d['cycles'] / d['bound']:.2f}" if d.get("cycles") and d["bound"]
                         else "-", d["ii"], f"{f['lut']}/{d['lut']}", f"{f['dsp']}/{d['dsp']}",
                         f"{d['points']}, {d['dse_s']:.0f} ({d['stop']})"]
            directives = d["directives"]
        lines.append([name, str(i["cycles"]), str(f["cycles"]),
                      f"{ratio:.2f}" if ratio else "-", *dse_cells,
                      "yes" if exact else "NO", directives])
    widths = [max(len(h), *(len(r[k]) for r in lines)) for k, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for line in lines:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
    total = time.perf_counter() - started
    footer = [f"{len(rows)} kernels at size {args.size}; every result "
              + ("checked bit for bit against the Python call" if not wrong
                 else f"checked: {len(wrong)} differ ({', '.join(w.split(':')[0] for w in wrong)})")]
    g = _geomean(ratios)
    if g:
        footer.append(f"geomean cycles float32 / int32 without directives: {g:.2f}")
    g = _geomean(speedups)
    if g:
        footer.append(f"geomean speedup of the DSE's choice over no directives (float32): "
                      f"{g:.2f}x")
    footer.append(f"DSE: {args.dse_time:g} s per kernel, {args.jobs} process(es), "
                  f"{dse_seconds:.0f} s in all; simulation build {build_s:.0f} s; "
                  f"whole run {total / 60:.1f} min" if dse else
                  f"simulation build {build_s:.0f} s; whole run {total / 60:.1f} min")
    print()
    print("\n".join(footer))
    for w in wrong:
        print(f"MISMATCH {w}", file=sys.stderr)
    if args.markdown:
        command = "python benchmarks/polybench_float32.py " + shlex.join(
            sys.argv[1:] if argv is None else argv)
        about = (
            "Simulated cycles (Verilator, one build of every design) of each PolyBench "
            "kernel that has a float32 variant (`benchmarks.suite.benchmarks(size, "
            "element=\"float32\")`: all but floyd-warshall and nussinov, integer in "
            "PolyBench too): the int32 kernel and the float32 kernel without directives, and "
            "the float32 kernel with the directives `vichls.dse.explore` chooses (lowest "
            "estimated latency within the PYNQ-Z1 budget, 10 ns clock). Each exploration is "
            f"bounded to {args.dse_time:g} s of wall clock in {args.jobs} process(es) and to "
            "200 points; \"DSE points, s\" says how many points it built, in how many "
            "seconds, and why it stopped (done: no new neighbour; cap: 200 points; time: the "
            "budget ran out, so that choice depends on the machine's speed: 2 cores shared "
            "with other jobs here). Inputs: the suite's deterministic ones (float32: "
            "PolyBench-style `(i * j + c) % n / n`, alpha = 1.5, beta = 1.2). Every result "
            "is checked bit for bit against the kernel's Python call (numpy float32). "
            "float32 units: fadd 5 cycles, fmul 4, fdiv 32. \"DSE cyc/bnd\": simulated "
            "cycles over `vichls.bench.bound.cycle_bound` of the explored design (the bound "
            "counts ports, units and loop-carried recurrences, not the depth of one "
            "pipelined iteration: a reduction unrolled into a short pipeline, gesummv's, is "
            "far above it); LUT and DSP are the compile report's estimates.")
        md = [f"# PolyBench in float32 beside int32 ({args.size} sizes)", "",
              textwrap.fill(about, 92, break_on_hyphens=False), "",
              f"    {command}", "",
              "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        md += ["| " + " | ".join(c.replace("|", "/") for c in line) + " |" for line in lines]
        md += [""] + [f"- {line}" for line in footer] + [""]
        Path(args.markdown).write_text("\n".join(md))
    return 1 if wrong or any("dse_error" in r for r in rows.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
