"""The ``KernelCase`` record of the corpus and the golden-reference call.

A case is a kernel, the name of the top function, and a maker of arguments. ``golden``
runs the Python call of the kernel, which defines the expected result every back end must
reproduce bit for bit. ``model``, where given, is an independent plain-Python (or numpy)
statement of what the kernel computes, used to test the reference itself.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

Args = tuple
# model(args) -> (return value or None, the array arguments after the call, in order)
Model = Callable[[Args], "tuple[int | None, list[np.ndarray]]"]


@dataclass(frozen=True)
class KernelCase:
    name: str  # the top kernel's name (the Verilog module name, the --top of the CLI)
    kernel: Any  # the @kernel object
    make_inputs: Callable[[np.random.Generator], Args]
    model: Model | None = field(default=None, compare=False)

    @property
    def top(self) -> str:
        return self.name

    def __repr__(self) -> str:  # short ids in pytest output
        return f"KernelCase({self.name})"


def copy_args(args: Args) -> Args:
    """Independent copies of the arrays (scalars are immutable) so calls never share state."""
    return tuple(copy.deepcopy(a) if isinstance(a, np.ndarray) else a for a in args)


def golden(case: KernelCase, args: Args) -> tuple[int | None, list[np.ndarray]]:
    """Run the Python reference of ``case`` on copies of ``args``.

    Returns the scalar result (None for a kernel without one) and the array arguments after
    the call, in parameter order; ``args`` itself is left untouched.
    """
    work = copy_args(args)
    ret = case.kernel(*work)
    return ret, [a for a in work if isinstance(a, np.ndarray)]


def mismatches(expected: tuple, got: tuple, limit: int = 4) -> list[str]:
    """Readable differences between two ``(ret, arrays)`` results; empty when bit-identical."""
    (want_ret, want_arrays), (got_ret, got_arrays) = expected, got
    out = []
    if want_ret != got_ret:
        out.append(f"return value {got_ret!r}, expected {want_ret!r}")
    for n, (want, have) in enumerate(zip(want_arrays, got_arrays)):
        if want.shape != have.shape or want.dtype != have.dtype:
            out.append(f"array argument {n}: shape/dtype {have.shape}/{have.dtype}, "
                       f"expected {want.shape}/{want.dtype}")
        elif not np.array_equal(want, have):
            where = [tuple(i) for i in np.argwhere(want != have)[:limit]]
            details = ", ".join(f"{i}: {have[i]!r} not {want[i]!r}" for i in where)
            out.append(f"array argument {n} differs at {details}")
    return out


def check_against_golden(case: KernelCase, run: Callable[..., Any], seeds=range(3)) -> None:
    """Run ``run(*args)`` (a compiled kernel: updates arrays in place, returns the scalar)
    and the reference on the inputs of each seed; raise AssertionError on any difference."""
    for seed in seeds:
        args = case.make_inputs(np.random.default_rng(seed))
        expected = golden(case, args)
        work = copy_args(args)
        ret = run(*work)
        problems = mismatches(expected, (ret, [a for a in work if isinstance(a, np.ndarray)]))
        if problems:
            raise AssertionError(f"{case.name}, seed {seed}: " + "; ".join(problems))
