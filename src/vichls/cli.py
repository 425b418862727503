"""The ``vichls`` command: compile kernels to Verilog or machine code, and check designs
against their Python meaning in simulation."""

from __future__ import annotations

import argparse
import atexit
import math
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from vichls.limits import deep
from vichls import __version__
from vichls.time_limit import TimeLimitExceeded, time_limit
from vichls.errors import VichlsError
from vichls.frontend.design_file import Loaded, load_design  # noqa: F401 (Loaded: API)

EMIT_KINDS = ("loop", "structural", "verilog", "llvm", "python")


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- writing outputs atomically ----------------------------------------------------------------


def _write_outputs(out_dir: Path, files: dict[str, str | bytes]) -> list[Path]:
    """Write every file into a temporary folder beside ``out_dir``, then move them in, so a
    failure never leaves a partial output folder."""
    out_dir = out_dir.resolve()
    if out_dir.exists() and not out_dir.is_dir():
        raise VichlsError(f"-o {out_dir}: a file of that name exists; the output is a folder")
    for above in out_dir.parents:
        if above.exists():
            if not above.is_dir():
                raise VichlsError(f"-o {out_dir}: {above} is a file, not a folder")
            break
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".vichls-", dir=out_dir.parent))
    except OSError as e:
        raise VichlsError(f"-o {out_dir}: cannot write there ({e.strerror})") from None
    try:
        for name, content in files.items():
            p = staging / name
            p.parent.mkdir(parents=True, exist_ok=True)  # (a package's ip/hdl/)
            if isinstance(content, bytes):
                p.write_bytes(content)
            else:
                p.write_text(content)
        out_dir.mkdir(exist_ok=True)
        written = []
        for name in files:
            (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / name, out_dir / name)
            written.append(out_dir / name)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _fmt_latency(lat: dict) -> str:
    lo, hi = lat.get("min"), lat.get("max")
    if lo is None and hi is None:
        return "unknown (data-dependent)"
    if lo == hi:
        return f"{lo} cycles"
    if hi is None:
        return f"at least {lo} cycles (data-dependent)"
    return f"{lo} to {hi} cycles"


# -- compile ----------------------------------------------------------------------------------------


