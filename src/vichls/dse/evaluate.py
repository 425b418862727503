"""Evaluating design points with the estimator, in this process, a process pool or on Dask.

What: ``evaluate(kernel, directives, budget)`` records the directives on
``vichls.customize(kernel)``, builds for the FPGA and returns an ``Evaluation``: the
report's latency (min/max cycles) and resource estimate (LUT/FF/DSP/BRAM18), and a status:
"ok", "over budget" (built, but a resource exceeds the budget) or "infeasible" (a
directive cannot apply, the back end refuses the design, or it fails in any other way:
the error is recorded, never raised, so one bad point never stops a sweep). A build that
exceeds the time limit per point is infeasible too (a few directive sets make the back end
slow; in worker threads, where signals cannot interrupt, no limit applies). A point given
a deadline (the exploration's time budget, as wall-clock time) that has passed when it
starts is not built: it comes back "skipped", and the search forgets it.

Why three executors: a sweep is hundreds of independent ~0.1 s compilations. ``Serial``
runs them here (tests, one core), ``Pool`` in local worker processes (``--jobs``), and
``DaskExecutor`` as futures on a Dask distributed cluster (``--scheduler ADDRESS``). Remote
workers load the kernel themselves from its file path and name (``KernelRef``; the source
text for kernels made from text), cached per process, so no kernel object is ever pickled.

Assumes the kernel file can be imported on the workers at the same path (a shared file
system, or a local cluster), and fork() for the local pool (POSIX).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import time
from dataclasses import asdict, dataclass, field
from typing import Iterable, Iterator

from vichls.time_limit import TimeLimitExceeded
from vichls.time_limit import time_limit as wall_clock_limit

RESOURCES = ("lut", "ff", "dsp", "bram18")


@dataclass(frozen=True)
class KernelRef:
    """Where a worker finds the kernel: a file to import and the kernel's name. A kernel
    made from text (``load_source``, e.g. the benchmark suite at another size) carries
    that text instead, since no file holds it."""

    path: str
    name: str
    source: str | None = None


@dataclass
class Evaluation:
    directives: list  # [(method, args, kwargs)]
    status: str  # "ok" | "over budget" | "infeasible" | "skipped" (time budget spent)
    latency_min: int | None = None
    latency_max: int | None = None
    resources: dict = field(default_factory=dict)  # lut, ff, dsp, bram18
    error: str | None = None
    seconds: float = 0.0
    point: object = None  # the space's Point (set by the search, not by workers)
    index: int = -1  # order of evaluation (set by the search)

    @property
    def feasible(self) -> bool:
        return self.status == "ok"

    @property
    def latency(self) -> float:
        """The worst-case latency; the best case when it is data-dependent, inf unknown."""
        if self.latency_max is not None:
            return self.latency_max
        return self.latency_min if self.latency_min is not None else float("inf")

    def as_dict(self) -> dict:
        d = asdict(self)
        d.pop("point")
        d["directives"] = [[m, list(a), k] for m, a, k in self.directives]
        return d


_KERNEL_CACHE: dict[KernelRef, object] = {}


def load_kernel(ref: KernelRef):
    """The kernel ``ref`` names, imported once per process."""
    if ref not in _KERNEL_CACHE:
        from vichls.errors import VichlsError
        from vichls.frontend.kernel import kernels_in, load_file, load_source

        namespace = load_source(ref.source, ref.path) if ref.source else load_file(ref.path)
        kernels = kernels_in(namespace)
        if ref.name not in kernels:
            raise VichlsError(f"no kernel named '{ref.name}' in {ref.path}")
        _KERNEL_CACHE[ref] = kernels[ref.name]
    return _KERNEL_CACHE[ref]


def over_budget(resources: dict, budget: dict) -> list[str]:
    """The resources above their budget, spelled "dsp 240 > 220"."""
    return [f"{k} {resources.get(k, 0)} > {limit}" for k, limit in budget.items()
            if resources.get(k, 0) > limit]


def evaluate(kernel, directives: list, budget: dict, clock_period_ns: float = 10.0,
             time_limit: float | None = None, deadline: float | None = None) -> Evaluation:
    """Build one point (``kernel`` is a Kernel or a KernelRef) and grade it; a build that
    takes longer than ``time_limit`` seconds, or runs past ``deadline`` (``time.time()``),
    makes the point infeasible; a point that would start after ``deadline`` is skipped."""
    import vichls
    from vichls.dse.space import apply_directives

    start = time.perf_counter()
    directives = [(m, tuple(a), dict(k)) for m, a, k in directives]
    cut_by_deadline = False
    if deadline is not None:
        remaining = deadline - time.time()
        if remaining <= 0:
            return Evaluation(directives, "skipped", error="the exploration's time budget "
                              "was spent before this point started")
        if time_limit is None or remaining < time_limit:
            time_limit, cut_by_deadline = remaining, True
    try:
        if isinstance(kernel, KernelRef):
            kernel = load_kernel(kernel)
        with wall_clock_limit(time_limit):
            schedule = apply_directives(vichls.customize(kernel), directives)
            report = schedule.build("fpga", clock_period_ns=clock_period_ns).report
    except TimeLimitExceeded:
        if cut_by_deadline:  # not the point's fault: the exploration ran out of time
            return Evaluation(directives, "skipped", error="the exploration's time budget "
                              "ran out while this point was building",
                              seconds=time.perf_counter() - start)
        return Evaluation(directives, "infeasible", error=f"compiling took longer than "
                          f"{time_limit:g} s (the time limit per point)",
                          seconds=time.perf_counter() - start)
    except Exception as e:  # noqa: BLE001 - any failure makes the point infeasible
        return Evaluation(directives, "infeasible", error=f"{type(e).__name__}: {e}",
                          seconds=time.perf_counter() - start)
    latency = report.get("latency", {})
    resources = {k: report.get("resources", {}).get(k, 0) for k in RESOURCES}
    over = over_budget(resources, budget)
    return Evaluation(directives, "over budget" if over else "ok", latency.get("min"),
                      latency.get("max"), resources, "; ".join(over) or None,
                      time.perf_counter() - start)


def _evaluate_ref(ref: KernelRef, directives, budget, clock_period_ns, time_limit,
                  deadline=None) -> Evaluation:
    return evaluate(ref, directives, budget, clock_period_ns, time_limit, deadline)


def _outcome(future, directives) -> Evaluation:
    """The future's evaluation; a lost worker makes the point infeasible, not the run fail."""
    try:
        return future.result()
    except Exception as e:  # noqa: BLE001 - a crashed or unreachable worker
        return Evaluation([(m, tuple(a), dict(k)) for m, a, k in directives], "infeasible",
                          error=f"the evaluation failed on its worker: {type(e).__name__}: {e}")


