"""The cocotb test that runs inside the simulator process.

It is loaded by the simulator's embedded Python as the top-level module ``sim_bench``
(vichls.flows.sim puts this folder first on its PYTHONPATH) and imports nothing but cocotb
and the standard library: importing numpy or vichls there costs seconds per simulator
launch, more than most simulations take. The parent does every conversion instead.

It reads a job (``job.json``; its path is in the environment variable ``VICHLS_SIM_JOB``)
in which every run (a call, or ``times`` calls back to back) carries its scalar inputs as
bit patterns, its memory images as ``$readmemh`` text and the ids of its streams, whose
elements (bit patterns) the job lists per design; it drives the ``vichls_sim_top``
harness (see sim_harness.py: all per-cycle work happens in Verilog there) and writes
``results.json`` next to the job: per run the ``ap_return`` bit pattern, the cycle count,
the dumped memory images, per stream the elements read or written, and the done edges.
Per run it only writes the images and the stream sources' files, sets the scalars,
toggles ``go``, waits for ``fin`` to toggle and reads the results back (a run of several
calls also wakes once per done edge, to record it). A stream that several runs of a
design share carries what one leaves (or puts) to the next. The designs run
concurrently (one cocotb task each).

A design error (timeout, deadlock, sink overflow, bad memory access, handshake
violation) ends that design's calls and is recorded with the design's name; any other
exception is recorded as ``fatal``. The test itself never fails, so the parent always
has a results file to read.
"""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly
from cocotb.utils import get_sim_time

RESET_CYCLES = 3
CLOCK_PERIOD_NS = 10
# Keep in step with sim_harness.py (not imported here, see the module docstring).
STATUS_TIMEOUT, STATUS_NO_READY, STATUS_DEADLOCK, STATUS_OVERFLOW = 1, 2, 3, 4
BAD_ACCESS_TEXT = {
    0: "address out of range on port 0",
    1: "address out of range on port 1",
    2: "both ports wrote one word in the same cycle",
}


def _unsigned(value) -> int:
    """A signal's value as an unsigned int: a LogicArray, or a Logic for a 1-bit port."""
    return int(value.to_unsigned()) if hasattr(value, "to_unsigned") else int(value)


def _read_words(text: str, count: int) -> list[int] | None:
    """The first ``count`` words of ``$writememh`` text; None if one is undefined (x/z)."""
    words: list[int] = []
    for line in text.splitlines():
        line = line.split("//", 1)[0].strip()
        if line and not line.startswith("@"):
            try:
                words += [int(token, 16) for token in line.split()]
            except ValueError:
                return None
    return words[:count]


def _stream_states(dut, p: str, meta: dict) -> list[str]:
    """What each stream looked like when a run ended in error: an empty input stream or a
    full sink explains a deadlock or a timeout."""
    states = []
    capacity = meta["stream_capacity"]
    for i, s in enumerate(meta["streams"]):
        name = s["param"]
        if s["dir"] == "in":
            taken = _unsigned(getattr(dut, f"{p}_f{i}_taken").value)
            given = _unsigned(getattr(dut, f"{p}_f{i}_given").value)
            waiting = _unsigned(getattr(dut, f"{p}_f{i}_read").value)
            if taken >= given and waiting:
                states.append(
                    f"input stream {name!r} was empty and the design waited to read it (it "
                    f"read all {given} elements the call gave): the kernel got more elements "
                    f"from {name!r} than the call gave (its Python call would raise "
                    f"StreamEmptyError); give the call more")
            elif taken >= given:
                states.append(f"input stream {name!r} was empty (the design read all {given} "
                              f"elements the call gave)")
            else:
                states.append(f"input stream {name!r} was not empty ({given - taken} of its "
                              f"{given} elements left)")
        else:
            count = _unsigned(getattr(dut, f"{p}_f{i}_count").value)
            if count >= capacity:
                states.append(
                    f"the sink of output stream {name!r} was full ({capacity} elements, the "
                    f"simulation's stream capacity): pass a larger stream_capacity to SimDesign")
            else:
                states.append(f"the sink of output stream {name!r} was not full ({count} "
                              f"elements written)")
    return states


async def _watch_done_edges(done_edge, edges: list[int]) -> None:
    """Record every done edge of a run: the harness sets done_edge to the edge's number
    plus one at each, so every done edge is a change (0 marks a run's start)."""
    while True:
        await done_edge.value_change
        value = _unsigned(done_edge.value)
        if value:
            edges.append(value - 1)


async def _feed_scalars(dut, p: str, handles: dict, per_call: list[dict]) -> None:
    """Give each call of a run its own scalars: after each edge that accepts a call (one
    that samples ap_start and ap_ready high), the next call's values, set at the falling
    edge (half a cycle before the next edge that may accept)."""
    start, ready = getattr(dut, f"{p}_ap_start"), getattr(dut, f"{p}_ap_ready")
    accepted, update = 0, False
    while accepted < len(per_call) - 1 or update:
        await FallingEdge(dut.clk)
        if update:
            for s, handle in handles.items():
                handle.value = per_call[accepted][s]
            update = False
        await ReadOnly()
        if start.value.is_resolvable and ready.value.is_resolvable \
                and int(start.value) and int(ready.value):
            accepted += 1
            update = accepted < len(per_call)


