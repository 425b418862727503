"""Differential fuzzing: random programs through the Python reference, the CPU and the RTL.

``run_fuzz`` draws ``count`` program seeds from ``seed``, generates each program
(``vichls.fuzz.progen``, by default with a random schedule of valid directives written into
the program as ``s = vichls.customize(top)`` / ``s.unroll(...)`` lines), and checks batches
of them: the golden reference (the Python meaning of the kernel, which directives never
change), the CPU build and the RTL of the scheduled module (one simulator build per batch,
every design in it) must agree bit for bit on the return value and every array. A program
that disagrees, or that makes a stage crash, is shrunk by delta debugging over its source
(delete a statement or a directive, keep only one branch of an ``if``, replace an expression
by one of its operands) to a smaller program that still fails the same way, and written as a
reproducer file into the regressions folder: the program with its schedule, followed by
``ARGS_SEED = <program seed>`` from which ``args_for`` redraws its arguments (shrinking never
changes the parameters). ``replay`` checks such files. Given a Dask scheduler address, the
batches run as Dask tasks (one task, one simulator build per batch) and failures are shrunk
here.

A schedule the compiler refuses (DirectiveError) is not a failure: the generator means its
directives to be valid, so the program counts as *rejected*, is still checked without its
schedule, and the run reports how many were rejected and why.

Assumptions: the generator's programs are valid (an exception from the front end's checker on
one is reported as a failure, not shrunk); the reference of a shrunk candidate may loop for
ever (a deleted loop counter increment), so references run under a budget of loop iterations
and candidates are discarded when they exceed it, or raise, or no longer pass the front end's
checks. The CPU build runs in this process, so a CPU build that loops for ever on a
terminating program would hang the fuzzer; the simulation is bounded by ``max_cycles``.
"""

from __future__ import annotations

import ast
import random
import re
import tempfile
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from vichls.errors import DirectiveError, VichlsError
from vichls.fuzz.progen import DEFAULT_DIRECTIVES, args_for, build_program
from vichls.inputs import copy_args
from vichls.results import differences, results_of
from vichls.signature import check_call_args
from vichls.time_limit import TimeLimitExceeded, time_limit

REFERENCE_STEPS = 1_000_000  # loop iterations of a reference before a program is dropped
MAX_CYCLES = 2_000_000
#: wall-clock seconds a compile (CPU or FPGA) of one generated program may take; a compile
#: that runs longer is a hang: reported, not shrunk (each candidate would hang too), and the
#: run stops there (the stuck compile cannot be interrupted and would slow what follows)
COMPILE_SECONDS = 300
SHRINK_ROUNDS = 12
SHRINK_CANDIDATES = 80  # per round: one simulator build checks them all

# Failure kinds in the order a program is blamed by: the first one it shows is its "way of
# failing", which a shrunk program must still show.
STAGES = ("check", "front end", "directives", "cpu crash", "cpu mismatch", "fpga crash",
          "round trip", "sim error", "rtl mismatch")
#: calls in a row per program, each on arguments of its own: what one call leaves behind
#: (a local stream not drained, a register) must not reach the next
CALLS = 2
#: the arguments of call k > 0 come from ``args_seed + k * _CALL_SEED_STEP``
_CALL_SEED_STEP = 1_000_003


@dataclass
class Verdict:
    """What checking one program found: nothing (``ok``), an invalid program (``invalid``,
    only for shrinking candidates) or the failure kinds with details."""

    invalid: str | None = None
    kinds: list[str] = field(default_factory=list)  # "stage" or "stage: ExceptionType"
    details: list[str] = field(default_factory=list)
    rejected: str | None = None  # the compiler refused the schedule (checked without it)

    @property
    def ok(self) -> bool:
        return self.invalid is None and not self.kinds

    @property
    def primary(self) -> str | None:
        return self.kinds[0] if self.kinds else None

    def fail(self, kind: str, detail: str) -> None:
        if kind not in self.kinds:
            self.kinds.append(kind)
        self.details.append(f"{kind}: {detail}")


