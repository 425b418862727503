"""Property-based differential test: random programs (tests/progen.py) over mixed widths and
signedness, straight-line and looping, some with random schedules of directives (unroll,
tile, reorder, flatten, partition), run as Python reference, CPU build and simulated RTL of
the scheduled module, and must agree bit for bit; and the Verilog of random programs is
lint-clean and synthesizes without latches or combinational loops.

Hypothesis draws the program seeds; all programs of a run are checked in one batch (one
simulator build) because a build per program would not fit the CI budget, so shrinking is
off: a failure names its seeds, and `progen.generate_program(seed, directives)` reproduces
each one (`vichls fuzz` shrinks). VICHLS_PROGEN_COUNT sets how many programs (default 100,
a third of them with directives), VICHLS_PROGEN_SEED the seed of the draw (printed in the
log).
"""

import os

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import progen
from e2e import assert_outcome, run_batch
from vichls.errors import DirectiveError

COUNT = int(os.environ.get("VICHLS_PROGEN_COUNT", "100"))
DRAW_SEED = int(os.environ.get("VICHLS_PROGEN_SEED", "20261130"))
DIRECTIVES = progen.DEFAULT_DIRECTIVES


class _Scheduled:
    """A generated kernel as run_batch sees it: its module is the one its schedule makes;
    a schedule the compiler refuses (rare: they are valid by construction) is noted and the
    plain module is used, so that the program is still checked."""

    refused: list[str] = []

    def __init__(self, kernel, schedule):
        self.kernel, self.schedule = kernel, schedule
        self.signature = kernel.signature

    def __call__(self, *args):
        return self.kernel(*args)

    def module(self):
        try:
            return self.schedule.module()
        except DirectiveError as e:
            _Scheduled.refused.append(str(e))
            return self.kernel.module()


@settings(max_examples=1, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=list(__import__("hypothesis").HealthCheck))
@given(seeds=st.lists(st.integers(min_value=0, max_value=2**32 - 1), min_size=COUNT,
                      max_size=COUNT, unique=True))
def _check(directory, seeds):
    print(f"progen seeds (draw seed {DRAW_SEED}; every third with directives): {seeds}")
    items = []
    _Scheduled.refused = []
    for k, seed in enumerate(seeds):
        directives = DIRECTIVES if k % 3 == 2 else None
        module = progen.load_program(seed, directory, directives)
        schedule = getattr(module, "s", None)
        top = module.top if schedule is None else _Scheduled(module.top, schedule)
        items.append((f"p{seed}", top, [progen.make_args(seed)]))
    outcomes = run_batch(items)
    failures = []
    for seed in seeds:
        try:
            assert_outcome(outcomes[f"p{seed}"])
        except AssertionError as e:
            failures.append(f"seed {seed}: {e}")
    assert not failures, f"{len(failures)} of {len(seeds)} programs disagree:\n" + "\n".join(
        failures[:10])
    # valid by construction: a refusal is a generator (or compiler) limit worth a look
    assert len(_Scheduled.refused) <= max(1, COUNT // 30), "\n".join(_Scheduled.refused)


def test_random_programs_agree_everywhere(tmp_path):
    import hypothesis

    hypothesis.seed(DRAW_SEED)(_check)(directory=tmp_path)


LINT_COUNT = int(os.environ.get("VICHLS_PROGEN_LINT_COUNT", "16"))
SYNTH_COUNT = int(os.environ.get("VICHLS_PROGEN_SYNTH_COUNT", "3"))


def test_random_designs_lint_clean_and_synthesize_without_latches_or_loops(tmp_path):
    """Every random design (half with directives, pipeline included) passes `verilator
    --lint-only -Wall` with no warning; the smallest few (Yosys is slow) synthesize with no
    latch, no combinational loop and no problem from `check`."""
    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check
    from vichls.driver.fpga import compile_fpga

    seeds = list(range(DRAW_SEED, DRAW_SEED + LINT_COUNT))
    print(f"lint/synth program seeds: {seeds} (odd ones with directives)")
    designs, problems = [], []
    for seed in seeds:
        directives = DIRECTIVES | {"pipeline"} if seed % 2 else None
        module = progen.load_program(seed, tmp_path, directives)
        schedule = getattr(module, "s", None)
        kernel = module.top if schedule is None else _Scheduled(module.top, schedule)
        design = compile_fpga(kernel.module())
        warnings = lint_verilog(design.verilog, design.top)
        if warnings:
            problems.append(f"seed {seed}: " + "\n  ".join(warnings[:5]))
        designs.append((len(design.verilog), seed, design))
    for _, seed, design in sorted(designs, key=lambda d: d[:2])[:SYNTH_COUNT]:
        report = synth_check(design.verilog, design.top)
        if (report.latches, report.comb_loops, report.problems) != (0, 0, 0):
            problems.append(f"seed {seed}: {report.latches} latches, {report.comb_loops} "
                            f"combinational loops, {report.problems} problems\n"
                            + report.log[-2000:])
    assert not problems, "\n".join(problems)
