"""Lint (verilator --lint-only -Wall) and Yosys synthesis checks on hand-written fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from vichls.flows.lint import LintError, lint_verilog
from vichls.flows.synth import SynthError, synth_check, synth_xilinx_resources

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.v").read_text()


@pytest.mark.parametrize("name", ["vadd", "scale", "rev", "seven", "hang"])
def test_lint_clean_fixtures(name):
    assert lint_verilog(fixture(name), name) == []


def test_lint_reports_each_problem():
    warnings = lint_verilog(fixture("dirty"), "dirty")
    assert len(warnings) == 2
    assert any("UNUSEDSIGNAL" in w and "never_used" in w for w in warnings)
    assert any("WIDTH" in w for w in warnings)


def test_lint_refuses_invalid_verilog():
    with pytest.raises(LintError, match="syntax error"):
        lint_verilog("module broken(input a;\nendmodule\n", "broken")
    with pytest.raises(LintError):
        lint_verilog(fixture("vadd"), "not_there")


def test_synth_check_clean_design():
    report = synth_check(fixture("vadd"), "vadd")
    assert report.ok and report.latches == 0 and report.comb_loops == 0
    # 3 index bits + 32 accumulator bits + the state: 2 bits, or 4 once Yosys' fsm pass
    # re-encodes it one-hot
    flops = sum(n for cell, n in report.cells.items() if "DFF" in cell)
    assert flops in (37, 39)


def test_synth_check_finds_latch():
    report = synth_check(fixture("latch"), "latch")
    assert not report.ok
    assert report.latches == 1
    assert report.comb_loops == 0


def test_synth_check_finds_combinational_loop():
    report = synth_check(fixture("comb_loop"), "comb_loop")
    assert not report.ok
    assert report.comb_loops == 1
    assert report.latches == 0


def test_synth_error_on_bad_verilog():
    with pytest.raises(SynthError):
        synth_check("module broken(input a;\nendmodule\n", "broken")


def test_xilinx_resources():
    res = synth_xilinx_resources(fixture("vadd"), "vadd")
    assert set(res) == {"lut", "ff", "dsp", "bram"}
    assert res["ff"] in (37, 39)  # see test_synth_check_clean_design
    assert res["lut"] > 32  # at least the 32-bit adders' LUTs
    assert res["dsp"] == 0 and res["bram"] == 0

    mul = (
        "module mul(input wire clk, input wire [15:0] a, input wire [15:0] b,\n"
        "           output reg [31:0] p);\n"
        "    always @(posedge clk) p <= a * b;\n"
        "endmodule\n"
    )
    assert synth_xilinx_resources(mul, "mul")["dsp"] == 1  # a 16 x 16 product fits one DSP48E1


def test_cell_counts_include_the_submodules_yosys_kept(tmp_path):
    """A unit whose stages are kept as submodules (keep_hierarchy, as vichls_fmul_ecp5 does)
    counts with their cells, once per instance."""
    import json

    from vichls.flows.synth import _cells_of_top

    stat = {"modules": {
        "\\top": {"num_cells_by_type": {"LUT4": 2, "\\stage": 3, "FDRE": 1}},
        "\\stage": {"num_cells_by_type": {"LUT4": 5, "\\leaf": 2}},
        "\\leaf": {"num_cells_by_type": {"CARRY4": 1}},
        "\\unused": {"num_cells_by_type": {"LUT4": 100}},
    }}
    path = tmp_path / "stat.json"
    path.write_text(json.dumps(stat))
    assert _cells_of_top(path, "top") == {"LUT4": 17, "FDRE": 1, "CARRY4": 6}
