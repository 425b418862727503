"""The text report (vichls/report_text.py, ``<top>.rpt``): Vitis HLS's csynth sections, with
the numbers of the design's report dict: latency and interval, every loop's latency, II and
trip count, the resources against the device's capacity, every RTL port, the s_axilite
registers and the argument protocols; and the report's timing entry (the critical path the
schedulers chain, scheduling/critical_path.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import vichls
from vichls import int32, int64, kernel, uint8
from vichls.driver.fpga import compile_fpga
from vichls.frontend.kernel import load_file
from vichls.report_text import absolute_time, text_report, utilization_percent
from vichls.targets import oplib

N = 8


@kernel
def vadd(a: int32[N], b: int32[N], c: int32[N]):
    for i in range(N):
        c[i] = a[i] + b[i]


@kernel
def running_product(x: int32[16], y: int32[16]):
    for i in range(1, 16):  # a recurrence through y's memory: II above 1
        y[i] = y[i - 1] * x[i] + x[16 - i]


@kernel
def prefix(x: int32[16], y: int32[16], n: uint8) -> int32:
    total: int32 = 0
    for i in range(n):  # data-dependent trip count
        total += x[i]
        y[i] = total
    return total


gcd = load_file(Path(__file__).resolve().parent.parent / "examples" / "interfaces.py")["gcd"]


M = 32


@kernel
def stages(x: int32[M], y: int32[M]):
    a: int32[M] = 0
    b: int32[M] = 0
    for i in range(M):
        a[i] = x[i] * 3 + 1
    for j in range(M):
        b[j] = a[j] * a[j] - j
    for k in range(M):
        y[k] = (b[k] >> 2) + 7


@kernel
def scaled_sum(x: int32[16], y: int32[16], scale: int64, n: uint8) -> int64:
    total: int64 = 0
    for i in range(16):
        if i < n:
            total += int64(x[i]) * scale
            y[i] = x[i] * 3
    return total


# -- reading the text back -----------------------------------------------------------------------


def table(text: str, marker: str) -> tuple[list[list[str]], list[list[str]]]:
    """(header lines, data rows) of the first table after ``marker``, cells stripped."""
    lines = text[text.index(marker):].splitlines()[1:]
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("+"))
    groups: list[list[list[str]]] = [[]]
    for line in lines[start + 1:]:
        s = line.strip()
        if s.startswith("+"):
            groups.append([])
        elif s.startswith("|"):
            groups[-1].append([c.strip() for c in s.strip("|").split("|")])
        else:
            break
    header, rows = groups[0], [r for g in groups[1:] for r in g]
    return header, rows


def section(text: str, title: str) -> str:
    """The text of section ``== title`` up to the next section."""
    start = text.index(f"== {title}")
    end = text.find("\n== ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def check_common(report: dict, text: str) -> None:
    """What every report's text shows: sections, timing, resources, ports."""
    titles = [line[3:] for line in text.splitlines() if line.startswith("== ")]
    assert titles[1:4] == ["Performance Estimates", "Utilization Estimates", "Interface"]
    assert titles[0] == f"vichls Report for '{report['top']}'"
    for marker in ("+ Timing:", "+ Latency:", "+ Detail:", "* Instance:", "* Loop:"):
        assert marker in section(text, "Performance Estimates")
    dev = oplib.device(report["device"])
    # timing: target, estimate, uncertainty (the register reserve)
    _, (row,) = table(text, "+ Timing:")
    assert row == ["ap_clk", f"{report['clock_period_ns']:.2f} ns",
                   f"{report['timing']['estimated_ns']:.3f} ns",
                   f"{dev.register_reserve_ns:.2f} ns"]
    assert " -> ".join(report["timing"]["critical_chain"]) in text
    # resources: the design's rows, Total, Available, Utilization (%)
    header, rows = table(text, "== Utilization Estimates")
    assert header == [["Name", "BRAM_18K", "DSP", "FF", "LUT"]]
    keys = ("bram18", "dsp", "ff", "lut")
    res, cap = report["resources"], dict(dev.capacity)
    by_name = {r[0]: r[1:] for r in rows}
    assert by_name["Total"] == [str(res[k]) for k in keys]
    assert by_name["Available"] == [str(cap[k]) for k in keys]
    percent = []
    for k in keys:
        p = res[k] * 100 / cap[k]
        percent.append("0" if res[k] == 0 else "~0" if p < 1 else str(int(p)))
    assert by_name["Utilization (%)"] == percent
    # every port, with its direction and width, in order
    _, rows = table(text, "== Interface")
    assert [r[:3] for r in rows] == [[p["name"], p["direction"], str(p["width"])]
                                     for p in report["interface"]["ports"]]
    assert text == text_report(report)  # deterministic