@dataclass
class Program:
    name: str
    source: str
    args_seed: int
    #: the FPGA the RTL is scheduled for (None: the run's target)
    target: "Target | None" = None


@dataclass(frozen=True)
class Target:
    """The FPGA a fuzzing run schedules its designs for: an operator-library device and a
    clock period (the ECP5 at 150 MHz exercises one-hot control, registered loop tests and
    the DSP-registered multipliers, which the default xc7 build does not)."""

    device: str = "xc7"
    clock_period_ns: float = 10.0

    @property
    def spelled(self) -> str:
        return f"{self.device} at {self.clock_period_ns:g} ns"


DEFAULT_TARGET = Target()


@dataclass
class Finding:
    program_seed: int
    kind: str
    details: list[str]
    original: str
    reduced: str
    path: Path | None = None


# -- running one batch ------------------------------------------------------------------------


def _exc(e: BaseException) -> str:
    tb = "".join(traceback.format_tb(e.__traceback__)[-2:])
    return f"{type(e).__name__}: {e}\n{tb}".rstrip()


def _schedule_of(namespace: dict, kernel):
    """The module-level schedule of ``kernel`` in a program's namespace, if any."""
    from vichls.frontend.customize import Schedule

    return next((v for v in namespace.values()
                 if isinstance(v, Schedule) and v.kernel is kernel), None)


