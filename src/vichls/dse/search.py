"""Design-space exploration: bounded parallelism, then a Pareto-neighbour search.

What: ``explore(kernel, budget=...)`` finds directive sets for a kernel, ScaleHLS-style:

1. build the kernel without directives (the baseline), and probe once whether the back
   end supports ``pipeline`` (before it does, pipeline points are left out, with a note);
2. bound the parallelism: the product of unroll factors along any loop nest path is at
   most ``max_parallel``, and the DSP blocks of the products, each times the copies of the
   loops it depends on, at most ``DSP_SLACK`` times the budget (``Space.dsp_estimate``:
   a nest is bounded by its own multipliers, not by those elsewhere in the kernel);
3. evaluate a structured sample (``Space.seeds``), then repeatedly evaluate the unseen
   neighbours (one knob changed) of the Pareto frontier (latency, LUT, DSP of the points
   within budget), lowest latency first, each round after the neighbours with fewer
   copies of the fastest points over the budget that beat every point within it
   (``near_misses``: a nest pipelined just past the DSP budget, one step from fitting),
   until no neighbour is new or ``max_points``
   points are spent, or the time budget (``time_budget`` seconds of wall clock) runs out:
   points not started by then are skipped and forgotten, and a point still building is
   cut off there;
4. choose the lowest-latency point within the budget (ties: fewer LUTs, DSPs, directives),
   and optionally simulate the best ``verify`` points against the Python call.

Evaluations run through ``vichls.dse.evaluate`` (this process, a local pool, or Dask).
Everything is returned in a ``DseResult``; nothing is printed or written here except the
optional progress bar on stderr.

Assumes: the kernel is defined in a file (workers import it by path and name).
"""

from __future__ import annotations

import inspect
import linecache
import time
from pathlib import Path
from dataclasses import dataclass, field

from vichls.dse.evaluate import (
    RESOURCES,
    DaskExecutor,
    Evaluation,
    KernelRef,
    Pool,
    Serial,
    evaluate,
)
from vichls.dse.pareto import pareto_front
from vichls.dse.space import DSP_SLACK, Point, Space, python_of
from vichls.errors import VichlsError
from vichls.targets import oplib

#: A PYNQ-Z1 board's xc7z020: 53,200 LUTs, 106,400 FFs, 220 DSP48s, 280 BRAM18s (the xc7
#: device's part in the operator library, which the compile report warns against).
PYNQ_Z1 = dict(oplib.XC7.capacity)


class DseMismatch(VichlsError):
    """A chosen design point computed something other than the Python kernel in simulation;
    ``result`` holds the whole exploration, verification included."""

    def __init__(self, message: str, result: "DseResult"):
        super().__init__(message)
        self.result = result


def parse_budget(text: str | dict | None) -> dict:
    """``"dsp=220,lut=53200"`` (or a dict) over the PYNQ-Z1 defaults."""
    budget = dict(PYNQ_Z1)
    if text is None:
        return budget
    items = text.items() if isinstance(text, dict) else (
        part.split("=", 1) if "=" in part else (part, None)
        for part in text.split(",") if part.strip())
    for key, value in items:
        key = key.strip().lower()
        if key not in RESOURCES:
            raise VichlsError(f"unknown resource '{key}' in the budget (known: "
                              f"{', '.join(RESOURCES)})")
        try:
            budget[key] = int(value)
        except (TypeError, ValueError):
            raise VichlsError(f"the budget of '{key}' must be a whole number, not "
                              f"{value!r}") from None
        if budget[key] < 0:
            raise VichlsError(f"the budget of '{key}' must not be negative")
    return budget


def objectives(e: Evaluation) -> tuple:
    return (e.latency, e.resources.get("lut", 0), e.resources.get("dsp", 0))


def preference(e: Evaluation) -> tuple:
    """Lower is better: latency, LUTs, DSPs, then fewer directives, then found earlier."""
    return (*objectives(e), len(e.directives), e.index)


#: over-budget points faster than every point within budget whose smaller neighbours the
#: search tries first, each round
NEAR_MISSES = 2


def near_misses(points: list[Evaluation]) -> list[Evaluation]:
    """The fastest points over the budget that beat every point within it: one step less
    parallel, they may fit and still be the fastest (a nest pipelined with 80 multipliers
    where 73 fit)."""
    best = min((e.latency for e in points if e.feasible), default=float("inf"))
    over = [e for e in points if e.status == "over budget" and e.latency < best]
    return sorted(over, key=preference)[:NEAR_MISSES]


