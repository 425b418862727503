"""Robustness of the simulation flow and of ``vichls sim`` (issue 6, item 6): a Verilog that
does not compile, a missing Icarus, a design that never raises ap_done, and a Python
reference that never finishes each end with a clear message naming the design (or kernel)
and what to do, and ``vichls sim`` exits with status 2 (never a traceback, never a hang).

The designs are hand-written (tests/fixtures/hang.v never finishes, broken.v does not
compile); for the CLI tests, the compiler's output is replaced by them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

import vichls.flows.sim as sim_flow
import vichls.driver.build
from vichls import int32, kernel
from vichls.cli import main
from vichls.flows.sim import SimDesign, SimError, build_simulation
from vichls.flows.tools import ToolError

FIXTURES = Path(__file__).parent / "fixtures"

KERNEL_FILE = """\
from vichls import kernel, int32


@kernel
def hang(n: int32) -> int32:
    return n
"""


@kernel
def hang(n: int32) -> int32:
    return n


def _fixture(name: str) -> str:
    return (FIXTURES / f"{name}.v").read_text()


@pytest.fixture
def kernel_file(tmp_path):
    path = tmp_path / "hang_kernel.py"
    path.write_text(KERNEL_FILE)
    return path


def _compiles_to(monkeypatch, verilog: str) -> None:
    """Make the FPGA build of any kernel give ``verilog`` (for hang's signature)."""
    design = SimpleNamespace(verilog=verilog, signature=hang.signature, partitions={})
    monkeypatch.setattr(vichls.driver.build, "build_module", lambda *a, **k: design)


def test_build_failure_names_the_design_and_keeps_the_log(tmp_path):
    with pytest.raises(SimError) as info:
        build_simulation([SimDesign(_fixture("broken"), hang.signature, name="broken_one")],
                         cache_dir=tmp_path)
    message = str(info.value)
    assert "build of the simulation failed in design 'broken_one'" in message
    assert "report this" in message and "fix the errors below" in message
    log = Path(message.rsplit("(the whole build log: ", 1)[1].split(")")[0])
    assert log.is_file() and "syntax error" in log.read_text()


def test_missing_icarus_names_the_design_and_the_remedy(monkeypatch, tmp_path):
    monkeypatch.setattr(sim_flow, "icarus_available", lambda: False)
    with pytest.raises(ToolError, match=r"design 'seven_d'.*Icarus Verilog is not installed"
                                        r".*apt-get install iverilog.*--simulator verilator"):
        build_simulation([SimDesign(_fixture("hang"), hang.signature, name="seven_d")],
                         simulator="icarus", cache_dir=tmp_path)


def test_cli_sim_build_failure(monkeypatch, kernel_file, capsys):
    _compiles_to(monkeypatch, _fixture("broken"))
    assert main(["sim", str(kernel_file), "--runs", "1"]) == 2
    err = capsys.readouterr().err
    assert f"{kernel_file}: error: simulating 'hang' failed" in err
    assert "build of the simulation failed in design 'hang'" in err and "Traceback" not in err


def test_cli_sim_missing_icarus(monkeypatch, kernel_file, capsys):
    monkeypatch.setattr(sim_flow, "icarus_available", lambda: False)
    assert main(["sim", str(kernel_file), "--runs", "1", "--simulator", "icarus"]) == 2
    err = capsys.readouterr().err
    assert "design 'hang'" in err and "Icarus Verilog is not installed" in err
    assert "--simulator verilator" in err


def test_cli_sim_design_that_never_finishes(monkeypatch, kernel_file, capsys):
    _compiles_to(monkeypatch, _fixture("hang"))
    assert main(["sim", str(kernel_file), "--runs", "2", "--max-cycles", "300"]) == 2
    err = capsys.readouterr().err
    assert "design 'hang' did not raise ap_done within max_cycles=300" in err
    assert "raise --max-cycles" in err and f"{kernel_file}: error:" in err


SPIN = """\
from vichls import kernel, int32


@kernel
def spin(A: int32[2], n: int32) -> int32:
    for k in range(2):
        while A[k] != n:
            A[k] += 2
    return A[0]


def make_inputs(rng):
    import numpy as np
    return (np.zeros(2, np.int32), 3)
"""


def test_cli_sim_reference_step_limit_works_outside_the_main_thread(tmp_path, capsys):
    # a SIGALRM time limit cannot work here; the loop-iteration budget must stop it
    path = tmp_path / "spin.py"
    path.write_text(SPIN)
    status = []
    worker = threading.Thread(target=lambda: status.append(
        main(["sim", str(path), "--runs", "1", "--reference-steps", "5000"])))
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive() and status == [2]
    err = capsys.readouterr().err
    assert "the Python reference of 'spin' did not finish within 5,000 loop iterations" in err
    assert f"{path}: error:" in err
