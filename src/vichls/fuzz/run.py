"""Differential fuzzing: random programs through the Python reference, the CPU and the RTL.

``run_fuzz`` draws ``count`` program seeds from ``seed``, generates each program
(``vichls.fuzz.progen``), and checks batches of them: the golden reference (the Python
meaning), the CPU build (LLVM) and the RTL (one simulator build per batch, every design in
it) must agree bit for bit on the return value and every array. A program that disagrees, or
that makes a stage crash, is shrunk by delta debugging over its source (delete a statement,
keep only one branch of an ``if``, replace an expression by one of its operands) to a smaller
program that still fails the same way, and written as a reproducer file into the regressions
folder: the program, followed by ``ARGS_SEED = <program seed>`` from which ``args_for`` redraws
its arguments (shrinking never changes the parameters). ``replay`` checks such files.

Assumptions: the generator's programs are valid (an exception from the front end's checker on
one is reported as a failure, not shrunk); the reference of a shrunk candidate may loop for
ever (a deleted loop counter increment), so candidates run under a line budget and are
discarded when they exceed it, or raise, or no longer pass the front end's checks. The CPU
build runs in this process, so a CPU build that loops for ever on a terminating program would
hang the fuzzer; the simulation is bounded by ``max_cycles``.
"""

from __future__ import annotations

import ast
import random
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


from vichls.errors import VichlsError
from vichls.fuzz.progen import args_for, build_program
from vichls.inputs import copy_args
from vichls.results import differences, results_of
from vichls.signature import check_call_args

REFERENCE_LINE_BUDGET = 200_000  # line events of the reference before a candidate is dropped
MAX_CYCLES = 2_000_000
SHRINK_ROUNDS = 12
SHRINK_CANDIDATES = 80  # per round: one simulator build checks them all

# Failure kinds in the order a program is blamed by: the first one it shows is its "way of
# failing", which a shrunk program must still show.
STAGES = ("check", "front end", "cpu crash", "cpu mismatch", "fpga crash", "sim error",
          "rtl mismatch")


class _TooLong(Exception):
    pass


@dataclass
class Verdict:
    """What checking one program found: nothing (``ok``), an invalid program (``invalid``,
    only for shrinking candidates) or the failure kinds with details."""

    invalid: str | None = None
    kinds: list[str] = field(default_factory=list)  # "stage" or "stage: ExceptionType"
    details: list[str] = field(default_factory=list)

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


@dataclass
class Finding:
    program_seed: int
    kind: str
    details: list[str]
    original: str
    reduced: str
    path: Path | None = None


# -- running one batch ------------------------------------------------------------------------


def _reference_bounded(kernel, args):
    """Run the golden reference, giving up (``_TooLong``) after a budget of line events."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if not frame.f_code.co_filename.startswith("<vichls reference"):
            return None
        if event == "line":
            count += 1
            if count > REFERENCE_LINE_BUDGET:
                raise _TooLong
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        return kernel(*args)
    finally:
        sys.settrace(old)


def _exc(e: BaseException) -> str:
    tb = "".join(traceback.format_tb(e.__traceback__)[-2:])
    return f"{type(e).__name__}: {e}\n{tb}".rstrip()


def check_programs(programs: list[Program], workdir: Path, simulator: str = "verilator",
                   candidates: bool = False, rtl: bool = True) -> dict[str, Verdict]:
    """Check every program: reference ≡ CPU ≡ RTL on its arguments, RTL for all of them in
    one simulator build. With ``candidates``, a program that fails the front end's checks or
    whose reference raises or runs too long is ``invalid`` (a shrinking step gone too far)."""
    from vichls.cpu import compile_cpu
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.fpga import compile_fpga
    from vichls.frontend.kernel import load_file

    verdicts: dict[str, Verdict] = {}
    designs, calls, expected = [], {}, {}
    for prog in programs:
        v = verdicts[prog.name] = Verdict()
        path = Path(workdir) / f"{prog.name}.py"
        path.write_text(prog.source)
        try:
            kernel = load_file(str(path))["top"]
            sig = kernel.signature
            args = tuple(check_call_args(sig, args_for([p.type for p in sig.params],
                                                       prog.args_seed)))
        except Exception as e:  # noqa: BLE001 - the checker refused the program
            if candidates:
                v.invalid = f"check: {e}"
            else:
                v.fail(f"check: {type(e).__name__}", _exc(e))
            continue
        work = copy_args(args)
        try:
            want = results_of(sig, work, _reference_bounded(kernel, work))
        except Exception as e:  # noqa: BLE001 - outside the program's domain
            v.invalid = f"reference: {type(e).__name__}"
            continue
        try:
            module = kernel.module()
        except VichlsError as e:
            if candidates:
                v.invalid = f"front end: {e}"
            else:
                v.fail("front end: VichlsError", _exc(e))
            continue
        except Exception as e:  # noqa: BLE001
            v.fail(f"front end: {type(e).__name__}", _exc(e))
            continue
        try:
            cpu = compile_cpu(module)
            work = copy_args(args)
            got = results_of(sig, work, cpu(*work))
            diffs = differences(want, got)
            if diffs:
                v.fail("cpu mismatch", "; ".join(diffs))
        except Exception as e:  # noqa: BLE001
            v.fail(f"cpu crash: {type(e).__name__}", _exc(e))
        if not rtl:
            continue
        try:
            module = kernel.module()  # a fresh module: the CPU lowering may have changed it
            design = compile_fpga(module)
            designs.append(SimDesign(design.verilog, design.signature, name=prog.name))
            calls[prog.name] = [args]
            expected[prog.name] = want
        except Exception as e:  # noqa: BLE001
            v.fail(f"fpga crash: {type(e).__name__}", _exc(e))
    if designs:
        try:
            model = build_simulation(designs, simulator=simulator)
            results = model.run_many(calls, max_cycles=MAX_CYCLES, raise_errors=False)
        except Exception as e:  # noqa: BLE001 - the whole build failed: every design shows it
            results = {name: e for name in calls}
        for name, res in results.items():
            v = verdicts[name]
            if isinstance(res, BaseException):
                v.fail(f"sim error: {type(res).__name__}", str(res)[:2000])
                continue
            diffs = differences(expected[name], (res[0].ret, res[0].arrays))
            if diffs:
                v.fail("rtl mismatch", "; ".join(diffs))
    for v in verdicts.values():
        v.kinds.sort(key=lambda k: STAGES.index(k.split(":")[0]))
    return verdicts


# -- shrinking ------------------------------------------------------------------------------------


def _kernel_nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node inside the kernels' bodies, in a fixed order (edits are named by index)."""
    nodes: list[ast.AST] = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            for stmt in fn.body:
                nodes.extend(ast.walk(stmt))
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


