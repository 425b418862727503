"""What the design-space exploration buys over no directives, over the whole suite.

Runs ``vichls bench`` twice at one size, without directives and with the points ``vichls
dse`` chooses (each exploration bounded by ``--dse-time`` seconds, in ``--jobs``
processes), both simulated and checked bit for bit against Python, and prints per
benchmark the simulated cycles of both, the speedup, cycles/bound of the explored design
and the chosen directives; the last lines are the geometric means (issue targets: speedup
at least 10x at MINI, cycles/bound at most 1.5). Synthesis and fmax are left out (the
exploration grades points with the estimator).

    python benchmarks/dse_speedup.py [--size mini|small] [--dse-time S] [--jobs N] [NAME ...]
    python benchmarks/dse_speedup.py --none-json A.json --dse-json B.json   # earlier runs

``--markdown F`` also writes the table as a results page.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def _rows_of_run(mode: str, args) -> tuple[list[dict], float]:
    from vichls.bench.runner import BenchOptions, run_bench

    options = BenchOptions(names=args.names or None, size=args.size, directives=mode,
                           jobs=args.jobs, synth=False, fmax=False,
                           dse_seconds=args.dse_time or None, progress=not args.quiet)
    result = run_bench(options)
    return result.rows, result.seconds


def _rows_of_file(path: str) -> tuple[list[dict], float]:
    doc = json.loads(Path(path).read_text())
    return doc["rows"], doc.get("seconds", 0.0)


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def table(none_rows: list[dict], dse_rows: list[dict]) -> tuple[list[list[str]], dict]:
    by_name = {r["name"]: r for r in dse_rows}
    lines, speedups, ratios, failed = [], [], [], []
    for plain in none_rows:
        explored = by_name.get(plain["name"])
        if explored is None:
            continue
        if plain["status"] != "ok" or explored["status"] != "ok":
            failed.append(plain["name"])
            lines.append([plain["name"], plain["status"], explored["status"], "-", "-", "-",
                          "-", explored.get("detail") or plain.get("detail") or ""])
            continue
        speedup = plain["cycles"] / explored["cycles"]
        ratio = explored["cycles"] / explored["bound"] if explored.get("bound") else None
        speedups.append(speedup)
        if ratio:
            ratios.append(ratio)
        lines.append([plain["name"], str(plain["cycles"]), str(explored["cycles"]),
                      f"{speedup:.2f}", f"{ratio:.2f}" if ratio else "-",
                      str(explored.get("ii") or "-"), f"{explored.get('compile_s') or 0:.0f}",
                      explored.get("directives") or "none"])
    summary = {"benchmarks": len(lines), "failed": failed,
               "geomean_speedup": geomean(speedups), "geomean_cycles_per_bound": geomean(ratios)}
    return lines, summary


HEADER = ["benchmark", "cycles none", "cycles dse", "speedup", "cyc/bnd", "II",
          "dse+compile s", "chosen directives"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--size", choices=("small", "mini"), default="mini")
    parser.add_argument("--dse-time", type=float, default=120.0, metavar="S",
                        help="seconds per benchmark's exploration (default 120; 0: no limit)")
    parser.add_argument("--jobs", type=int, metavar="N", help="DSE processes (default: CPUs)")
    parser.add_argument("--none-json", metavar="F", help="take the no-directive run from F")
    parser.add_argument("--dse-json", metavar="F", help="take the explored run from F")
    parser.add_argument("--markdown", metavar="F", help="also write the table as Markdown")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    none_rows, none_s = (_rows_of_file(args.none_json) if args.none_json
                         else _rows_of_run("none", args))
    dse_rows, dse_s = (_rows_of_file(args.dse_json) if args.dse_json
                       else _rows_of_run("dse", args))
    lines, summary = table(none_rows, dse_rows)
    widths = [max(len(h), *(len(row[k]) for row in lines)) for k, h in enumerate(HEADER)]
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths)))
    for row in lines:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    speedup, ratio = summary["geomean_speedup"], summary["geomean_cycles_per_bound"]
    footer = [
        f"{summary['benchmarks']} benchmarks, {len(summary['failed'])} failed"
        + (f" ({', '.join(summary['failed'])})" if summary["failed"] else ""),
        f"geomean speedup over no directives: {speedup:.2f}x (target >= 10x at mini)"
        if speedup else "geomean speedup: -",
        f"geomean cycles/bound with dse: {ratio:.2f} (target <= 1.5)" if ratio
        else "geomean cycles/bound: -",
        f"runs: none {none_s:.0f} s, dse {dse_s:.0f} s",
    ]
    print()
    print("\n".join(footer))
    if args.markdown:
        md = [f"# vichls dse against no directives ({args.size} suite)", "",
              "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        md += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in lines]
        md += [""] + [f"- {line}" for line in footer] + [""]
        Path(args.markdown).write_text("\n".join(md))
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
