"""The text report of an FPGA design (``<top>.rpt``), laid out as Vitis HLS's csynth report.

What: ``text_report(report)`` renders the report dict of a design (``FpgaDesign.report``,
built by driver/component.py ``make_report`` and, for a dataflow kernel, driver/dataflow.py;
the same dict ``vichls compile`` writes to ``<top>.report.json``) as plain text with the
sections of Vitis HLS's ``<top>_csynth.rpt``:

- ``== Performance Estimates``: ``+ Timing`` (target clock, estimated clock, uncertainty,
  and the operator chain behind the estimate), ``+ Latency`` (the summary: latency in
  cycles and in time, interval, pipeline type), ``+ Detail`` (``* Instance``: the tasks of a
  dataflow design; ``* Loop``: every loop with its latency, iteration latency, initiation
  interval achieved and asked for, trip count, whether it is pipelined, and why an II is
  above the one asked for);
- ``== Utilization Estimates``: the summary table (BRAM_18K, DSP, FF, LUT) with the
  design's row (a dataflow design: one row per task and one for its channels and task
  controllers), Total, Available (the capacity of the device's part,
  ``vichls.targets.oplib.Device.capacity``) and Utilization (%);
- ``== Interface``: every RTL port of the delivered module (direction, bits, protocol,
  source object, C type), and, when interface directives put adapters around the core,
  the s_axilite registers and the protocol of each argument;
- ``== Warnings``, when the report has any.

Why: people who come from Vitis HLS read its report first; the same tables in the same
places let them compare a vichls build with a Vitis one at a glance. The JSON report stays
the machine-readable form; this module only formats it, it computes nothing the report
does not say (the percentages and the absolute times excepted).

Assumptions and conventions:

- The report is the dict ``make_report`` builds (keys read with ``get`` where a key is
  optional: ``timing`` is missing from reports older than the critical-path estimate,
  a loop's ``latency`` from those before per-loop latencies; both are then derived or
  said to be unavailable).
- Interval: the top of a design that is not dataflow takes a new call the cycle after
  ``ap_done`` (``ap_ready`` pulses with ``ap_done``, docs/hardware-interface.md), so its
  interval is its latency + 1, as Vitis reports for ``ap_ctrl_hs``; a dataflow design's is
  the report's ``dataflow.interval`` (max: ``dataflow.interval_max``, when tasks may take
  longer on some data; its pipeline type is ``dataflow``).
- "Uncertainty" is the time the schedulers keep free in every cycle for clock-to-q, setup
  and the clock (``Device.register_reserve_ns``): Vitis's clock uncertainty plays the same
  part. "Estimated" is ``timing.estimated_ns``, the longest chained delay in one cycle
  (scheduling/critical_path.py); a design meets it when Estimated <= Target - Uncertainty.
- Utilization (%) is printed as Vitis does: the integer part, ``~0`` for a nonzero use
  below 1 %, ``-`` where the part has no such resource.
- Unknown values (data-dependent latencies, unknown trip counts) print as ``?``.
- A port's protocol, source object and C type come from the report's ``protocols`` table
  when interface directives were used, else from the names of the report's ``arrays`` and
  ``streams`` (the longest one a port is named after), the block-control port names, and
  otherwise the port is a scalar argument of that name (``ap_none``).
- The output has no date or host in it: the same report gives the same text.
"""

from __future__ import annotations

from vichls.targets import oplib

__all__ = ["absolute_time", "port_rows", "text_report", "utilization_percent"]

RULE = "=" * 64

#: the ports of the block control (and of the clock and reset), whatever their protocol
CONTROL_PORTS = ("ap_clk", "ap_rst", "ap_rst_n", "ap_start", "ap_done", "ap_idle", "ap_ready",
                 "ap_continue", "ap_return", "interrupt")

#: the report's resource keys, in the columns' order, with Vitis's column names
RESOURCES = (("bram18", "BRAM_18K"), ("dsp", "DSP"), ("ff", "FF"), ("lut", "LUT"))