def latency_row(text: str) -> list[str]:
    _, (row,) = table(text, "+ Latency:")
    return row


def loop_rows(text: str) -> dict[str, list[str]]:
    _, rows = table(text, "* Loop:")
    return {r[0][2:]: r[1:] for r in rows}


# -- the designs ----------------------------------------------------------------------------------


def test_plain_kernel():
    report = compile_fpga(vadd.module()).report
    text = text_report(report)
    check_common(report, text)
    lat = report["latency"]["min"]
    assert lat == report["latency"]["max"]
    # ap_ready pulses with ap_done: the next call starts the cycle after, interval = latency + 1
    assert latency_row(text) == [str(lat), str(lat), absolute_time(lat, 10.0),
                                 absolute_time(lat, 10.0), str(lat + 1), str(lat + 1), "no"]
    assert absolute_time(lat, 10.0) == f"{lat * 10:.3f} ns"
    (loop,) = report["loops"]
    assert loop["latency"] == {"min": N * loop["iteration_latency"],
                               "max": N * loop["iteration_latency"]}
    assert loop_rows(text) == {"i": [str(N * loop["iteration_latency"])] * 2
                               + [str(loop["iteration_latency"]), "-", "-", str(N), "no"]}
    assert "* Instance:\n        N/A" in text
    _, rows = table(text, "== Interface")
    protocols = {r[0]: r[3:] for r in rows}
    assert protocols["ap_start"] == ["ap_ctrl_hs", "vadd", "return value"]
    assert protocols["a_address0"] == ["ap_memory", "a", "array"]
    assert protocols["c_we0"] == ["ap_memory", "c", "array"]
    # the estimate fits the budget the scheduler chained under
    timing = report["timing"]
    assert 0 < timing["estimated_ns"] <= 10.0 - oplib.device("xc7").register_reserve_ns
    assert timing["critical_chain"]


def test_pipelined_loop_with_its_ii():
    s = vichls.customize(running_product)
    s.pipeline("i", ii=1)
    report = s.build("fpga").report
    text = text_report(report)
    check_common(report, text)
    (loop,) = report["loops"]
    assert loop["pipelined"] and loop["ii"] > loop["requested_ii"] == 1
    cycles = (15 - 1) * loop["ii"] + loop["depth"]
    assert loop["latency"] == {"min": cycles, "max": cycles}
    assert loop_rows(text)["i"] == [str(cycles), str(cycles), str(loop["depth"]),
                                    str(loop["ii"]), "1", "15", "yes"]
    header, _ = table(text, "* Loop:")
    assert header[1] == ["Loop Name", "min", "max", "Latency", "achieved", "target", "Count",
                         "Pipelined"]
    assert "* II above the target:" in text and loop["ii_reason"] in text
    lat = report["latency"]["min"]
    assert latency_row(text)[4:] == [str(lat + 1), str(lat + 1), "no"]


def test_data_dependent_latency():
    report = compile_fpga(prefix.module()).report
    text = text_report(report)
    check_common(report, text)
    lat = report["latency"]
    assert lat["max"] is None
    row = latency_row(text)
    assert row[0] == str(lat["min"]) and row[1] == "?" and row[3] == "?"
    assert row[4] == str(lat["min"] + 1) and row[5] == "?"
    (loop,) = report["loops"]
    assert loop_rows(text)["i"][:2] == [str(loop["latency"]["min"]), "?"]
    assert loop_rows(text)["i"][5] == "?"  # trip count
    _, rows = table(text, "== Interface")
    protocols = {r[0]: r[3:] for r in rows}
    assert protocols["n"] == ["ap_none", "n", "scalar"]
    assert protocols["ap_return"] == ["ap_ctrl_hs", "prefix", "return value"]

    report = compile_fpga(gcd.module()).report  # a while loop: no bound at all
    text = text_report(report)
    check_common(report, text)
    assert latency_row(text)[1] == "?" and "* Loop:\n        N/A" in text


