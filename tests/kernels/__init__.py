"""The regression corpus: kernels that together use every construct of the kernel language.

``ALL_CASES`` lists one ``KernelCase`` per top kernel: the kernel, its name, and a maker of
arguments that mixes type edge values (min, max, -1, 0, zero divisors, large shift amounts)
with random ones, keeping data-dependent indices and trip counts in range. ``golden(case,
args)`` runs the Python reference on copies of the arguments. Back-end tests compare their
results with it bit for bit::

    rng = np.random.default_rng(seed)
    args = case.make_inputs(rng)
    ret, arrays = golden(case, args)
    check_against_golden(case, compiled_callable, seeds=range(3))  # or, in one call

``mismatches(expected, got)`` turns two ``(ret, arrays)`` results into readable differences.

Modules: ``ops_by_type`` (every operator at every kind of width), ``semantics`` (typing and
conversion rules), ``control`` (loops, branches, arrays, calls), ``realistic`` (FIR,
histogram, sort, CRC, ...). Callees (``scale_row``, ``add_rows``, ``calls_twice``) also
appear as tops of their own. Cases with a ``model`` (realistic kernels, several typing
kernels) carry an independent plain-Python statement of their result.
"""

from __future__ import annotations

import numpy as np

from vichls import bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_

from . import control, realistic, semantics
from .case import Args, KernelCase, check_against_golden, copy_args, golden, mismatches
from .inputs import array, scalar, shift_amounts, values
from .ops_by_type import OPS_KERNELS

__all__ = [
    "ALL_CASES", "KernelCase", "golden", "copy_args", "case_by_name", "OPS_KERNELS",
    "check_against_golden", "mismatches",
]

Rng = np.random.Generator


def _ops_inputs(t):
    def make(rng: Rng) -> Args:
        return (
            array(rng, t, 8),
            array(rng, t, 8),
            shift_amounts(rng, t, 8, t.width),
            array(rng, t, (8, 16)),
        )

    return make


def _zeros(t, shape) -> np.ndarray:
    return np.zeros(shape, dtype=t.dtype)


_SEMANTIC_INPUTS = {
    "mixed_signedness": lambda r: (
        array(r, int32, 8), array(r, uint32, 8), array(r, int8, 8), array(r, uint16, 8),
        array(r, int_(33), 8), _zeros(int64, (8, 12)),
    ),
    "literal_typing": lambda r: (
        array(r, int8, 8), array(r, uint8, 8), array(r, int64, 8), array(r, int32, (8, 10)),
    ),
    "casts": lambda r: (array(r, int64, 8), _zeros(int64, (8, 8)), _zeros(int64, (8, 6))),
    "assign_convert": lambda r: (
        array(r, int64, 8), array(r, uint64, 8), _zeros(int8, 8), _zeros(uint16, 8),
        _zeros(int_(12), 8), _zeros(uint_(3), 8), _zeros(bool_, 8), _zeros(int_(63), 8),
        _zeros(uint_(33), 8),
    ),
    "compare_chains": lambda r: (
        array(r, int16, 8), array(r, uint16, 8), array(r, int_(12), 8), _zeros(bool_, (8, 8)),
        _zeros(int32, 2),
    ),
    "select_guards": lambda r: (array(r, int32, 8), array(r, int32, 8), _zeros(int32, (8, 4))),
    "min_max_abs": lambda r: (
        array(r, int8, 8), array(r, uint8, 8), array(r, int64, 8), _zeros(int64, (8, 8)),
    ),
    "augassign_all": lambda r: (
        array(r, int32, 8), array(r, int32, 8), array(r, int32, 12), array(r, uint8, 10),
    ),
    "scalar_params": lambda r: (
        scalar(r, int16), scalar(r, uint8), scalar(r, int_(12)), scalar(r, bool_),
        scalar(r, uint64),
    ),
    "odd_widths": lambda r: (
        array(r, int_(1), 8), array(r, uint_(3), 8), array(r, int_(12), 8),
        array(r, uint_(63), 8), array(r, int_(33), 8), _zeros(int64, (8, 6)),
    ),
    "bool_logic": lambda r: (
        array(r, bool_, 8), array(r, bool_, 8), array(r, int32, 8), _zeros(bool_, (8, 6)),
    ),
}


