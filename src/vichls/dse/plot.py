"""A PNG picture of a DSE run: latency against LUTs and against DSPs.

What: ``plot_png(result)`` draws two panels (LUT, DSP on x; estimated latency in cycles on
y, log scale): every point within budget in grey, points over budget as red crosses, each
panel's two-objective Pareto front as a line, the three-objective frontier circled and the
chosen point starred. Returns the PNG bytes; the caller writes them.

Assumes matplotlib; uses its Agg backend (no display) through an explicit Figure, so the
global pyplot state is never touched.
"""

from __future__ import annotations

import io

from vichls.dse.pareto import pareto_front


def plot_png(result) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # the plot extra
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.2), dpi=100)
    FigureCanvasAgg(fig)
    built = [e for e in result.points if e.status != "infeasible" and e.latency != float("inf")]
    ok = [e for e in built if e.feasible]
    over = [e for e in built if not e.feasible]
    frontier = {id(e) for e in result.frontier}
    for k, resource in enumerate(("lut", "dsp")):
        ax = fig.add_subplot(1, 2, k + 1)
        ax.scatter([e.resources[resource] for e in ok], [e.latency for e in ok], s=12,
                   color="0.6", label="within budget")
        if over:
            ax.scatter([e.resources[resource] for e in over], [e.latency for e in over],
                       s=14, marker="x", color="tab:red", label="over budget")
        front3 = [e for e in ok if id(e) in frontier]
        ax.scatter([e.resources[resource] for e in front3], [e.latency for e in front3],
                   s=40, facecolors="none", edgecolors="tab:blue",
                   label="Pareto frontier (latency, LUT, DSP)")
        front2 = sorted(pareto_front(ok, lambda e: (e.resources[resource], e.latency)),
                        key=lambda e: e.resources[resource])
        ax.step([e.resources[resource] for e in front2], [e.latency for e in front2],
                where="post", color="tab:blue", linewidth=1)
        if result.chosen is not None:
            ax.scatter([result.chosen.resources[resource]], [result.chosen.latency],
                       marker="*", s=160, color="tab:orange", zorder=3, label="chosen")
        limit = result.budget.get(resource)
        if limit is not None and any(e.resources[resource] > limit for e in built):
            ax.axvline(limit, color="tab:red", linestyle="--", linewidth=1)
        ax.set_xlabel(f"{resource.upper()} (estimate)")
        ax.set_ylabel("latency (cycles, estimate)")
        if built and min(e.latency for e in built) > 0:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        if k == 0:
            ax.legend(fontsize=7)
    fig.suptitle(f"vichls dse: {result.kernel_name} ({len(result.points)} points)")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()
