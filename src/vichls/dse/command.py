"""``vichls dse FILE``: the command-line face of ``vichls.dse.explore``.

What: loads the kernel file (the top kernel, or ``--kernel NAME``), runs ``explore`` with
the options, prints the notes, the Pareto frontier table, the chosen schedule as Python
and the verification to stdout, and writes ``pareto.csv``, ``points.csv``, ``dse.json``,
``dse.png`` and ``schedule.py`` into ``-o DIR``. Exit status: 0; 1 when a verified point
mismatches the Python kernel (the outputs are still written, so the run can be studied);
bad input raises VichlsError, which ``vichls.cli`` turns into exit status 2.

Assumes the argparse namespace made by the ``dse`` block of ``vichls.cli.make_parser``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from vichls.errors import VichlsError


def _write(out_dir: Path, files: dict[str, str | bytes]) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in files.items():
        path = out_dir / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        written.append(path)
    return written


def _print_result(result) -> None:
    from vichls.dse.report import frontier_table, latency_text

    base = result.baseline
    print(f"vichls dse: {result.kernel_name}: {len(result.points)} points in "
          f"{result.seconds:.1f} s; budget " +
          ", ".join(f"{k.upper()} {v}" for k, v in result.budget.items()))
    for note in result.notes:
        print(f"  note: {note}")
    print(f"  without directives: latency {latency_text(base)} cycles, LUT "
          f"{base.resources.get('lut')}, DSP {base.resources.get('dsp')}")
    print("\nPareto frontier (latency vs LUT and DSP, within budget; * = chosen):")
    print(frontier_table(result))
    if result.chosen is None:
        print("no design point fits the budget")
        return
    speedup = f"{result.speedup:.2f}x" if result.speedup else "unknown"
    print(f"chosen: point {result.chosen.index}, estimated latency "
          f"{latency_text(result.chosen)} cycles (speedup over no directives: {speedup}); "
          "paste below the kernel:\n")
    print(result.schedule_python)
    for name, check in result.verification.items():
        state = "OK" if check.ok else f"MISMATCH ({len(check.mismatches)} differences)"
        cycles = f"{max(check.cycles)} cycles" if check.cycles else "no cycles"
        print(f"  verified {name}: {state}, simulated {cycles}")
    if result.verified_speedup() is not None:
        print(f"  simulated speedup of the chosen point: {result.verified_speedup():.2f}x")


def run_command(args) -> int:
    from vichls.frontend.design_file import load_design
    from vichls.dse.report import output_files
    from vichls.dse.search import DseMismatch, explore

    if args.file.endswith(".mlir"):
        raise VichlsError("vichls dse needs the Python kernel file (it builds directive "
                          "sets against the kernel's loops)", args.file)
    loaded = load_design(args.file, args.kernel)
    if loaded.schedule is not None:
        print("  note: the file's own schedule is ignored; the DSE starts from no directives",
              file=sys.stderr)
    code = 0
    try:
        result = explore(loaded.kernel, budget=args.budget, jobs=args.jobs,
                         scheduler=args.scheduler, max_points=args.max_points,
                         max_parallel=args.max_parallel, verify=args.verify, runs=args.runs,
                         seed=args.seed, make_inputs=loaded.make_inputs,
                         clock_period_ns=args.clock_period,
                         point_time_limit=args.point_timeout or None,
                         time_budget=args.time_budget, progress=not args.quiet)
    except DseMismatch as e:
        result, code = e.result, 1
        print(str(e), file=sys.stderr)
    _print_result(result)
    out_dir = Path(args.output or f"out/dse-{result.kernel_name}")
    files = output_files(result)
    if "dse.png" not in files:
        print("  note: no dse.png: the plot needs matplotlib (pip install 'vichls[plot]')")
    for path in _write(out_dir, files):
        print(f"  wrote {path}")
    if code:
        print("vichls dse: VERIFICATION FAILED: a chosen design differs from the Python "
              "kernel (see above)", file=sys.stderr)
    return code
