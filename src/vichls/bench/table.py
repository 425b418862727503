"""Presenting a bench run: the summary figures, and the table as text, CSV, JSON and Markdown.

What: ``summarize(rows)`` computes the suite-level figures (geomeans of cycles/bound, of our
cycles and LUTs over the published Vivado HLS and Calyx ones, of the estimator's error
against Yosys and simulation; fmax range; failures); ``text_table``, ``markdown_table``,
``write_csv`` and ``write_json`` print one row per benchmark with the same columns.

Why geomeans: the figures are ratios spread over orders of magnitude; an arithmetic mean would
let the largest benchmark decide. The estimator's "geomean error" is exp(mean |ln(est/meas)|)
- 1: the typical factor by which an estimate misses, whatever its direction; the "bias" is
the geomean of est/meas (above 1: the estimator overestimates).

Assumes rows as ``vichls.bench.runner`` makes them (flat dicts, None for a missing figure).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

__all__ = ["COLUMNS", "summarize", "summary_lines", "text_table", "markdown_table",
           "write_csv", "write_json"]

#: (row key, header, format) of every table column, in order
COLUMNS: list[tuple[str, str, str]] = [
    ("name", "benchmark", "s"),
    ("status", "status", "s"),
    ("cycles", "cycles", "d"),
    ("ii", "II", "s"),
    ("bound", "bound", "d"),
    ("cycles_per_bound", "cyc/bnd", ".2f"),
    ("bound_limit", "bound set by", "s"),
    ("lut", "LUT", "d"),
    ("ff", "FF", "d"),
    ("dsp", "DSP", "d"),
    ("bram", "BRAM", "d"),
    ("fmax_mhz", "fmax MHz", ".1f"),
    ("compile_s", "compile s", ".2f"),
    ("est_lut", "est LUT", "d"),
    ("est_lut_err_pct", "LUT err%", "+.0f"),
    ("est_ff", "est FF", "d"),
    ("est_ff_err_pct", "FF err%", "+.0f"),
    ("est_dsp", "est DSP", "d"),
    ("est_cycles_err_pct", "cyc err%", "+.0f"),
    ("vivado_cycles", "Vivado cyc", "d"),
    ("cycles_vs_vivado", "x Vivado", ".2f"),
    ("calyx_cycles", "Calyx cyc", "d"),
    ("cycles_vs_calyx", "x Calyx", ".2f"),
    ("vivado_lut", "Vivado LUT", "d"),
    ("lut_vs_vivado", "x VivLUT", ".2f"),
    ("calyx_lut", "Calyx LUT", "d"),
    ("lut_vs_calyx", "x CalLUT", ".2f"),
]

#: columns of text, aligned left (the others are numbers)
_LEFT = {i for i, (_, _, fmt) in enumerate(COLUMNS) if fmt == "s" and COLUMNS[i][0] != "ii"}


def _cell(value, fmt: str) -> str:
    if value is None or value == "":
        return "-"
    if fmt == "s":
        return str(value)
    return format(value, fmt)


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _estimator(rows: list[dict], est_key: str, meas_key: str) -> dict | None:
    """Bias (geomean est/meas) and typical error (exp mean |ln est/meas| - 1) over rows where
    both figures are positive."""
    pairs = [(r[est_key], r[meas_key]) for r in rows
             if r.get(est_key) and r.get(meas_key) and r[est_key] > 0 and r[meas_key] > 0]
    if not pairs:
        return None
    logs = [math.log(e / m) for e, m in pairs]
    return {"bias": round(math.exp(sum(logs) / len(logs)), 3),
            "error_pct": round(100 * (math.exp(sum(abs(x) for x in logs) / len(logs)) - 1), 1),
            "count": len(pairs)}


def summarize(rows: list[dict]) -> dict:
    """Suite-level figures of a run (None where no row has the figures)."""
    ok = [r for r in rows if r["status"] == "ok"]

    def geo(key: str) -> float | None:
        g = _geomean([r.get(key) for r in ok])
        return None if g is None else round(g, 3)

    fmaxes = [r["fmax_mhz"] for r in ok if r.get("fmax_mhz")]
    vivado = [r for r in ok if r.get("cycles_vs_vivado") is not None]
    dsp_pairs = [r for r in ok if r.get("est_dsp") is not None and r.get("dsp") is not None]
    return {
        "benchmarks": len(rows),
        "ok": len(ok),
        "failed": [f"{r['name']}: {r['status']}" for r in rows if r["status"] != "ok"],
        "geomean_cycles_per_bound": geo("cycles_per_bound"),
        "geomean_cycles_vs_vivado": geo("cycles_vs_vivado"),
        "at_most_vivado_cycles": f"{sum(r['cycles_vs_vivado'] <= 1 for r in vivado)}/{len(vivado)}",
        "geomean_lut_vs_vivado": geo("lut_vs_vivado"),
        "geomean_cycles_vs_calyx": geo("cycles_vs_calyx"),
        "geomean_lut_vs_calyx": geo("lut_vs_calyx"),
        "estimator_lut": _estimator(ok, "est_lut", "lut"),
        "estimator_ff": _estimator(ok, "est_ff", "ff"),
        "estimator_cycles": _estimator(ok, "est_cycles", "cycles"),
        "estimator_dsp_exact": f"{sum(r['est_dsp'] == r['dsp'] for r in dsp_pairs)}/{len(dsp_pairs)}",
        "fmax_min_mhz": min(fmaxes) if fmaxes else None,
        "fmax_geomean_mhz": None if not fmaxes else round(_geomean(fmaxes), 1),
        "fmax_at_least_150": f"{sum(f >= 150 for f in fmaxes)}/{len(fmaxes)}",
        "compile_s_total": round(sum(r.get("compile_s") or 0 for r in rows), 2),
        "partial_bounds": [r["name"] for r in rows if r.get("bound_complete") is False],
    }


def summary_lines(summary: dict) -> list[str]:
    """The summary as readable lines (under the table)."""
    def f(x, fmt=".2f"):
        return "-" if x is None else format(x, fmt)

    def est(name, e):
        if not e:
            return f"{name}: -"
        return (f"{name}: geomean error {e['error_pct']:.0f}%, bias x{e['bias']:.2f} "
                f"(estimate / measured, {e['count']} designs)")

    s = summary
    lines = [
        f"{s['ok']}/{s['benchmarks']} benchmarks ok"
        + (f"; FAILED: {', '.join(s['failed'])}" if s["failed"] else ""),
        f"geomean cycles/bound {f(s['geomean_cycles_per_bound'])}"
        + (f" (data-dependent trip counts, so weaker bounds: {', '.join(s['partial_bounds'])})"
           if s["partial_bounds"] else ""),
        f"geomean cycles / Vivado HLS {f(s['geomean_cycles_vs_vivado'])} (at most Vivado: "
        f"{s['at_most_vivado_cycles']}), LUT / Vivado HLS {f(s['geomean_lut_vs_vivado'])}; "
        f"cycles / Calyx {f(s['geomean_cycles_vs_calyx'])}, LUT / Calyx "
        f"{f(s['geomean_lut_vs_calyx'])}",
        "estimator vs Yosys synth_xilinx: " + est("LUT", s["estimator_lut"]) + "; "
        + est("FF", s["estimator_ff"]) + f"; DSP exact {s['estimator_dsp_exact']}",
        "latency estimate vs simulation: " + est("cycles", s["estimator_cycles"]),
        f"fmax (nextpnr-ecp5): min {f(s['fmax_min_mhz'], '.1f')} MHz, geomean "
        f"{f(s['fmax_geomean_mhz'], '.1f')} MHz, >= 150 MHz: {s['fmax_at_least_150']}",
        f"compile time, all designs: {s['compile_s_total']:.2f} s",
    ]
    return lines


def _cells(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    headers = [h for _, h, _ in COLUMNS]
    body = [[_cell(r.get(k), fmt) for k, _, fmt in COLUMNS] for r in rows]
    return headers, body


def text_table(rows: list[dict]) -> str:
    """Aligned columns; failure rows are followed by their detail."""
    headers, body = _cells(rows)
    widths = [max(len(h), *(len(line[i]) for line in body)) if body else len(h)
              for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if i in _LEFT else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    for row, cells in zip(rows, body):
        out.append(line(cells))
        if row["status"] != "ok" and row.get("detail"):
            out.append(f"    !! {row['name']}: {row['detail']}")
    return "\n".join(out)


def markdown_table(rows: list[dict]) -> str:
    headers, body = _cells(rows)
    out = ["| " + " | ".join(headers) + " |",
           "|" + "|".join("---" if i in _LEFT else "---:" for i in range(len(headers))) + "|"]
    out += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(out)


def write_csv(rows: list[dict], path: Path) -> None:
    """Every row key as a column (the table's columns first), None as an empty cell."""
    keys = [k for k, _, _ in COLUMNS]
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=keys)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: "" if r.get(k) is None else r.get(k) for k in keys})


def write_json(document: dict, path: Path) -> None:
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=False) + "\n")
