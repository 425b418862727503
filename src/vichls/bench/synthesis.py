"""One synthesis job of ``vichls bench``: Xilinx 7-series resources and ECP5 fmax of a design.

What: ``synthesize(job)`` runs, for one design's Verilog, Yosys ``synth_xilinx -family xc7``
(through ``vichls.flows.synth.synth_xilinx_resources``: LUT, FF, DSP48, BRAM in 18 Kb units)
and, unless disabled, the ECP5 place-and-route of ``vichls.bench.fmax``. It returns a plain
``SynthResult`` and never raises: a tool failure becomes the result's ``error`` text, so that
one bad design does not stop a suite run.

Why a job object and a module-level function: the bench runs these in a process pool (each
job is tens of seconds of single-threaded WebAssembly), so the job and the result are small
picklable values carrying text in and numbers out; nothing of the IR crosses processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["SynthJob", "SynthResult", "synthesize"]


@dataclass(frozen=True)
class SynthJob:
    name: str  # the benchmark's name, to match the result with its row
    top: str  # the Verilog top module
    verilog: str
    xilinx: bool = True
    fmax: bool = True
    target_mhz: float = 100.0
    fmax_seeds: int = 1  # place and route with seeds 1..N; the median figure is the result


@dataclass
class SynthResult:
    name: str
    resources: dict | None = None  # {"lut", "ff", "dsp", "bram"} from synth_xilinx
    fmax_mhz: float | None = None
    ecp5: dict = field(default_factory=dict)  # {"luts", "ffs", "multipliers"} after routing
    xilinx_seconds: float = 0.0
    fmax_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


def synthesize(job: SynthJob) -> SynthResult:
    """Run the asked-for flows on ``job``; failures are recorded, not raised."""
    from vichls.bench.fmax import ecp5_fmax
    from vichls.flows.synth import synth_xilinx_resources

    result = SynthResult(job.name)
    if job.xilinx:
        start = time.perf_counter()
        try:
            result.resources = synth_xilinx_resources(job.verilog, job.top)
        except Exception as e:  # noqa: BLE001  (reported in the row; the run goes on)
            result.errors.append(f"synth_xilinx: {_first_lines(e)}")
        result.xilinx_seconds = time.perf_counter() - start
    if job.fmax:
        start = time.perf_counter()
        try:
            runs = [ecp5_fmax(job.verilog, job.top, job.target_mhz, seed=seed)
                    for seed in range(1, max(1, job.fmax_seeds) + 1)]
            timing = median_run(runs)
            result.fmax_mhz = timing.fmax_mhz
            result.ecp5 = {"luts": timing.luts, "ffs": timing.ffs,
                           "multipliers": timing.multipliers,
                           "critical_path": timing.critical_path}
            if len(runs) > 1:
                result.ecp5["fmax_by_seed"] = [r.fmax_mhz for r in runs]
        except Exception as e:  # noqa: BLE001
            result.errors.append(f"nextpnr-ecp5: {_first_lines(e)}")
        result.fmax_seconds = time.perf_counter() - start
    return result


def median_run(runs: list):
    """The run whose fmax is the median (the lower middle one of an even count; runs
    without a clocked path count as slowest)."""
    ordered = sorted(runs, key=lambda r: -1.0 if r.fmax_mhz is None else r.fmax_mhz)
    return ordered[(len(ordered) - 1) // 2]


def _first_lines(e: Exception, lines: int = 6) -> str:
    text = f"{type(e).__name__}: {e}" if not str(e) else str(e)
    return "\n".join(text.splitlines()[:lines])
