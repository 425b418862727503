"""The ``vichls bench`` run: compile, bound, simulate, synthesize and compare a suite.

What: ``run_bench(BenchOptions(...)) -> BenchResult`` takes the benchmarks of the suite
registry (``benchmarks/suite.py`` of the checkout: ``benchmarks(size, names)``), and for each:

1. builds the loop-level IR with the asked-for directives (none; the benchmark's own
   ``directives``; or the point ``vichls.dse.explore`` chooses) and compiles it for the FPGA,
   timing that compile;
2. computes the lower bound on cycles from the IR (``vichls.bench.bound``);
3. simulates every design in ONE simulator build on the benchmark's deterministic inputs and
   compares every result bit for bit with the Python call (a difference is a failure row);
4. synthesizes each design (Xilinx resources, ECP5 fmax) in a process pool, started as soon
   as the design exists so that synthesis overlaps the simulator build;
5. fills one row per benchmark: measured figures, the report's estimates and their error,
   the bound, and the published Vivado HLS / Calyx figures with our ratios.

Why one simulator build: a Verilator build costs tens of seconds whatever the number of
designs, so building once keeps the whole suite within minutes. Why a process pool for
synthesis: each run is single-threaded WebAssembly of tens of seconds.

Assumes the suite contract of benchmarks/suite.py (``Benchmark`` with name, family, size,
kernel, make_inputs(rng=None), published, directives). ``benchmarks/`` is not an installed
package: ``load_suite`` finds it in the checkout (next to ``src/``) or in ``suite_dir``.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from vichls.errors import VichlsError

__all__ = ["BenchOptions", "BenchResult", "DEFAULT_DSE_POINTS", "DEFAULT_DSE_SECONDS", "DIRECTIVE_MODES", "default_suite_dir", "load_suite",
           "run_bench"]

DIRECTIVE_MODES = ("none", "manual", "dse")
#: Seconds of wall clock each benchmark's exploration may take under --directives dse.
DEFAULT_DSE_SECONDS = 120.0
DEFAULT_DSE_POINTS = 200  # (vichls dse's --max-points)


@dataclass
class BenchOptions:
    names: list[str] | None = None  # None: the whole suite at ``size``
    size: str = "small"
    directives: str = "none"  # one of DIRECTIVE_MODES
    jobs: int | None = None  # synthesis and DSE processes (default: os.cpu_count())
    synth: bool = True  # Yosys synth_xilinx resources
    fmax: bool = True  # nextpnr-ecp5 fmax
    clock_period_ns: float = 10.0
    device: str = "xc7"  # the operator-library table the designs are scheduled with
    fmax_target_mhz: float | None = None  # default: the scheduled clock, 1000 / period
    fmax_seeds: int = 1  # placer seeds per design; the median fmax is reported
    suite_dir: Path | None = None
    simulator: str = "verilator"
    max_cycles: int = 50_000_000
    progress: bool = True  # tqdm bars and phase lines on stderr
    dse_seconds: float | None = DEFAULT_DSE_SECONDS  # time budget of each benchmark's DSE (None: none)
    #: design points each benchmark's DSE evaluates at most: with no time budget, the
    #: choice does not depend on the machine's speed or load
    dse_points: int = DEFAULT_DSE_POINTS

    @property
    def target_mhz(self) -> float:
        return self.fmax_target_mhz or 1000.0 / self.clock_period_ns


@dataclass
class BenchResult:
    rows: list[dict]
    summary: dict
    options: BenchOptions
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[dict]:
        return [r for r in self.rows if r["status"] != "ok"]


# -- finding the suite ------------------------------------------------------------------------------


def default_suite_dir() -> Path:
    """``benchmarks/`` of the checkout vichls runs from (``src/vichls`` → the repository)."""
    import vichls

    return Path(vichls.__file__).resolve().parents[2] / "benchmarks"


@contextmanager
def _suite_imports(suite_dir: Path):
    """Import ``benchmarks`` from ``suite_dir`` inside the block.

    The suite imports itself as the package ``benchmarks`` (another ``benchmarks`` package,
    xdsl's, may be installed, and the suite may import its kernels lazily); any
    ``benchmarks`` modules already imported are set aside for the block and put back
    afterwards, so suites from several folders can be loaded in one process."""
    def ours():
        return {k: m for k, m in sys.modules.items()
                if k == "benchmarks" or k.startswith("benchmarks.")}

    saved = ours()
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(suite_dir.parent))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(suite_dir.parent))
        for k in ours():
            del sys.modules[k]
        sys.modules.update(saved)


def load_suite(suite_dir: Path | None, size: str, names: list[str] | None) -> list:
    """``benchmarks(size, names)`` of the suite in ``suite_dir`` (default: the checkout's)."""
    suite_dir = Path(suite_dir or default_suite_dir()).resolve()
    if not (suite_dir / "suite.py").is_file():
        raise VichlsError(f"no benchmark suite at {suite_dir} (expected {suite_dir / 'suite.py'}); "
                          "run vichls bench from a vichls checkout or pass --suite-dir DIR")
    with _suite_imports(suite_dir):
        module = importlib.import_module("benchmarks.suite")
        where = Path(module.__file__).resolve().parent
        if where != suite_dir:
            raise VichlsError(f"importing the suite of {suite_dir} found {where} instead")
        try:
            return module.benchmarks(size, names)
        except KeyError as e:
            raise VichlsError(f"vichls bench: {e.args[0] if e.args else e}") from None


# -- one benchmark's design ---------------------------------------------------------------------------


@dataclass
class _Built:
    bench: object
    row: dict
    design: object = None
    module: object = None


def _module_for(bench, mode: str, options: BenchOptions) -> tuple[object, str]:
    """The loop-level IR of ``bench`` under directive ``mode``, and the directives as text."""
    import vichls

    if mode == "none":
        return bench.kernel.module(), "none"
    if mode == "manual":
        if bench.directives is None:
            return bench.kernel.module(), "none (no manual set)"
        schedule = vichls.customize(bench.kernel)
        # a directive set may import the suite (its budgets) lazily, long after load_suite
        with _suite_imports(Path(options.suite_dir or default_suite_dir()).resolve()):
            bench.directives(schedule)
        return schedule.module(), _spelled(schedule)
    from vichls.dse import apply_directives, explore  # checked available by run_bench

    jobs = max(1, options.jobs or os.cpu_count() or 1)
    result = explore(bench.kernel, jobs=jobs, clock_period_ns=options.clock_period_ns,
                     time_budget=options.dse_seconds, max_points=options.dse_points,
                     progress=options.progress)
    schedule = vichls.customize(bench.kernel)
    if result.chosen is not None:
        apply_directives(schedule, result.chosen.directives)
    return schedule.module(), _spelled(schedule)


def _spelled(schedule) -> str:
    return "; ".join(d.spelled()[2:] for d in schedule.directives) or "none"


def _build_one(bench, options: BenchOptions) -> _Built:
    from vichls.targets.oplib import use_device

    with use_device(options.device):  # compile, bound and DSE all read the device's table
        return _build_one_on_device(bench, options)


def _build_one_on_device(bench, options: BenchOptions) -> _Built:
    from vichls.bench.bound import cycle_bound
    from vichls.driver.fpga import compile_fpga

    row = _empty_row(bench, options)
    built = _Built(bench, row)
    try:
        start = time.perf_counter()
        module, spelled = _module_for(bench, options.directives, options)
        design = compile_fpga(module, clock_period_ns=options.clock_period_ns)
        row["compile_s"] = round(time.perf_counter() - start, 3)
        row["directives"] = spelled
    except Exception as e:  # noqa: BLE001  (a failure row; the suite goes on)
        return _fail(built, "compile error", e)
    built.design, built.module = design, module
    report = design.report
    res = report.get("resources", {})
    row.update(est_lut=res.get("lut"), est_ff=res.get("ff"), est_dsp=res.get("dsp"),
               est_bram=res.get("bram18"))
    latency = report.get("latency", {})
    row["est_cycles"] = latency.get("max")  # None: the report's latency is data-dependent
    iis = [loop["ii"] for loop in report.get("loops", []) if loop.get("pipelined")]
    row["ii"] = ",".join(str(ii) for ii in iis) if iis else None
    try:
        # the call the simulation makes: its arrays may set trip counts
        args = bench.make_inputs()
        inputs = {p.name: a for p, a in zip(design.signature.params, args) if p.is_array}
        bound = cycle_bound(module, options.clock_period_ns, inputs)
        row.update(bound=bound.cycles, bound_complete=bound.complete, bound_limit=bound.limit)
    except Exception as e:  # noqa: BLE001
        row["detail"] = f"bound: {type(e).__name__}: {e}"
    return built


def _empty_row(bench, options: BenchOptions) -> dict:
    pub = getattr(bench, "published", {}) or {}
    return dict(
        name=bench.name, family=bench.family, size=bench.size, directives=options.directives,
        status="ok", detail="", cycles=None, ii=None, bound=None, bound_complete=None,
        cycles_per_bound=None, bound_limit=None, est_cycles=None, est_cycles_err_pct=None,
        lut=None, ff=None, dsp=None, bram=None, fmax_mhz=None, compile_s=None,
        est_lut=None, est_ff=None, est_dsp=None, est_bram=None,
        est_lut_err_pct=None, est_ff_err_pct=None, est_dsp_err=None,
        vivado_cycles=pub.get("vivado_cycles"), cycles_vs_vivado=None,
        calyx_cycles=pub.get("calyx_cycles"), cycles_vs_calyx=None,
        vivado_lut=pub.get("vivado_lut"), lut_vs_vivado=None,
        calyx_lut=pub.get("calyx_lut"), lut_vs_calyx=None,
    )


def _fail(built: _Built, status: str, error) -> _Built:
    text = str(error) if not isinstance(error, Exception) else (str(error) or type(error).__name__)
    built.row["status"] = status
    built.row["detail"] = (built.row["detail"] + "; " if built.row["detail"] else "") + \
        " ".join(text.split())[:400]
    return built


# -- the run ---------------------------------------------------------------------------------------------


def run_bench(options: BenchOptions, log: Callable[[str], None] | None = None) -> BenchResult:
    """Run the suite as ``options`` say; never raises for a design's failure (it becomes a
    row with a non-"ok" status), only for bad options or a missing suite (VichlsError)."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    say = log if options.progress else (lambda msg: None)
    started = time.perf_counter()
    if options.directives not in DIRECTIVE_MODES:
        raise VichlsError(f"unknown --directives {options.directives!r} "
                          f"(expected one of {', '.join(DIRECTIVE_MODES)})")
    if options.clock_period_ns <= 0:
        raise VichlsError("the clock period must be positive")
    from vichls.targets.oplib import device

    try:
        device(options.device)
    except ValueError as e:
        raise VichlsError(f"--device: {e}") from None
    notes: list[str] = []
    if options.directives == "dse":
        try:
            importlib.import_module("vichls.dse")
        except ImportError:
            raise VichlsError("--directives dse: not available yet (this version of vichls has "
                              "no design-space exploration)") from None
    benches = load_suite(options.suite_dir, options.size, options.names)
    if not benches:
        raise VichlsError(f"the suite has no benchmarks at size {options.size!r}")
    if options.directives == "manual" and not any(b.directives for b in benches):
        notes.append("--directives manual: no benchmark has a manual directive set yet, so "
                     "every design is the one without directives")

    jobs = max(1, options.jobs or os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=jobs) if (options.synth or options.fmax) else None
    futures: dict[str, Future] = {}
    built: list[_Built] = []
    try:
        say(f"vichls bench: compiling {len(benches)} benchmarks ({options.size}, "
            f"directives {options.directives})")
        for bench in _progress(benches, options, "compile"):
            b = _build_one(bench, options)
            built.append(b)
            if pool is not None and b.design is not None:
                from vichls.bench.synthesis import SynthJob, synthesize

                job = SynthJob(bench.name, b.design.signature.name, b.design.verilog,
                               xilinx=options.synth, fmax=options.fmax,
                               target_mhz=options.target_mhz, fmax_seeds=options.fmax_seeds)
                futures[bench.name] = pool.submit(synthesize, job)
        _simulate(built, options, say)
        if futures:
            say(f"vichls bench: synthesis of {len(futures)} designs on {jobs} processes")
            for name, fut in _progress(list(futures.items()), options, "synthesis"):
                _take_synthesis(next(b for b in built if b.bench.name == name), fut.result())
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    rows = [b.row for b in built]
    for row in rows:
        _ratios(row)
    from vichls.bench.table import summarize

    return BenchResult(rows, summarize(rows), options, time.perf_counter() - started, notes)


def _progress(items, options: BenchOptions, what: str):
    """``items`` with a tqdm bar on stderr when progress is on."""
    if not options.progress:
        return items
    from tqdm import tqdm

    return tqdm(items, desc=what, unit="design", file=sys.stderr, leave=False,
                dynamic_ncols=True)


def _simulate(built: list[_Built], options: BenchOptions, say) -> None:
    """All designs in one simulator build; each checked bit for bit against Python."""
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.inputs import copy_args
    from vichls.results import differences, results_of
    from vichls.signature import check_call_args

    designs, calls, expected = [], {}, {}
    for b in built:
        if b.design is None:
            continue
        try:
            sig = b.design.signature
            args = tuple(check_call_args(sig, b.bench.make_inputs()))
            ref_args = copy_args(args)
            ret = b.bench.kernel(*ref_args)
            expected[b.bench.name] = results_of(sig, ref_args, ret)
            designs.append(SimDesign(b.design.verilog, sig, name=b.bench.name,
                                     partitions=b.design.partitions))
            calls[b.bench.name] = [args]
        except Exception as e:  # noqa: BLE001
            _fail(b, "sim error", f"preparing the simulation: {type(e).__name__}: {e}")
    if not designs:
        return
    say(f"vichls bench: building one {options.simulator} simulation of {len(designs)} designs "
        "(cached after the first time)")
    by_name = {b.bench.name: b for b in built}
    try:
        model = build_simulation(designs, simulator=options.simulator)
        say("vichls bench: simulating")
        results = model.run_many(calls, max_cycles=options.max_cycles, raise_errors=False)
    except Exception as e:  # noqa: BLE001  (the build failed: every design's row says so)
        for name in calls:
            _fail(by_name[name], "sim error", e)
        return
    for name, res in results.items():
        b = by_name[name]
        if isinstance(res, Exception):
            _fail(b, "sim error", res)
            continue
        (call,) = res
        b.row["cycles"] = call.cycles
        diffs = differences(expected[name], (call.ret, call.arrays))
        if diffs:
            _fail(b, "MISMATCH", "simulated result differs from Python: " + "; ".join(diffs[:3]))


def _take_synthesis(b: _Built, result) -> None:
    if result.resources is not None:
        b.row.update(lut=result.resources["lut"], ff=result.resources["ff"],
                     dsp=result.resources["dsp"], bram=result.resources["bram"])
    if result.fmax_mhz is not None:
        b.row["fmax_mhz"] = round(result.fmax_mhz, 1)
        # the signals of the worst path (JSON only: where a design's clock is lost)
        b.row["fmax_path"] = " -> ".join(result.ecp5.get("critical_path", []))
        if "fmax_by_seed" in result.ecp5:
            b.row["fmax_by_seed"] = [None if f is None else round(f, 1)
                                     for f in result.ecp5["fmax_by_seed"]]
    b.row["synth_s"] = round(result.xilinx_seconds + result.fmax_seconds, 1)
    if result.errors and b.row["status"] == "ok":
        _fail(b, "synth error", " | ".join(result.errors))


def _ratio(a, b, digits: int = 2):
    return round(a / b, digits) if a is not None and b else None


def _error_pct(estimate, measured):
    if estimate is None or measured is None or not measured:
        return None
    return round(100.0 * (estimate - measured) / measured, 1)


def _ratios(row: dict) -> None:
    row["cycles_per_bound"] = _ratio(row["cycles"], row["bound"])
    row["est_cycles_err_pct"] = _error_pct(row["est_cycles"], row["cycles"])
    row["est_lut_err_pct"] = _error_pct(row["est_lut"], row["lut"])
    row["est_ff_err_pct"] = _error_pct(row["est_ff"], row["ff"])
    if row["est_dsp"] is not None and row["dsp"] is not None:
        row["est_dsp_err"] = row["est_dsp"] - row["dsp"]
    row["cycles_vs_vivado"] = _ratio(row["cycles"], row["vivado_cycles"])
    row["cycles_vs_calyx"] = _ratio(row["cycles"], row["calyx_cycles"])
    row["lut_vs_vivado"] = _ratio(row["lut"], row["vivado_lut"])
    row["lut_vs_calyx"] = _ratio(row["lut"], row["calyx_lut"])