def reproducer_text(finding: Finding, run_seed: int) -> str:
    header = [f"# vichls fuzz reproducer: program seed {finding.program_seed} "
              f"(vichls fuzz --seed {run_seed}); fails with: {finding.kind}"]
    header += [f"# {line}" for d in finding.details[:3] for line in d.splitlines()[:3]]
    return "\n".join(header) + "\n" + finding.reduced.rstrip("\n") + (
        f"\n\nARGS_SEED = {finding.program_seed}\n")


def run_fuzz(count: int, seed: int, simulator: str = "verilator", keep: Path | None = None,
             regressions: Path | None = None, batch_size: int = 50,
             log: Callable[[str], None] = lambda m: None) -> tuple[int, list[Finding]]:
    """Fuzz ``count`` programs from ``seed``; returns (programs checked, findings). Each
    finding is shrunk and, given ``regressions``, written there as ``fuzz_<seed>.py``."""
    seeds = program_seeds(seed, count)
    findings: list[Finding] = []
    with tempfile.TemporaryDirectory(prefix="vichls-fuzz-") as tmp:
        work = Path(keep) if keep is not None else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for start in range(0, count, batch_size):
            chunk = seeds[start:start + batch_size]
            programs = [Program(f"p{s}", build_program(s).source, s) for s in chunk]
            verdicts = check_programs(programs, work, simulator)
            bad = [p for p in programs if not verdicts[p.name].ok]
            log(f"vichls fuzz: {start + len(chunk)}/{count} programs checked, "
                f"{len(findings) + len(bad)} failing")
            for prog in bad:
                v = verdicts[prog.name]
                kind = v.primary or f"invalid: {v.invalid}"
                log(f"vichls fuzz: program seed {prog.args_seed} fails: {kind}")
                reduced = prog.source
                if v.primary and not v.primary.startswith("check"):
                    rtl = not v.primary.startswith(("cpu", "front end"))
                    with tempfile.TemporaryDirectory(prefix="vichls-shrink-") as sdir:
                        reduced = shrink(
                            prog, v.primary,
                            lambda b, sdir=sdir, rtl=rtl: check_programs(
                                b, Path(sdir), simulator, candidates=True, rtl=rtl),
                            log)
                f = Finding(prog.args_seed, kind, v.details or [str(v.invalid)], prog.source,
                            reduced)
                if regressions is not None:
                    Path(regressions).mkdir(parents=True, exist_ok=True)
                    f.path = Path(regressions) / f"fuzz_{prog.args_seed}.py"
                    f.path.write_text(reproducer_text(f, seed))
                    log(f"vichls fuzz: wrote {f.path}")
                findings.append(f)
    return len(seeds), findings


def replay(paths: list[Path], workdir: Path, simulator: str = "verilator") -> dict[str, Verdict]:
    """Check reproducer files (each a program with ``ARGS_SEED``) in one batch."""
    programs = []
    for p in paths:
        text = Path(p).read_text()
        tree = ast.parse(text)
        args_seed = next(n.value.value for n in tree.body if isinstance(n, ast.Assign)
                         and [getattr(t, "id", None) for t in n.targets] == ["ARGS_SEED"])
        programs.append(Program(Path(p).stem, text, args_seed))
    return check_programs(programs, workdir, simulator)
