"""MachSuite-style kernels in integer form: one kernel file per benchmark, each buildable at
two sizes (see benchmarks.suite), each with its own ``make_inputs(rng=None)`` since their
arguments have structure (row starts, column indices, tokens, a pattern found in the text).

``KERNELS``: benchmark name → (file, input options), in the suite's order; the options are
unused here (every file makes its own inputs) and kept so both families share one shape.
"""

KERNELS: dict[str, tuple[str, dict]] = {
    "stencil2d": ("stencil2d", {}),
    "spmv-crs": ("spmv_crs", {}),
    "spmv-ellpack": ("spmv_ellpack", {}),
    "kmp": ("kmp", {}),
    "sort-merge": ("sort_merge", {}),
    "sort-radix": ("sort_radix", {}),
    "viterbi": ("viterbi", {}),
}
