"""The hand-written directive sets of the benchmark suite against no directives, in simulation.

Every benchmark of benchmarks/suite.py at one size is compiled twice for the FPGA: as
written (no directives) and with its file's ``directives(schedule)`` (what an experienced
Vitis HLS user would write: pipelined inner loops, small unrolls of reductions with matching
cyclic partitions, interchanges). All the designs run in ONE Verilator build on the
benchmark's deterministic inputs, every result is checked bit for bit against the Python
call, and the table gives the simulated cycles without and with the directives, the
speedup, the II reached by each pipelined loop (``ii/asked`` when above the one asked for)
and the report's warnings; the last line is the geometric mean of the speedups. A crash
or a mismatch is a failure row and exit status 1.

    python benchmarks/manual_directives.py [--size small|mini] [NAME ...]

``measure(size, names)`` is the same without printing, for the tests and other tools.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# run as a script, the repository root must come before xDSL's own "benchmarks" package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite import SIZES, Benchmark, benchmarks  # noqa: E402

VARIANTS = ("none", "manual")


@dataclass
class Variant:
    """One compiled design of a benchmark: its report, cycles and verdict."""

    report: dict | None = None
    cycles: int | None = None
    compile_seconds: float = 0.0
    error: str | None = None  # a crash of the compiler or the simulation, or a mismatch

    @property
    def pipelines(self) -> list[dict]:
        return [loop for loop in (self.report or {}).get("loops", []) if loop.get("pipelined")]

    @property
    def warnings(self) -> list[str]:
        return list((self.report or {}).get("warnings", []))


@dataclass
class Row:
    benchmark: Benchmark
    variants: dict[str, Variant] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(v.error is None for v in self.variants.values())

    @property
    def speedup(self) -> float | None:
        none, manual = self.variants["none"].cycles, self.variants["manual"].cycles
        if not self.ok or not none or not manual:
            return None
        return none / manual


def schedule_of(b: Benchmark, variant: str):
    """The schedule of benchmark ``b`` for ``variant`` ("none" or "manual")."""
    import vichls

    s = vichls.customize(b.kernel)
    if variant == "manual" and b.directives is not None:
        b.directives(s)
    return s


def _tag(b: Benchmark, variant: str) -> str:
    return f"{b.name.replace('-', '_')}_{variant}"


def measure(size: str = "small", names: list[str] | None = None,
            max_cycles: int = 20_000_000) -> list[Row]:
    """Compile, simulate (one build) and check every benchmark at ``size`` both ways."""
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.driver.fpga import compile_fpga
    from vichls.inputs import copy_args
    from vichls.results import differences, results_of

    rows, designs, calls, expected = [], [], {}, {}
    for b in benchmarks(size, names):
        row = Row(b)
        rows.append(row)
        args = b.make_inputs()
        work = copy_args(args)
        want = results_of(b.kernel.signature, work, b.kernel(*work))
        for variant in VARIANTS:
            v = row.variants[variant] = Variant()
            start = time.perf_counter()
            try:
                design = compile_fpga(schedule_of(b, variant).module())
            except Exception as e:  # noqa: BLE001 - a crash is a failure row, not the end
                v.error = f"compile: {type(e).__name__}: {e}"
                continue
            finally:
                v.compile_seconds = time.perf_counter() - start
            v.report = design.report
            tag = _tag(b, variant)
            designs.append(SimDesign(design.verilog, design.signature, name=tag,
                                     partitions=design.partitions))
            calls[tag] = [args]
            expected[tag] = want
    if designs:
        model = build_simulation(designs)
        results = model.run_many(calls, max_cycles=max_cycles, raise_errors=False)
        for row in rows:
            for variant, v in row.variants.items():
                tag = _tag(row.benchmark, variant)
                if tag not in results:
                    continue
                res = results[tag]
                if isinstance(res, Exception):
                    v.error = f"simulation: {res}"
                    continue
                v.cycles = res[0].cycles
                diffs = differences(expected[tag], (res[0].ret, res[0].arrays))
                if diffs:
                    v.error = "results differ from Python: " + "; ".join(diffs)[:500]
    return rows


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def _iis(v: Variant) -> str:
    parts = []
    for loop in v.pipelines:
        asked = loop.get("requested_ii")
        ii = f"{loop['ii']}" if asked in (None, loop["ii"]) else f"{loop['ii']}/{asked}"
        parts.append(f"{loop['name']}:{ii}")
    return " ".join(parts) or "-"


def table(rows: list[Row]) -> str:
    lines = [f"{'benchmark':<15} {'none':>9} {'manual':>9} {'speedup':>8}  {'DSP':>4}  "
             f"II of pipelined loops (ii/asked)"]
    for row in rows:
        none, manual = row.variants["none"], row.variants["manual"]
        speedup = row.speedup
        dsp = (manual.report or {}).get("resources", {}).get("dsp", "-")
        lines.append(f"{row.benchmark.name:<15} {none.cycles or '-':>9} "
                     f"{manual.cycles or '-':>9} "
                     f"{f'{speedup:.2f}x' if speedup else 'FAIL':>8}  {dsp:>4}  {_iis(manual)}")
        for variant, v in row.variants.items():
            if v.error:
                lines.append(f"    {variant} FAILED: {v.error}")
        for warning in manual.warnings:
            lines.append(f"    warning: {warning}")
    speedups = [r.speedup for r in rows if r.speedup]
    mean = geomean(speedups)
    lines.append(f"geomean speedup over {len(speedups)} benchmarks: "
                 f"{f'{mean:.2f}x' if mean else '-'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--size", choices=SIZES, default="small")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = measure(args.size, args.names or None)
    print(table(rows))
    print(f"({args.size} size, {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
