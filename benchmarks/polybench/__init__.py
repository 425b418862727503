"""PolyBench/C 4.2 at size 8 in int32: the kernels, their input makers, and Vivado HLS figures.

``SUITE`` maps a PolyBench name to ``(kernel, make_inputs, vivado_cycles)``:

- ``kernel``: the ``@kernel`` (its name is PolyBench's C name, ``kernel_gemm``, ...);
- ``make_inputs(rng=None) -> tuple``: arguments in parameter order. Without a generator the
  arrays get PolyBench-style deterministic values (``(i * j + c) % n``, small and
  non-negative, as PolyBench's ``init_array`` does in floating point); with a
  ``numpy.random.Generator`` they get random int32 values in -100..100 (non-negative for
  the stencils). alpha = 3 and beta = 2 stand for PolyBench's 1.5 and 1.2. trisolv gets a
  diagonal in 1..4 so that its division is well defined;
- ``vivado_cycles``: the published latency of the same kernel (8×8, int32) from Vivado HLS
  2019.2 with no directives, or ``None`` where no figure was published.

The runner that compiles and simulates the suite is ``benchmarks/polybench/run.py``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from vichls.types import ArrayType

from .linear_algebra import (
    kernel_2mm,
    kernel_3mm,
    kernel_atax,
    kernel_bicg,
    kernel_doitgen,
    kernel_gemm,
    kernel_gemver,
    kernel_gesummv,
    kernel_mvt,
    kernel_syr2k,
    kernel_syrk,
    kernel_trisolv,
    kernel_trmm,
)
from .stencils import kernel_jacobi_1d, kernel_jacobi_2d, kernel_seidel_2d

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

SCALARS = {"alpha": 3, "beta": 2}


def _inputs_maker(kernel, non_negative: bool = False, positive_diagonal: str | None = None
                  ) -> Callable[..., tuple]:
    def make_inputs(rng: np.random.Generator | None = None) -> tuple:
        args = []
        for position, param in enumerate(kernel.signature.params):
            if not isinstance(param.type, ArrayType):
                args.append(SCALARS[param.name])
                continue
            shape = param.type.shape
            if rng is None:
                grid = np.indices(shape)
                product = np.prod(grid + 1, axis=0)
                values = (product + position) % shape[-1]
            elif non_negative:
                values = rng.integers(0, 100, size=shape, endpoint=True)
            else:
                values = rng.integers(-100, 100, size=shape, endpoint=True)
            if param.name == positive_diagonal:
                for i in range(shape[0]):
                    values[i, i] = 1 + (i % 4 if rng is None else int(rng.integers(0, 4)))
            args.append(np.ascontiguousarray(values, dtype=param.type.element.dtype))
        return tuple(args)

    return make_inputs


def _entry(name: str, kernel, **options):
    return kernel, _inputs_maker(kernel, **options), VIVADO_HLS_2019_2_LATENCY.get(name)


SUITE: dict[str, tuple] = {
    "gemm": _entry("gemm", kernel_gemm),
    "2mm": _entry("2mm", kernel_2mm),
    "atax": _entry("atax", kernel_atax),
    "bicg": _entry("bicg", kernel_bicg),
    "gesummv": _entry("gesummv", kernel_gesummv),
    "mvt": _entry("mvt", kernel_mvt),
    "trisolv": _entry("trisolv", kernel_trisolv, positive_diagonal="L"),
    "syrk": _entry("syrk", kernel_syrk),
    "syr2k": _entry("syr2k", kernel_syr2k),
    "trmm": _entry("trmm", kernel_trmm),
    "doitgen": _entry("doitgen", kernel_doitgen),
    "gemver": _entry("gemver", kernel_gemver),
    "3mm": _entry("3mm", kernel_3mm),
    "jacobi-1d": _entry("jacobi-1d", kernel_jacobi_1d, non_negative=True),
    "jacobi-2d": _entry("jacobi-2d", kernel_jacobi_2d, non_negative=True),
    "seidel-2d": _entry("seidel-2d", kernel_seidel_2d, non_negative=True),
}

# the seven kernels with a published Vivado figure, in the order of the reference table
CORE = ["gemm", "2mm", "atax", "bicg", "gesummv", "mvt", "trisolv"]
