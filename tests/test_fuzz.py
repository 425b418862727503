"""The fuzzing machinery (vichls.fuzz.run): it finds a disagreement, shrinks the program while
keeping the failure, writes a reproducer that replays the same way, and is reproducible.

The back ends are not under test here: a wrong CPU result is injected, so these tests run
without a simulator build.
"""

import ast
from pathlib import Path

import numpy as np
import pytest

from vichls import int32, int_, kernel, uint_

from vichls.fuzz import run as fuzz
from vichls.fuzz.progen import build_program, make_args


@pytest.fixture
def wrong_cpu(monkeypatch):
    """A CPU build whose return value is off by one whenever the source holds a '%'."""
    import vichls.driver.cpu

    real = vichls.driver.cpu.compile_cpu

    def compile_cpu(module):
        compiled = real(module)
        text = str(module)
        buggy = "arith.rem" in text or "remsi" in text or "remui" in text

        def call(*args):
            ret = compiled(*args)
            return ret + 1 if buggy and ret is not None else ret

        return call

    monkeypatch.setattr(vichls.driver.cpu, "compile_cpu", compile_cpu)


def _program_with_remainder() -> int:
    return next(s for s in range(100) if "%" in build_program(s).source
                and 800 < len(build_program(s).source) < 1500)


def test_seeds_programs_and_arguments_are_reproducible():
    assert fuzz.program_seeds(5, 20) == fuzz.program_seeds(5, 20)
    assert len(set(fuzz.program_seeds(5, 20))) == 20
    assert fuzz.program_seeds(5, 3) != fuzz.program_seeds(6, 3)
    for a, b in zip(make_args(3), make_args(3)):
        assert np.array_equal(a, b, equal_nan=np.asarray(a).dtype.kind == "f")


def test_a_correct_program_passes(tmp_path):
    progs = [fuzz.Program(f"p{s}", build_program(s).source, s) for s in range(3)]
    verdicts = fuzz.check_programs(progs, tmp_path, rtl=False)
    assert all(v.ok for v in verdicts.values()), verdicts


def test_a_wrong_cpu_result_is_found_shrunk_and_replayed(tmp_path, wrong_cpu, monkeypatch):
    monkeypatch.setattr(fuzz, "SHRINK_ROUNDS", 3)  # enough to show progress, fast in CI
    monkeypatch.setattr(fuzz, "SHRINK_CANDIDATES", 25)
    seed = _program_with_remainder()
    prog = fuzz.Program("p", build_program(seed).source, seed)
    verdict = fuzz.check_programs([prog], tmp_path, rtl=False)["p"]
    assert verdict.primary == "cpu mismatch"

    def check(batch):
        return fuzz.check_programs(batch, tmp_path, candidates=True, rtl=False)

    reduced = fuzz.shrink(prog, "cpu mismatch", check)
    assert len(reduced) < len(prog.source) * 3 // 4
    assert check([fuzz.Program("r", reduced, seed)])["r"].primary == "cpu mismatch"

    finding = fuzz.Finding(seed, "cpu mismatch", verdict.details, prog.source, reduced)
    path = tmp_path / f"fuzz_{seed}.py"
    path.write_text(fuzz.reproducer_text(finding, 1))
    ast.parse(path.read_text())
    replayed = fuzz.check_programs([fuzz.Program("x", path.read_text(), seed)], tmp_path,
                                   rtl=False)
    assert replayed["x"].primary == "cpu mismatch"


def test_edits_keep_python_valid():
    source = build_program(7).source
    edits = fuzz._edits(source)
    assert edits
    for edit in edits:
        ast.parse(fuzz.apply_edits(source, dict([edit])))


