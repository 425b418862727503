"""PolyBench 8×8 int32 without directives: simulated cycles against Vivado HLS 2019.2, and
compile time and peak memory per kernel.

Every kernel is compiled for the FPGA in a fresh process (so peak memory is the compile's
own: ru_maxrss of that process) and timed there; all designs are then simulated in one
Verilator build on PolyBench-style inputs, and every result is checked bit for bit against
the Python reference before its cycles are reported.

    python benchmarks/polybench_cycles.py [names...]
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.polybench import SUITE, VIVADO_HLS_2019_2_LATENCY  # noqa: E402

CALYX_CYCLES = {"gemm": 9265, "2mm": 15571, "atax": 2255, "bicg": 1083, "gesummv": 2209,
                "mvt": 1861, "trisolv": 460, "syrk": 12075, "trmm": 5255, "doitgen": 49479,
                "gemver": 3719}

_MEASURE = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from benchmarks.polybench import SUITE
kernel = SUITE[{name!r}][0]
t0 = time.perf_counter()
module = kernel.module()
from vichls.fpga import compile_fpga
design = compile_fpga(module)
seconds = time.perf_counter() - t0
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(dict(seconds=seconds, peak_mb=peak_mb,
                      latency=design.report.get("latency"),
                      resources=design.report.get("resources"))))
"""


def measure_compile(name: str) -> dict:
    code = _MEASURE.format(root=str(ROOT), name=name)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if r.returncode != 0:
        return dict(error=r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.fpga import compile_fpga

    names = argv or list(SUITE)
    rows = {}
    designs, calls, expected = [], {}, {}
    for name in names:
        kernel, make_inputs, _ = SUITE[name]
        print(f"compiling {name} ...", file=sys.stderr, flush=True)
        rows[name] = measure_compile(name)
        design = compile_fpga(kernel.module())
        args = make_inputs()
        ref = copy.deepcopy(args)
        ret = kernel(*ref)
        expected[name] = (ret, [a for a in ref if isinstance(a, np.ndarray)])
        designs.append(SimDesign(design.verilog, design.signature, name=name))
        calls[name] = [args]
    print("building the simulation ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    model = build_simulation(designs)
    build_s = time.perf_counter() - t0
    results = model.run_many(calls, max_cycles=10_000_000)
    print(f"{'kernel':<9} {'cycles':>7} {'vivado':>7} {'ratio':>6} {'calyx':>6} "
          f"{'compile s':>9} {'peak MB':>8} {'est. LUT':>8} {'DSP':>4}  bit-exact")
    ratios = []
    for name in names:
        res = results[name][0]
        ret, arrays = expected[name]
        sig = designs[names.index(name)].signature
        exact = ret == res.ret and all(
            np.array_equal(e, res.arrays[p.name])
            for e, p in zip(arrays, [p for p in sig.params if p.is_array]))
        viv = VIVADO_HLS_2019_2_LATENCY.get(name)
        ratio = res.cycles / viv if viv else None
        if ratio:
            ratios.append(ratio)
        row = rows[name]
        res_est = row.get("resources") or {}
        print(f"{name:<9} {res.cycles:>7} {viv or '-':>7} "
              f"{(f'{ratio:.2f}' if ratio else '-'):>6} {CALYX_CYCLES.get(name, '-'):>6} "
              f"{row.get('seconds', float('nan')):>9.2f} {row.get('peak_mb', float('nan')):>8.0f} "
              f"{res_est.get('lut', '-'):>8} {res_est.get('dsp', '-'):>4}  "
              f"{'yes' if exact else 'NO'}")
    if ratios:
        geo = float(np.exp(np.mean(np.log(ratios))))
        print(f"geomean cycles / Vivado HLS: {geo:.3f} over {len(ratios)} kernels; "
              f"simulation build {build_s:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
