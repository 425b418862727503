"""The fuzzing machinery (vichls.fuzz.run): it finds a disagreement, shrinks the program while
keeping the failure, writes a reproducer that replays the same way, and is reproducible.

The back ends are not under test here: a wrong CPU result is injected, so these tests run
without a simulator build.
"""

import ast

import numpy as np
import pytest

from vichls.fuzz import run as fuzz
from vichls.fuzz.progen import build_program, make_args


@pytest.fixture
def wrong_cpu(monkeypatch):
    """A CPU build whose return value is off by one whenever the source holds a '%'."""
    import vichls.cpu

    real = vichls.cpu.compile_cpu

    def compile_cpu(module):
        compiled = real(module)
        text = str(module)
        buggy = "arith.rem" in text or "remsi" in text or "remui" in text

        def call(*args):
            ret = compiled(*args)
            return ret + 1 if buggy and ret is not None else ret

        return call

    monkeypatch.setattr(vichls.cpu, "compile_cpu", compile_cpu)


def _program_with_remainder() -> int:
    return next(s for s in range(100) if "%" in build_program(s).source
                and 800 < len(build_program(s).source) < 1500)


def test_seeds_programs_and_arguments_are_reproducible():
    assert fuzz.program_seeds(5, 20) == fuzz.program_seeds(5, 20)
    assert len(set(fuzz.program_seeds(5, 20))) == 20
    assert fuzz.program_seeds(5, 3) != fuzz.program_seeds(6, 3)
    for a, b in zip(make_args(3), make_args(3)):
        assert np.array_equal(a, b)


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