async def _run_design(dut, meta: dict, workdir: Path, job: dict, results: dict) -> None:
    p, name = meta["prefix"], meta["name"]
    max_cycles = job["max_cycles"]
    rst, go, fin = getattr(dut, f"{p}_rst"), getattr(dut, f"{p}_go"), getattr(dut, f"{p}_fin")
    status, spurious, cycles = (getattr(dut, f"{p}_{s}") for s in ("status", "spurious", "cycles"))
    times_port, done_edge = getattr(dut, f"{p}_times"), getattr(dut, f"{p}_done_edge")
    getattr(dut, f"{p}_throttle").value = int(meta["throttle"])
    ret = getattr(dut, f"{p}_ret") if meta["has_ret"] else None
    scalars = {s: getattr(dut, f"{p}_s_{s}") for s in meta["scalars"]}
    banks = [
        (workdir / b["file"], getattr(dut, f"{p}_m{i}_bad"), f"{p}_m{i}", b)
        for i, b in enumerate(meta["banks"])
    ]
    # the elements of every stream of this design's calls, by stream id: a stream that
    # several calls share carries what one call leaves (or puts) to the next
    contents = {sid: list(values) for sid, values in meta["stream_values"].items()}
    capacity = meta["stream_capacity"]
    done_calls: list[dict] = []
    results[name] = {"calls": done_calls, "error": None}
    go_level = 0
    for call in meta["calls"]:
        errors = []
        for i, (s, sid) in enumerate(zip(meta["streams"], call["streams"])):
            if s["dir"] != "in":
                continue
            values = contents[sid]
            if len(values) > capacity:
                errors.append(
                    f"design {name!r}: input stream {s['param']!r} holds {len(values)} elements, "
                    f"more than the simulation's stream capacity {capacity}: pass a larger "
                    f"stream_capacity to SimDesign")
            (workdir / s["file"]).write_text("".join(f"{v:x}\n" for v in values[:capacity]))
            getattr(dut, f"{p}_f{i}_count").value = min(len(values), capacity)
        if errors:
            results[name]["error"] = "; ".join(errors)
            return
        for (path, _, _, _), image in zip(banks, call["images"]):
            path.write_text(image)
        for s, handle in scalars.items():
            handle.value = call["scalars"][s]
        times = call["times"]
        times_port.value = times
        edges: list[int] = []
        watcher = cocotb.start_soon(_watch_done_edges(done_edge, edges)) if times > 1 else None
        feeder = (cocotb.start_soon(_feed_scalars(dut, p, scalars, call["scalars_per_call"]))
                  if times > 1 and call.get("scalars_per_call") else None)
        go_level ^= 1
        go.value = go_level
        await fin.value_change
        if watcher is not None:
            watcher.cancel()
        if feeder is not None:
            feeder.cancel()

        n = int(cycles.value.to_unsigned())
        code = int(status.value.to_unsigned())
        if code == STATUS_TIMEOUT:
            errors.append(
                f"design {name!r} did not raise ap_done within max_cycles={max_cycles} cycles: "
                f"raise max_cycles if the kernel really takes that long, else check the "
                f"design's loops and its control FSM"
                + "".join(f"; {state}" for state in _stream_states(dut, p, meta))
            )
        elif code == STATUS_NO_READY:
            errors.append(
                f"design {name!r} raised ap_done without ap_ready while ap_start was held "
                f"(a caller would start it again)"
            )
        elif code == STATUS_DEADLOCK:
            errors.append(
                f"design {name!r} deadlocked: its vichls_stalled wire stayed high for "
                f"{job['deadlock_cycles']} consecutive cycles (it was busy and every part of "
                f"it waited on a stream)"
                + "".join(f"; {state}" for state in _stream_states(dut, p, meta))
                + ". Check that each call gives every input stream as many elements as the "
                "kernel gets from it, and that the FIFOs between the design's tasks are deep "
                "enough for the order in which the tasks put and get"
            )
        elif code == STATUS_OVERFLOW:
            full = [s["param"] for i, s in enumerate(meta["streams"]) if s["dir"] == "out"
                    and _unsigned(getattr(dut, f"{p}_f{i}_count").value) >= capacity]
            errors.append(
                f"design {name!r} wrote more than {capacity} elements (the simulation's stream "
                f"capacity) to output stream {', '.join(map(repr, full))}: pass a larger "
                f"stream_capacity to SimDesign"
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
        stream_results = []
        if not errors:
            for i, (s, sid) in enumerate(zip(meta["streams"], call["streams"])):
                if s["dir"] == "in":
                    taken = _unsigned(getattr(dut, f"{p}_f{i}_taken").value)
                    stream_results.append(contents[sid][:taken])
                    del contents[sid][:taken]
                    continue
                count = _unsigned(getattr(dut, f"{p}_f{i}_count").value)
                words = _read_words((workdir / s["file"]).read_text(), count) if count else []
                if words is None or len(words) != count:
                    errors.append(f"design {name!r} put an undefined (x/z) value into output "
                                  f"stream {s['param']!r}")
                    break
                stream_results.append(words)
                contents[sid].extend(words)
        if ret is not None and not ret.value.is_resolvable:
            errors.append(f"design {name!r} returned an undefined (x/z) ap_return: {ret.value}")
        if errors:
            results[name]["error"] = "; ".join(errors)
            rst.value = 1  # leave the design in a known state
            await ClockCycles(dut.clk, RESET_CYCLES)
            rst.value = 0
            return
        done_calls.append(
            {"ret": None if ret is None else _unsigned(ret.value), "cycles": n, "images": images,
             "streams": stream_results, "done_edges": edges if times > 1 else [n]}
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
            cocotb.start_soon(_run_design(dut, meta, workdir, job, results["designs"]))
            for meta in job["designs"]
        ]
        for task in tasks:
            await task
    except Exception:  # noqa: BLE001  (reported to the parent, which raises SimError)
        results["fatal"] = traceback.format_exc()
    results["sim_cycles"] = int(get_sim_time("ns") // CLOCK_PERIOD_NS)
    (workdir / "results.json").write_text(json.dumps(results))
