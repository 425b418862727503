"""PolyBench/C 4.2 in int32: one kernel file per benchmark, each buildable at two sizes.

Every file in this folder defines one ``@kernel`` (its name is PolyBench's C name,
``kernel_gemm``, ...) whose problem sizes are module-level constants chosen by the file's
``SIZE = "small"`` line; ``benchmarks.suite`` builds the file at "small" (the 8×8 sizes of
the Calyx evaluation) or "mini" (PolyBench's MINI dataset) and is the registry the tools
read. This package says which files make the suite and how their inputs are made:

- ``KERNELS``: benchmark name → (file, options of ``default_inputs``), in the suite's order;
  a file that defines ``make_inputs(rng=None)`` (floyd-warshall, nussinov) makes its own;
- ``default_inputs(kernel, ...) -> make_inputs(rng=None)``: PolyBench-style arguments in
  parameter order. Without a generator the arrays get deterministic values
  (``(i * j + c) % n``, small and non-negative, as PolyBench's ``init_array`` does in
  floating point); with a ``numpy.random.Generator`` they get random int32 values in
  -100..100 (0..100 for the stencils, whose divisions then equal C's truncating ones).
  alpha = 3 and beta = 2 stand for PolyBench's 1.5 and 1.2. trisolv gets a diagonal in 1..4
  so that its division is well defined. For the float32 variant of a kernel
  (``benchmarks.suite.benchmarks(..., element="float32")``) the same function gives float32
  arrays: PolyBench's ``(DATA_TYPE)(i * j + c % n) / n`` style (the integer values above
  divided by n in float32, in [0, 1)) without a generator, uniform values in [-1, 1) ([0, 1)
  for the stencils) with one; alpha = 1.5 and beta = 1.2 as in PolyBench; trisolv's diagonal
  is the same 1..4.

``SUITE``, ``CORE`` and ``VIVADO_HLS_2019_2_LATENCY`` are the older view of the 16 kernels
of the first 8×8 suite (``SUITE[name] = (kernel, make_inputs, vivado_cycles)``, small size),
kept for the reference and CPU tests that check them against numpy.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from vichls.types import ArrayType

KERNELS: dict[str, tuple[str, dict]] = {
    "gemm": ("gemm", {}),
    "2mm": ("two_mm", {}),
    "3mm": ("three_mm", {}),
    "atax": ("atax", {}),
    "bicg": ("bicg", {}),
    "gesummv": ("gesummv", {}),
    "mvt": ("mvt", {}),
    "syrk": ("syrk", {}),
    "syr2k": ("syr2k", {}),
    "trmm": ("trmm", {}),
    "doitgen": ("doitgen", {}),
    "gemver": ("gemver", {}),
    "trisolv": ("trisolv", {"positive_diagonal": "L"}),
    "jacobi-1d": ("jacobi_1d", {"non_negative": True}),
    "jacobi-2d": ("jacobi_2d", {"non_negative": True}),
    "seidel-2d": ("seidel_2d", {"non_negative": True}),
    "fdtd-2d": ("fdtd_2d", {}),
    "heat-3d": ("heat_3d", {"non_negative": True}),
    "floyd-warshall": ("floyd_warshall", {}),
    "nussinov": ("nussinov", {}),
}

# the linear-algebra kernels (PolyBench's linear-algebra/ folder)
LINEAR_ALGEBRA = ["gemm", "2mm", "3mm", "atax", "bicg", "gesummv", "mvt", "syrk", "syr2k",
                  "trmm", "doitgen", "gemver", "trisolv"]

# Vivado HLS 2019.2, no directives, 8x8 int32: latency in cycles (published reference figures)
VIVADO_HLS_2019_2_LATENCY: dict[str, int] = {
    "gemm": 2684,
    "2mm": 3718,
    "atax": 715,
    "bicg": 218,
    "gesummv": 532,
    "mvt": 597,
    "trisolv": 425,
}

# the seven kernels with a published Vivado figure, in the order of the reference table
CORE = ["gemm", "2mm", "atax", "bicg", "gesummv", "mvt", "trisolv"]

SCALARS = {"alpha": 3, "beta": 2}
#: PolyBench's own alpha and beta, for the float32 variants
FLOAT_SCALARS = {"alpha": np.float32(1.5), "beta": np.float32(1.2)}


def default_inputs(kernel, non_negative: bool = False, positive_diagonal: str | None = None
                   ) -> Callable[..., tuple]:
    def make_inputs(rng: np.random.Generator | None = None) -> tuple:
        args = []
        for position, param in enumerate(kernel.signature.params):
            if not isinstance(param.type, ArrayType):
                floating = param.type.dtype.kind == "f"
                args.append((FLOAT_SCALARS if floating else SCALARS)[param.name])
                continue
            shape = param.type.shape
            dtype = param.type.element.dtype
            floating = dtype.kind == "f"
            if rng is None:
                grid = np.indices(shape)
                product = np.prod(grid + 1, axis=0)
                values = (product + position) % shape[-1]
                if floating:  # PolyBench's (DATA_TYPE)(...) / n, in float32
                    values = values.astype(np.float32) / np.float32(shape[-1])
            elif floating:
                values = rng.uniform(0.0 if non_negative else -1.0, 1.0, size=shape)
            elif non_negative:
                values = rng.integers(0, 100, size=shape, endpoint=True)
            else:
                values = rng.integers(-100, 100, size=shape, endpoint=True)
            if param.name == positive_diagonal:
                for i in range(shape[0]):
                    values[i, i] = 1 + (i % 4 if rng is None else int(rng.integers(0, 4)))
            args.append(np.ascontiguousarray(values, dtype=dtype))
        return tuple(args)

    return make_inputs


def _first_suite() -> dict[str, tuple]:
    from benchmarks.suite import benchmarks

    # the four kernels added with the full suite are checked by tests/test_bench_suite.py
    added_later = ("fdtd-2d", "heat-3d", "floyd-warshall", "nussinov")
    first = [name for name in KERNELS if name not in added_later]
    return {b.name: (b.kernel, b.make_inputs, VIVADO_HLS_2019_2_LATENCY.get(b.name))
            for b in benchmarks("small", first)}


def __getattr__(name: str):
    # SUITE is built on first use: building it imports benchmarks.suite, which imports this
    # package, so it cannot be built while this package is being imported
    if name == "SUITE":
        suite = _first_suite()
        globals()["SUITE"] = suite
        return suite
    raise AttributeError(name)