def check_programs(programs: list[Program], workdir: Path, simulator: str = "verilator",
                   candidates: bool = False, rtl: bool = True,
                   target: Target = DEFAULT_TARGET) -> dict[str, Verdict]:
    """Check every program: reference ≡ CPU ≡ RTL on its arguments, RTL for all of them in
    one simulator build; a program's schedule (a module-level ``vichls.customize``) shapes
    the module both back ends compile. With ``candidates``, a program that fails the front
    end's checks, whose schedule is refused, or whose reference raises or runs too long is
    ``invalid`` (a shrinking step gone too far)."""
    from vichls.driver.cpu import compile_cpu
    from vichls.flows.sim import SimDesign
    from vichls.driver.fpga import compile_fpga
    from vichls.frontend.kernel import load_file
    from vichls.frontend.mlir_input import load_mlir, print_module
    from vichls.frontend.reference import bounded_reference
    from vichls.targets.oplib import use_device

    verdicts: dict[str, Verdict] = {}
    designs, calls, expected = [], {}, {}
    for prog in programs:
        v = verdicts[prog.name] = Verdict()
        path = Path(workdir) / f"{prog.name}.py"
        path.write_text(prog.source)
        try:
            with warnings.catch_warnings():  # a shrinking edit may leave e.g. ``3(x)``
                warnings.simplefilter("ignore", SyntaxWarning)
                namespace = load_file(str(path))
            kernel = namespace["top"]
            sig = kernel.signature
            arg_sets = [tuple(check_call_args(sig, args_for(
                [p.type for p in sig.params], prog.args_seed + k * _CALL_SEED_STEP)))
                for k in range(CALLS)]
        except Exception as e:  # noqa: BLE001 - the checker refused the program
            if candidates:
                v.invalid = f"check: {e}"
            elif isinstance(e, DirectiveError):
                v.rejected = str(e)
            else:
                v.fail(f"check: {type(e).__name__}", _exc(e))
            continue
        try:
            reference = bounded_reference(kernel, REFERENCE_STEPS)
            want = []
            for args in arg_sets:
                work = copy_args(args)
                want.append(results_of(sig, work, reference(*work)))
        except Exception as e:  # noqa: BLE001 - outside the program's domain
            v.invalid = f"reference: {type(e).__name__}"
            continue
        schedule = _schedule_of(namespace, kernel)
        make_module = kernel.module if schedule is None else schedule.module
        try:
            module = make_module()
        except DirectiveError as e:
            if candidates:
                v.invalid = f"directives: {e}"
                continue
            v.rejected = str(e)
            make_module = kernel.module
            try:
                module = make_module()
            except Exception as e2:  # noqa: BLE001
                v.fail(f"front end: {type(e2).__name__}", _exc(e2))
                continue
        except VichlsError as e:
            if candidates:
                v.invalid = f"front end: {e}"
            else:
                v.fail("front end: VichlsError", _exc(e))
            continue
        except Exception as e:  # noqa: BLE001 - a crash of the front end or a directive pass
            stage = "front end" if schedule is None else "directives"
            v.fail(f"{stage}: {type(e).__name__}", _exc(e))
            continue
        pristine = module.clone()  # (the CPU lowering changes the module it is given)
        try:
            with time_limit(COMPILE_SECONDS):
                cpu = compile_cpu(module)
            for k, args in enumerate(arg_sets):
                work = copy_args(args)
                diffs = differences(want[k], results_of(sig, work, cpu(*work)))
                if diffs:
                    v.fail("cpu mismatch", f"call {k}: " + "; ".join(diffs))
                    break
        except TimeLimitExceeded:
            v.fail("cpu crash: hang", f"the CPU build ran over {COMPILE_SECONDS} s")
            return _after_hang(programs, verdicts, prog)
        except Exception as e:  # noqa: BLE001
            v.fail(f"cpu crash: {type(e).__name__}", _exc(e))
        if not rtl:
            continue
        try:
            where = prog.target or target
            with use_device(where.device), time_limit(COMPILE_SECONDS):
                design = compile_fpga(pristine, clock_period_ns=where.clock_period_ns)
            designs.append(SimDesign(design.verilog, design.signature, name=prog.name,
                                     partitions=design.partitions))
            calls[prog.name] = [copy_args(args) for args in arg_sets]
            expected[prog.name] = want
        except TimeLimitExceeded:
            v.fail("fpga crash: hang", f"the FPGA build ran over {COMPILE_SECONDS} s")
            return _after_hang(programs, verdicts, prog)
        except Exception as e:  # noqa: BLE001
            v.fail(f"fpga crash: {type(e).__name__}", _exc(e))
            continue
        try:  # the loop-level package says all: read back, it makes the same Verilog
            package = Path(workdir) / f"{prog.name}.mlir"
            package.write_text(print_module(pristine))
            with use_device(where.device):
                again = compile_fpga(load_mlir(package), clock_period_ns=where.clock_period_ns)
            if again.verilog != design.verilog:
                v.fail("round trip", "the package read back compiles to other Verilog")
        except Exception as e:  # noqa: BLE001
            v.fail(f"round trip: {type(e).__name__}", _exc(e))
    if designs:
        results = _simulate(designs, calls, simulator)
        for name, res in results.items():
            v = verdicts[name]
            if isinstance(res, BaseException):
                v.fail(f"sim error: {type(res).__name__}", str(res)[:2000])
                continue
            for k, (want, got) in enumerate(zip(expected[name], res)):
                diffs = differences(want, (got.ret, got.arrays))
                if diffs:
                    v.fail("rtl mismatch", f"call {k}: " + "; ".join(diffs))
                    break
    for v in verdicts.values():
        v.kinds.sort(key=lambda k: STAGES.index(k.split(":")[0]))
    return verdicts


NOT_CHECKED = "not checked: a compile in its batch hung"


def _after_hang(programs: list[Program], verdicts: dict, hung: Program) -> dict[str, Verdict]:
    """The verdicts of a batch in which ``hung``'s compile hung: that one fails, every other
    program counts as not checked (nothing of the batch is simulated)."""
    for prog in programs:
        if prog is not hung:
            verdicts[prog.name] = Verdict(invalid=NOT_CHECKED)
    return verdicts