@deep
def cmd_compile(args) -> int:
    from vichls.frontend.mlir_input import print_module

    t0 = time.perf_counter()
    is_onnx = args.file.endswith(".onnx")
    if not is_onnx and (args.emit == "python" or args.check_inputs):
        raise VichlsError(f"--{'emit python' if args.emit == 'python' else 'check-inputs'} "
                          "applies to ONNX models (.onnx)")
    if args.emit == "python":
        return _emit_onnx_python(args)
    loaded = _load(args)
    top = loaded.signature.name
    if args.check_inputs:
        _check_onnx_inputs(args)
    loop_text = print_module(loaded.module)
    emit = args.emit
    if emit == "llvm" and args.target != "cpu":
        raise VichlsError("--emit llvm needs --target cpu")
    if emit == "structural" and args.target != "fpga":
        raise VichlsError("--emit structural needs --target fpga")
    if emit == "verilog" and args.target != "fpga":
        raise VichlsError("--emit verilog needs --target fpga")
    if emit == "loop":
        return _emit(args, {f"{top}.mlir": loop_text}, loop_text)

    from vichls.driver.build import build_module

    if args.target == "cpu":
        cpu = build_module(loaded.module, "cpu")
        if emit == "llvm":
            return _emit(args, {f"{top}.ll": cpu.llvm_ir}, cpu.llvm_ir)
        files = {f"{top}.ll": cpu.llvm_ir, f"{top}.o": cpu.object_code(), f"{top}.mlir": loop_text}
        written = _write_outputs(Path(args.output), files)
        print(f"vichls: {top} compiled for the CPU in {time.perf_counter() - t0:.2f} s")
        for p in written:
            print(f"  wrote {p}")
        return 0

    from vichls.targets.oplib import use_device

    args.clock_period = clock_period_of(args)
    from vichls.driver.fpga import compile_fpga

    with use_device(args.device):  # (the loaded module is not needed after: no copy)
        design = compile_fpga(loaded.module, clock_period_ns=args.clock_period, consume=True,
                              keep_structural=emit == "structural")
    if emit == "verilog":
        return _emit(args, {f"{top}.v": design.deliverable}, design.deliverable)
    if emit == "structural":
        text = print_module(design.structural, with_locations=False)
        return _emit(args, {f"{top}.structural.mlir": text}, text)
    report = json.dumps(design.report, indent=2, sort_keys=True) + "\n"
    from vichls.report_text import text_report

    files = {f"{top}.v": design.deliverable, f"{top}.report.json": report,
             f"{top}.rpt": text_report(design.report), f"{top}.mlir": loop_text}
    if getattr(args, "package", None):
        from vichls.interface.package import package_files

        files.update(package_files(top, design.deliverable, design.report, args.package))
    if design.register_maps:  # software for its s_axilite register files
        from vichls.interface.drivers import c_driver, hw_header, python_driver

        files[f"x{top}_hw.h"] = hw_header(top, design.register_maps)
        files[f"{top}_driver.py"] = python_driver(top, design.signature, design.register_maps)
        files[f"x{top}.h"], files[f"x{top}.c"] = c_driver(top, design.register_maps)
    written = _write_outputs(Path(args.output), files)
    r = design.report
    res = r.get("resources", {})
    print(f"vichls: {top} compiled for the FPGA in {time.perf_counter() - t0:.2f} s "
          f"(clock period {args.clock_period:g} ns"
          + (f", device {args.device})" if args.device != "xc7" else ")"))
    print(f"  latency:   {_fmt_latency(r.get('latency', {}))}")
    print("  resources: " + ", ".join(f"{k.upper()} {v}" for k, v in res.items()) + " (estimate)")
    for loop in r.get("loops", []):
        if loop.get("pipelined"):
            trips = loop.get("trip_count")
            where = f"task '{loop['task']}', " if "task" in loop else ""
            print(f"  pipeline:  {where}loop '{loop['name']}': II={loop['ii']}, depth "
                  f"{loop['depth']} cycles" + (f", {trips} iterations" if trips is not None else ""))
    df = r.get("dataflow")
    if df:
        interval = df.get("interval")
        print(f"  dataflow:  {len(df['tasks'])} tasks, {len(df['channels'])} channels"
              + (f"; a call every {interval} cycles in steady state, bottleneck task "
                 f"'{df['bottleneck']}'" if interval is not None else ""))
        for task in df["tasks"]:
            cycles = "data-dependent" if task["latency"] is None else f"{task['latency']} cycles"
            print(f"    task     {task['name']} (module {task['module']}): {cycles}")
        for ch in df["channels"]:
            size = (f"depth {ch['depth']}" if ch["kind"] == "fifo"
                    else f"{ch.get('banks', 2)} x {ch['words']} words")
            emptied = ("; emptied between calls (the producer may put more elements than the "
                       "consumer gets), so calls do not overlap"
                       if ch.get("emptied_between_calls") else "")
            print(f"    channel  {ch['name']}: {ch['kind']} ({size}), {ch['producer']} -> "
                  f"{ch['consumer']}{emptied}")
    for p in written:
        print(f"  wrote {p}")
    sys.stdout.flush()
    for warning in r.get("warnings", []):
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _load(args) -> Loaded:
    """FILE: a kernel file, a package, or an ONNX model (with --precision, --io, ...)."""
    if args.file.endswith(".onnx"):
        from vichls.onnx.design import load_onnx_design

        return load_onnx_design(args.file, args.top, _onnx_options(args))
    return load_design(args.file, args.top)


def _onnx_options(args) -> dict:
    """vichls.onnx.load's options from --precision, --io, --parallelism."""
    par = getattr(args, "parallelism", None)
    if par is not None and par not in ("full", "auto"):
        par = positive_int(par) if par.isdigit() else None
        if par is None:
            raise VichlsError(f"--parallelism {args.parallelism!r}: a whole number above zero "
                              "(multiply-accumulates per cycle), 'full' or 'auto'")
    return {"precision": args.precision, "io": args.io, "parallelism": par,
            "boundary": getattr(args, "boundary", None)}