def frontier_of(points: list[Evaluation]) -> list[Evaluation]:
    """The Pareto frontier of the points within budget, lowest latency first; of points
    with equal objectives it keeps the preferred one (fewest directives)."""
    simplest: dict[tuple, Evaluation] = {}
    for e in sorted((e for e in points if e.feasible), key=preference):
        simplest.setdefault(objectives(e), e)
    return pareto_front(list(simplest.values()), objectives)


@dataclass
class DseResult:
    kernel_name: str
    budget: dict
    baseline: Evaluation
    points: list[Evaluation]  # every evaluation, in order (the baseline is points[0])
    frontier: list[Evaluation]  # Pareto frontier (latency, LUT, DSP) of the points in budget
    chosen: Evaluation | None  # the lowest latency within budget
    notes: list[str] = field(default_factory=list)
    max_parallel: int = 1
    seconds: float = 0.0
    verification: dict = field(default_factory=dict)  # name -> verify.Verification

    @property
    def schedule_python(self) -> str:
        """The chosen directives as Python to paste below the kernel."""
        return python_of(self.chosen.directives if self.chosen else [], self.kernel_name)

    @property
    def speedup(self) -> float | None:
        """Estimated latency of the baseline over that of the chosen point."""
        if not self.chosen or not self.chosen.latency or self.baseline.latency == float("inf"):
            return None
        return self.baseline.latency / self.chosen.latency

    def verified_speedup(self) -> float | None:
        """Simulated cycles of the baseline over those of the chosen point."""
        if self.chosen is None:
            return None
        base = self.verification.get("baseline")
        mine = self.verification.get(f"point{self.chosen.index}")
        if not base or not mine or not mine.cycles:
            return None
        return max(base.cycles) / max(mine.cycles)


def kernel_ref(kernel) -> KernelRef:
    """Where workers find ``kernel``: its file, or the text it was made from."""
    path = inspect.getsourcefile(kernel.fn) or kernel.fn.__code__.co_filename
    if Path(path).is_file():
        return KernelRef(str(Path(path).resolve()), kernel.name)
    source = "".join(linecache.getlines(path))  # load_source registered the text there
    if not source:
        raise VichlsError(f"the source of kernel '{kernel.name}' ({path}) cannot be found "
                          "for the workers; use jobs=1 without a scheduler")
    return KernelRef(path, kernel.name, source)


def _pipeline_probe(kernel, space: Space, budget: dict, clock: float) -> Evaluation | None:
    """One pipelined point, built to learn whether the back end pipelines at all (None
    when the kernel has no loop to pipeline): an innermost loop, quick to build."""
    points = [Point(pipeline=(path,)) for path in space.pipeline_candidates()]
    points = [p for p in points if space.valid(p)]
    if not points:
        return None
    point = min(points, key=lambda p: not space.loops[p.pipeline[0]].innermost)
    probe = evaluate(kernel, space.directives(point), budget, clock)
    probe.point = point
    return probe


def _unsupported(probe: Evaluation | None) -> bool:
    return (probe is not None and probe.status == "infeasible"
            and "not implemented" in (probe.error or ""))


