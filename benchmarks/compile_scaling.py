"""Compile time against program size: is it linear?

For four shapes of legal program, each at sizes doubling up to the largest the reliability
issue names, runs `vichls compile KERNEL --target fpga` in a fresh process (as a user
would, imports included) and prints the wall time, the time per unit of size, and the
ratio to the size before (2.0 when linear; 4.0 when quadratic):

- straight: n statements in a row (`xK: int32 = x(K-1) + x(K-8)`), up to 5,000;
- elif: an if/elif chain of n branches, up to 400;
- sum: one expression of n terms, up to 1,000;
- chain: n kernels each calling the one before, up to 100.

    python benchmarks/compile_scaling.py [--shapes straight,elif] [--runs 1] [--markdown F]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_large_programs import call_chain, elif_chain, wide_sum  # noqa: E402


def straight(n: int) -> str:
    body = "\n".join(f"    x{i}: int32 = a[{i % 8}] + {i}" if i < 8 else
                     f"    x{i}: int32 = x{i - 1} + x{i - 8}" for i in range(n))
    return ("from vichls import kernel, int32\n\n@kernel\n"
            f"def straight(a: int32[8]) -> int32:\n{body}\n    return x{n - 1}\n")


SHAPES = {
    "straight": (straight, "straight", [625, 1250, 2500, 5000]),
    "elif": (elif_chain, "elif_chain", [50, 100, 200, 400]),
    "sum": (wide_sum, "wide_sum", [125, 250, 500, 1000]),
    "chain": (call_chain, None, [13, 25, 50, 100]),
}


def compile_seconds(source: str, top: str, folder: Path, runs: int) -> float:
    path = folder / "kernel.py"
    path.write_text(source)
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vichls.cli", "compile", str(path), "--top", top,
                        "-o", str(folder / "out")], check=True, capture_output=True)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated shapes")
    parser.add_argument("--runs", type=int, default=1, help="runs per point (the best counts)")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    rows = ["| shape | size | seconds | ms per unit | ratio to half the size |",
            "|---|---:|---:|---:|---:|"]
    print(f"{'shape':9} {'size':>6} {'seconds':>8} {'ms/unit':>8} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            make, top, sizes = SHAPES[shape]
            before = None
            for n in sizes:
                seconds = compile_seconds(make(n), top or f"link{n - 1}", Path(tmp), args.runs)
                ratio = f"{seconds / before:.2f}" if before else ""
                print(f"{shape:9} {n:6} {seconds:8.2f} {1000 * seconds / n:8.2f} {ratio:>6}",
                      flush=True)
                rows.append(f"| {shape} | {n} | {seconds:.2f} | {1000 * seconds / n:.2f} | "
                            f"{ratio} |")
                before = seconds
    if args.markdown:
        args.markdown.write_text("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
