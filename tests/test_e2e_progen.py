"""Property-based differential test: random programs (tests/progen.py) over mixed widths and
signedness, straight-line and looping, run as Python reference, CPU build and simulated RTL,
and must agree bit for bit.

Hypothesis draws the program seeds; all programs of a run are checked in one batch (one
simulator build) because a build per program would not fit the CI budget, so shrinking is
off: a failure names its seeds, and `progen.generate_program(seed)` reproduces each one.
VICHLS_PROGEN_COUNT sets how many programs (default 100), VICHLS_PROGEN_SEED the seed of the
draw (printed in the log).
"""

import os

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import progen
from e2e import assert_outcome, run_batch

COUNT = int(os.environ.get("VICHLS_PROGEN_COUNT", "100"))
DRAW_SEED = int(os.environ.get("VICHLS_PROGEN_SEED", "20261130"))


@settings(max_examples=1, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=list(__import__("hypothesis").HealthCheck))
@given(seeds=st.lists(st.integers(min_value=0, max_value=2**32 - 1), min_size=COUNT,
                      max_size=COUNT, unique=True))
def _check(directory, seeds):
    print(f"progen seeds (draw seed {DRAW_SEED}): {seeds}")
    items = []
    for seed in seeds:
        module = progen.load_program(seed, directory)
        items.append((f"p{seed}", module.top, [progen.make_args(seed)]))
    outcomes = run_batch(items)
    failures = []
    for seed in seeds:
        try:
            assert_outcome(outcomes[f"p{seed}"])
        except AssertionError as e:
            failures.append(f"seed {seed}: {e}")
    assert not failures, f"{len(failures)} of {len(seeds)} programs disagree:\n" + "\n".join(
        failures[:10])


def test_random_programs_agree_everywhere(tmp_path):
    import hypothesis

    hypothesis.seed(DRAW_SEED)(_check)(directory=tmp_path)
