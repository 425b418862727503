"""The IR-text tests of tests/filecheck/: each file runs vichls-opt on itself and checks the
output with filecheck (`// RUN:` lines, as in xDSL and MLIR), all run by lit. A pass is
tested here on a few lines of IR, without compiling a kernel end to end."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "filecheck"
BIN = Path(sys.executable).parent


def test_every_filecheck_test_passes():
    lit = shutil.which("lit", path=str(BIN)) or shutil.which("lit")
    if lit is None:
        pytest.fail("lit is missing: pip install -e '.[test]'")
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run([lit, "-v", str(HERE)], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "Passed" in run.stdout and "Failed" not in run.stdout


def test_every_registered_pass_has_a_class_named_as_registered():
    from vichls.passes import get_all_passes

    passes = get_all_passes()
    assert len(passes) >= 20
    for name, load in passes.items():
        assert load().name == name


def test_every_registered_pass_has_an_ir_text_test():
    from vichls.passes import get_all_passes

    runs = " ".join(line for path in HERE.glob("*.mlir")
                    for line in path.read_text().splitlines() if line.startswith("// RUN:"))
    missing = [name for name in get_all_passes()
               if f"-p {name}" not in runs and f"-p '{name}" not in runs
               and f",{name}" not in runs]
    assert not missing, f"passes without a test in tests/filecheck/: {missing}"
