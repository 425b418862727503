"""The benchmark suite without directives: simulated cycles against the published Vivado HLS
2019.2 and Calyx figures, and compile time and peak memory per kernel.

Every kernel of ``benchmarks.suite`` at the chosen size is compiled for the FPGA in a fresh
process (so peak memory is the compile's own: ru_maxrss of that process) and timed there;
all designs are then simulated in one Verilator build on the suite's deterministic inputs,
and every result is checked bit for bit against the Python reference before its cycles are
reported. Published figures exist for the 8×8 ("small") PolyBench kernels only.

    python benchmarks/polybench_cycles.py [--size small|mini] [names...]

Exit status 1 when a result differs from the Python reference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.suite import SIZES, benchmarks  # noqa: E402

_MEASURE = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from benchmarks.suite import benchmarks
kernel = benchmarks({size!r}, [{name!r}])[0].kernel
t0 = time.perf_counter()
module = kernel.module()
from vichls.driver.fpga import compile_fpga
design = compile_fpga(module)
seconds = time.perf_counter() - t0
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(dict(seconds=seconds, peak_mb=peak_mb,
                      latency=design.report.get("latency"),
                      resources=design.report.get("resources"))))
"""


def measure_compile(name: str, size: str) -> dict:
    code = _MEASURE.format(root=str(ROOT), name=name, size=size)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if r.returncode != 0:
        return dict(error=r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.driver.fpga import compile_fpga
    from vichls.inputs import copy_args
    from vichls.results import differences, results_of

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="benchmarks (default: the whole suite)")
    parser.add_argument("--size", choices=SIZES, default="small")
    options = parser.parse_args(argv)
    try:
        suite = benchmarks(options.size, options.names or None)
    except KeyError as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 2

    rows, designs, calls, expected = {}, [], {}, {}
    for b in suite:
        print(f"compiling {b.name} ...", file=sys.stderr, flush=True)
        rows[b.name] = measure_compile(b.name, options.size)
        design = compile_fpga(b.kernel.module())
        args = b.make_inputs()
        work = copy_args(args)
        expected[b.name] = results_of(b.kernel.signature, work, b.kernel(*work))
        designs.append(SimDesign(design.verilog, design.signature, name=b.name))
        calls[b.name] = [args]
    print("building the simulation ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    model = build_simulation(designs)
    build_s = time.perf_counter() - t0
    results = model.run_many(calls, max_cycles=10_000_000)

    print(f"{'kernel':<15} {'cycles':>8} {'vivado':>7} {'ratio':>6} {'calyx':>6} "
          f"{'compile s':>9} {'peak MB':>8} {'est. LUT':>8} {'DSP':>4}  bit-exact")
    ratios, wrong = [], []
    for b in suite:
        res = results[b.name][0]
        got = (res.ret, {p.name: res.arrays[p.name]
                         for p in b.kernel.signature.params if p.is_array})
        exact = not differences(expected[b.name], got)
        if not exact:
            wrong.append(b.name)
        vivado = b.published.get("vivado_cycles")
        ratio = res.cycles / vivado if vivado else None
        if ratio:
            ratios.append(ratio)
        row = rows[b.name]
        estimate = row.get("resources") or {}
        print(f"{b.name:<15} {res.cycles:>8} {vivado or '-':>7} "
              f"{(f'{ratio:.2f}' if ratio else '-'):>6} {b.published.get('calyx_cycles', '-'):>6} "
              f"{row.get('seconds', float('nan')):>9.2f} {row.get('peak_mb', float('nan')):>8.0f} "
              f"{estimate.get('lut', '-'):>8} {estimate.get('dsp', '-'):>4}  "
              f"{'yes' if exact else 'NO'}")
    if ratios:
        geomean = float(np.exp(np.mean(np.log(ratios))))
        print(f"geomean cycles / Vivado HLS: {geomean:.3f} over {len(ratios)} kernels")
    print(f"{len(suite)} kernels at size {options.size}; simulation build {build_s:.0f} s")
    if wrong:
        print(f"results differ from Python: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
