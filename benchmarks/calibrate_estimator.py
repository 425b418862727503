"""Calibrate the resource estimator's two device factors against Yosys synthesis.

    python benchmarks/calibrate_estimator.py [--size small] [--bench-json FILE]

The compile report estimates LUTs as a sum of per-operator costs (src/vichls/targets/oplib.py) and
flip-flops mostly as the bits of the datapath registers. Synthesis keeps fewer flip-flops
than that (it drops constant and duplicate bits and folds multiplier pipeline registers into
DSP blocks) and fewer LUTs than the sum (logic merges across operators). The device
table's ``ff_per_register_bit`` and ``lut_scale`` absorb that; this script fits them by
least geomean error (the bench table's measure) over the suite (no directives) and prints, per benchmark, measured
figures, the estimate with the current factors and with the fitted ones, and the geomean
error in-sample and leave-one-out (each benchmark predicted from factors fitted without
it).

Measured figures come from ``--bench-json`` (the JSON of ``vichls bench --json``) or, without
it, from Yosys ``synth_xilinx`` run here on every design (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.suite import benchmarks  # noqa: E402
from vichls.targets import oplib  # noqa: E402
from vichls.driver.fpga import compile_fpga  # noqa: E402

_REGISTER = re.compile(r"vichls_reg #\(\.WIDTH\((\d+)\)\)")


def _geomean_error(estimates, measured) -> float:
    logs = [abs(math.log(max(e, 1) / max(m, 1))) for e, m in zip(estimates, measured)]
    return math.exp(sum(logs) / len(logs)) - 1


def _fit(predict, rows, key: str) -> float:
    """The factor (0.30 to 1.50, by 0.01) with the least geomean error of ``predict(row,
    factor)`` against ``row[key]``: the error the bench table reports."""
    grid = [k / 100 for k in range(30, 151)]
    actual = [r[key] for r in rows]
    return min(grid, key=lambda a: _geomean_error([predict(r, a) for r in rows], actual))


def _lut(row, scale):
    return row["raw_lut"] * scale


def _ff(row, per_bit):
    return row["register_bits"] * per_bit + row["other_ff"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="small", choices=("small", "mini"))
    parser.add_argument("--bench-json", help="measured figures from `vichls bench --json`")
    args = parser.parse_args()
    device = oplib.current_device()
    measured: dict[str, dict] = {}
    if args.bench_json:
        for row in json.loads(Path(args.bench_json).read_text())["rows"]:
            if row.get("lut") is not None:
                measured[row["name"]] = {"lut": row["lut"], "ff": row["ff"]}
    rows = []
    for bench in benchmarks(args.size):
        design = compile_fpga(bench.kernel.module())
        if bench.name not in measured:
            from vichls.flows.synth import synth_xilinx_resources
            got = synth_xilinx_resources(design.verilog, design.signature.name)
            measured[bench.name] = {"lut": got["lut"], "ff": got["ff"]}
        bits = sum(int(w) for w in _REGISTER.findall(design.verilog))
        est = design.report["resources"]
        rows.append({
            "name": bench.name, **measured[bench.name],
            "est_lut": est["lut"], "est_ff": est["ff"], "register_bits": bits,
            "raw_lut": est["lut"] / device.lut_scale,
            "other_ff": est["ff"] - bits * device.ff_per_register_bit,
        })
    lut_scale, ff_bit = _fit(_lut, rows, "lut"), _fit(_ff, rows, "ff")
    loo = []
    for k, r in enumerate(rows):
        rest = rows[:k] + rows[k + 1:]
        loo.append((_lut(r, _fit(_lut, rest, "lut")), _ff(r, _fit(_ff, rest, "ff"))))
    print(f"{'benchmark':16} {'LUT':>6} {'est':>6} {'fit':>6} {'FF':>6} {'est':>6} {'fit':>6}")
    for r in rows:
        lut, ff = _lut(r, lut_scale), _ff(r, ff_bit)
        print(f"{r['name']:16} {r['lut']:6} {r['est_lut']:6} {lut:6.0f} {r['ff']:6} "
              f"{r['est_ff']:6} {ff:6.0f}")
    for what, k in (("LUT", 0), ("FF", 1)):
        key = what.lower()
        current = [r[f"est_{key}"] for r in rows]
        fitted = [(_lut(r, lut_scale), _ff(r, ff_bit))[k] for r in rows]
        actual = [r[key] for r in rows]
        print(f"{what}: geomean error with the device's factors "
              f"{100 * _geomean_error(current, actual):.0f}%, fitted "
              f"{100 * _geomean_error(fitted, actual):.0f}%, leave-one-out "
              f"{100 * _geomean_error([p[k] for p in loo], actual):.0f}%")
    print(f"fitted for {device.name}: lut_scale={lut_scale:.2f}, "
          f"ff_per_register_bit={ff_bit:.2f} (now {device.lut_scale}, "
          f"{device.ff_per_register_bit})")


if __name__ == "__main__":
    main()