def _emit_onnx_python(args) -> int:
    """--emit python: the kernel file generated for an ONNX model (with -o DIR: written
    there with its weights, <top>.py and <top>.npz)."""
    from vichls.onnx import read_model, source

    gen = source(read_model(args.file), **_onnx_options(args))
    if args.output is None or args.output_defaulted:
        sys.stdout.write(gen.source)
        return 0
    import io as _io

    buf = _io.BytesIO()
    np.savez(buf, **gen.weights)
    for p in _write_outputs(Path(args.output), {f"{gen.top}.py": gen.source,
                                                f"{gen.top}.npz": buf.getvalue()}):
        print(f"  wrote {p}")
    return 0


def _check_onnx_inputs(args) -> None:
    """--check-inputs FILE.npy: the design's agreement with onnxruntime on those inputs."""
    from vichls.onnx import accuracy

    try:
        data = np.load(args.check_inputs)
    except (OSError, ValueError) as e:
        raise VichlsError(f"--check-inputs {args.check_inputs}: cannot read it ({e})") from None
    r = accuracy(args.file, data, **_onnx_options(args))
    print(f"  accuracy:  argmax agrees with onnxruntime on {r['agree']} of {r['samples']} "
          f"inputs ({100 * r['argmax_agreement']:.1f}%); largest absolute error "
          f"{r['max_abs_error']:.6g}")
    if "mismatches" in r:
        print(f"  bit-exact: {r['samples'] - r['mismatches']} of {r['samples']} outputs equal "
              "onnxruntime's bit for bit")