# -- formatting helpers -------------------------------------------------------------------------


def _value(v) -> str:
    return "?" if v is None else str(v)


def absolute_time(cycles: int | None, period_ns: float) -> str:
    """``cycles`` of ``period_ns`` as Vitis writes it: three decimals in ns, us or ms."""
    if cycles is None:
        return "?"
    ns = cycles * period_ns
    for unit, scale in (("ns", 1.0), ("us", 1e3), ("ms", 1e6)):
        if ns < 1000 * scale or unit == "ms":
            if unit == "ms" and ns >= 1e9:
                return f"{ns / 1e9:.3f} sec"
            return f"{ns / scale:.3f} {unit}"
    raise AssertionError


def utilization_percent(used: int, available: int | None) -> str:
    """Vitis's Utilization (%) cell: the integer part of the percentage, ``~0`` for a use
    above 0 and below 1 %, ``-`` when nothing is available."""
    if not available:
        return "-"
    if used == 0:
        return "0"
    percent = used * 100 // available
    return "~0" if percent == 0 else str(percent)


def _table(columns: list[tuple[str, str, str]], rows: list[list[str] | None]) -> list[str]:
    """An ASCII table with ``+---+`` borders. ``columns``: (group, label, align) with align
    "<" or ">"; consecutive columns of the same non-empty group share a header cell above
    their labels (Vitis's two-line headers); ``rows``: lists of cells, None for a rule."""
    widths = [max([len(label)] + [len(r[i]) for r in rows if r is not None]) + 2
              for i, (_, label, _) in enumerate(columns)]
    two_lines = any(group for group, _, _ in columns)
    # widen a group's columns until its title fits in them
    spans: list[tuple[str, int, int]] = []  # (title, first column, last column)
    i = 0
    while i < len(columns):
        j = i
        while two_lines and columns[i][0] and j + 1 < len(columns) \
                and columns[j + 1][0] == columns[i][0]:
            j += 1
        spans.append((columns[i][0] if two_lines else "", i, j))
        i = j + 1
    for title, a, b in spans:
        inner = sum(widths[a:b + 1]) + (b - a)
        for k in range(max(0, len(title) + 2 - inner)):  # spread over the group's columns
            widths[a + k % (b - a + 1)] += 1
    rule = "+" + "+".join("-" * w for w in widths) + "+"

    def merged(cells: list[str]) -> str:
        parts = []
        for (_, a, b), text in zip(spans, cells):
            parts.append(text.center(sum(widths[a:b + 1]) + (b - a)))
        return "|" + "|".join(parts) + "|"

    lines = [rule]
    if two_lines:
        tops = []
        for title, a, b in spans:
            tops.append(title if title else "")
        # a column without a group has its label on the second line, as Vitis puts it
        lines.append(merged(tops))
    lines.append("|" + "|".join(label.center(w) for (_, label, _), w in zip(columns, widths))
                 + "|")
    lines.append(rule)
    for row in rows:
        if row is None:
            lines.append(rule)
            continue
        cells = [cell.ljust(w) if align == "<" else cell.rjust(w)
                 for cell, (_, _, align), w in zip(row, columns, widths)]
        lines.append("|" + "|".join(cells) + "|")
    if rows and rows[-1] is not None:
        lines.append(rule)
    return lines


def _indent(lines: list[str], n: int) -> list[str]:
    return [" " * n + line if line else line for line in lines]


def _heading(title: str) -> list[str]:
    return [RULE, f"== {title}", RULE]


def _device(report: dict) -> oplib.Device | None:
    try:
        return oplib.device(report.get("device", oplib.DEFAULT_DEVICE))
    except ValueError:
        return None


# -- the sections -------------------------------------------------------------------------------


def _header(report: dict) -> list[str]:
    import vichls

    dev = _device(report)
    target = f"{dev.part} ({dev.name}: {dev.description})" if dev is not None and dev.part \
        else str(report.get("device", "?"))
    lines = [""] + _heading(f"vichls Report for '{report['top']}'")
    lines += [f"* Version:        vichls {vichls.__version__}",
              f"* Target device:  {target}",
              f"* Clock period:   {report['clock_period_ns']:.2f} ns",
              f"* Flow:           {'dataflow' if 'dataflow' in report else 'single module'}",
              ""]
    return lines


