"""The bad-input corpus (tests/bad_inputs/): every invalid or unsupported kernel file is refused
by ``vichls compile`` with exit status 2 and one message ``path:line:col: error: ...`` that
contains the expected fragment, without a traceback and without writing an output folder.

Each file starts with ``# expect: LINE:COL: FRAGMENT`` (the line and column of the mistake
in that file, and a piece of the message); a loop-level package (``.mlir``) with
``// expect: ...``. The CLI runs in-process, so the whole corpus takes
a few seconds.
"""

import re
from pathlib import Path

import pytest

from vichls.cli import main

CORPUS = Path(__file__).parent / "bad_inputs"
FILES = sorted([*CORPUS.glob("*.py"), *CORPUS.glob("*.mlir")])
EXPECT = re.compile(r"(?:#|//) expect: (\d+):(\d+): (.+)")


def test_corpus_is_large_enough():
    assert len(FILES) >= 100


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_bad_input_is_refused_clearly(path, tmp_path, capsys):
    m = EXPECT.match(path.read_bytes().decode("utf-8", "replace").splitlines()[0])
    assert m, f"{path.name}: the first line must be '# expect: LINE:COL: FRAGMENT'"
    line, col, fragment = m.group(1), m.group(2), m.group(3)
    out = tmp_path / "out"
    rc = main(["compile", str(path), "-o", str(out)])
    captured = capsys.readouterr()
    err = captured.err
    assert rc == 2, f"exit status {rc}, expected 2:\n{err}"
    assert "Traceback" not in err + captured.out
    errors = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(errors) == 1, err
    assert errors[0].startswith(f"{path}:{line}:{col}: error: "), errors[0]
    assert fragment in errors[0], f"expected {fragment!r} in:\n{errors[0]}"
    assert not out.exists(), "a refused kernel must not leave an output folder"
    assert not list(tmp_path.glob(".vichls-*")), "no staging folder may be left behind"
