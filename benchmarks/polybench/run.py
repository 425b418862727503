"""Runner stub for the PolyBench suite: checks results against the golden reference and
tabulates cycles next to the Vivado HLS 2019.2 figures.

The compile-and-simulate step is the caller's: ``run(measure)`` takes a function
``measure(kernel, args) -> cycles | None`` that runs the design on ``args`` in place (as the
kernel call does) and returns its latency. Results are compared bit for bit with the Python
call of the kernel. Without ``measure`` only the reference runs (a smoke test of the suite).

    python -m benchmarks.polybench.run [names...]
"""

from __future__ import annotations

import copy
import sys
from typing import Callable

import numpy as np

from . import SUITE

Measure = Callable[[object, tuple], "int | None"]


def run(measure: Measure | None = None, names: list[str] | None = None) -> list[dict]:
    rows = []
    for name in names or list(SUITE):
        kernel, make_inputs, vivado = SUITE[name]
        args = make_inputs()
        expected = copy.deepcopy(args)
        kernel(*expected)
        cycles, correct = None, None
        if measure is not None:
            got = copy.deepcopy(args)
            cycles = measure(kernel, got)
            correct = all(
                np.array_equal(g, e) for g, e in zip(got, expected) if isinstance(g, np.ndarray)
            )
        ratio = cycles / vivado if cycles and vivado else None
        rows.append(dict(name=name, cycles=cycles, vivado=vivado, ratio=ratio, correct=correct))
    return rows


def format_table(rows: list[dict]) -> str:
    lines = [f"{'kernel':<10} {'cycles':>8} {'vivado':>8} {'ratio':>6}  correct"]
    for r in rows:
        cycles = "-" if r["cycles"] is None else str(r["cycles"])
        vivado = "-" if r["vivado"] is None else str(r["vivado"])
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
        correct = "-" if r["correct"] is None else ("yes" if r["correct"] else "NO")
        lines.append(f"{r['name']:<10} {cycles:>8} {vivado:>8} {ratio:>6}  {correct}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    names = (sys.argv[1:] if argv is None else argv) or None
    unknown = [n for n in names or [] if n not in SUITE]
    if unknown:
        print(f"unknown kernels: {', '.join(unknown)}; known: {', '.join(SUITE)}", file=sys.stderr)
        return 2
    print(format_table(run(None, names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
