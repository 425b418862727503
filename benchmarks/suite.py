"""The benchmark suite: one registry of every benchmark kernel at every size.

This is the contract between the kernels (benchmarks/polybench, benchmarks/machsuite) and the
tools that run them (`vichls bench`, `vichls dse`, benchmarks/*.py):

- ``Benchmark``: one kernel at one size, with its input maker and the published figures of
  the tools people compare against;
- ``benchmarks(size="small", names=None) -> list[Benchmark]``: the suite at one size, in a
  stable order; ``size`` is ``"small"`` (the 8×8 sizes of the Calyx evaluation) or
  ``"mini"`` (PolyBench's MINI dataset sizes); ``names`` filters (unknown names raise
  KeyError naming the known ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

SIZES = ("small", "mini")


@dataclass(frozen=True)
class Benchmark:
    name: str  # "gemm", "jacobi-2d", "stencil2d", ...
    family: str  # "polybench" | "machsuite"
    size: str  # one of SIZES
    kernel: object  # the @kernel
    #: ``make_inputs(rng=None) -> tuple`` of arguments in parameter order; deterministic
    #: values without a numpy Generator, random ones (kept valid for the kernel) with one
    make_inputs: Callable[..., tuple]
    #: published figures for this kernel at this size, only those that exist:
    #: "vivado_cycles", "calyx_cycles", "vivado_lut", "calyx_lut"
    published: dict = field(default_factory=dict)
    #: the hand-written directive set (``directives(schedule)``), or None
    directives: Callable | None = None


# Vivado HLS 2019.2 worst-case latency / Calyx simulated cycles, and their LUTs, 8×8 int32
# (the figures quoted in the QoR issue).
PUBLISHED_SMALL: dict[str, dict] = {
    "gemm": dict(vivado_cycles=2684, calyx_cycles=9265, vivado_lut=633, calyx_lut=2432),
    "2mm": dict(vivado_cycles=3718, calyx_cycles=15571, vivado_lut=939, calyx_lut=4055),
    "atax": dict(vivado_cycles=715, calyx_cycles=2255, vivado_lut=610, calyx_lut=1297),
    "bicg": dict(vivado_cycles=218, calyx_cycles=1083, vivado_lut=327, calyx_lut=311),
    "gesummv": dict(vivado_cycles=532, calyx_cycles=2209, vivado_lut=756, calyx_lut=2334),
    "mvt": dict(vivado_cycles=597, calyx_cycles=1861, vivado_lut=657, calyx_lut=1331),
    "syrk": dict(vivado_cycles=4791, calyx_cycles=12075, vivado_lut=641, calyx_lut=1572),
    "trmm": dict(vivado_cycles=2417, calyx_cycles=5255, vivado_lut=319, calyx_lut=312),
    "doitgen": dict(vivado_cycles=14545, calyx_cycles=49479, vivado_lut=371, calyx_lut=260),
    "gemver": dict(vivado_cycles=1105, calyx_cycles=3719, vivado_lut=1338, calyx_lut=2375),
    "trisolv": dict(vivado_cycles=425, calyx_cycles=460, vivado_lut=570, calyx_lut=375),
}


def _small() -> list[Benchmark]:
    from benchmarks.polybench import SUITE

    return [
        Benchmark(name, "polybench", "small", kernel, make_inputs,
                  dict(PUBLISHED_SMALL.get(name, {})))
        for name, (kernel, make_inputs, _vivado) in SUITE.items()
    ]


def benchmarks(size: str = "small", names: list[str] | None = None) -> list[Benchmark]:
    if size not in SIZES:
        raise KeyError(f"unknown size {size!r}; known: {', '.join(SIZES)}")
    suite = _small() if size == "small" else []
    if names is None:
        return suite
    by_name = {b.name: b for b in suite}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise KeyError(f"unknown benchmarks {', '.join(unknown)}; known: {', '.join(by_name)}")
    return [by_name[n] for n in names]
