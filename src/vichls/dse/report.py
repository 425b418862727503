"""What a DSE run hands back to people: a frontier table, CSV and JSON files, the schedule.

What: ``frontier_table(result)`` is the Pareto frontier as fixed-width text (the chosen
point starred); ``points_csv`` lists every evaluated point; ``result_json`` holds the
whole run (budget, notes, every point, the frontier, the choice, the verification);
``output_files(result)`` gives all of them by file name, with the chosen schedule as
Python (``schedule.py``) and the PNG plot, for the caller to write.

Assumes a ``vichls.dse.search.DseResult``.
"""

from __future__ import annotations

import csv
import io
import json

from vichls.dse.evaluate import RESOURCES


def latency_text(e) -> str:
    if e.latency_max is None and e.latency_min is None:
        return "?"
    if e.latency_max is None:
        return f">={e.latency_min}"
    return str(e.latency_max)


def frontier_table(result) -> str:
    rows = [("", "point", "latency", *[r.upper() for r in RESOURCES], "speedup", "directives")]
    base = result.baseline.latency
    for e in sorted(result.frontier, key=lambda e: (e.latency, e.resources.get("lut", 0))):
        speed = f"{base / e.latency:.2f}x" if e.latency and base != float("inf") else "?"
        rows.append(("*" if e is result.chosen else "", str(e.index), latency_text(e),
                     *[str(e.resources.get(r, 0)) for r in RESOURCES], speed,
                     e.point.describe() if e.point is not None else ""))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    lines = ["  ".join(c.rjust(w) if k else c.ljust(w) for k, (c, w) in
                       enumerate(zip(r[:-1], widths))) + "  " + r[-1] for r in rows]
    return "\n".join(lines) + "\n"


def points_csv(points) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["point", "status", "latency_min", "latency_max", *RESOURCES, "seconds",
                "knobs", "error"])
    for e in points:
        w.writerow([e.index, e.status, e.latency_min, e.latency_max,
                    *[e.resources.get(r, "") for r in RESOURCES], f"{e.seconds:.3f}",
                    e.point.describe() if e.point is not None else "", e.error or ""])
    return out.getvalue()


def result_json(result) -> str:
    return json.dumps({
        "kernel": result.kernel_name,
        "budget": result.budget,
        "max_parallel": result.max_parallel,
        "notes": result.notes,
        "seconds": round(result.seconds, 3),
        "baseline": result.baseline.index,
        "chosen": result.chosen.index if result.chosen else None,
        "estimated_speedup": result.speedup,
        "frontier": sorted(e.index for e in result.frontier),
        "verification": {name: {"cycles": v.cycles, "mismatches": v.mismatches}
                         for name, v in result.verification.items()},
        "verified_speedup": result.verified_speedup(),
        "points": [e.as_dict() | {"knobs": e.point.describe() if e.point else ""}
                   for e in result.points],
    }, indent=1) + "\n"


def output_files(result) -> dict[str, str | bytes]:
    """The files by name; ``dse.png`` only where matplotlib is installed (the ``plot``
    extra: ``pip install 'vichls[plot]'``)."""
    files: dict[str, str | bytes] = {
        "pareto.csv": points_csv(sorted(result.frontier, key=lambda e: e.index)),
        "points.csv": points_csv(result.points),
        "dse.json": result_json(result),
        "schedule.py": result.schedule_python,
    }
    from vichls.dse.plot import plot_png

    try:
        files["dse.png"] = plot_png(result)
    except ImportError:  # matplotlib is not installed
        pass
    return files