def _control_inputs():
    def param_bounds(r: Rng) -> Args:
        # n and lo index A directly, so the maker keeps them in 0..16 (n may be negative)
        return (int(r.integers(-2, 17)), int(r.integers(0, 17)), array(r, int32, 16))

    def find_first(r: Rng) -> Args:
        a = array(r, int32, 16)
        key = int(a[int(r.integers(16))]) if r.random() < 0.6 else scalar(r, int32)
        return (a, key)

    def call_args(r: Rng) -> Args:
        return (array(r, int32, (4, 4)), array(r, int32, 4), scalar(r, int32))

    def gather(r: Rng) -> Args:
        return (array(r, int32, 8), array(r, uint8, 8), array(r, int16, 8), array(r, int16, 8))

    return {
        "ranges_all": lambda r: (_zeros(int32, 8),),
        "param_bounds": param_bounds,
        "triangular": lambda r: (array(r, int32, (8, 8)), array(r, int32, (8, 8))),
        "data_bounds": lambda r: (array(r, int32, 4, 0.2), array(r, int16, 16), _zeros(int32, 4)),
        "ranged_bounds": lambda r: (array(r, int32, 64), scalar(r, int32), array(r, uint8, 64),
                                    array(r, int32, 64)),
        "while_loops": lambda r: (array(r, uint32, 8), _zeros(int32, 8), scalar(r, int32)),
        "classify": lambda r: (array(r, int16, 16), _zeros(uint8, 16)),
        "break_continue": lambda r: (
            np.array(values(r, int32, 16, 0.3), dtype=np.int32) % 2000000 - 500000
            if r.random() < 0.5 else array(r, int32, 16),
            _zeros(int32, 5),
        ),
        "find_first": find_first,
        "nested_early_return": lambda r: (array(r, int16, (4, 4), 0.2), scalar(r, int16, 0.2)),
        "tensors": lambda r: (array(r, int16, (2, 3, 4)), array(r, uint8, (2, 2, 2, 3)),
                              _zeros(int32, (2, 3))),
        "local_arrays": lambda r: (array(r, uint8, 16), _zeros(int32, 8)),
        "gather_scatter": gather,
        "scale_row": lambda r: (array(r, int32, (4, 4)), int(r.integers(0, 4)), scalar(r, int32)),
        "add_rows": lambda r: (array(r, int32, 4), array(r, int32, (4, 4)), int(r.integers(0, 4))),
        "calls_twice": call_args,
        "call_chain": call_args,
        "loop_var_types": lambda r: (array(r, uint16, 8), scalar(r, int64)),
    }


def _realistic_inputs():
    def bsearch(r: Rng) -> Args:
        a = np.sort(r.choice(np.arange(-1000, 1000), size=16, replace=False)).astype(np.int32)
        if r.random() < 0.15:
            a[0] = int32.min
        if r.random() < 0.15:
            a[15] = int32.max
        key = int(a[int(r.integers(16))]) if r.random() < 0.6 else int(r.integers(-1100, 1100))
        return (a, key)

    def gcd(r: Rng) -> Args:
        if r.random() < 0.3:
            g = int(r.integers(1, 1000))
            return (g * int(r.integers(0, 4000)), g * int(r.integers(0, 4000)))
        return (scalar(r, uint32), scalar(r, uint32))

    return {
        "fir": lambda r: (array(r, int16, 16), array(r, int16, 4), _zeros(int32, 16)),
        "histogram": lambda r: (array(r, uint8, 32), array(r, uint16, 8)),
        "matvec": lambda r: (array(r, int32, (8, 8)), array(r, int32, 8), array(r, int32, 8)),
        "prefix_sum": lambda r: (array(r, int32, 16),),
        "bubble_sort": lambda r: (array(r, int32, 10) if r.random() < 0.8
                                  else np.sort(array(r, int32, 10)),),
        "gcd": gcd,
        "popcount": lambda r: (array(r, uint64, 4), array(r, uint_(33), 4), _zeros(uint8, 8)),
        "saturating_add": lambda r: (
            array(r, int16, 16), array(r, int16, 16), array(r, uint8, 16), array(r, uint8, 16),
            _zeros(int16, 16), _zeros(uint8, 16),
        ),
        "crc8": lambda r: (array(r, uint8, 16),),
        "binary_search": bsearch,
        "max_subarray": lambda r: (array(r, int16, 16),),
        "dot": lambda r: (array(r, int32, 8), array(r, int32, 8)),
    }


def _cases_from(module, makers: dict) -> list[KernelCase]:
    out = []
    for name, make in makers.items():
        out.append(KernelCase(name, getattr(module, name), make, getattr(module, f"model_{name}", None)))
    return out


ALL_CASES: list[KernelCase] = (
    [KernelCase(name, k, _ops_inputs(t)) for name, k, t in OPS_KERNELS]
    + _cases_from(semantics, _SEMANTIC_INPUTS)
    + _cases_from(control, _control_inputs())
    + _cases_from(realistic, _realistic_inputs())
)


def case_by_name(name: str) -> KernelCase:
    for case in ALL_CASES:
        if case.name == name:
            return case
    raise KeyError(name)