def _timing(report: dict) -> list[str]:
    dev = _device(report)
    period = report["clock_period_ns"]
    uncertainty = dev.register_reserve_ns if dev is not None else None
    timing = report.get("timing")
    estimated = f"{timing['estimated_ns']:.3f} ns" if timing is not None else "n/a"
    rows = [["ap_clk", f"{period:.2f} ns", estimated,
             f"{uncertainty:.2f} ns" if uncertainty is not None else "?"]]
    lines = ["+ Timing: ", "    * Summary: "]
    lines += _indent(_table([("", "Clock", "<"), ("", "Target", ">"), ("", "Estimated", ">"),
                             ("", "Uncertainty", ">")], rows), 4)
    if timing is None:
        lines.append("    * The estimated clock is not available in this report.")
    else:
        chain = " -> ".join(timing["critical_chain"]) or "(no operator takes time)"
        lines.append(f"    * Critical chain (one cycle): {chain}")
        if uncertainty is not None and timing["estimated_ns"] > period - uncertainty + 1e-9:
            lines.append(f"    * The estimate is above the target less the uncertainty "
                         f"({period - uncertainty:.2f} ns): the clock may not be met.")
    return lines + [""]


def _interval(report: dict) -> tuple[int | None, int | None, str]:
    """(min, max, pipeline type) of the design's interval between calls."""
    if "dataflow" in report:
        interval = report["dataflow"].get("interval")
        longest = report["dataflow"].get("interval_max", interval)
        return interval, longest, "dataflow"
    lat = report["latency"]
    return (None if lat["min"] is None else lat["min"] + 1,
            None if lat["max"] is None else lat["max"] + 1, "no")


def _loop_latency(loop: dict) -> tuple[int | None, int | None]:
    """One execution of the loop: the report's, else from its trips and iterations."""
    if loop.get("latency") is not None:
        return loop["latency"]["min"], loop["latency"]["max"]
    trips, it = loop.get("trip_count"), loop.get("iteration_latency")
    if trips is None:
        return None, None
    if loop.get("pipelined"):
        cycles = (trips - 1) * loop["ii"] + loop["depth"] if trips else 0
        return cycles, cycles
    return (None, None) if it is None else (trips * it, trips * it)


def _latency(report: dict) -> list[str]:
    period = report["clock_period_ns"]
    lat = report["latency"]
    imin, imax, kind = _interval(report)
    columns = [("Latency (cycles)", "min", ">"), ("Latency (cycles)", "max", ">"),
               ("Latency (absolute)", "min", ">"), ("Latency (absolute)", "max", ">"),
               ("Interval", "min", ">"), ("Interval", "max", ">"), ("Pipeline", "Type", ">")]
    row = [_value(lat["min"]), _value(lat["max"]), absolute_time(lat["min"], period),
           absolute_time(lat["max"], period), _value(imin), _value(imax), kind]
    lines = ["+ Latency: ", "    * Summary: "]
    lines += _indent(_table(columns, [row]), 4)
    lines += ["", "    + Detail: ", "        * Instance: "]
    lines += _indent(_instances(report), 8)
    lines += ["", "        * Loop: "]
    lines += _indent(_loops(report), 8)
    return lines + [""]


