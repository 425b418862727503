"""The float32 units of rtl_templates/: latency, Yosys synth_xilinx resources and ECP5 timing.

For every unit of ``vichls.targets.oplib.FLOAT_UNITS`` (and the ECP5's own forms,
``Device.vendor_float_units``): the latency its template declares, the LUTs, flip-flops and
DSP blocks of Yosys ``synth_xilinx`` on the unit alone, and the maximum frequency nextpnr-ecp5
reports after placing and routing it aiming at 200 MHz (``vichls.bench.fmax.ecp5_fmax``),
with the unit between input and output registers (a wrapper, so that pad paths do not count;
the wrapper's registers are in the ECP5 flip-flop count) and its clock enable on a pin. The
published figures of Xilinx's Floating-Point Operator and Vitis HLS's latencies are printed
beside them where known (``PUBLISHED``).

    python benchmarks/float_units.py [--seeds 1] [--target-mhz 200] [--markdown FILE] [kinds...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vichls.backend.verilog.printer import template_text  # noqa: E402
from vichls.bench.fmax import ecp5_fmax  # noqa: E402
from vichls.flows.synth import synth_xilinx_resources  # noqa: E402
from vichls.targets import oplib  # noqa: E402

#: (kind, label, parameters, operand widths, result width)
CASES = [
    ("fadd", "fadd", {"SUB": 0}, (32, 32), 32),
    ("fadd", "fsub", {"SUB": 1}, (32, 32), 32),
    ("fmul", "fmul", {}, (32, 32), 32),
    ("fdiv", "fdiv", {}, (32, 32), 32),
    ("fsqrt", "fsqrt", {}, (32,), 32),
    ("fcmp", "fcmp olt", {"PREDICATE": 4}, (32, 32), 1),
    ("itof", "itof int32", {"WIDTH": 32, "SIGNED": 1}, (32,), 32),
    ("itof", "itof int64", {"WIDTH": 64, "SIGNED": 1}, (64,), 32),
    ("ftoi", "ftoi int32", {"WIDTH": 32, "SIGNED": 1}, (32,), 32),
    ("ftoi", "ftoi int64", {"WIDTH": 64, "SIGNED": 1}, (32,), 64),
]

#: what others publish for the same operation (filled in from their documents; "" unknown)
PUBLISHED: dict[str, str] = {}


def wrapper(primitive: str, params: dict, widths: tuple, out_width: int) -> str:
    """``primitive`` between registers, clocked by ap_clk (what ecp5_fmax expects)."""
    names = "ab"[:len(widths)]
    ports = ["input wire ap_clk", "input wire ce"]
    ports += [f"input wire [{w - 1}:0] {n}_in" for n, w in zip(names, widths)]
    ports += [f"output reg [{out_width - 1}:0] r_out"]
    body = [f"    reg [{w - 1}:0] {n}_q;" for n, w in zip(names, widths)]
    body += [f"    wire [{out_width - 1}:0] r;"]
    body += ["    always @(posedge ap_clk) begin"]
    body += [f"        {n}_q <= {n}_in;" for n in names]
    body += ["        r_out <= r;", "    end"]
    p = ", ".join(f".{k}({v})" for k, v in params.items())
    conns = ", ".join([".clk(ap_clk)", ".ce(ce)"] + [f".{n}({n}_q)" for n in names] + [".r(r)"])
    body += [f"    {primitive} {'#(' + p + ') ' if p else ''}unit ({conns});"]
    return (f"module wrap (\n    " + ",\n    ".join(ports) + "\n);\n" + "\n".join(body)
            + "\nendmodule\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", help="only these labels (default: all)")
    parser.add_argument("--seeds", type=int, default=1, help="placer seeds 1..N (median)")
    parser.add_argument("--target-mhz", type=float, default=200.0)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    header = ("| unit | device | primitive | latency | xc7 LUT | xc7 FF | xc7 DSP | "
              f"ECP5 fmax (MHz, target {args.target_mhz:g}) | ECP5 LUT | ECP5 FF | "
              "MULT18X18D | published |")
    rows = [header, "|" + "---|" * (header.count("|") - 1)]
    print(header, flush=True)
    for kind, label, params, widths, out_width in CASES:
        if args.kinds and label not in args.kinds:
            continue
        for dev in oplib.DEVICES.values():
            primitive = oplib.float_primitive(kind, dev)
            if dev is not oplib.XC7 and primitive == oplib.float_primitive(kind, oplib.XC7):
                continue  # the same unit as on the xc7: measured once
            text = template_text(primitive)
            res = synth_xilinx_resources(text + _with_defaults(primitive, params), "top_unit")
            verilog = text + wrapper(primitive, params, widths, out_width)
            runs = sorted((ecp5_fmax(verilog, "wrap", args.target_mhz, seed=s)
                           for s in range(1, args.seeds + 1)),
                          key=lambda t: t.fmax_mhz or 0.0)
            t = runs[len(runs) // 2]
            fmax = "-" if t.fmax_mhz is None else f"{t.fmax_mhz:.1f}"
            if args.seeds > 1:
                fmax += " (" + ", ".join(f"{r.fmax_mhz:.1f}" for r in runs) + ")"
            row = (f"| {label} | {dev.name} | {primitive} | {oplib.template_latency(primitive)}"
                   f" | {res['lut']} | {res['ff']} | {res['dsp']} | {fmax} | {t.luts} | "
                   f"{t.ffs} | {t.multipliers} | {PUBLISHED.get(label, '')} |")
            rows.append(row)
            print(row, flush=True)
    if args.markdown:
        Path(args.markdown).write_text("\n".join(rows) + "\n")
    return 0


def _with_defaults(primitive: str, params: dict) -> str:
    """A top that only instantiates ``primitive`` with ``params`` (no registers of its own:
    synth_xilinx counts the unit as the compiler instantiates it)."""
    widths, out_width = _widths(primitive, params)
    names = "ab"[:len(widths)]
    ports = ["input wire clk", "input wire ce"]
    ports += [f"input wire [{w - 1}:0] {n}" for n, w in zip(names, widths)]
    ports += [f"output wire [{out_width - 1}:0] r"]
    p = ", ".join(f".{k}({v})" for k, v in params.items())
    conns = ", ".join([".clk(clk)", ".ce(ce)"] + [f".{n}({n})" for n in names] + [".r(r)"])
    return (f"module top_unit (\n    " + ",\n    ".join(ports) + "\n);\n"
            f"    {primitive} {'#(' + p + ') ' if p else ''}unit ({conns});\nendmodule\n")


def _widths(primitive: str, params: dict) -> tuple[tuple, int]:
    for kind, _, p, widths, out_width in CASES:
        if p == params and primitive.startswith(oplib.FLOAT_UNITS[kind].primitive):
            return widths, out_width
    raise KeyError(primitive)


if __name__ == "__main__":
    sys.exit(main())
