"""End-to-end differential checking: Python reference ≡ CPU ≡ RTL, bit for bit.

A ``Batch`` takes many kernels with their argument sets, compiles every kernel for the FPGA
and the CPU, builds ONE simulation model for all the designs (cached by content, so
pytest-xdist workers share it) and runs every call in one simulator process. Each kernel's
outcome is kept separately so that one failing kernel fails only its own test.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field


from vichls.inputs import copy_args
from vichls.results import differences, results_of
from vichls.signature import check_call_args

SIMULATOR = os.environ.get("VICHLS_TEST_SIMULATOR", "verilator")


@dataclass
class Outcome:
    name: str
    expected: list = field(default_factory=list)  # (ret, {array: ndarray}) per call
    cpu: list = field(default_factory=list)
    rtl: list = field(default_factory=list)
    cycles: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # "stage: message"


def _short(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}\n{''.join(traceback.format_tb(e.__traceback__)[-3:])}"


def run_batch(items: list[tuple[str, object, list[tuple]]], max_cycles: int = 2_000_000,
              clock_period_ns: float = 10.0) -> dict[str, Outcome]:
    """items: (name, kernel, list of argument tuples). Returns an Outcome per name."""
    from vichls.driver.cpu import compile_cpu
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.driver.fpga import compile_fpga

    outcomes: dict[str, Outcome] = {}
    designs = []
    calls = {}
    for name, kernel, arg_sets in items:
        out = outcomes[name] = Outcome(name)
        sig = kernel.signature
        normal = [tuple(check_call_args(sig, a)) for a in arg_sets]
        for args in normal:
            work = copy_args(args)
            out.expected.append(results_of(sig, work, kernel(*work)))
        try:
            module = kernel.module()
        except Exception as e:  # noqa: BLE001 - recorded and reported by the test
            out.errors.append(f"front end: {_short(e)}")
            continue
        try:
            cpu = compile_cpu(module)
            for args in normal:
                work = copy_args(args)
                out.cpu.append(results_of(sig, work, cpu(*work)))
        except Exception as e:  # noqa: BLE001
            out.errors.append(f"cpu: {_short(e)}")
        try:
            design = compile_fpga(module, clock_period_ns=clock_period_ns)
            designs.append(SimDesign(design.verilog, design.signature, name=name,
                                     partitions=design.partitions))
            calls[name] = [copy_args(a) for a in normal]  # streams are updated in place
        except Exception as e:  # noqa: BLE001
            out.errors.append(f"fpga: {_short(e)}")
    if designs:
        try:
            model = build_simulation(designs, simulator=SIMULATOR)
            results = model.run_many(calls, max_cycles=max_cycles)
            for name, res in results.items():
                sig = next(k for n, k, _ in items if n == name).signature
                for r, args in zip(res, calls[name]):
                    streams = {p.name: list(a) for p, a in zip(sig.params, args) if p.is_stream}
                    outcomes[name].rtl.append((r.ret, {**r.arrays, **streams}))
                    outcomes[name].cycles.append(r.cycles)
        except Exception as e:  # noqa: BLE001 - the whole batch failed: every design reports it
            for name in calls:
                outcomes[name].errors.append(f"simulation: {_short(e)}")
    return outcomes


def assert_outcome(out: Outcome) -> None:
    """Fail with every problem of one kernel: errors, then mismatches per call and target."""
    problems = list(out.errors)
    failed = {p.split(":")[0] for p in out.errors}
    for target, got, stages in (("cpu", out.cpu, {"front end", "cpu"}),
                                ("rtl", out.rtl, {"front end", "fpga", "simulation"})):
        if failed & stages:
            continue
        if len(got) != len(out.expected):
            problems.append(f"{target}: {len(got)} results for {len(out.expected)} calls")
            continue
        for k, (e, g) in enumerate(zip(out.expected, got)):
            problems += [f"{target} call {k}: {d}" for d in differences(e, g)]
    assert not problems, f"{out.name}:\n" + "\n".join(problems)


def schedule_of(kernel, *directives):
    """``vichls.customize(kernel)`` with ``directives`` applied: (kind, *args[, options])."""
    import vichls

    s = vichls.customize(kernel)
    for kind, *args in directives:
        options = args.pop() if args and isinstance(args[-1], dict) else {}
        getattr(s, kind)(*args, **options)
    return s


class Scheduled:
    """What run_batch needs of a kernel, with a schedule's directives applied."""

    def __init__(self, schedule):
        self.schedule = schedule
        self.signature = schedule.kernel.signature

    def __call__(self, *args):
        return self.schedule.kernel(*args)

    def module(self):
        return self.schedule.module()


def corpus_schedules(apply, innermost_first: bool = False) -> dict:
    """For each regression-corpus kernel, the first of its loops (last in source order, or
    the most deeply nested with ``innermost_first``) for which ``apply(schedule, loop
    name)`` builds: {f"corpus_<case>_<loop>": (schedule, make_inputs)}."""
    import vichls
    from kernels import ALL_CASES
    from vichls.errors import DirectiveError
    from vichls.frontend.customize import loop_paths

    cases = {}
    for case in ALL_CASES:
        loops = list(loop_paths(case.kernel.tree().body))
        loops = sorted(loops, key=lambda item: -len(item[0])) if innermost_first else loops[::-1]
        for path, _, _ in loops:
            var = path[-1][0]
            s = apply(vichls.customize(case.kernel), var)
            try:
                s.module()
            except DirectiveError:
                continue  # the directive cannot apply to this loop
            cases[f"corpus_{case.name}_{var}"] = (s, case.make_inputs)
            break
    return cases


def run_scheduled(cases: dict, corpus: dict, calls: int, args_of=None) -> dict[str, Outcome]:
    """run_batch over scheduled kernels: ``cases`` {name: schedule} on random arguments
    (``args_of(name, arg_sets)`` may replace them), ``corpus`` {name: (schedule,
    make_inputs)} on the corpus' own; each name seeds its own generator."""
    import zlib

    import numpy as np

    from vichls.inputs import random_args

    items = []
    for name, schedule in cases.items():
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        k = Scheduled(schedule)
        arg_sets = [random_args(k.signature, rng) for _ in range(calls)]
        items.append((name, k, args_of(name, arg_sets) if args_of else arg_sets))
    for name, (schedule, make_inputs) in corpus.items():
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        items.append((name, Scheduled(schedule), [make_inputs(rng) for _ in range(calls)]))
    return run_batch(items)