def _simulate(designs: list, calls: dict, simulator: str) -> dict:
    """Results (or the exception) of every design's calls, from one simulator build. When
    that build fails, the designs its log names are blamed and the others built again
    (without names: the designs are split in halves), so that only the designs that break
    a build fail for it."""
    from vichls.flows.sim import SimError, build_simulation

    try:
        model = build_simulation(designs, simulator=simulator)
    except SimError as e:
        named = _blamed(str(e), [d.name for d in designs])
        if len(designs) == 1 or set(named) == {d.name for d in designs}:
            return {d.name: e for d in designs}
        parts = ([[d for d in designs if d.name not in named]] if named else
                 [designs[:len(designs) // 2], designs[len(designs) // 2:]])
        results = {name: e for name in named}
        for part in parts:
            results.update(_simulate(part, {d.name: calls[d.name] for d in part}, simulator))
        return results
    except Exception as e:  # noqa: BLE001 - not the designs' fault (a missing tool): all fail
        return {d.name: e for d in designs}
    try:
        return model.run_many(calls, max_cycles=MAX_CYCLES, raise_errors=False)
    except Exception as e:  # noqa: BLE001 - the simulator process failed: every design shows it
        return {name: e for name in calls}


def _blamed(message: str, names: list[str]) -> list[str]:
    """The designs a failed build's message blames ("... failed in design 'a', 'b': ...")."""
    m = re.search(r"failed in designs? (.*?):", message)
    return [] if m is None else [n for n in names if f"'{n}'" in m.group(1)]


# -- shrinking ------------------------------------------------------------------------------------


def _is_directive(stmt: ast.stmt) -> bool:
    """A module-level ``s.<directive>(...)`` call of a program's schedule."""
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and isinstance(stmt.value.func.value, ast.Name))


def _kernel_nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node inside the kernels' bodies, then the schedule's directive statements, in
    a fixed order (edits are named by index)."""
    nodes: list[ast.AST] = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            for stmt in fn.body:
                nodes.extend(ast.walk(stmt))
    nodes += [stmt for stmt in tree.body if _is_directive(stmt)]
    return nodes


def _edits(source: str) -> list[tuple[int, str]]:
    """Every single edit of a program: (node index, action), statement edits first."""
    statements, expressions = [], []
    for k, node in enumerate(_kernel_nodes(ast.parse(source))):
        if isinstance(node, ast.stmt):
            statements.append((k, "delete"))
            if isinstance(node, ast.If):
                statements.append((k, "then"))
                if node.orelse:
                    statements.append((k, "else"))
        elif isinstance(node, ast.BinOp):
            expressions += [(k, "left"), (k, "right")]
        elif isinstance(node, (ast.BoolOp, ast.UnaryOp, ast.IfExp)) or (
                isinstance(node, ast.Call) and node.args):
            expressions.append((k, "first"))
    return statements + expressions


class _Apply(ast.NodeTransformer):
    def __init__(self, edits: dict[int, str], nodes: list[ast.AST]):
        self.by_id = {id(nodes[k]): action for k, action in edits.items() if k < len(nodes)}

    def visit(self, node):
        action = self.by_id.get(id(node))
        if action is None:
            return self.generic_visit(node)
        if action == "delete":
            return None
        if action in ("then", "else"):
            kept = []
            for stmt in node.body if action == "then" else node.orelse:
                new = self.visit(stmt)
                kept.extend(new if isinstance(new, list) else [new] if new else [])
            return kept
        if action == "left":
            return self.visit(node.left)
        if action == "right":
            return self.visit(node.right)
        # "first": the first operand of a call, a boolean operation, a unary operation, or
        # the value of a conditional expression
        if isinstance(node, ast.BoolOp):
            return self.visit(node.values[0])
        if isinstance(node, ast.Call):
            return self.visit(node.args[0])
        if isinstance(node, ast.UnaryOp):
            return self.visit(node.operand)
        return self.visit(node.body)


def _fill_empty_bodies(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                flat = []
                for s in block:
                    flat.extend(s if isinstance(s, list) else [s])
                block[:] = [s for s in flat if s is not None]
        if isinstance(node, (ast.If, ast.For, ast.While, ast.FunctionDef)) and not node.body:
            node.body = [ast.Pass()]


def apply_edits(source: str, edits: dict[int, str]) -> str:
    """The program with the given edits (node index → action) applied."""
    tree = ast.parse(source)
    nodes = _kernel_nodes(tree)
    tree = _Apply(edits, nodes).visit(tree)
    _fill_empty_bodies(tree)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def shrink(program: Program, kind: str, check: Callable[[list[Program]], dict[str, Verdict]],
           log: Callable[[str], None] = lambda m: None) -> str:
    """A smaller source that still fails with ``kind``: rounds of single edits checked in
    one batch; then all the edits that kept the failure, together, if that still fails."""
    current = program.source
    for round_ in range(SHRINK_ROUNDS):
        edits = _edits(current)
        tried: dict[str, tuple[int, str]] = {}
        for edit in edits:
            try:
                text = apply_edits(current, dict([edit]))
            except Exception:  # noqa: BLE001 - an edit that leaves no valid Python
                continue
            if text != current and len(text) < len(current) and text not in tried:
                tried[text] = edit
            if len(tried) >= SHRINK_CANDIDATES:
                break
        if not tried:
            break
        batch = [Program(f"c{round_}_{k}", text, program.args_seed)
                 for k, text in enumerate(tried)]
        verdicts = check(batch)
        keeping = [(p.source, tried[p.source]) for p in batch if kind in verdicts[p.name].kinds]
        if not keeping:
            break
        best = min((text for text, _ in keeping), key=len)
        if len(keeping) > 1:
            combined_edits = {}
            for _, (k, action) in keeping:
                combined_edits.setdefault(k, action)
            try:
                combined = apply_edits(current, combined_edits)
                cand = Program(f"c{round_}_all", combined, program.args_seed)
                if len(combined) < len(best) and kind in check([cand])[cand.name].kinds:
                    best = combined
            except Exception:  # noqa: BLE001
                pass
        log(f"  shrink round {round_ + 1}: {len(current)} → {len(best)} characters "
            f"({len(keeping)} of {len(batch)} edits keep the failure)")
        current = best
    return current


# -- the fuzzing loop ----------------------------------------------------------------------------


def program_seeds(seed: int, count: int) -> list[int]:
    """The program seeds of a fuzzing run: ``count`` distinct 32-bit seeds drawn from ``seed``."""
    rng = random.Random(seed)
    out: list[int] = []
    seen = set()
    while len(out) < count:
        s = rng.getrandbits(32)
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def reproducer_text(finding: Finding, run_seed: int, target: Target = DEFAULT_TARGET) -> str:
    on = "" if target == DEFAULT_TARGET else f" --device {target.device} --target-mhz " \
        f"{1000 / target.clock_period_ns:g}"
    header = [f"# vichls fuzz reproducer: program seed {finding.program_seed} "
              f"(vichls fuzz --seed {run_seed}{on}); fails with: {finding.kind}"]
    header += [f"# {line}" for d in finding.details[:3] for line in d.splitlines()[:3]]
    text = "\n".join(header) + "\n" + finding.reduced.rstrip("\n") + (
        f"\n\nARGS_SEED = {finding.program_seed}\n")
    if target != DEFAULT_TARGET:  # replayed on the FPGA it failed for
        text += f"TARGET = ({target.device!r}, {target.clock_period_ns!r})\n"
    return text


@dataclass
class FuzzReport:
    """What a fuzzing run found: programs checked, failures (shrunk), and the programs
    whose schedule the compiler refused (seed → message), checked without it."""

    checked: int = 0
    findings: list[Finding] = field(default_factory=list)
    rejected: dict[int, str] = field(default_factory=dict)

    def __iter__(self):  # ``checked, findings = run_fuzz(...)`` still works
        return iter((self.checked, self.findings))


def generated(seeds: Iterable[int], directives=DEFAULT_DIRECTIVES) -> list[Program]:
    """The programs of ``seeds`` (with random schedules drawn from ``directives``)."""
    return [Program(f"p{s}", build_program(s, directives).source, s) for s in seeds]


def check_batch(seeds: list[int], directives, simulator: str = "verilator",
                rtl: bool = True, target: Target = DEFAULT_TARGET) -> dict[str, Verdict]:
    """Generate and check the programs of ``seeds`` in a private folder: what one Dask task
    does (one simulator build). Module-level so that Dask can send it to a worker."""
    with tempfile.TemporaryDirectory(prefix="vichls-fuzz-") as tmp:
        return check_programs(generated(seeds, directives), Path(tmp), simulator, rtl=rtl,
                              target=target)


def _verdict_batches(chunks: list[list[int]], directives, simulator: str, rtl: bool,
                     work: Path, scheduler: str | None, target: Target = DEFAULT_TARGET):
    """(seeds, verdicts) of every chunk: here in order, or on a Dask cluster as they
    complete."""
    if scheduler is None:
        for chunk in chunks:
            yield chunk, check_programs(generated(chunk, directives), work, simulator, rtl=rtl,
                                        target=target)
        return
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise VichlsError("--scheduler runs on a Dask cluster, which needs Dask's distributed "
                          "package: pip install 'vichls[cluster]'") from None

    with Client(scheduler) as client:
        futures = {client.submit(check_batch, chunk, sorted(directives), simulator, rtl,
                                 target, pure=False): chunk for chunk in chunks}
        for future in as_completed(futures):
            yield futures[future], future.result()


def run_fuzz(count: int, seed: int, simulator: str = "verilator", keep: Path | None = None,
             regressions: Path | None = None, batch_size: int = 50,
             log: Callable[[str], None] = lambda m: None, directives=DEFAULT_DIRECTIVES,
             scheduler: str | None = None, rtl: bool = True,
             target: Target = DEFAULT_TARGET) -> FuzzReport:
    """Fuzz ``count`` programs from ``seed`` with random schedules of ``directives`` (empty:
    none), their RTL scheduled for ``target``; returns a FuzzReport. Batches of ``batch_size`` programs are checked here, or as
    tasks of the Dask cluster at ``scheduler``; each finding is shrunk here and, given
    ``regressions``, written there as ``fuzz_<seed>.py``. ``rtl=False`` skips the simulation
    (reference ≡ CPU only)."""
    directives = frozenset(directives or ())
    seeds = program_seeds(seed, count)
    report = FuzzReport()
    chunks = [seeds[k:k + batch_size] for k in range(0, count, batch_size)]
    seen: dict[tuple, int] = {}  # failure signature → the program seed shrunk for it
    with tempfile.TemporaryDirectory(prefix="vichls-fuzz-") as tmp:
        work = Path(keep) if keep is not None else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for chunk, verdicts in _verdict_batches(chunks, directives, simulator, rtl, work,
                                                scheduler, target):
            programs = generated(chunk, directives)
            report.checked += sum(verdicts[p.name].invalid != NOT_CHECKED for p in programs)
            bad = [p for p in programs if not verdicts[p.name].ok
                   and verdicts[p.name].invalid != NOT_CHECKED]
            for prog in programs:
                if verdicts[prog.name].rejected:
                    report.rejected[prog.args_seed] = verdicts[prog.name].rejected
                    log(f"vichls fuzz: program seed {prog.args_seed}: schedule refused: "
                        f"{verdicts[prog.name].rejected.splitlines()[0]}")
            log(f"vichls fuzz: {report.checked}/{count} programs checked, "
                f"{len(report.findings) + len(bad)} failing, {len(report.rejected)} "
                "schedules refused")
            hung = [p for p in bad if (verdicts[p.name].primary or "").endswith(": hang")]
            if hung:  # reported unshrunk; the stuck compile still runs: stop here
                for prog in hung:
                    report.findings.append(_shrunk_finding(prog, verdicts[prog.name], seed,
                                                           simulator, regressions, log, target))
                log(f"vichls fuzz: a compile hung (program seed {hung[0].args_seed}): stopping "
                    "the run, as that compile cannot be interrupted")
                break
            for prog in bad:
                v = verdicts[prog.name]
                first = seen.setdefault(_signature(v), prog.args_seed)
                if first != prog.args_seed:  # a crash already shrunk: the same bug, surely
                    log(f"vichls fuzz: program seed {prog.args_seed} fails like program "
                        f"seed {first} ({v.primary}): not shrunk, no reproducer")
                    report.findings.append(Finding(prog.args_seed, v.primary, v.details,
                                                   prog.source, prog.source))
                    continue
                report.findings.append(_shrunk_finding(prog, v, seed, simulator, regressions,
                                                       log, target))
    return report


def _signature(v: Verdict) -> tuple:
    """What tells two failures apart: a crash by its kind and the place it was raised
    (the last traceback line), a mismatch or a simulation error only by the program (each
    one is shrunk: they rarely share a cause that their text shows)."""
    kind = v.primary or f"invalid: {v.invalid}"
    if kind.startswith(("check", "front end", "directives", "cpu crash", "fpga crash")):
        places = [line.strip() for line in "\n".join(v.details[:1]).splitlines()
                  if line.strip().startswith("File ")]
        return kind, places[-1] if places else ""
    if kind.startswith("sim error") and "build of the simulation failed" in v.details[0]:
        # the same compiler error in any design: paths, names and numbers aside
        errors = [line for line in v.details[0].splitlines() if line.startswith("%Error")]
        return kind, re.sub(r"\S*/|\d+|'p\w+'", "", errors[0] if errors else "")
    return kind, id(v)


def _shrunk_finding(prog: Program, v: Verdict, run_seed: int, simulator: str,
                    regressions: Path | None, log: Callable[[str], None],
                    target: Target = DEFAULT_TARGET) -> Finding:
    kind = v.primary or f"invalid: {v.invalid}"
    log(f"vichls fuzz: program seed {prog.args_seed} fails: {kind}")
    reduced = prog.source
    if v.primary and not v.primary.startswith("check") and not v.primary.endswith(": hang"):
        rtl = not v.primary.startswith(("cpu", "front end", "directives"))
        with tempfile.TemporaryDirectory(prefix="vichls-shrink-") as sdir:
            reduced = shrink(
                prog, v.primary,
                lambda b: check_programs(b, Path(sdir), simulator, candidates=True, rtl=rtl,
                                         target=target),
                log)
    f = Finding(prog.args_seed, kind, v.details or [str(v.invalid)], prog.source, reduced)
    if regressions is not None:
        Path(regressions).mkdir(parents=True, exist_ok=True)
        f.path = Path(regressions) / f"fuzz_{prog.args_seed}.py"
        f.path.write_text(reproducer_text(f, run_seed, target))
        log(f"vichls fuzz: wrote {f.path}")
    return f


def replay(paths: list[Path], workdir: Path, simulator: str = "verilator") -> dict[str, Verdict]:
    """Check reproducer files (each a program with ``ARGS_SEED``, and ``TARGET`` when it
    failed on another FPGA than the default) in one batch."""
    programs = []
    for p in paths:
        text = Path(p).read_text()
        tree = ast.parse(text)
        assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
        args_seed = assigned["ARGS_SEED"].value
        target = None
        if "TARGET" in assigned:  # ("ecp5", 6.666...): the FPGA it failed for
            device, period = ast.literal_eval(assigned["TARGET"])
            target = Target(device, float(period))
        programs.append(Program(Path(p).stem, text, args_seed, target))
    return check_programs(programs, workdir, simulator)
