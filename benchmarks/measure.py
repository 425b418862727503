"""What the benchmark scripts share: compile each (name, schedule), simulate every design in
one Verilator build on seeded random inputs, and check each result bit for bit against the
kernel's Python call before any figure is printed."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass
class Measured:
    name: str
    tag: str  # the design's name in the simulation model
    kernel: object
    report: dict
    compile_s: float
    args: tuple  # the inputs the design was run on
    cycles: int = 0
    exact: bool = False


def example(file: str, replace: dict[str, str] | None = None) -> dict:
    """The namespace of examples/<file>, with source text replaced first (e.g. a size)."""
    from vichls.frontend.kernel import load_source

    path = EXAMPLES / file
    text = path.read_text()
    for old, new in (replace or {}).items():
        assert old in text, f"examples/{file} no longer holds {old!r}"
        text = text.replace(old, new)
    return load_source(text, f"{path}{list((replace or {}).values())}")


def measure(designs: list[tuple[str, object]], seed: int = 2026):
    """Compile, simulate and check ``designs``; returns ([Measured], the simulation model)."""
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.inputs import copy_args, random_args
    from vichls.results import differences, results_of

    rng = np.random.default_rng(seed)
    rows, sims, calls, expected = [], [], {}, {}
    for name, schedule in designs:
        print(f"compiling {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        design = schedule.build("fpga")
        seconds = time.perf_counter() - t0
        k = schedule.kernel
        args = random_args(k.signature, rng)
        work = copy_args(args)
        expected[name] = results_of(k.signature, work, k(*work))
        tag = "".join(c if c.isalnum() else "_" for c in name)
        sims.append(SimDesign(design.verilog, design.signature, name=tag,
                              partitions=design.partitions))
        calls[tag] = [copy_args(args)]
        rows.append(Measured(name, tag, k, design.report, seconds, args))
    print("building the simulation ...", file=sys.stderr, flush=True)
    model = build_simulation(sims)
    results = model.run_many(calls, max_cycles=10_000_000)
    for row in rows:
        res = results[row.tag][0]
        (args,) = calls[row.tag]
        got = results_of(row.kernel.signature, args, res.ret)
        got = (res.ret, {**got[1], **{n: a for n, a in res.arrays.items() if n in got[1]}})
        row.exact = not differences(expected[row.name], got)
        row.cycles = res.cycles
    return rows, model


def schedule_table(kernel, schedules: dict, args: tuple, same) -> list[str]:
    """Markdown rows (header first) of ``kernel`` under each of ``schedules`` (label ->
    function of a ``vichls.customize`` schedule): compiled for the FPGA, simulated on
    ``args`` (copied per run), its output checked by ``same(args_after_run)`` (True when
    bit-exact), cycles beside the resource bound of the same design, the pipelined loops'
    II and the report's resource estimates. Each row is printed as it is measured."""
    import copy

    import vichls
    from vichls.bench.bound import cycle_bound

    rows = ["| schedule | bit-exact | cycles | bound | ratio | II | LUT | FF | DSP | compile s |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, apply in schedules.items():
        s = apply(vichls.customize(kernel))
        start = time.perf_counter()
        hw = s.build(target="fpga")
        took = time.perf_counter() - start
        sim = s.build(target="sim")
        run_args = copy.deepcopy(args)
        sim(*run_args)
        bound = cycle_bound(s.module()).cycles
        iis = [str(loop["ii"]) for loop in hw.report["loops"] if loop.get("pipelined")]
        r = hw.report["resources"]
        exact = "yes" if same(run_args) else "NO"
        rows.append(f"| {label} | {exact} | {sim.last_cycles} | {bound} | "
                    f"{sim.last_cycles / bound:.3f} | {', '.join(iis) or '-'} | {r['lut']} | "
                    f"{r['ff']} | {r['dsp']} | {took:.1f} |")
        print(rows[-1], flush=True)
    return rows