class Serial:
    """Evaluates in this process, in order."""

    def __init__(self, kernel):
        self.kernel = kernel

    def run(self, batch: Iterable[list], budget: dict, clock_period_ns: float,
            time_limit: float | None = None, deadline: float | None = None
            ) -> Iterator[tuple[int, Evaluation]]:
        for k, directives in enumerate(batch):
            yield k, evaluate(self.kernel, directives, budget, clock_period_ns, time_limit,
                              deadline)

    def close(self) -> None:
        pass


class Pool:
    """Evaluates in ``jobs`` local worker processes (forked: no re-import per task)."""

    def __init__(self, ref: KernelRef, jobs: int):
        self.ref = ref
        context = multiprocessing.get_context("fork")
        self.executor = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context)

    def run(self, batch, budget, clock_period_ns, time_limit=None, deadline=None):
        batch = list(batch)
        futures = {self.executor.submit(_evaluate_ref, self.ref, d, budget, clock_period_ns,
                                        time_limit, deadline): k
                   for k, d in enumerate(batch)}
        for future in cf.as_completed(futures):
            yield futures[future], _outcome(future, batch[futures[future]])

    def close(self) -> None:
        self.executor.shutdown(cancel_futures=True)


class DaskExecutor:
    """Evaluates as futures on a Dask distributed cluster: a scheduler address, or a
    ``distributed.Client`` the caller owns (then it is not closed here)."""

    def __init__(self, ref: KernelRef, scheduler):
        try:
            from distributed import Client
        except ImportError:
            from vichls.errors import VichlsError

            raise VichlsError("--scheduler runs on a Dask cluster, which needs Dask's "
                              "distributed package: pip install 'vichls[cluster]'") from None

        self.ref = ref
        self.owned = not isinstance(scheduler, Client)
        self.client = Client(scheduler) if self.owned else scheduler

    def run(self, batch, budget, clock_period_ns, time_limit=None, deadline=None):
        from distributed import as_completed

        futures = {}
        batch = list(batch)
        for k, d in enumerate(batch):
            # pure=False: equal arguments are still separate evaluations to run
            futures[self.client.submit(_evaluate_ref, self.ref, d, budget, clock_period_ns,
                                       time_limit, deadline, pure=False)] = k
        for future in as_completed(list(futures)):
            yield futures[future], _outcome(future, batch[futures[future]])

    def close(self) -> None:
        if self.owned:
            self.client.close()
