"""A 16-tap fixed-point FIR (ap_fixed types, rounding and saturation on the output), without
directives and pipelined at II=1: simulated, checked bit for bit against the Python call,
cycles beside the resource bound of the same design.

The kernel (benchmarks/fixed_point/fir16.py) keeps its window of the input in a local array,
the form an HLS user writes for a filter: completely partitioned it is a shift register, so
one input is read per output and the pipeline can take a new output every cycle.

    python benchmarks/fixed_point_fir.py [--seed 1] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vichls  # noqa: E402
from benchmarks.fixed_point.fir16 import N, T, fir16  # noqa: E402
from benchmarks.measure import schedule_table  # noqa: E402

SCHEDULES = {
    "no directives": lambda s: s,
    "pipeline n (II=1), taps cyclic 16, window complete":
        lambda s: s.pipeline("n", ii=1).partition("taps", dim=1, kind="cyclic", factor=T)
                   .partition("window", dim=1, kind="complete"),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    x_type, tap_type = fir16.signature.params[0].scalar, fir16.signature.params[1].scalar
    x = vichls.from_bits(rng.integers(x_type.min, x_type.max + 1, N + T), x_type)
    taps = vichls.from_bits(rng.integers(tap_type.min, tap_type.max + 1, T), tap_type)
    expected = np.zeros(N)
    fir16(x.copy(), taps.copy(), expected)
    rows = schedule_table(fir16, SCHEDULES, (x, taps, np.zeros(N)),
                          lambda run: np.array_equal(run[2], expected))
    text = "\n".join(rows) + "\n"
    if args.markdown:
        Path(args.markdown).write_text(text)
    else:
        print()
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
