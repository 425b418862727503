"""Replays every fuzzing reproducer in tests/regressions/ (written by ``vichls fuzz``, some
shrunk further by hand) through the Python reference, the CPU build and the RTL of the
program's schedule, all in one simulator build, and fails for each one that disagrees or
crashes.

A reproducer of a bug that is not fixed yet says so with ``XFAIL = "<the bug>"``: its test
is a strict xfail, so it fails (and asks for the marker to go) as soon as the bug is fixed.
"""

import ast
from pathlib import Path

import pytest

from e2e import SIMULATOR
from vichls.fuzz.run import replay

REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("*.py"))


def _known_bug(path: Path) -> str | None:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                "XFAIL"]:
            return node.value.value
    return None


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    return replay(REGRESSIONS, tmp_path_factory.mktemp("regressions"), simulator=SIMULATOR)


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(strict=True, reason=_known_bug(p))]
                 if _known_bug(p) else [])
    for p in REGRESSIONS])
def test_reproducer_agrees_everywhere(path, verdicts):
    v = verdicts[path.stem]
    assert v.invalid is None, f"{path.name}: invalid program ({v.invalid})"
    assert v.rejected is None, f"{path.name}: schedule refused: {v.rejected}"
    assert v.ok, f"{path.name}:\n  " + "\n  ".join(v.details)


def test_there_are_reproducers():
    assert REGRESSIONS, "tests/regressions/ holds no reproducer"


def test_reproducer_designs_lint_clean_and_synthesize_without_latches_or_loops(tmp_path):
    """Issue 6, item 5, for the regression set: the Verilog of every reproducer (known bugs
    aside) is lint-clean under `verilator --lint-only -Wall` and synthesizes in Yosys with
    no latch, no combinational loop and no problem."""
    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check
    from vichls.driver.fpga import compile_fpga
    from vichls.frontend.kernel import load_file
    from vichls.fuzz.run import _schedule_of

    problems = []
    for path in REGRESSIONS:
        if _known_bug(path):
            continue
        namespace = load_file(str(path))
        schedule = _schedule_of(namespace, namespace["top"])
        design = compile_fpga(schedule.module() if schedule else namespace["top"].module())
        problems += [f"{path.name}: {w}" for w in lint_verilog(design.verilog, design.top)]
        report = synth_check(design.verilog, design.top)
        if (report.latches, report.comb_loops, report.problems) != (0, 0, 0):
            problems.append(f"{path.name}: {report.latches} latches, {report.comb_loops} "
                            f"combinational loops, {report.problems} problems")
    assert not problems, "\n".join(problems)