def _onnx_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of an ONNX model FILE (docs/onnx.md)."""
    parser.add_argument("--precision", default="fixed(16, 6)", metavar="P",
                        help="ONNX models: the number type, fixed(W, I) or float32 "
                             "(default: fixed(16, 6))")
    parser.add_argument("--io", choices=("memory", "stream"), default="memory",
                        help="ONNX models: tensors as arrays (memory, default) or streams")
    parser.add_argument("--parallelism", metavar="N", default=None,
                        help="ONNX models: multiply-accumulates per cycle of each layer, "
                             "'full', or 'auto' (each layer's chosen to balance the layers "
                             "within the device's DSP blocks and block RAMs; default: one "
                             "output per cycle)")
    parser.add_argument("--boundary", choices=("quantized", "float"), default=None,
                        help="quantized ONNX models: the design's inputs and outputs are the "
                             "int8/uint8 tensors (quantized, default) or the float ones, "
                             "(de)quantized in hardware (float)")


def _emit(args, files: dict[str, str], text: str) -> int:
    if args.output is None or args.output_defaulted:
        sys.stdout.write(text)
        return 0
    for p in _write_outputs(Path(args.output), files):
        print(f"  wrote {p}")
    return 0


# -- sim ------------------------------------------------------------------------------------------------


def cmd_sim(args) -> int:
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.frontend.reference import ReferenceStepLimit, bounded_reference
    from vichls.inputs import copy_args, random_args
    from vichls.results import differences
    from vichls.driver.build import build_module
    from vichls.signature import check_call_args

    loaded = _load(args)
    if loaded.kernel is None:
        raise VichlsError("vichls sim needs the Python kernel (a .py file) as its reference")
    sig = loaded.kernel.signature
    _log(f"vichls: compiling {sig.name} for the FPGA")
    design = build_module(loaded.module, "fpga", clock_period_ns=args.clock_period)
    rng = np.random.default_rng(args.seed)
    reference = bounded_reference(loaded.kernel, args.reference_steps)
    runs = []
    skipped = 0
    for _ in range(args.runs):
        inputs = loaded.make_inputs(rng) if loaded.make_inputs else random_args(sig, rng)
        inputs = tuple(check_call_args(sig, inputs))
        ref_args = copy_args(inputs)
        try:
            with time_limit(args.reference_timeout):
                ret = reference(*ref_args)
        except IndexError:
            skipped += 1  # random data drove an index out of range: outside the kernel's domain
            continue
        except (TimeLimitExceeded, ReferenceStepLimit) as e:
            limit = (f"{args.reference_timeout:g} s" if isinstance(e, TimeLimitExceeded)
                     else f"{args.reference_steps:,} loop iterations")
            raise VichlsError(f"the Python reference of '{sig.name}' did not finish within "
                              f"{limit} on run {len(runs) + skipped}: the kernel may not "
                              "terminate for these inputs; define make_inputs(rng) in the "
                              "kernel file to give inputs it finishes on, or raise "
                              "--reference-timeout / --reference-steps", args.file) from None
        arrays = {p.name: a for p, a in zip(sig.params, ref_args) if p.is_array}
        runs.append((inputs, (ret, arrays)))
    if not runs:
        raise VichlsError(f"every random input made the reference of '{sig.name}' index out "
                          "of range; define make_inputs(rng) in the kernel file to give "
                          "inputs in the kernel's domain", args.file)
    _log(f"vichls: building the {args.simulator} simulation (cached after the first time)")
    try:
        model = build_simulation([SimDesign(design.verilog, design.signature,
                                            partitions=design.partitions)],
                                 simulator=args.simulator)
        _log(f"vichls: running {len(runs)} calls")
        results = model.run(sig.name, [r[0] for r in runs], max_cycles=args.max_cycles)
    except VichlsError as e:
        hint = ""
        if "max_cycles" in e.message:
            hint = (f"\n  what to do: if '{sig.name}' really takes more than "
                    f"{args.max_cycles:,} cycles, raise --max-cycles; otherwise the design "
                    "never finishes: a bug in vichls, please report it with the kernel file")
        raise VichlsError(f"simulating '{sig.name}' failed: {e.message}{hint}",
                          args.file) from None
    mismatches = 0
    cycles = []
    for k, ((inputs, expected), res) in enumerate(zip(runs, results)):
        cycles.append(res.cycles)
        diffs = differences(expected, (res.ret, res.arrays))
        if diffs:
            mismatches += 1
            if mismatches <= 5:
                print(f"run {k}: MISMATCH")
                for d in diffs:
                    print(f"    {d}")
    print(f"vichls sim: {sig.name}: {len(runs)} runs, {mismatches} mismatches"
          + (f", {skipped} inputs skipped (reference index out of range)" if skipped else "")
          + f" (seed {args.seed})")
    print(f"  cycles: min {min(cycles)}, mean {sum(cycles) / len(cycles):.1f}, max {max(cycles)}")
    if "dataflow" in design.report and not any(p.is_stream for p in sig.params):
        mismatches += _sim_back_to_back(args, model, sig, design.report, reference, runs[0][0])
    return 1 if mismatches else 0


#: back-to-back calls of a dataflow design that ``vichls sim`` runs
BACK_TO_BACK_CALLS = 6


def _sim_back_to_back(args, model, sig, report, reference, inputs) -> int:
    """Run the first inputs BACK_TO_BACK_CALLS times back to back (a dataflow design takes
    a call before it is done), check the last call's results against as many Python calls,
    and print the interval measured between the last two calls next to the report's.
    Returns 1 on a mismatch."""
    from vichls.frontend.reference import ReferenceStepLimit
    from vichls.inputs import copy_args
    from vichls.results import differences

    work = copy_args(inputs)
    try:
        with time_limit(args.reference_timeout):
            for _ in range(BACK_TO_BACK_CALLS):
                ret = reference(*work)
    except (IndexError, TimeLimitExceeded, ReferenceStepLimit):
        # what a call leaves in its arrays took the next out of the kernel's domain
        print("  back to back: not run (the Python calls one after the other did not finish)")
        return 0
    expected = (ret, {p.name: a for p, a in zip(sig.params, work) if p.is_array})
    try:
        res = model.run_repeated(sig.name, copy_args(inputs), BACK_TO_BACK_CALLS,
                                 max_cycles=args.max_cycles * BACK_TO_BACK_CALLS)
    except VichlsError as e:
        raise VichlsError(f"simulating '{sig.name}' back to back failed: {e.message}",
                          args.file) from None
    diffs = differences(expected, (res.ret, res.arrays))
    measured = res.done_edges[-1] - res.done_edges[-2]
    reported = report["dataflow"].get("interval")
    print(f"  back to back: {BACK_TO_BACK_CALLS} calls, "
          + ("MISMATCH" if diffs else "results agree")
          + f"; a call every {measured} cycles (the report says "
          + (f"{reported})" if reported is not None else "nothing: a latency is unknown)"))
    for d in diffs[:5]:
        print(f"    {d}")
    return 1 if diffs else 0


# -- fuzz ------------------------------------------------------------------------------------------------


def cmd_fuzz(args) -> int:
    from vichls.fuzz.run import DEFAULT_TARGET, Target, run_fuzz

    directives = _directive_kinds(args.directives)
    target = Target(args.device, clock_period_of(args))
    where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else "here"
    on = "" if target == DEFAULT_TARGET else f", RTL for {target.spelled}"
    print(f"vichls fuzz: {args.count} programs from seed {args.seed} ({args.simulator}, "
          f"directives: {', '.join(sorted(directives)) or 'none'}{on}, {where})", flush=True)
    t0 = time.perf_counter()
    report = run_fuzz(args.count, args.seed, simulator=args.simulator,
                      keep=Path(args.keep) if args.keep else None,
                      regressions=Path(args.regressions), batch_size=args.batch,
                      log=_log, directives=directives, scheduler=args.scheduler,
                      target=target)
    checked, findings = report
    for f in findings:
        print(f"  program seed {f.program_seed}: {f.kind}"
              + (f" (reproducer: {f.path})" if f.path else ""))
    rejected = getattr(report, "rejected", {})
    for program_seed, message in sorted(rejected.items())[:10]:
        print(f"  program seed {program_seed}: schedule refused (checked without it): "
              f"{message.splitlines()[0]}")
    print(f"vichls fuzz: {checked} programs, {len(findings)} failing, {len(rejected)} "
          f"schedules refused (seed {args.seed}, {time.perf_counter() - t0:.0f} s)")
    return 1 if findings else 0


def _directive_kinds(spec: str) -> frozenset[str]:
    from vichls.fuzz.progen import DIRECTIVE_KINDS

    kinds = frozenset(k.strip() for k in spec.split(",") if k.strip())
    unknown = sorted(kinds - set(DIRECTIVE_KINDS))
    if unknown:
        raise VichlsError(f"--directives: unknown directive kinds {', '.join(unknown)} "
                          f"(known: {', '.join(DIRECTIVE_KINDS)})")
    return kinds


# -- bench ------------------------------------------------------------------------------------------------


def cmd_bench(args) -> int:
    from vichls.bench import run_command

    return run_command(args)


# -- dse ------------------------------------------------------------------------------------------------


def cmd_dse(args) -> int:
    from vichls.dse.command import run_command

    return run_command(args)


# -- main --------------------------------------------------------------------------------------------


def _device_options(parser: argparse.ArgumentParser) -> None:
    """--device and --target-mhz: which operator-library table schedules the design
    (vichls.targets.oplib.DEVICES), and the clock it is scheduled for in MHz."""
    from vichls.targets.oplib import DEFAULT_DEVICE, DEVICES

    parser.add_argument("--device", choices=tuple(DEVICES), default=DEFAULT_DEVICE,
                        help="the FPGA whose operator delays the scheduler chains under the "
                             f"clock (default: {DEFAULT_DEVICE}; ecp5: calibrated against "
                             "nextpnr-ecp5)")
    parser.add_argument("--target-mhz", type=positive_number, metavar="MHZ",
                        help="schedule for this clock frequency (overrides --clock-period)")


def _limit_options(parser: argparse.ArgumentParser) -> None:
    """--max-unroll: how many copies of a loop body one directive may make."""
    from vichls.limits import MAX_UNROLL_COPIES

    parser.add_argument("--max-unroll", type=positive_int, metavar="N",
                        help="refuse a directive (unroll, pipeline, complete partition) "
                             f"that unrolls more than N copies of a loop body (default: "
                             f"{MAX_UNROLL_COPIES})")


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r}: a finite number is needed")
    return value


def package_kinds(text: str) -> set[str]:
    """``--package vivado,fusesoc`` (or ``all``)."""
    from vichls.interface.package import KINDS

    kinds = {k.strip() for k in text.split(",") if k.strip()}
    bad = sorted(kinds - {*KINDS, "all"})
    if bad or not kinds:
        raise argparse.ArgumentTypeError(
            f"unknown package kind {bad[0] if bad else text!r} (known: {', '.join(KINDS)}, all)")
    return kinds


def positive_number(text: str) -> float:
    """An argparse type: a finite number above zero (a clock period, a frequency, seconds)."""
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a number above zero is needed")
    return value


def nonnegative_number(text: str) -> float:
    """An argparse type: a finite number, zero or above (0 may mean "no limit")."""
    value = _finite(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of zero or more is needed")
    return value


def _whole_number_of_at_least(minimum: int):
    """An argparse type: a whole number, ``minimum`` or more."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: {minimum} or more is needed")
        return value

    return parse


