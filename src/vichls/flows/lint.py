"""Lint of Verilog with ``verilator --lint-only -Wall``.

Generated Verilog must be warning-free under Verilator's full lint set; this is the check.
The text is written to ``<top>.v`` in a temporary folder (so the file-name rule DECLFILENAME
is satisfied) and linted with the top module named explicitly. Warnings come back as one
string per warning (its first line, e.g. ``%Warning-UNUSEDSIGNAL: vadd.v:12:15: Signal is
not used: 'x'``); an empty list means clean. Errors (the text is not valid Verilog, or the
top is missing) raise ``LintError`` with Verilator's messages, since a list of warnings
would hide that nothing was checked.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from vichls.flows.tools import ToolError, run_verilator


class LintError(ToolError):
    """Verilator could not lint the text at all (syntax error, missing top...)."""


def lint_verilog(verilog: str, top: str) -> list[str]:
    """The warnings of ``verilator --lint-only -Wall`` on ``verilog`` with top ``top``."""
    with tempfile.TemporaryDirectory(prefix="vichls-lint-") as tmp:
        Path(tmp, f"{top}.v").write_text(verilog)
        proc = run_verilator(
            ["--lint-only", "-Wall", "-Wno-fatal", "--top-module", top, f"{top}.v"],
            cwd=Path(tmp),
            timeout=300,
        )
    lines = proc.stderr.splitlines()
    errors = [ln for ln in lines if ln.startswith("%Error")]
    if errors or proc.returncode != 0:
        raise LintError(
            f"verilator could not lint {top!r}:\n" + "\n".join((errors or lines)[:20])
        )
    return [ln for ln in lines if ln.startswith("%Warning")]
