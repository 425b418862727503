"""The `vichls` command end to end: compile for both targets, the printed summary, --emit,
the .mlir package round trip, `vichls sim`, and user errors."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from vichls.cli import main
from vichls.driver.fpga import compile_fpga
from vichls.frontend.design_file import load_design

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "tests" / "data" / "frontend_kernels.py"  # gemm, helper, caller, ...


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "compile" in out and "sim" in out


def test_compile_fpga_writes_verilog_report_and_package(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["compile", str(GEMM), "--top", "gemm", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "latency:" in printed and "resources:" in printed and "gemm.v" in printed
    verilog = (out / "gemm.v").read_text()
    assert "module gemm" in verilog and "ap_start" in verilog
    report = json.loads((out / "gemm.report.json").read_text())
    assert report["top"] == "gemm" and report["clock_period_ns"] == 10.0
    assert (out / "gemm.mlir").read_text().startswith("builtin.module")


def test_mlir_package_compiles_to_the_same_verilog(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["compile", str(GEMM), "--top", "gemm", "-o", str(a)]) == 0
    assert main(["compile", str(a / "gemm.mlir"), "-o", str(b)]) == 0
    assert (a / "gemm.v").read_text() == (b / "gemm.v").read_text()
    assert main(["compile", str(a / "gemm.mlir"), "--target", "cpu", "-o", str(b)]) == 0
    assert (b / "gemm.o").stat().st_size > 0


def test_compile_cpu_writes_llvm_and_object(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["compile", str(GEMM), "--top", "caller", "--target", "cpu", "-o", str(out)]) == 0
    assert "define" in (out / "caller.ll").read_text()
    assert (out / "caller.o").read_bytes()[:4] == b"\x7fELF"


@pytest.mark.parametrize("kind,needle", [("loop", "affine.for"), ("verilog", "module gemm"),
                                         ("structural", "gemm")])
def test_emit_prints_one_level(capsys, kind, needle):
    assert main(["compile", str(GEMM), "--top", "gemm", "--emit", kind]) == 0
    assert needle in capsys.readouterr().out


def test_emit_llvm(capsys):
    assert main(["compile", str(GEMM), "--top", "caller", "--target", "cpu", "--emit", "llvm"]) == 0
    assert "define" in capsys.readouterr().out


def test_several_kernels_need_top(tmp_path, capsys):
    assert main(["compile", str(GEMM), "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "--top" in err and "caller" in err and "gemm" in err


def test_missing_file(capsys):
    assert main(["compile", "no/such/file.py"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_verilog_is_deterministic_across_processes(tmp_path):
    outs = []
    for seed in ("0", "999"):
        r = subprocess.run([sys.executable, "-m", "vichls.cli", "compile", str(GEMM), "--top",
                            "gemm", "--emit", "verilog"], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}, check=True)
        outs.append(r.stdout)
    assert outs[0] == outs[1] and "module gemm" in outs[0]


def test_sim_command_agrees(capsys):
    assert main(["sim", str(GEMM), "--top", "caller", "--runs", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "4 runs, 0 mismatches" in out and "cycles:" in out


def test_module_level_schedule_applies(tmp_path, capsys):
    src = ("from vichls import kernel, int32\nimport vichls\nN = 16\n\n"
           "@kernel\ndef dot(x: int32[N], y: int32[N]) -> int32:\n"
           "    acc: int32 = 0\n    for i in range(N):\n        acc += x[i] * y[i]\n"
           "    return acc\n")
    plain, unrolled, banked = (tmp_path / f"{n}.py" for n in ("plain", "unrolled", "banked"))
    plain.write_text(src)
    unrolled.write_text(src + "\ns = vichls.customize(dot)\ns.unroll('i', factor=4)\n")
    banked.write_text(src + "\ns = vichls.customize(dot)\ns.unroll('i', factor=4)\n"
                      "s.partition('x', dim=1, factor=4)\ns.partition('y', dim=1, factor=4)\n")
    latency, reports = {}, {}
    for path in (plain, unrolled, banked):
        out = tmp_path / path.stem
        assert main(["compile", str(path), "-o", str(out)]) == 0
        reports[path.stem] = json.loads((out / "dot.report.json").read_text())
        latency[path.stem] = reports[path.stem]["latency"]["max"]
        assert main(["compile", str(path), "--target", "cpu", "-o", str(out)]) == 0
    assert latency["banked"] < latency["unrolled"] < latency["plain"]
    x = reports["banked"]["interface"]["arrays"]["x"]
    assert x["partition"] == {"kind": "cyclic", "factor": 4, "dim": 1} and x["banks"] == 4
    ports = {p["name"] for p in reports["banked"]["interface"]["ports"]}
    assert {"x_0_address0", "x_3_q0", "y_2_ce0"} <= ports and "x_address0" not in ports
    capsys.readouterr()
    assert main(["sim", str(banked), "--runs", "3"]) == 0
    assert "3 runs, 0 mismatches" in capsys.readouterr().out


def test_sim_of_a_dataflow_design_runs_calls_back_to_back(capsys):
    example = Path(__file__).resolve().parent.parent / "examples" / "dataflow.py"
    assert main(["sim", str(example), "--runs", "2"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "back to back" in ln)
    measured, reported = re.search(r"a call every (\d+) cycles \(the report says (\d+)\)",
                                   line).groups()
    assert "results agree" in line and measured == reported


def test_sim_stops_a_reference_that_never_finishes(tmp_path, capsys):
    path = tmp_path / "spin.py"
    path.write_text("from vichls import kernel, int32\n\n@kernel\ndef spin(n: int32) -> int32:\n"
                    "    i = 0\n    while i != n:\n        i += 2\n    return i\n\n"
                    "def make_inputs(rng):\n    return (3,)\n")
    assert main(["sim", str(path), "--runs", "1", "--reference-timeout", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "did not finish within 0.5 s" in err and f"{path}: error:" in err


def test_a_closed_pipe_on_standard_output_ends_quietly(tmp_path, monkeypatch, capsys):
    """`vichls compile ... | head -1`: when the reader goes away, vichls stops with the
    status of a command killed by SIGPIPE and no "internal error" message."""

    class ClosedPipe:
        def __init__(self, fd):
            self.fd = fd

        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self):
            return self.fd

    src = tmp_path / "k.py"
    src.write_text("from vichls import int32, kernel\n\n\n@kernel\n"
                   "def add(a: int32, b: int32) -> int32:\n    return a + b\n")
    with open(tmp_path / "sink", "w") as sink:
        # dup2 must not touch the test runner's own standard output
        monkeypatch.setattr(sys, "stdout", ClosedPipe(sink.fileno()))
        status = main(["compile", str(src), "-o", str(tmp_path / "out")])
    assert status == 141
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("where", ["file", "under_a_file"])
def test_an_output_path_that_cannot_be_a_folder_is_a_clear_error(tmp_path, capsys, where):
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder")
    out = blocker if where == "file" else blocker / "sub"
    assert main(["compile", str(GEMM), "--top", "gemm", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "error: -o" in err and "internal error" not in err
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("option", [["--clock-period", "nan"], ["--clock-period", "inf"],
                                    ["--target-mhz", "nan"], ["--clock-period", "-1"]])
def test_clocks_that_are_not_finite_positive_numbers_are_refused(tmp_path, capsys, option):
    with pytest.raises(SystemExit) as refused:
        main(["compile", str(GEMM), "--top", "gemm", "-o", str(tmp_path / "o"), *option])
    assert refused.value.code == 2
    assert option[0] in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("option", [["--runs", "0"], ["--runs", "-1"], ["--runs", "two"],
                                    ["--max-cycles", "0"]])
def test_counts_below_one_are_refused(tmp_path, capsys, option):
    with pytest.raises(SystemExit) as refused:
        main(["sim", str(GEMM), "--top", "gemm", *option])
    assert refused.value.code == 2
    assert option[0] in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_api_refuses_a_clock_that_is_not_finite():
    from vichls.errors import VichlsError
    from vichls.frontend.kernel import load_file
    from vichls.driver.fpga import compile_fpga

    with pytest.raises(VichlsError):
        compile_fpga(load_file(GEMM)["gemm"].module(), clock_period_ns=float("nan"))


def test_the_console_command_flushes_and_exits_with_mains_status(tmp_path):
    """`vichls` (cli.run) leaves without tearing the interpreter down: what it printed
    still arrives whole through a pipe, and its exit status is main's."""
    run = [sys.executable, "-c", "from vichls.cli import run; run()"]
    ok = subprocess.run([*run, "compile", str(GEMM), "--top", "gemm", "--emit", "verilog"],
                        capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0
    direct = compile_fpga(load_design(str(GEMM), "gemm").module).verilog
    assert ok.stdout.rstrip("\n") == direct.rstrip("\n")
    bad = subprocess.run([*run, "compile", str(tmp_path / "missing.py")], capture_output=True,
                         text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "missing.py" in bad.stderr