positive_int = _whole_number_of_at_least(1)  # counts of runs, jobs, points
nonnegative_int = _whole_number_of_at_least(0)


def clock_period_of(args) -> float:
    """The clock period asked for: 1000 / --target-mhz when given, else --clock-period
    (both finite and above zero: ``positive_number``)."""
    mhz = getattr(args, "target_mhz", None)
    return args.clock_period if mhz is None else 1000.0 / mhz


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="vichls",
        description="High-level synthesis of typed Python kernels: Verilog for FPGAs, LLVM "
                    "machine code for the CPU, and simulation checks against the Python meaning.")
    p.add_argument("--version", action="version", version=f"vichls {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("compile", help="compile a kernel file (.py), loop-level IR (.mlir) or "
                                       "an ONNX model (.onnx)",
                       description="Compile the top kernel of FILE. --target fpga writes "
                                   "<top>.v, <top>.report.json, the text report <top>.rpt "
                                   "(laid out as Vitis's csynth report) and the portable "
                                   "loop-level IR <top>.mlir (with s_axilite interfaces also "
                                   "x<top>_hw.h and the Python and C drivers); --target cpu "
                                   "writes <top>.ll and <top>.o.")
    c.add_argument("file", metavar="FILE", help="kernel file (.py), loop-level IR (.mlir) or "
                                                "ONNX model (.onnx)")
    c.add_argument("--top", metavar="NAME", help="the kernel to compile (default: the only one, "
                                                 "or the one no other kernel calls)")
    c.add_argument("--target", choices=("fpga", "cpu"), default="fpga",
                   help="fpga: Verilog + report (default); cpu: LLVM IR + object file")
    c.add_argument("-o", "--output", metavar="DIR", help="output folder (default: ./out)")
    c.add_argument("--clock-period", type=positive_number, default=10.0, metavar="NS",
                   help="target clock period in ns for scheduling (default: 10)")
    _device_options(c)
    _limit_options(c)
    c.add_argument("--emit", choices=EMIT_KINDS,
                   help="print one level instead (to stdout, or into -o DIR if given): "
                        "loop-level IR, structural IR, Verilog, or LLVM IR; python: the "
                        "kernel file generated for an ONNX model (and its weights, .npz)")
    _onnx_arguments(c)
    c.add_argument("--check-inputs", metavar="FILE.npy",
                   help="ONNX models: compare the design's Python call with onnxruntime on "
                        "these inputs (first axis: samples) and print the argmax agreement "
                        "and the largest error")
    c.add_argument("--package", type=package_kinds, metavar="KINDS",
                   help="also write packages for vendor tools: vivado (ip/component.xml, "
                        "IP-XACT), fusesoc (<top>.core), quartus (<top>_hw.tcl), "
                        "comma-separated, or all (docs/interfaces.md)")
    c.set_defaults(func=cmd_compile)

    s = sub.add_parser("sim", help="check the generated Verilog against the Python kernel",
                       description="Compile FILE for the FPGA, simulate it on random inputs "
                                   "(or on make_inputs(rng) from the file) and compare every "
                                   "result bit for bit with the Python reference. Exit status "
                                   "1 when any run mismatches.")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--top", metavar="NAME")
    s.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    s.add_argument("--runs", type=positive_int, default=20, help="number of random calls (default 20)")
    _limit_options(s)
    s.add_argument("--simulator", choices=("verilator", "icarus"), default="verilator")
    _onnx_arguments(s)
    s.add_argument("--clock-period", type=positive_number, default=10.0, metavar="NS")
    s.add_argument("--max-cycles", type=positive_int, default=10_000_000,
                   help="give up on a call after this many cycles (default 10,000,000)")
    s.add_argument("--reference-timeout", type=positive_number, default=60.0, metavar="S",
                   help="give up on a Python reference call after S seconds (default 60)")
    s.add_argument("--reference-steps", type=positive_int, default=100_000_000, metavar="N",
                   help="give up on a Python reference call after N loop iterations "
                        "(default 100,000,000)")
    s.set_defaults(func=cmd_sim)

    f = sub.add_parser("fuzz", help="differential fuzzing: random kernels through the Python "
                                    "reference, the CPU and the RTL",
                       description="Generate COUNT random kernels from SEED, run each through "
                                   "the Python reference, the CPU build and the simulated RTL, "
                                   "compare bit for bit, shrink every failing program and write "
                                   "it into the regressions folder. Exit status 1 on any "
                                   "failure.")
    f.add_argument("--count", type=nonnegative_int, default=100,
                   help="number of programs (default 100)")
    f.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    f.add_argument("--simulator", choices=("verilator", "icarus"), default="verilator")
    f.add_argument("--keep", metavar="DIR", help="keep the generated programs in DIR")
    f.add_argument("--regressions", metavar="DIR", default="tests/regressions",
                   help="where reproducers of failures go (default tests/regressions)")
    f.add_argument("--batch", type=positive_int, default=50,
                   help="programs per simulator build (default 50)")
    from vichls.fuzz.progen import DEFAULT_DIRECTIVES, DIRECTIVE_KINDS

    default_kinds = ",".join(sorted(DEFAULT_DIRECTIVES))
    f.add_argument("--directives", metavar="KINDS", default=default_kinds,
                   help="give programs random schedules of these directive kinds, comma-"
                        f"separated, from {', '.join(DIRECTIVE_KINDS)} (default: "
                        f"{default_kinds})")
    f.add_argument("--no-directives", dest="directives", action="store_const", const="",
                   help="programs without schedules")
    f.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the batches as tasks on the Dask cluster at ADDRESS "
                        "(e.g. tcp://host:8786); failures are shrunk here")
    _device_options(f)
    f.add_argument("--clock-period", type=positive_number, default=10.0, metavar="NS",
                   help="clock period the RTL is scheduled for (default: 10)")
    f.set_defaults(func=cmd_fuzz)

    b = sub.add_parser("bench", help="quality of results of the benchmark suite",
                       description="Compile, simulate (one build, every result checked bit for "
                                   "bit against Python), synthesize (Yosys synth_xilinx; "
                                   "nextpnr-ecp5 fmax) and bound the benchmarks of the suite; "
                                   "print one table. Exit status 1 when any benchmark fails.")
    b.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all)")
    b.add_argument("--size", choices=("small", "mini"), default="small")
    b.add_argument("--directives", choices=("none", "manual", "dse"), default="none",
                   help="none; manual: each benchmark's own set; dse: vichls dse's choice")
    b.add_argument("--csv", metavar="FILE", help="also write the table as CSV")
    b.add_argument("--json", metavar="FILE", help="also write the run as JSON")
    b.add_argument("--markdown", metavar="FILE", help="also write a results page (Markdown)")
    b.add_argument("--jobs", type=positive_int, metavar="N",
                   help="synthesis and DSE processes (default: the number of CPUs)")
    from vichls.bench.runner import DEFAULT_DSE_POINTS, DEFAULT_DSE_SECONDS

    b.add_argument("--dse-time", type=nonnegative_number, default=DEFAULT_DSE_SECONDS, metavar="S",
                   help="with --directives dse: seconds each benchmark's exploration may "
                        f"take (default {DEFAULT_DSE_SECONDS:g}; 0: no limit, as vichls dse)")
    b.add_argument("--dse-points", type=positive_int, default=DEFAULT_DSE_POINTS, metavar="N",
                   help="with --directives dse: design points each benchmark's exploration "
                        f"evaluates at most (default {DEFAULT_DSE_POINTS}); with --dse-time 0 "
                        "the choice does not depend on the machine's speed or load")
    b.add_argument("--no-synth", action="store_true", help="skip Yosys synth_xilinx")
    b.add_argument("--no-fmax", action="store_true", help="skip the nextpnr-ecp5 fmax run")
    b.add_argument("--clock-period", type=positive_number, default=10.0, metavar="NS",
                   help="clock period the designs are scheduled for (default: 10)")
    b.add_argument("--fmax-target", type=positive_number, metavar="MHZ",
                   help="nextpnr's target frequency (default: 1000 / clock period)")
    b.add_argument("--fmax-seeds", type=positive_int, default=1, metavar="N",
                   help="place and route each design with placer seeds 1..N and report the "
                        "median fmax (a design's figure moves by a few percent with the "
                        "seed; default 1)")
    _device_options(b)
    b.add_argument("--suite-dir", metavar="DIR",
                   help="the benchmarks/ folder (default: the one of this checkout)")
    b.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    b.set_defaults(func=cmd_bench)

    d = sub.add_parser("dse", help="design-space exploration of directives for a kernel",
                       description="Explore unroll, tile, pipeline and partition directives "
                                   "for the kernel of FILE with the estimator (bounded "
                                   "parallelism, then a Pareto-neighbour search), print the "
                                   "Pareto frontier (latency vs LUT and DSP) and the chosen "
                                   "schedule as Python, write CSV/JSON/PNG/schedule.py into "
                                   "DIR, and verify the best points in simulation. Exit "
                                   "status 1 when a verified point mismatches Python.")
    d.add_argument("file", metavar="FILE", help="kernel file (.py)")
    d.add_argument("--kernel", metavar="NAME", help="the kernel to explore (default: the top)")
    d.add_argument("--budget", metavar="R=N,...",
                   help="resource budget, e.g. dsp=220,bram18=280,lut=53200 (unnamed "
                        "resources keep the PYNQ-Z1 xc7z020 figures)")
    d.add_argument("--scheduler", metavar="ADDRESS",
                   help="evaluate on the Dask cluster at ADDRESS (e.g. tcp://host:8786)")
    d.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="N",
                   help="local worker processes (default: the number of CPUs)")
    d.add_argument("--max-points", type=positive_int, default=200, metavar="N",
                   help="design points to evaluate at most (default 200)")
    d.add_argument("--max-parallel", type=positive_int, default=64, metavar="N",
                   help="upper bound on unrolled copies per loop nest (default 64)")
    d.add_argument("--verify", type=nonnegative_int, default=1, metavar="K",
                   help="simulate the K best points against Python (default 1; 0: none)")
    d.add_argument("--runs", type=positive_int, default=3, help="random calls per verified point")
    d.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    d.add_argument("--clock-period", type=positive_number, default=10.0, metavar="NS")
    d.add_argument("--point-timeout", type=positive_number, default=60.0, metavar="S",
                   help="a point taking longer than S seconds to compile is infeasible "
                        "(default 60; local evaluation only)")
    d.add_argument("--time-budget", type=positive_number, metavar="S",
                   help="stop exploring after S seconds (default: no limit; the choice "
                        "then depends on the machine's speed)")
    d.add_argument("-o", "--output", metavar="DIR",
                   help="output folder (default: out/dse-<kernel>)")
    d.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    d.set_defaults(func=cmd_dse)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "compile":
        args.output_defaulted = args.output is None
        if args.output is None and args.emit is None:
            args.output = "out"
    try:
        if getattr(args, "max_unroll", None) is not None:
            from vichls.limits import use_unroll_limit

            with use_unroll_limit(args.max_unroll):
                return args.func(args)
        return args.func(args)
    except VichlsError as e:
        print(str(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vichls: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of standard output went away (`vichls compile ... | head`): stop
        # quietly, as a command killed by SIGPIPE would; flushing at exit must not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as e:  # the file system refused (a path given, a full disk, rights)
        if os.environ.get("VICHLS_DEBUG"):
            raise
        place = f"{e.filename}: " if e.filename else ""
        print(f"vichls: error: {place}{e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug in vichls, not in the user's input
        if os.environ.get("VICHLS_DEBUG"):
            raise
        print(f"vichls: internal error: {type(e).__name__}: {e}\n"
              "  this is a bug in vichls; run again with VICHLS_DEBUG=1 for the traceback "
              "and report it", file=sys.stderr)
        return 3


def run() -> None:
    """The ``vichls`` command: ``main``, then exit without tearing the interpreter down.

    A compile leaves a large graph of IR objects behind; freeing it one object at a time at
    exit took a tenth of the time of a big kernel's compile, for nothing. The exit handlers
    still run and the output is flushed first."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = 141
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    run()