def _instances(report: dict) -> list[str]:
    if "dataflow" not in report:
        return ["N/A"]
    period = report["clock_period_ns"]
    columns = [("", "Instance", "<"), ("", "Module", "<"),
               ("Latency (cycles)", "min", ">"), ("Latency (cycles)", "max", ">"),
               ("Latency (absolute)", "min", ">"), ("Latency (absolute)", "max", ">"),
               ("Interval", "min", ">"), ("Interval", "max", ">"), ("Pipeline", "Type", ">")]
    rows = []
    for task in report["dataflow"]["tasks"]:
        latency = task.get("latency")
        # a task starts a call one cycle after its done at the soonest
        interval = task.get("interval", None if latency is None else latency + 1)
        rows.append([task["name"], task["module"], _value(latency), _value(latency),
                     absolute_time(latency, period), absolute_time(latency, period),
                     _value(interval), _value(interval), "no"])
    lines = _table(columns, rows)
    channels = report["dataflow"].get("channels", [])
    if channels:
        rows = []
        for ch in channels:
            size = (f"depth {ch['depth']}" if ch["kind"] == "fifo"
                    else f"{ch.get('banks', 2)} x {ch.get('words', '?')} words")
            rows.append([ch["name"], ch["kind"], size, _value(ch.get("width")),
                         ch["producer"], ch["consumer"]])
        lines += ["", "* Channels: "]
        lines += _table([("", "Channel", "<"), ("", "Kind", "<"), ("", "Size", ">"),
                         ("", "Bits", ">"), ("", "Producer", "<"), ("", "Consumer", "<")], rows)
    bottleneck = report["dataflow"].get("bottleneck")
    if bottleneck is not None:
        lines.append(f"* Bottleneck: {bottleneck} (its interval is the design's)")
    return lines


def _loops(report: dict) -> list[str]:
    loops = report.get("loops", [])
    if not loops:
        return ["N/A"]
    columns = [("", "Loop Name", "<"),
               ("Latency (cycles)", "min", ">"), ("Latency (cycles)", "max", ">"),
               ("Iteration", "Latency", ">"),
               ("Initiation Interval", "achieved", ">"), ("Initiation Interval", "target", ">"),
               ("Trip", "Count", ">"), ("", "Pipelined", ">")]
    rows, notes = [], []
    for loop in loops:
        name = f"{loop['task']}/{loop['name']}" if "task" in loop else loop["name"]
        low, high = _loop_latency(loop)
        pipelined = bool(loop.get("pipelined"))
        rows.append([f"- {name}", _value(low), _value(high),
                     _value(loop.get("iteration_latency")),
                     _value(loop.get("ii")) if pipelined else "-",
                     _value(loop.get("requested_ii")) if pipelined else "-",
                     _value(loop.get("trip_count")), "yes" if pipelined else "no"])
        if pipelined and loop.get("ii") is not None and loop.get("requested_ii") is not None \
                and loop["ii"] > loop["requested_ii"]:
            notes.append(f"- {name}: II={loop['ii']}, not {loop['requested_ii']}: "
                         f"{loop.get('ii_reason', 'see the schedule')}")
    lines = _table(columns, rows)
    if notes:
        lines += ["", "* II above the target: "] + ["    " + n for n in notes]
    return lines


def _utilization(report: dict) -> list[str]:
    dev = _device(report)
    capacity = dict(dev.capacity) if dev is not None else {}
    total = report["resources"]
    columns = [("", "Name", "<")] + [("", label, ">") for _, label in RESOURCES]
    rows: list[list[str] | None] = []
    if "dataflow" in report:
        used = {key: 0 for key, _ in RESOURCES}
        for task in report["dataflow"]["tasks"]:
            res = task.get("resources")
            if res is None:
                continue
            rows.append([f"{task['name']} ({task['module']})"]
                        + [str(res[key]) for key, _ in RESOURCES])
            for key, _ in RESOURCES:
                used[key] += res[key]
        if rows:
            rows.append(["Channels and control"]
                        + [str(total[key] - used[key]) for key, _ in RESOURCES])
        else:
            rows.append([report["top"]] + [str(total[key]) for key, _ in RESOURCES])
    else:
        rows.append([report["top"]] + [str(total[key]) for key, _ in RESOURCES])
    rows.append(None)
    rows.append(["Total"] + [str(total[key]) for key, _ in RESOURCES])
    rows.append(None)
    rows.append(["Available"] + [_value(capacity.get(key)) if capacity else "?"
                                 for key, _ in RESOURCES])
    rows.append(None)
    rows.append(["Utilization (%)"] + [utilization_percent(total[key], capacity.get(key))
                                       for key, _ in RESOURCES])
    lines = _heading("Utilization Estimates") + ["* Summary: "] + _table(columns, rows)
    if dev is not None and dev.part:
        lines.append(f"* Available: the {dev.part} ({dev.name}); the figures are estimates "
                     "from the operator library, before synthesis"
                     + ("." if dev is oplib.XC7 else ", in 7-series terms (a LUT6 holds more "
                        "than a LUT4)."))
    return lines + ["", ""]