def explore(kernel, *, budget: str | dict | None = None, jobs: int = 1, scheduler=None,
            max_points: int = 200, max_parallel: int = 64, verify: int = 0, runs: int = 3,
            seed: int = 0, make_inputs=None, clock_period_ns: float = 10.0,
            simulator: str = "verilator", point_time_limit: float | None = 60.0,
            time_budget: float | None = None, progress: bool = False) -> DseResult:
    """Explore unroll/tile/pipeline/partition choices for ``kernel`` (a ``@kernel``).

    ``jobs`` > 1 evaluates in a local process pool; ``scheduler`` (an address such as
    "tcp://host:8786", or a ``distributed.Client``) evaluates on Dask instead. ``verify``
    points (the lowest latencies within budget) are simulated on ``runs`` random inputs
    (``make_inputs(rng)`` if given); a mismatch raises ``DseMismatch``. A point whose
    compilation takes longer than ``point_time_limit`` seconds counts as infeasible (not
    enforced in threads, e.g. on Dask workers). ``time_budget`` bounds the whole search in
    seconds (the baseline and the pipeline probe are always built); the result then
    depends on the machine's speed, so it is off by default."""
    start = time.perf_counter()
    deadline = None if time_budget is None else time.time() + time_budget
    budget = parse_budget(budget)
    notes: list[str] = []
    baseline = evaluate(kernel, [], budget, clock_period_ns)
    baseline.point, baseline.index = Point(), 0
    if baseline.status == "infeasible":
        raise VichlsError(f"kernel '{kernel.name}' does not build without directives: "
                          f"{baseline.error}")
    space = Space(kernel, max_parallel=max_parallel, dsp_budget=budget["dsp"])
    if space.multipliers:
        notes.append(f"parallelism bounded per loop nest by its own multipliers: at most "
                     f"{DSP_SLACK:g} x the DSP budget of {budget['dsp']} in the estimate "
                     f"(and {max_parallel} copies per nest)")
    probe = _pipeline_probe(kernel, space, budget, clock_period_ns)
    evaluated: dict[Point, Evaluation] = {Point(): baseline}
    order = [baseline]
    if _unsupported(probe):
        space = Space(kernel, max_parallel=max_parallel, pipeline=False,
                      dsp_budget=budget["dsp"])
        notes.append("pipeline points left out: this version of vichls does not "
                     "implement the pipeline directive yet")
    elif probe is not None:
        probe.index = 1
        evaluated[probe.point] = probe
        order.append(probe)
    if scheduler is not None:
        executor = DaskExecutor(kernel_ref(kernel), scheduler)
    elif jobs > 1:
        executor = Pool(kernel_ref(kernel), jobs)
    else:
        executor = Serial(kernel)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=max_points, desc=f"dse {kernel.name}", unit="pt", leave=False)
        bar.update(len(order))

    def out_of_time() -> bool:
        return deadline is not None and time.time() >= deadline

    def run(points: list[Point]) -> None:
        fresh = [p for p in dict.fromkeys(points) if p not in evaluated]
        fresh = fresh[:max(0, max_points - len(order))]
        batch = [space.directives(p) for p in fresh]
        for k, result in executor.run(batch, budget, clock_period_ns, point_time_limit,
                                      deadline):
            if result.status == "skipped":
                continue
            result.point = fresh[k]
            evaluated[fresh[k]] = result
            if bar is not None:
                bar.update(1)
        fresh = [p for p in fresh if p in evaluated]
        for p in fresh:  # number the points in a stable order, whatever finished first
            evaluated[p].index = len(order)
            order.append(evaluated[p])

    try:
        run(space.seeds())
        while len(order) < max_points and not out_of_time():
            candidates = [n for e in near_misses(order) for n in space.smaller_neighbours(e.point)
                          if n not in evaluated]
            candidates += [n for e in frontier_of(order) for n in space.neighbours(e.point)
                           if n not in evaluated]
            if not candidates:
                break
            run(candidates)
    finally:
        executor.close()
        if bar is not None:
            bar.close()

    feasible = [e for e in order if e.feasible]
    frontier = frontier_of(order)
    chosen = min(feasible, key=preference, default=None)
    if chosen is None:
        notes.append("no point fits the budget, not even the design without directives")
    if len(order) >= max_points:
        notes.append(f"stopped after {max_points} points (--max-points)")
    elif out_of_time():
        notes.append(f"stopped after {len(order)} points: the time budget of "
                     f"{time_budget:g} s ran out")
    result = DseResult(kernel.name, budget, baseline, order, frontier, chosen, notes,
                       max_parallel)
    if verify > 0 and chosen is not None:
        from vichls.dse.verify import verify_points

        best = sorted(feasible, key=preference)[:verify]
        result.verification = verify_points(
            kernel, {f"point{e.index}": e.directives for e in best}, runs=runs, seed=seed,
            make_inputs=make_inputs, simulator=simulator, clock_period_ns=clock_period_ns)
        bad = [v for v in result.verification.values() if not v.ok]
        if bad:
            result.seconds = time.perf_counter() - start
            lines = [f"{v.name}: {m}" for v in bad for m in v.mismatches[:5]]
            raise DseMismatch(f"vichls dse: {len(bad)} verified design(s) of '{kernel.name}' "
                              "differ from the Python kernel in simulation:\n  "
                              + "\n  ".join(lines), result)
    result.seconds = time.perf_counter() - start
    return result
