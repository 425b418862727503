"""A float32 gemm 32×32×32 without directives and with the inner product unrolled and the
(i, j) nest pipelined at II=1: simulated, checked bit for bit against the Python call (numpy
float32), cycles beside the resource bound of the same design.

The unrolled inner product is a chain of 32 multiplies feeding 32 adds in program order (no
reassociation: the sum is numpy's), one output per cycle once the pipeline is full; A is
partitioned by columns and B by rows so that the 64 reads of an iteration have 64 ports.

    python benchmarks/float32_gemm.py [--seed 1] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.float32.gemm32 import N, gemm32  # noqa: E402
from benchmarks.measure import schedule_table  # noqa: E402

SCHEDULES = {
    "no directives": lambda s: s,
    "unroll k, pipeline j (II=1), A dim 2 and B dim 1 in 32 banks":
        lambda s: s.unroll("k").pipeline("j", ii=1).partition("A", dim=2, factor=N)
                   .partition("B", dim=1, factor=N),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    a = rng.standard_normal((N, N)).astype(np.float32)
    b = rng.standard_normal((N, N)).astype(np.float32)
    expected = np.zeros((N, N), dtype=np.float32)
    gemm32(a.copy(), b.copy(), expected)
    rows = schedule_table(gemm32, SCHEDULES, (a, b, np.zeros((N, N), dtype=np.float32)),
                          lambda run: np.array_equal(run[2].view(np.uint32),
                                                     expected.view(np.uint32)))
    text = "\n".join(rows) + "\n"
    if args.markdown:
        Path(args.markdown).write_text(text)
    else:
        print()
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