def port_rows(report: dict) -> list[list[str]]:
    """[port, dir, bits, protocol, source object, C type] of every port of
    ``report["interface"]["ports"]``, in their order."""
    iface = report["interface"]
    top = report["top"]
    arrays = iface.get("arrays", {}) or {}
    streams = iface.get("streams", {}) or {}
    protocols = iface.get("protocols")
    block = iface.get("block_control", "ap_ctrl_hs")
    owner: dict[str, tuple[str, str, str]] = {}  # port -> (protocol, source, C type)

    def c_type(argument: str) -> str:
        if argument in arrays:
            return "array"
        if argument in streams:
            return "pointer"
        return "scalar"

    if protocols:
        for entry in protocols:
            argument, mode = entry["argument"], entry["mode"]
            if argument == "return":
                block = "ap_ctrl_hs" if mode == "s_axilite" else mode
                for port in entry.get("ports", []):
                    owner[port] = (block, top, "return value")
                continue
            for port in entry.get("ports", []):
                if mode == "m_axi" and port.startswith("m_axi_"):
                    # (a bundle's port, shared by its arrays: named after the bundle, as
                    # Vitis's report has it)
                    owner[port] = (mode, entry.get("bundle", argument), "pointer")
                else:
                    owner[port] = (mode, argument, c_type(argument))

    def named_after(port: str, names) -> str | None:
        best = None
        for name in names:
            if (port == name or port.startswith(name + "_")) and \
                    (best is None or len(name) > len(best)):
                best = name
        return best

    bundles = sorted((iface.get("registers") or {}).keys(), key=len, reverse=True)
    rows = []
    for port in iface["ports"]:
        name = port["name"]
        if name in owner:
            protocol, source, ctype = owner[name]
        elif any(name.startswith(f"s_axi_{b}_") for b in bundles) or name.startswith("s_axi_"):
            bundle = next((b for b in bundles if name.startswith(f"s_axi_{b}_")),
                          name[len("s_axi_"):].rsplit("_", 1)[0])
            protocol, source, ctype = "s_axi", bundle, "scalar"
        elif name in CONTROL_PORTS:
            protocol, source, ctype = block, top, "return value"
        elif (array := named_after(name, arrays)) is not None:
            protocol, source, ctype = "ap_memory", array, "array"
        elif (stream := named_after(name, streams)) is not None:
            protocol, source, ctype = "ap_fifo", stream, "pointer"
        elif name.endswith("_ap_vld"):
            protocol, source, ctype = "ap_vld", name[:-len("_ap_vld")], "scalar"
        else:
            protocol, source, ctype = "ap_none", name, "scalar"
        rows.append([name, port["direction"], str(port["width"]), protocol, source, ctype])
    return rows


