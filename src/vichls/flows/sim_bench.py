"""The cocotb test that runs inside the simulator process.

It is loaded by the simulator's embedded Python as the top-level module ``sim_bench``
(vichls.flows.sim puts this folder first on its PYTHONPATH) and imports nothing but cocotb
and the standard library: importing numpy or vichls there costs seconds per simulator
launch, more than most simulations take. The parent does every conversion instead.

It reads a job (``job.json``; its path is in the environment variable ``VICHLS_SIM_JOB``)
in which every call carries its scalar inputs as bit patterns and its memory images as
``$readmemh`` text, drives the ``vichls_sim_top`` harness (see sim_harness.py: all
per-cycle work happens in Verilog there) and writes ``results.json`` next to the job: per
call the ``ap_return`` bit pattern, the cycle count and the dumped memory images. Per call
it only writes the images, sets the scalars, toggles ``go``, waits for ``fin`` to toggle
and reads the images back. The designs run concurrently (one cocotb task each).

A design error (timeout, bad memory access, handshake violation) ends that design's calls
and is recorded with the design's name; any other exception is recorded as ``fatal``. The
test itself never fails, so the parent always has a results file to read.
"""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from cocotb.utils import get_sim_time

RESET_CYCLES = 3
CLOCK_PERIOD_NS = 10
# Keep in step with sim_harness.py (not imported here, see the module docstring).
STATUS_TIMEOUT, STATUS_NO_READY = 1, 2
BAD_ACCESS_TEXT = {
    0: "address out of range on port 0",
    1: "address out of range on port 1",
    2: "both ports wrote one word in the same cycle",
}



def _unsigned(value) -> int:
    """A signal's value as an unsigned int: a LogicArray, or a Logic for a 1-bit port."""
    return int(value.to_unsigned()) if hasattr(value, "to_unsigned") else int(value)

async def _run_design(dut, meta: dict, workdir: Path, max_cycles: int, results: dict) -> None:
    p, name = meta["prefix"], meta["name"]
    rst, go, fin = getattr(dut, f"{p}_rst"), getattr(dut, f"{p}_go"), getattr(dut, f"{p}_fin")
    status, spurious, cycles = (getattr(dut, f"{p}_{s}") for s in ("status", "spurious", "cycles"))
    ret = getattr(dut, f"{p}_ret") if meta["has_ret"] else None
    scalars = {s: getattr(dut, f"{p}_s_{s}") for s in meta["scalars"]}
    banks = [
        (workdir / b["file"], getattr(dut, f"{p}_m{i}_bad"), f"{p}_m{i}", b)
        for i, b in enumerate(meta["banks"])
    ]
    done_calls: list[dict] = []
    results[name] = {"calls": done_calls, "error": None}
    go_level = 0
    for call in meta["calls"]:
        for (path, _, _, _), image in zip(banks, call["images"]):
            path.write_text(image)
        for s, handle in scalars.items():
            handle.value = call["scalars"][s]
        go_level ^= 1
        go.value = go_level
        await fin.value_change

        n = int(cycles.value.to_unsigned())
        errors = []
        code = int(status.value.to_unsigned())
        if code == STATUS_TIMEOUT:
            errors.append(
                f"design {name!r} did not raise ap_done within max_cycles={max_cycles} cycles: "
                f"raise max_cycles if the kernel really takes that long, else check the "
                f"design's loops and its control FSM"
            )
        elif code == STATUS_NO_READY:
            errors.append(
                f"design {name!r} raised ap_done without ap_ready while ap_start was held "
                f"(a caller would start it again)"
            )
        if int(spurious.value):
            errors.append(
                f"design {name!r} raised ap_done while no call was running (ap_done must "
                f"be a one-cycle pulse at the end of a call)"
            )
        images = []
        for path, bad, inst, b in banks:
            if int(bad.value):
                kind = int(getattr(dut, f"{inst}_bad_kind").value.to_unsigned())
                addr = int(getattr(dut, f"{inst}_bad_addr").value.to_unsigned())
                errors.append(
                    f"design {name!r}, array {b['param']!r} (ports {b['port']}_*, {b['words']} "
                    f"words): {BAD_ACCESS_TEXT.get(kind, 'bad access')} at word address {addr}"
                )
            images.append(path.read_text())
        if ret is not None and not ret.value.is_resolvable:
            errors.append(f"design {name!r} returned an undefined (x/z) ap_return: {ret.value}")
        if errors:
            results[name]["error"] = "; ".join(errors)
            rst.value = 1  # leave the design in a known state
            await ClockCycles(dut.clk, RESET_CYCLES)
            rst.value = 0
            return
        done_calls.append(
            {"ret": None if ret is None else _unsigned(ret.value), "cycles": n, "images": images}
        )


@cocotb.test()
async def vichls_run_job(dut):
    """Run every call of every design of the job and record the results."""
    job_path = Path(os.environ["VICHLS_SIM_JOB"])
    workdir = job_path.parent
    results: dict = {"designs": {}, "fatal": None, "sim_cycles": 0}
    try:
        job = json.loads(job_path.read_text())
        dut.max_cycles.value = job["max_cycles"]
        for meta in job["designs"]:
            getattr(dut, f"{meta['prefix']}_rst").value = 1
            getattr(dut, f"{meta['prefix']}_go").value = 0
        Clock(dut.clk, CLOCK_PERIOD_NS, unit="ns", impl="gpi").start()
        await ClockCycles(dut.clk, RESET_CYCLES)
        for meta in job["designs"]:
            getattr(dut, f"{meta['prefix']}_rst").value = 0
        await ClockCycles(dut.clk, 1)
        tasks = [
            cocotb.start_soon(_run_design(dut, meta, workdir, job["max_cycles"], results["designs"]))
            for meta in job["designs"]
        ]
        for task in tasks:
            await task
    except Exception:  # noqa: BLE001  (reported to the parent, which raises SimError)
        results["fatal"] = traceback.format_exc()
    results["sim_cycles"] = int(get_sim_time("ns") // CLOCK_PERIOD_NS)
    (workdir / "results.json").write_text(json.dumps(results))