@pytest.mark.parametrize("found, status", [(0, 0), (1, 1)])
def test_cli_prints_the_seed_and_exits_1_on_a_failure(monkeypatch, capsys, tmp_path, found, status):
    from vichls.cli import main

    def fake_run(count, seed, **kwargs):
        findings = [fuzz.Finding(123, "rtl mismatch", ["rtl mismatch: return"], "x", "x",
                                 tmp_path / "fuzz_123.py")][:found]
        return count, findings

    monkeypatch.setattr(fuzz, "run_fuzz", fake_run)
    rc = main(["fuzz", "--count", "4", "--seed", "77", "--regressions", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == status
    assert "seed 77" in out
    assert ("program seed 123: rtl mismatch" in out) == bool(found)


# -- directives in the generated programs -------------------------------------------------------


def test_without_directives_programs_have_no_schedule():
    for seed in range(5):
        prog = build_program(seed)
        assert prog.directives == [] and "customize" not in prog.source
        assert build_program(seed).source == prog.source


def test_generated_schedules_cover_every_kind_and_are_accepted(tmp_path):
    """The schedules are valid by construction: the compiler accepts (almost) all of them,
    and every allowed kind shows up."""
    from vichls.frontend.kernel import load_file
    from vichls.fuzz.progen import DEFAULT_DIRECTIVES

    seen, refused = set(), []
    for seed in range(40):
        prog = build_program(seed, DEFAULT_DIRECTIVES)
        seen |= {call.split("(")[0] for call in prog.directives}
        path = tmp_path / f"d{seed}.py"
        path.write_text(prog.source)
        try:
            namespace = load_file(str(path))
            schedule = fuzz._schedule_of(namespace, namespace["top"])
            if schedule is not None:
                schedule.module()
        except fuzz.DirectiveError as e:
            refused.append(f"seed {seed}: {e}")
        except Exception:  # noqa: BLE001 - a crash of a pass is a compiler bug, not ours
            pass
    assert seen == set(DEFAULT_DIRECTIVES)
    assert len(refused) <= 2, "\n".join(refused)


def test_the_generator_works_for_many_seeds():
    from vichls.fuzz.progen import DIRECTIVE_KINDS

    for seed in fuzz.program_seeds(99, 400):
        prog = build_program(seed, DIRECTIVE_KINDS)
        ast.parse(prog.source)


def test_pipeline_and_dataflow_are_drawn_by_default():
    from vichls.fuzz.progen import DEFAULT_DIRECTIVES

    drawn = [c for s in range(30) for c in build_program(s, DEFAULT_DIRECTIVES).directives]
    assert any(c.startswith("pipeline(") for c in drawn)
    assert any(c.startswith("dataflow(") for c in drawn)
    without = [c for s in range(30) for c in build_program(s, {"unroll"}).directives]
    assert without and not any(c.startswith("pipeline(") for c in without)
    with pytest.raises(ValueError, match="unknown directive kinds"):
        build_program(1, {"vectorize"})


def test_shrinking_can_drop_directives():
    from vichls.fuzz.progen import DEFAULT_DIRECTIVES

    source = next(p.source for p in (build_program(s, DEFAULT_DIRECTIVES) for s in range(50))
                  if len(p.directives) >= 2)
    tree = ast.parse(source)
    nodes = fuzz._kernel_nodes(tree)
    directive_edits = [(k, a) for k, a in fuzz._edits(source) if nodes[k] in tree.body]
    assert len(directive_edits) >= 2
    fewer = fuzz.apply_edits(source, dict(directive_edits[:1]))

    def directive_lines(text):
        return [line for line in text.splitlines() if line.startswith("s.")]

    assert len(directive_lines(fewer)) == len(directive_lines(source)) - 1
    assert "s = vichls.customize(top)" in fewer


# -- the step-limited reference --------------------------------------------------------------------


def test_bounded_reference_computes_the_same_and_stops_endless_loops(tmp_path):
    from vichls.frontend.reference import ReferenceStepLimit, bounded_reference
    from vichls.fuzz.progen import load_program
    from vichls.inputs import copy_args

    for seed in range(6):
        top = load_program(seed, tmp_path).top
        args = make_args(seed)
        a, b = copy_args(args), copy_args(args)
        assert bounded_reference(top, 10**6)(*a) == top(*b)
        for x, y in zip(a, b):
            assert np.array_equal(x, y, equal_nan=np.asarray(x).dtype.kind == "f")
    path = tmp_path / "spin.py"
    path.write_text("from vichls import kernel, int32\n\n@kernel\ndef inner(n: int32):\n"
                    "    i: int32 = 0\n    while i != n:\n        i += 2\n\n"
                    "@kernel\ndef spin(n: int32) -> int32:\n    inner(n)\n    return n\n")
    from vichls.frontend.kernel import load_file

    spin = load_file(str(path))["spin"]
    limited = bounded_reference(spin, 1000)
    assert limited(4) == 4  # the budget is per call
    assert limited(4) == 4
    with pytest.raises(ReferenceStepLimit, match="'spin' did not finish within 1,000 loop"):
        limited(3)  # the callee never ends: the budget is shared with it


# -- Dask -------------------------------------------------------------------------------------------------


def test_batches_run_as_tasks_on_a_dask_cluster(tmp_path):
    from dask.distributed import LocalCluster

    from vichls.fuzz.progen import DEFAULT_DIRECTIVES

    chunks = [fuzz.program_seeds(21, 3)[:2], fuzz.program_seeds(21, 3)[2:]]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = {tuple(c): v for c, v in fuzz._verdict_batches(
            chunks, DEFAULT_DIRECTIVES, "verilator", False, tmp_path, cluster.scheduler_address)}
        report = fuzz.run_fuzz(3, 5, directives=(), rtl=False, batch_size=2,
                               scheduler=cluster.scheduler_address)
    assert report.checked == 3 and report.findings == []
    for chunk in chunks:
        here = fuzz.check_programs(fuzz.generated(chunk, DEFAULT_DIRECTIVES), tmp_path, rtl=False)
        there = remote[tuple(chunk)]
        assert {n: (v.kinds, v.invalid, bool(v.rejected)) for n, v in here.items()} == {
            n: (v.kinds, v.invalid, bool(v.rejected)) for n, v in there.items()}


@pytest.mark.parametrize("flags, kinds", [
    ([], {"dataflow", "flatten", "partition", "pipeline", "reorder", "tile", "unroll"}),
    (["--no-directives"], set()),
    (["--directives", "pipeline,unroll"], {"pipeline", "unroll"}),
])
def test_cli_passes_directives_and_scheduler(monkeypatch, capsys, flags, kinds):
    from vichls.cli import main

    seen = {}

    def fake_run(count, seed, **kwargs):
        seen.update(kwargs)
        return fuzz.FuzzReport(count, [], {9: "x.py:3:1: error: s.pipeline('i1', ii=1): no"})

    monkeypatch.setattr(fuzz, "run_fuzz", fake_run)
    assert main(["fuzz", "--count", "2", "--seed", "3", "--scheduler", "tcp://h:1", *flags]) == 0
    assert seen["directives"] == kinds and seen["scheduler"] == "tcp://h:1"
    out = capsys.readouterr().out
    assert "2 programs, 0 failing, 1 schedules refused (seed 3" in out
    assert "program seed 9: schedule refused" in out


def test_cli_passes_the_fpga_target(monkeypatch, capsys):
    from vichls.cli import main

    seen = {}

    def fake_run(count, seed, **kwargs):
        seen.update(kwargs)
        return fuzz.FuzzReport(count, [], {})

    monkeypatch.setattr(fuzz, "run_fuzz", fake_run)
    assert main(["fuzz", "--count", "1", "--device", "ecp5", "--target-mhz", "150"]) == 0
    assert seen["target"] == fuzz.Target("ecp5", 1000 / 150)
    assert "RTL for ecp5 at 6.66667 ns" in capsys.readouterr().out
    assert main(["fuzz", "--count", "1"]) == 0
    assert seen["target"] == fuzz.DEFAULT_TARGET
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, with status 2
        main(["fuzz", "--count", "1", "--clock-period", "0"])
    assert refused.value.code == 2


def test_programs_are_checked_on_the_ecp5_and_its_reproducers_say_so(tmp_path, monkeypatch):
    """RTL scheduled for the ECP5 at 150 MHz (one-hot control, DSP-registered multipliers)
    agrees with Python too; a reproducer found there carries TARGET and replays there."""
    from vichls.targets import oplib

    ecp5 = fuzz.Target("ecp5", 1000 / 150)
    progs = [fuzz.Program(f"p{s}", build_program(s).source, s) for s in range(4)]
    devices = []
    import vichls.driver.fpga

    original = vichls.driver.fpga.compile_fpga

    def spy(module, **kwargs):
        devices.append((oplib.current_device().name, kwargs.get("clock_period_ns")))
        return original(module, **kwargs)

    monkeypatch.setattr(vichls.driver.fpga, "compile_fpga", spy)
    verdicts = fuzz.check_programs(progs, tmp_path, target=ecp5)
    assert all(v.ok for v in verdicts.values()), verdicts
    assert devices and set(devices) == {("ecp5", 1000 / 150)}

    finding = fuzz.Finding(3, "rtl mismatch", ["rtl mismatch: return"], progs[3].source,
                           progs[3].source)
    text = fuzz.reproducer_text(finding, 11, ecp5)
    assert "--device ecp5 --target-mhz 150" in text.splitlines()[0]
    path = tmp_path / "fuzz_3.py"
    path.write_text(text)
    devices.clear()
    replayed = fuzz.replay([path], tmp_path)
    assert replayed["fuzz_3"].ok and set(devices) == {("ecp5", 1000 / 150)}
    assert "TARGET" not in fuzz.reproducer_text(finding, 11)


def test_cli_refuses_unknown_directive_kinds(capsys):
    from vichls.cli import main

    assert main(["fuzz", "--directives", "vectorize"]) == 2
    assert "unknown directive kinds vectorize" in capsys.readouterr().err


@kernel
def hang(n: int32) -> int32:
    return n


@kernel
def seven(x: uint_(3)) -> int_(5):
    return int_(5)(x) - 7


def test_a_design_that_breaks_the_batch_build_is_blamed_alone():
    from vichls.flows.sim import SimDesign

    fixtures = Path(__file__).parent / "fixtures"
    designs = [SimDesign((fixtures / "seven.v").read_text(), seven.signature, name="good"),
               SimDesign((fixtures / "broken.v").read_text(), hang.signature, name="bad")]
    results = fuzz._simulate(designs, {"good": [(3,)], "bad": [(1,)]}, "verilator")
    assert results["good"][0].ret == seven(3)
    assert "build of the simulation failed" in str(results["bad"])


def test_a_crash_seen_before_is_not_shrunk_again(monkeypatch, tmp_path):
    import vichls.driver.cpu

    def compile_cpu(module):
        raise RuntimeError("injected")

    monkeypatch.setattr(vichls.driver.cpu, "compile_cpu", compile_cpu)
    monkeypatch.setattr(fuzz, "SHRINK_ROUNDS", 1)
    monkeypatch.setattr(fuzz, "SHRINK_CANDIDATES", 4)
    messages = []
    report = fuzz.run_fuzz(2, 8, directives=(), rtl=False, regressions=tmp_path,
                           log=messages.append)
    assert [f.kind for f in report.findings] == ["cpu crash: RuntimeError"] * 2
    assert report.findings[0].path is not None and report.findings[1].path is None
    assert any("fails like program seed" in m for m in messages)
    assert len(list(tmp_path.glob("fuzz_*.py"))) == 1


def test_a_compile_that_hangs_is_reported_unshrunk_and_stops_the_run(monkeypatch, tmp_path):
    """A compile of a generated program that runs over COMPILE_SECONDS (a latency bound
    evaluated in exponential time once stalled a whole run) fails as a hang: reported with
    its program as is, the rest of its batch not counted as checked, and the run stops."""
    import time

    import vichls.driver.fpga
    from vichls.fuzz.progen import DEFAULT_DIRECTIVES

    original = vichls.driver.fpga.compile_fpga

    def stuck(module, **kwargs):
        stuck.calls += 1
        if stuck.calls == 3:  # the second program's build (each program builds twice)
            time.sleep(5)  # interrupted by the limit
        return original(module, **kwargs)

    stuck.calls = 0
    monkeypatch.setattr(vichls.driver.fpga, "compile_fpga", stuck)
    monkeypatch.setattr(fuzz, "COMPILE_SECONDS", 1)
    report = fuzz.run_fuzz(6, 5, regressions=tmp_path, batch_size=3,
                           directives=DEFAULT_DIRECTIVES)
    assert [f.kind for f in report.findings] == ["fpga crash: hang"]
    assert report.findings[0].reduced == report.findings[0].original  # not shrunk
    assert report.checked == 1  # the hung program; its batch's others and the next batch not
    assert (tmp_path / f"fuzz_{report.findings[0].program_seed}.py").exists()
