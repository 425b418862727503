"""Write the Verilog of every suite design without directives, at both sizes, for the xc7 at
10 ns and the ECP5 at 150 MHz (27 x 2 x 2 = 108 files), and their reports, into one folder.

A refactoring or a fix that must not change what the compiler makes is checked by running
this before and after it and comparing the folders (`diff -r BEFORE AFTER`).

    python benchmarks/verilog_snapshot.py OUT_DIR [--names gemm,atax]
    python benchmarks/verilog_snapshot.py OUT_DIR --dse-page benchmarks/RESULTS-dse-mini.md

With ``--dse-page``, the designs are instead the points that page chose: each benchmark at
the page's size with its chosen directives, for the xc7 at 10 ns (as the page ran them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite import SIZES, benchmarks  # noqa: E402
from vichls.driver.fpga import compile_fpga  # noqa: E402
from vichls.targets.oplib import use_device  # noqa: E402

TARGETS = (("xc7", 10.0), ("ecp5", 1000.0 / 150))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write <name>-<size>-<device>.v into")
    parser.add_argument("--names", help="comma-separated benchmark names (default: all)")
    parser.add_argument("--dse-page", type=Path, help="write the points this results page "
                        "chose instead (its table's 'chosen directives' column)")
    args = parser.parse_args(argv)
    if args.dse_page is not None:
        return _dse_points(args)
    args.out.mkdir(parents=True, exist_ok=True)
    names = args.names.split(",") if args.names else None
    start = time.perf_counter()
    count = 0
    for size in SIZES:
        for bench in benchmarks(size, names):
            module = bench.kernel.module()
            for device, period in TARGETS:
                with use_device(device):
                    design = compile_fpga(module, clock_period_ns=period)
                stem = f"{bench.name}-{size}-{device}"
                (args.out / f"{stem}.v").write_text(design.verilog)
                (args.out / f"{stem}.report.json").write_text(
                    json.dumps(design.report, indent=1, sort_keys=True) + "\n")
                count += 1
    print(f"{count} designs written to {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


def _dse_points(args) -> int:
    """The page's chosen points: ``| name | ... | directives |`` rows, directives as the
    schedule calls ``unroll('i/k', factor=2); pipeline('i', ii=1)``."""
    import vichls

    text = args.dse_page.read_text()
    size = "mini" if "mini" in args.dse_page.name else "small"
    chosen = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and line.startswith("| ") and not cells[0].startswith(("benchmark", "-")):
            chosen[cells[0]] = cells[-1]
    args.out.mkdir(parents=True, exist_ok=True)
    count = 0
    for bench in benchmarks(size, sorted(chosen)):
        s = vichls.customize(bench.kernel)
        for call in filter(None, (c.strip() for c in chosen[bench.name].split(";"))):
            if call != "none":
                eval(f"s.{call}", {"s": s})  # the page's own spelling of each directive
        design = compile_fpga(s.module(), clock_period_ns=10.0)
        (args.out / f"{bench.name}-{size}-dse.v").write_text(design.verilog)
        (args.out / f"{bench.name}-{size}-dse.report.json").write_text(
            json.dumps(design.report, indent=1, sort_keys=True) + "\n")
        count += 1
    print(f"{count} chosen points of {args.dse_page} written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
