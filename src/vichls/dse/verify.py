"""Checking chosen design points in simulation, bit for bit against the Python kernel.

What: ``verify_points(kernel, directive_sets)`` compiles the kernel with no directives and
with each directive set, builds ONE simulation model holding all of them
(``vichls.flows.sim``), runs the same random inputs through every design and through the
Python call (the golden reference), and returns per design the simulated cycles and every
difference found. The design without directives gives the baseline cycles that speedups
are measured against.

Why: the estimator only predicts; a directive set the DSE recommends must be shown to
compute exactly what the kernel means before a user pastes it into a file.

Assumes: random arguments from ``vichls.inputs.random_args`` are in the kernel's domain,
unless the caller passes ``make_inputs(rng)``; draws that make the reference index out of
range are skipped (the language leaves those undefined on hardware).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vichls.errors import VichlsError


@dataclass
class Verification:
    name: str  # "baseline" or "point<index>"
    cycles: list[int] = field(default_factory=list)  # one per run
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _reference_runs(kernel, runs: int, seed: int, make_inputs) -> list[tuple]:
    from vichls.inputs import copy_args, random_args
    from vichls.results import results_of
    from vichls.signature import check_call_args

    sig = kernel.signature
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(max(1, runs) * 4):  # room for draws the reference rejects
        if len(out) == runs:
            break
        args = make_inputs(rng) if make_inputs else random_args(sig, rng)
        args = tuple(check_call_args(sig, args))
        work = copy_args(args)
        try:
            ret = kernel(*work)
        except IndexError:
            continue
        out.append((args, results_of(sig, work, ret)))
    if not out:
        raise VichlsError(f"every random input made the reference of '{sig.name}' index out "
                          "of range; pass make_inputs(rng) (or define it in the kernel file)")
    return out


def verify_points(kernel, directive_sets: dict[str, list], *, runs: int = 3, seed: int = 0,
                  make_inputs=None, simulator: str = "verilator",
                  clock_period_ns: float = 10.0, max_cycles: int = 10_000_000
                  ) -> dict[str, Verification]:
    """Simulate the kernel without directives ("baseline") and with each named directive
    set; compare every run with the Python call."""
    import vichls
    from vichls.dse.space import apply_directives
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.results import differences

    calls = _reference_runs(kernel, runs, seed, make_inputs)
    designs = []
    for name, directives in {"baseline": [], **directive_sets}.items():
        schedule = apply_directives(vichls.customize(kernel), directives)
        design = schedule.build("fpga", clock_period_ns=clock_period_ns)
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
    model = build_simulation(designs, simulator=simulator)
    results = model.run_many({d.name: [args for args, _ in calls] for d in designs},
                             max_cycles=max_cycles, raise_errors=False)
    out = {}
    for d in designs:
        check = out[d.name] = Verification(d.name)
        got = results[d.name]
        if isinstance(got, Exception):
            check.mismatches.append(f"simulation failed: {got}")
            continue
        for k, ((_, expected), res) in enumerate(zip(calls, got)):
            check.cycles.append(res.cycles)
            check.mismatches += [f"run {k}: {line}"
                                 for line in differences(expected, (res.ret, res.arrays))]
    return out
