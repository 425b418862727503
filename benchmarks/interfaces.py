"""What the interface adapters cost: Yosys synth_xilinx of a design with s_axilite against
the same kernel with the default ap_ctrl_hs / ap_none / ap_memory ports.

For each kernel: LUT, FF, DSP and BRAM_18K of the core alone and of the delivered module
(the core inside the adapters, interface/wrapper.py), and their difference; the issue asks
for at most 300 LUTs for the s_axilite register file and adapters. The latency column is
the core's (the adapters add no cycle to a call: the register file raises ap_start the
cycle after the write that sets it, and latches ap_return in the done cycle).

    python benchmarks/interfaces.py [--markdown FILE]
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vichls  # noqa: E402
from vichls.flows.synth import synth_xilinx_resources  # noqa: E402
from vichls.frontend.kernel import load_file  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "interfaces.py"
SAXPY = '''
from vichls import int32, kernel


@kernel
def saxpy(x: int32[64], y: int32[64], a: int32, b: int32, c: int32, d: int32):
    for i in range(64):
        y[i] = a * x[i] + y[i] + b - c * d
'''

#: kernel: the arguments put in the s_axilite bundle (with the block control)
CASES = {"gcd": ["a", "b"], "scaled_sum": ["scale", "n"], "saxpy": ["a", "b", "c", "d"]}
KEYS = ("lut", "ff", "dsp", "bram18")


def measure(kernels) -> list[dict]:
    rows = []
    for name, args in CASES.items():
        k = kernels[name]
        core = vichls.customize(k).build("fpga")
        s = vichls.customize(k)
        for a in [*args, "return"]:
            s.interface(a, "s_axilite")
        wrapped = s.build("fpga")
        t0 = time.perf_counter()
        base = synth_xilinx_resources(core.deliverable, name)
        full = synth_xilinx_resources(wrapped.deliverable, name)
        rows.append({"kernel": name, "registers": len(args) + (k.signature.ret is not None),
                     "latency": core.report["latency"], "core": base, "axi": full,
                     "seconds": time.perf_counter() - t0})
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| kernel | s_axilite registers | latency (cycles) | core LUT/FF/DSP | "
           "with s_axilite LUT/FF/DSP | added LUT | added FF |", "|---|---:|---|---|---|---:|---:|"]
    for r in rows:
        lat = r["latency"]
        latency = str(lat["min"]) if lat["min"] == lat["max"] else f"{lat['min']}..{lat['max'] or '?'}"
        c, a = r["core"], r["axi"]
        out.append(f"| {r['kernel']} | {r['registers']} | {latency} | "
                   f"{c['lut']}/{c['ff']}/{c['dsp']} | {a['lut']}/{a['ff']}/{a['dsp']} | "
                   f"{a['lut'] - c['lut']} | {a['ff'] - c['ff']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", metavar="FILE", help="also write the table into FILE")
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "saxpy.py"
        path.write_text(textwrap.dedent(SAXPY))
        rows = measure({**load_file(EXAMPLE), **load_file(path)})
    table = markdown(rows)
    print(table)
    worst = max(r["axi"]["lut"] - r["core"]["lut"] for r in rows)
    print(f"largest LUT cost of the adapters: {worst} (target <= 300)")
    if args.markdown:
        Path(args.markdown).write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
