"""Replays every fuzzing reproducer in tests/regressions/ (written by ``vichls fuzz``) through
the Python reference, the CPU build and the RTL, in one simulator build, and fails if any of
them disagrees or crashes. With no reproducers the test passes trivially.
"""

from pathlib import Path

from e2e import SIMULATOR
from vichls.fuzz.run import replay

REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("*.py"))


def test_every_reproducer_agrees_everywhere(tmp_path):
    if not REGRESSIONS:
        return  # nothing saved yet: nothing can disagree
    verdicts = replay(REGRESSIONS, tmp_path, simulator=SIMULATOR)
    problems = [f"{name}: invalid program ({v.invalid})" if v.invalid else
                f"{name}:\n  " + "\n  ".join(v.details)
                for name, v in sorted(verdicts.items()) if not v.ok]
    assert not problems, "\n".join(problems)
