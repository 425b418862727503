"""Two ``vichls bench --json`` runs side by side: fmax and cycles per benchmark.

For a change aimed at clock frequency (the ECP5 page, benchmarks/RESULTS-ecp5-150.md): per
benchmark the fmax and simulated cycles of both runs, the run time in microseconds
(cycles / fmax) and the signals of the newer run's worst path; then the geometric means,
the count at or above the target, and the newer run's whole table.

    python benchmarks/compare_fmax.py BEFORE.json AFTER.json [--markdown PAGE]
        [--before-label TEXT] [--target MHZ] [--note TEXT ...]

Both runs must cover the same benchmarks with fmax measured (no ``--no-fmax``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _fmt(v, spec: str = ".1f") -> str:
    return "-" if v is None else format(v, spec)


def compare(before: dict, after: dict, target: float) -> tuple[list[str], list[str]]:
    """The comparison table (Markdown lines) and the summary lines."""
    old = {r["name"]: r for r in before["rows"]}
    lines = ["| benchmark | fmax before | fmax now | cycles before | cycles now "
             "| µs before | µs now | fmax path now |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    ratios = {"fmax": [], "cycles": [], "time": []}
    for row in after["rows"]:
        prev = old.get(row["name"], {})
        f0, f1 = prev.get("fmax_mhz"), row.get("fmax_mhz")
        c0, c1 = prev.get("cycles"), row.get("cycles")
        t0 = c0 / f0 if c0 and f0 else None
        t1 = c1 / f1 if c1 and f1 else None
        for key, a, b in (("fmax", f0, f1), ("cycles", c0, c1), ("time", t0, t1)):
            if a and b:
                ratios[key].append(b / a)
        lines.append(f"| {row['name']} | {_fmt(f0)} | {_fmt(f1)} | {_fmt(c0, 'd')} "
                     f"| {_fmt(c1, 'd')} | {_fmt(t0, '.2f')} | {_fmt(t1, '.2f')} "
                     f"| {row.get('fmax_path') or '-'} |")

    def count(rows):
        return sum(1 for r in rows if (r.get("fmax_mhz") or 0) >= target), len(rows)

    summary = []
    for label, doc in (("before", before), ("now", after)):
        fm = [r.get("fmax_mhz") for r in doc["rows"]]
        at, n = count(doc["rows"])
        summary.append(f"- {label}: fmax geomean {_fmt(_geomean(fm))} MHz, min "
                       f"{_fmt(min((f for f in fm if f), default=None))} MHz, "
                       f"{at}/{n} at or above {target:g} MHz")
    summary.append(
        "- now / before, geomeans: fmax x{:.3f}, cycles x{:.3f}, run time (cycles / fmax) "
        "x{:.3f}".format(*(_geomean(ratios[k]) or float("nan") for k in ("fmax", "cycles",
                                                                           "time"))))
    return lines, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--target", type=float, default=150.0, help="the fmax goal (MHz)")
    parser.add_argument("--before-label", default="", help="what the earlier run was")
    parser.add_argument("--markdown", type=Path, help="write the results page here")
    parser.add_argument("--note", action="append", default=[],
                        help="a line for the page, after the summary (repeatable)")
    args = parser.parse_args(argv)
    before, after = (json.loads(p.read_text()) for p in (args.before, args.after))
    lines, summary = compare(before, after, args.target)
    print("\n".join(lines + [""] + summary))
    if args.markdown:
        from vichls.bench.table import markdown_table, summary_lines

        o = after["options"]
        seeds = o.get("fmax_seeds", 1)
        page = [
            f"# vichls bench: {o['size']} suite on the {o['device'].upper()} at "
            f"{o['fmax_target_mhz']:g} MHz, directives {o['directives']}",
            "",
            f"- command: `{after['command']}`",
            f"- date: {after['date']}; whole run {after['seconds'] / 60:.1f} min",
            f"- machine: {after['machine']}",
            "- tools: " + ", ".join(f"{k} {v}" for k, v in after["tools"].items()),
            f"- designs scheduled with the {o['device']} operator table at "
            f"{o['clock_period_ns']:.2f} ns; cycles simulated (Verilator, one build), every "
            "result checked bit for bit against the Python call; fmax: Yosys `synth_ecp5` + "
            f"nextpnr-ecp5 `--85k --package CABGA381 --out-of-context --freq "
            f"{o['fmax_target_mhz']:g}`, "
            + (f"the median of placer seeds 1..{seeds}" if seeds > 1 else "placer seed 1")
            + "; fmax path: the Verilog signals along nextpnr's worst path",
            f"- before: `{before['command']}` ({before['date']})"
            + (f": {args.before_label}" if args.before_label else ""),
            "",
            *lines,
            "",
            *summary,
            *(f"- {note}" for note in args.note),
            "",
            "Full table of the run:",
            "",
            markdown_table(after["rows"]),
            "",
            *summary_lines(after["summary"]),
            "",
        ]
        args.markdown.write_text("\n".join(page))
    return 0


if __name__ == "__main__":
    sys.exit(main())