def _registers(registers: dict) -> list[str]:
    """Vitis's S_AXILITE Registers table: one row per 32-bit word."""
    rows = []
    for bundle, regmap in registers.items():
        if regmap.get("control"):
            rows += [
                [bundle, "CTRL", "0x00", "32", "RW", "Control signals",
                 "0=AP_START 1=AP_DONE 2=AP_IDLE 3=AP_READY 7=AUTO_RESTART"],
                [bundle, "GIER", "0x04", "32", "RW", "Global Interrupt Enable Register",
                 "0=Enable"],
                [bundle, "IP_IER", "0x08", "32", "RW", "IP Interrupt Enable Register",
                 "0=CHAN0_INT_EN 1=CHAN1_INT_EN"],
                [bundle, "IP_ISR", "0x0c", "32", "RW", "IP Interrupt Status Register",
                 "0=CHAN0_INT_ST 1=CHAN1_INT_ST"],
            ]
        for reg in regmap["registers"]:
            words = max(1, -(-reg["width"] // 32))
            access = "R" if reg["kind"] == "return" else "W"
            what = "base address of" if reg["kind"] == "base" else "Data signal of"
            for w in range(words):
                name = reg["name"] if words == 1 else f"{reg['name']}_{w + 1}"
                bits = min(32, reg["width"] - 32 * w)
                rows.append([bundle, name, f"0x{reg['offset'] + 4 * w:02x}", str(bits), access,
                             f"{what} {reg['name']}", ""])
    return _table([("", "Interface", "<"), ("", "Register", "<"), ("", "Offset", "<"),
                   ("", "Width", ">"), ("", "Access", "<"), ("", "Description", "<"),
                   ("", "Bit Fields", "<")], rows)


def _bus_ports(ports: list[str]) -> list[str]:
    """``ports`` with an m_axi bundle's port set written ``m_axi_<bundle>_*``."""
    out: list[str] = []
    for port in ports:
        if port.startswith("m_axi_") and port.endswith("_AWVALID"):
            out.append(port[:-len("AWVALID")] + "*")
        elif not (port.startswith("m_axi_") and any(
                port.startswith(p[:-1]) for p in out if p.endswith("*"))):
            out.append(port)
    return out


def _interface(report: dict) -> list[str]:
    iface = report["interface"]
    lines = _heading("Interface") + ["* Summary: "]
    lines += _table([("", "RTL Ports", "<"), ("", "Dir", ">"), ("", "Bits", ">"),
                     ("", "Protocol", ">"), ("", "Source Object", ">"), ("", "C Type", ">")],
                    port_rows(report))
    if iface.get("registers"):
        lines += ["", "* S_AXILITE Registers: "] + _registers(iface["registers"])
    maxi = [e for e in iface.get("protocols") or [] if e["mode"] == "m_axi"]
    if maxi:  # (Vitis's M_AXI table: the element's bits, widened to the bus's)
        rows = [[f"m_axi_{e['bundle']}", e["argument"],
                 f"{e.get('element_width', '?')} -> {e.get('data_width', '?')}", "64",
                 str(e.get("max_burst", "-")), e.get("offset", "-")] for e in maxi]
        lines += ["", "* M_AXI: "]
        lines += _table([("", "Interface", "<"), ("", "Argument", "<"),
                         ("", "Data Width (SW->HW)", ">"), ("", "Address Width", ">"),
                         ("", "Max Burst Length", ">"), ("", "Offset", "<")], rows)
    if iface.get("protocols"):
        rows = [[e["argument"], e["mode"], e.get("bundle", "-"),
                 " ".join(_bus_ports(e.get("ports", []))) or "-", e.get("offset", "-")]
                for e in iface["protocols"]]
        lines += ["", "* Arguments: "]
        lines += _table([("", "Argument", "<"), ("", "Mode", "<"), ("", "Bundle", "<"),
                         ("", "Ports", "<"), ("", "Register Offset", "<")], rows)
    if iface.get("core_ports"):
        lines.append(f"* The core ({report['top']}_core) keeps the default protocols: "
                     f"{len(iface['core_ports'])} ports.")
    return lines + ["", ""]


def _warnings(report: dict) -> list[str]:
    warnings = report.get("warnings") or []
    if not warnings:
        return []
    return _heading("Warnings") + [f"* {w}" for w in warnings] + ["", ""]


def text_report(report: dict) -> str:
    """The text of ``<top>.rpt`` for the report dict of a design (``FpgaDesign.report``)."""
    lines = _header(report)
    lines += [""] + _heading("Performance Estimates")
    lines += _timing(report)
    lines += _latency(report)
    lines += ["", ""]
    lines += _utilization(report)
    lines += _interface(report)
    lines += _warnings(report)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(line.rstrip() for line in lines) + "\n"