def test_dataflow_design():
    s = vichls.customize(stages).pipeline("i").pipeline("j").pipeline("k").dataflow()
    report = s.build("fpga").report
    text = text_report(report)
    check_common(report, text)
    flow = report["dataflow"]
    row = latency_row(text)
    assert row[0] == str(report["latency"]["min"])
    assert row[4:] == [str(flow["interval"]), str(flow["interval"]), "dataflow"]
    _, tasks = table(text, "* Instance:")
    assert [(r[0], r[1], r[2]) for r in tasks] == [
        (t["name"], t["module"], str(t["latency"])) for t in flow["tasks"]]
    _, channels = table(text, "* Channels:")
    assert [r[0] for r in channels] == [c["name"] for c in flow["channels"]]
    # a row per task, and the channels and task controllers: they add up to the total
    _, rows = table(text, "== Utilization Estimates")
    by_name = {r[0]: r[1:] for r in rows}
    keys = ("bram18", "dsp", "ff", "lut")
    for t in flow["tasks"]:
        assert by_name[f"{t['name']} ({t['module']})"] == [str(t["resources"][k]) for k in keys]
    rest = by_name["Channels and control"]
    for i, k in enumerate(keys):
        assert sum(t["resources"][k] for t in flow["tasks"]) + int(rest[i]) \
            == report["resources"][k]
    loops = loop_rows(text)
    for loop in report["loops"]:
        assert loops[f"{loop['task']}/{loop['name']}"][3:] == [str(loop["ii"]), "1", str(M),
                                                                "yes"]
    # the design's timing is its slowest task's
    assert report["timing"] == max((t["timing"] for t in flow["tasks"]),
                                   key=lambda t: t["estimated_ns"])


def test_s_axilite_design():
    s = vichls.customize(scaled_sum)
    for name in ("scale", "n", "return"):
        s.interface(name, "s_axilite")
    report = s.build("fpga").report
    text = text_report(report)
    check_common(report, text)
    iface = report["interface"]
    _, rows = table(text, "== Interface")
    protocols = {r[0]: r[3:] for r in rows}
    assert protocols["s_axi_control_AWADDR"] == ["s_axi", "control", "scalar"]
    assert protocols["interrupt"] == ["ap_ctrl_hs", "scaled_sum", "return value"]
    assert protocols["ap_rst_n"] == ["ap_ctrl_hs", "scaled_sum", "return value"]
    assert protocols["x_q0"] == ["ap_memory", "x", "array"]
    # the register map: the control words, then one row per data word
    _, regs = table(text, "* S_AXILITE Registers:")
    assert [(r[1], r[2], r[3], r[4]) for r in regs] == [
        ("CTRL", "0x00", "32", "RW"), ("GIER", "0x04", "32", "RW"),
        ("IP_IER", "0x08", "32", "RW"), ("IP_ISR", "0x0c", "32", "RW"),
        ("ap_return_1", "0x10", "32", "R"), ("ap_return_2", "0x14", "32", "R"),
        ("scale_1", "0x1c", "32", "W"), ("scale_2", "0x20", "32", "W"),
        ("n", "0x28", "8", "W")]
    assert {r[0] for r in regs} == {"control"}
    # the protocol of every argument
    header, args = table(text, "* Arguments:")
    assert header == [["Argument", "Mode", "Bundle", "Ports", "Register Offset"]]
    assert args == [[e["argument"], e["mode"], e.get("bundle", "-"),
                     " ".join(e["ports"]) or "-", e.get("offset", "-")]
                    for e in iface["protocols"]]
    assert ["scale", "s_axilite", "control", "-", "0x1c"] in args
    assert f"{len(iface['core_ports'])} ports" in text


def test_device_capacity_of_ecp5():
    with oplib.use_device("ecp5"):
        report = compile_fpga(vadd.module(), clock_period_ns=6.67).report
    assert report["device"] == "ecp5"
    text = text_report(report)
    check_common(report, text)  # Available: the LFE5U-85F's
    assert "LFE5U-85F" in text
    assert report["timing"]["estimated_ns"] <= 6.67 - oplib.device("ecp5").register_reserve_ns


def test_older_reports_and_helpers():
    report = compile_fpga(vadd.module()).report
    old = {k: v for k, v in report.items() if k != "timing"}
    old["loops"] = [{k: v for k, v in loop.items() if k != "latency"} for loop in old["loops"]]
    text = text_report(old)
    assert "not available" in text and "n/a" in table(text, "+ Timing:")[1][0]
    # the loop's latency derived from its trips and iterations
    assert loop_rows(text) == loop_rows(text_report(report))
    assert utilization_percent(0, 220) == "0" and utilization_percent(1, 220) == "~0"
    assert utilization_percent(48, 220) == "21" and utilization_percent(5, 0) == "-"
    assert absolute_time(276, 10.0) == "2.760 us" and absolute_time(None, 10.0) == "?"
    assert absolute_time(3, 10.0) == "30.000 ns" and absolute_time(2_000_000, 1.0) == "2.000 ms"


@pytest.mark.parametrize("kern", [vadd, prefix, gcd])
def test_the_estimate_is_the_schedulers_budget_at_most(kern):
    for period in (10.0, 4.0):
        report = compile_fpga(kern.module(), clock_period_ns=period).report
        assert report["timing"]["estimated_ns"] <= period - oplib.register_reserve_ns() + 1e-9
