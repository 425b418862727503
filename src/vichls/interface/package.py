"""Packages of a delivered design for vendor tools: Vivado IP, FuseSoC core, Platform Designer.

What: ``package_files(top, verilog, report, kinds)`` gives ``{relative path: text}`` for the
packages asked for (``KINDS``; ``"all"`` means every one):

- ``vivado``: ``ip/component.xml``, an IP-XACT component (IEEE 1685-2009, the version
  Vivado's IP packager reads and writes) with the HDL beside it in ``ip/hdl/<top>.v``: the
  ports of the module, one bus interface per clock, reset, interrupt and AXI port set with
  Xilinx's bus definitions (``xilinx.com:interface:aximm:1.0`` for s_axilite slaves and
  m_axi masters, ``xilinx.com:interface:axis:1.0`` for streams, ``xilinx.com:signal:clock``,
  ``reset`` and ``interrupt``, ``xilinx.com:interface:bram_rtl:1.0`` for bram ports), a
  memory map per s_axilite bundle holding its registers, an
  address space per m_axi master, and a synthesis and a simulation view of the Verilog;
- ``fusesoc``: ``<top>.core``, a FuseSoC CAPI2 core ``vichls:hls:<top>:1.0`` with the
  targets ``default``, ``lint`` (Verilator ``--lint-only -Wall``) and ``sim`` (Verilator
  ``--binary``), and ``<top>.v`` beside it;
- ``quartus``: ``<top>_hw.tcl``, an Intel Platform Designer component (clock and reset
  sinks, ``axi4lite`` slaves, ``axi4`` masters, ``axi4stream`` sinks and sources, the
  interrupt sender, and a conduit per remaining argument and for the block control), with
  ``<top>.v`` beside it.

The ``<top>.v`` beside the FuseSoC and Quartus files is ``verilog`` itself, the file
``vichls compile`` writes in the same folder, so writing both is harmless.

Why: issue 22 (item 6) and the hardware contract (docs/hardware-interface.md, "--package"):
a block built by vichls drops into the three tools' block designs as a Vitis HLS block
does, with its AXI ports seen as bus interfaces rather than loose wires.

How the ports are recognised (``classify``): by their names, as the contract spells them,
so that packaging needs nothing from the adapters but the report: ``ap_clk``; ``ap_rst_n`` (active low) or ``ap_rst`` (active high); ``interrupt``;
``s_axi_<bundle>_<SIGNAL>`` (AXI4-Lite, slave); ``m_axi_<bundle>_<SIGNAL>`` (AXI4, master);
``<name>_T<SIGNAL>`` (AXI4-Stream, a sink when TDATA is an input, else a source);
``<array>_<Signal>_<A|B>`` (a bram port, master: ``<array>_PORTA``/``_PORTB``). A group
counts as a bus only when its essential signals are all there with the directions its
role needs; anything else falls to conduits, grouped by the report's protocol table
(``interface.protocols``) when it has one, else by Vitis's port-name patterns (ap_memory,
ap_fifo, ap_vld suffixes; the ``ap_*`` control ports).

Assumes the report's ``interface`` section (``ports``: name/direction/width, and when the
design has adapters ``protocols`` and ``registers``), one clock named ``ap_clk``, and a
single Verilog file holding the top module and everything under it. The Vivado component
names no supported device families (Vivado then offers it for every family) and its
s_axilite registers are 32-bit words whose fields carry the argument's real width; the
Platform Designer file has not been loaded by Quartus here (only checked as Tcl).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

KINDS = ("vivado", "fusesoc", "quartus")
VENDOR, LIBRARY, VERSION = "vichls.org", "hls", "1.0"
SPIRIT_NS = "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"
XILINX_NS = "http://www.xilinx.com"

# -- recognising the ports -------------------------------------------------------------------

#: AXI4-Lite signals, direction seen from the slave
AXILITE_SIGNALS = {
    "AWVALID": "in", "AWREADY": "out", "AWADDR": "in", "AWPROT": "in",
    "WVALID": "in", "WREADY": "out", "WDATA": "in", "WSTRB": "in",
    "BVALID": "out", "BREADY": "in", "BRESP": "out",
    "ARVALID": "in", "ARREADY": "out", "ARADDR": "in", "ARPROT": "in",
    "RVALID": "out", "RREADY": "in", "RDATA": "out", "RRESP": "out",
}
AXILITE_REQUIRED = ("AWVALID", "AWREADY", "AWADDR", "WVALID", "WREADY", "WDATA", "BVALID",
                    "BREADY", "BRESP", "ARVALID", "ARREADY", "ARADDR", "RVALID", "RREADY",
                    "RDATA", "RRESP")


def _axi4_signals() -> dict[str, str]:
    """AXI4 signals (with AXI3's WID, which Vitis keeps), direction seen from the master."""
    signals = {}
    for ch in ("AW", "AR"):
        for s in ("VALID", "ADDR", "ID", "LEN", "SIZE", "BURST", "LOCK", "CACHE", "PROT",
                  "QOS", "REGION", "USER"):
            signals[ch + s] = "out"
        signals[ch + "READY"] = "in"
    for s in ("VALID", "DATA", "STRB", "LAST", "ID", "USER"):
        signals["W" + s] = "out"
    signals["WREADY"] = "in"
    for s in ("VALID", "DATA", "LAST", "ID", "USER", "RESP"):
        signals["R" + s] = "in"
    signals["RREADY"] = "out"
    for s in ("VALID", "RESP", "ID", "USER"):
        signals["B" + s] = "in"
    signals["BREADY"] = "out"
    return signals


AXI4_SIGNALS = _axi4_signals()
#: an m_axi bundle needs one whole direction: the read channels or the write channels
AXI4_READ = ("ARVALID", "ARREADY", "ARADDR", "RVALID", "RREADY", "RDATA")
AXI4_WRITE = ("AWVALID", "AWREADY", "AWADDR", "WVALID", "WREADY", "WDATA", "BVALID", "BREADY")
#: AXI4-Stream signals, direction seen from the source (master)
AXIS_SIGNALS = {"TDATA": "out", "TVALID": "out", "TREADY": "in", "TLAST": "out",
                "TKEEP": "out", "TSTRB": "out", "TUSER": "out", "TID": "out", "TDEST": "out"}
AXIS_REQUIRED = ("TDATA", "TVALID")

#: bram port sets (interface/bram.py): ``<array>_<Signal>_<A|B>`` by Vitis's names, and the
#: logical port of Xilinx's bram_rtl each maps to, with its direction seen from the master
BRAM_ROLES = {"Addr": ("ADDR", "out"), "Clk": ("CLK", "out"), "Din": ("DIN", "out"),
              "Dout": ("DOUT", "in"), "EN": ("EN", "out"), "Rst": ("RST", "out"),
              "WEN": ("WE", "out")}
_BRAM_PORT = re.compile(r"^(?P<arg>\w+)_(?P<signal>Addr|Clk|Din|Dout|EN|Rst|WEN)_(?P<x>[AB])$")

CONTROL_PORTS = ("ap_start", "ap_done", "ap_idle", "ap_ready", "ap_continue", "ap_return")
_CONDUIT_SUFFIX = re.compile(r"^(?P<arg>\w+?)_(?P<role>(?:address|ce|we|d|q)[01]"
                             r"|dout|empty_n|read|din|full_n|write|ap_vld)$")


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # "in" | "out"
    width: int


@dataclass(frozen=True)
class Bus:
    """One interface of the packaged module.

    ``kind``: "clock", "reset", "interrupt", "s_axilite", "m_axi", "axis" or "conduit";
    ``name``: the interface's name (``ap_clk``, ``ap_rst_n``, ``interrupt``,
    ``s_axi_<bundle>``, ``m_axi_<bundle>``, the stream's name, the argument's name,
    ``ap_ctrl``); ``master``: the module drives the transfers (m_axi, an output stream, the
    interrupt); ``ports``: (port, role) with the AXI signal name (``AWADDR``, ``TDATA``) as
    the role on a bus, ``CLK``/``RST``/``INTERRUPT`` on the signals, and the port's part
    after the argument's name (``address0``, ``start``, ``data``) on a conduit;
    ``bundle``: the AXI bundle (s_axilite, m_axi)."""

    kind: str
    name: str
    master: bool
    ports: tuple[tuple[Port, str], ...]
    bundle: str | None = None

    @property
    def axi(self) -> bool:
        return self.kind in ("s_axilite", "m_axi", "axis")

    def port(self, role: str) -> Port | None:
        return next((p for p, r in self.ports if r == role), None)


def interface_section(report: dict) -> dict:
    """The ``interface`` section of a design report (or the section itself)."""
    return report.get("interface", report)


def module_ports(report: dict) -> list[Port]:
    return [Port(p["name"], p["direction"], int(p["width"]))
            for p in interface_section(report)["ports"]]


def _bus_candidates(ports: list[Port]) -> dict[tuple[str, str], dict[str, Port]]:
    """{(kind, name): {signal: port}} for every port whose name looks like an AXI signal."""
    groups: dict[tuple[str, str], dict[str, Port]] = {}
    for p in ports:
        if "_" not in p.name:
            continue
        prefix, signal = p.name.rsplit("_", 1)
        bram = _BRAM_PORT.match(p.name)
        if bram:
            key = ("bram", f"{bram.group('arg')}_PORT{bram.group('x')}")
            signal = BRAM_ROLES[bram.group("signal")][0]
        elif prefix.startswith("s_axi_") and len(prefix) > 6 and signal in AXILITE_SIGNALS:
            key = ("s_axilite", prefix)
        elif prefix.startswith("m_axi_") and len(prefix) > 6 and signal in AXI4_SIGNALS:
            key = ("m_axi", prefix)
        elif signal in AXIS_SIGNALS and prefix:
            key = ("axis", prefix)
        else:
            continue
        groups.setdefault(key, {})[signal] = p
    return groups


def _as_bus(kind: str, name: str, signals: dict[str, Port]) -> Bus | None:
    """The bus a group of AXI-looking ports makes, or None when it is not a whole one."""
    if kind == "bram":
        table = dict(BRAM_ROLES.values())
        master, whole = True, set(signals) == set(table)
    elif kind == "s_axilite":
        table, master = AXILITE_SIGNALS, False
        whole = all(s in signals for s in AXILITE_REQUIRED)
    elif kind == "m_axi":
        table, master = AXI4_SIGNALS, True
        whole = all(s in signals for s in AXI4_READ) or all(s in signals for s in AXI4_WRITE)
    else:
        table = AXIS_SIGNALS
        whole = all(s in signals for s in AXIS_REQUIRED)
        master = whole and signals["TDATA"].direction == "out"
    if not whole:
        return None
    flip = {"in": "out", "out": "in"}
    for signal, p in signals.items():
        # the table is from the slave's view for AXI4-Lite, the master's for the others
        expected = table[signal]
        if (kind == "axis" and not master) or (kind == "s_axilite" and master):
            expected = flip[expected]
        if p.direction != expected:
            return None
    order = list(table)
    members = tuple((p, s) for s, p in sorted(signals.items(), key=lambda kv: order.index(kv[0])))
    bundle = name[len("s_axi_"):] if kind in ("s_axilite", "m_axi") else None
    return Bus(kind, name, master, members, bundle)


def _conduit_groups(ports: list[Port], protocols: list[dict]) -> list[tuple[str, list[Port]]]:
    """The leftover ports grouped: by the protocol table, else by name patterns."""
    by_name = {p.name: p for p in ports}
    owner: dict[str, str] = {}
    for entry in protocols:
        group = "ap_ctrl" if entry.get("argument") == "return" else entry.get("argument")
        for name in entry.get("ports", []):
            if name in by_name and group:
                owner.setdefault(name, group)
    for p in ports:
        if p.name in owner:
            continue
        m = _CONDUIT_SUFFIX.match(p.name)
        if p.name in CONTROL_PORTS:
            owner[p.name] = "ap_ctrl"
        elif m and m.group("role") == "ap_vld" and m.group("arg") in by_name:
            owner[p.name] = owner.setdefault(m.group("arg"), m.group("arg"))
        elif m and m.group("role") != "ap_vld":
            owner[p.name] = m.group("arg")
        else:
            owner[p.name] = p.name
    groups: dict[str, list[Port]] = {}
    for p in ports:
        groups.setdefault(owner[p.name], []).append(p)
    return list(groups.items())


def _conduit_role(group: str, port: str) -> str:
    if port == group:
        return "data"
    if group == "ap_ctrl" and port.startswith("ap_"):
        return port[3:]
    if port.startswith(group + "_"):
        return port[len(group) + 1:]
    return port


def classify(report: dict) -> list[Bus]:
    """Every interface of the module (see the module doc), each port in exactly one; in
    the order of the ports' first appearance, the clock and the reset first."""
    ports = module_ports(report)
    buses: list[Bus] = []
    taken: set[str] = set()
    clock = reset = None
    for p in ports:
        if p.name == "ap_clk" and p.direction == "in" and p.width == 1:
            clock = Bus("clock", p.name, False, ((p, "CLK"),))
        elif p.name in ("ap_rst_n", "ap_rst") and p.direction == "in" and p.width == 1:
            reset = reset or Bus("reset", p.name, False, ((p, "RST"),))
    for b in (clock, reset):
        if b is not None:
            buses.append(b)
            taken.add(b.ports[0][0].name)
    found: dict[str, Bus] = {}
    for (kind, name), signals in _bus_candidates(ports).items():
        bus = _as_bus(kind, name, signals)
        if bus is not None and not any(p.name in taken for p, _ in bus.ports):
            for p, _ in bus.ports:
                found[p.name] = bus
                taken.add(p.name)
    leftover = []
    for p in ports:
        if p.name in taken:
            if p.name in found and found[p.name] not in buses:
                buses.append(found[p.name])
            continue
        if p.name == "interrupt" and p.direction == "out" and p.width == 1:
            buses.append(Bus("interrupt", p.name, True, ((p, "INTERRUPT"),)))
            taken.add(p.name)
        else:
            leftover.append(p)
    names = {b.name for b in buses}
    protocols = interface_section(report).get("protocols") or []
    first = {p.name: i for i, p in enumerate(ports)}
    for group, members in _conduit_groups(leftover, protocols):
        name = group if group not in names else f"{group}_conduit"
        names.add(name)
        roles = tuple((p, _conduit_role(group, p.name)) for p in members)
        buses.append(Bus("conduit", name, False, roles))
    buses.sort(key=lambda b: (b.kind not in ("clock", "reset"), first[b.ports[0][0].name]))
    return buses


def _clock_reset(buses: list[Bus]) -> tuple[Bus | None, Bus | None]:
    clock = next((b for b in buses if b.kind == "clock"), None)
    reset = next((b for b in buses if b.kind == "reset"), None)
    return clock, reset


def _active_low(reset: Bus) -> bool:
    return reset.name.endswith("_n")


# -- vivado: IP-XACT ---------------------------------------------------------------------


class _Xml:
    """A small element writer: ``el(tag, text_or_children, **attributes)`` and text out,
    indented, with the ``spirit:`` prefix added to bare names."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    @staticmethod
    def _q(name: str) -> str:
        return name if ":" in name else f"spirit:{name}"

    def el(self, tag: str, body=None, depth: int = 0, **attrs) -> None:
        pad = "  " * depth
        attr = "".join(f" {self._q(k.replace('__', ':'))}={quoteattr(str(v))}"
                       for k, v in attrs.items())
        tag = self._q(tag)
        if body is None:
            self.lines.append(f"{pad}<{tag}{attr}/>")
        elif callable(body):
            self.lines.append(f"{pad}<{tag}{attr}>")
            body(depth + 1)
            self.lines.append(f"{pad}</{tag}>")
        else:
            self.lines.append(f"{pad}<{tag}{attr}>{escape(str(body))}</{tag}>")


def _bus_type(bus: Bus) -> tuple[str, str, str]:
    """(library, bus definition, abstraction definition) in Xilinx's catalog."""
    return {"clock": ("signal", "clock", "clock_rtl"),
            "reset": ("signal", "reset", "reset_rtl"),
            "interrupt": ("signal", "interrupt", "interrupt_rtl"),
            "s_axilite": ("interface", "aximm", "aximm_rtl"),
            "m_axi": ("interface", "aximm", "aximm_rtl"),
            "axis": ("interface", "axis", "axis_rtl"),
            "bram": ("interface", "bram", "bram_rtl")}[bus.kind]


def _memory_map_name(bus: Bus) -> str:
    return bus.name


def _address_space_name(bus: Bus) -> str:
    return f"Data_{bus.name}"


def _registers(bus: Bus, regmaps: dict) -> list[tuple[str, int, str, str, list]]:
    """(name, offset, access, description, [(field, bit offset, width, access, what a
    write does, what a read does)]) of the 32-bit registers of an s_axilite bundle,
    UG1399's control block first."""
    regmap = regmaps.get(bus.bundle) or {}
    regs: list[tuple[str, int, str, str, list]] = []
    if regmap.get("control"):
        regs += [
            ("CTRL", 0x00, "read-write", "Control signals",
             [("AP_START", 0, 1, "read-write", "oneToSet", None),
              ("AP_DONE", 1, 1, "read-only", None, "clear"),
              ("AP_IDLE", 2, 1, "read-only", None, None),
              ("AP_READY", 3, 1, "read-only", None, "clear"),
              ("AUTO_RESTART", 7, 1, "read-write", None, None)]),
            ("GIER", 0x04, "read-write", "Global interrupt enable",
             [("Enable", 0, 1, "read-write", None, None)]),
            ("IP_IER", 0x08, "read-write", "IP interrupt enable",
             [("CHAN0_INT_EN", 0, 1, "read-write", None, None),
              ("CHAN1_INT_EN", 1, 1, "read-write", None, None)]),
            ("IP_ISR", 0x0C, "read-write", "IP interrupt status (toggle on write of 1)",
             [("CHAN0_INT_ST", 0, 1, "read-write", "oneToToggle", None),
              ("CHAN1_INT_ST", 1, 1, "read-write", "oneToToggle", None)]),
        ]
    used = {r[0] for r in regs}
    for r in regmap.get("registers", []):
        width, offset = int(r["width"]), int(r["offset"])
        words = (width + 31) // 32
        access = "read-only" if r.get("kind") == "return" else "read-write"
        what = {"return": "the returned value", "base": "the base address of"}.get(
            r.get("kind"), "argument")
        for w in range(words):
            name = r["name"] if words == 1 else f"{r['name']}_{w + 1}"
            while name in used:
                name += "_reg"
            used.add(name)
            bits = min(32, width - 32 * w)
            where = f"{r['name']}[{32 * w + bits - 1}:{32 * w}]"
            desc = f"{what} {where}" if r.get("kind") != "return" else f"{what}, {where}"
            regs.append((name, offset + 4 * w, access, desc,
                         [(name, 0, bits, access, None, None)]))
    return regs


def _address_width(bus: Bus, regmaps: dict) -> int:
    regmap = regmaps.get(bus.bundle) or {}
    addr = bus.port("AWADDR") or bus.port("ARADDR")
    return int(regmap.get("address_width") or (addr.width if addr else 32))


def ip_xact(top: str, report: dict, buses: list[Bus] | None = None) -> str:
    """``ip/component.xml`` (see the module doc)."""
    buses = classify(report) if buses is None else buses
    regmaps = interface_section(report).get("registers") or {}
    _, reset = _clock_reset(buses)
    axi = [b for b in buses if b.axi]
    x = _Xml()
    el = x.el

    def parameter(name: str, value: str, ident: str, d: int) -> None:
        el("parameter", lambda dd: (el("name", name, dd),
                                    el("value", value, dd, id=ident)), d)

    def bus_interface(b: Bus, d: int) -> None:
        lib, definition, abstraction = _bus_type(b)
        el("name", b.name, d)
        el("busType", None, d, vendor="xilinx.com", library=lib, name=definition,
           version="1.0")
        el("abstractionType", None, d, vendor="xilinx.com", library=lib, name=abstraction,
           version="1.0")
        if b.kind == "s_axilite":
            el("slave", lambda dd: el("memoryMapRef", None, dd,
                                      memoryMapRef=_memory_map_name(b)), d)
        elif b.kind == "m_axi":
            el("master", lambda dd: el("addressSpaceRef", None, dd,
                                       addressSpaceRef=_address_space_name(b)), d)
        elif b.master:
            el("master", None, d)
        else:
            el("slave", None, d)

        def port_maps(dd: int) -> None:
            for p, role in b.ports:
                el("portMap", lambda e, p=p, role=role: (
                    el("logicalPort", lambda f: el("name", role, f), e),
                    el("physicalPort", lambda f: el("name", p.name, f), e)), dd)
        el("portMaps", port_maps, d)
        params: list[tuple[str, str]] = []
        if b.kind == "clock":
            if axi:
                params.append(("ASSOCIATED_BUSIF", ":".join(a.name for a in axi)))
            if reset is not None:
                params.append(("ASSOCIATED_RESET", reset.name))
        elif b.kind == "reset":
            params.append(("POLARITY", "ACTIVE_LOW" if _active_low(b) else "ACTIVE_HIGH"))
        elif b.kind == "interrupt":
            params.append(("SENSITIVITY", "LEVEL_HIGH"))
        elif b.kind == "s_axilite":
            params += [("PROTOCOL", "AXI4LITE"), ("DATA_WIDTH", "32"),
                       ("ADDR_WIDTH", str(_address_width(b, regmaps)))]
        elif b.kind == "bram":
            params += [("MASTER_TYPE", "BRAM_CTRL"), ("MEM_WIDTH", str(b.port("DIN").width))]
        elif b.kind == "m_axi":
            data = b.port("WDATA") or b.port("RDATA")
            addr = b.port("AWADDR") or b.port("ARADDR")
            params += [("PROTOCOL", "AXI4"), ("DATA_WIDTH", str(data.width)),
                       ("ADDR_WIDTH", str(addr.width))]
        if params:
            el("parameters", lambda dd: [
                parameter(n, v, f"BUSIFPARAM_VALUE.{b.name.upper()}.{n}", dd)
                for n, v in params], d)

    def bus_interfaces(d: int) -> None:
        for b in buses:
            if b.kind != "conduit":
                el("busInterface", lambda dd, b=b: bus_interface(b, dd), d)

    def address_spaces(d: int) -> None:
        for b in buses:
            if b.kind == "m_axi":
                addr = b.port("AWADDR") or b.port("ARADDR")
                data = b.port("WDATA") or b.port("RDATA")
                el("addressSpace", lambda dd, b=b, addr=addr, data=data: (
                    el("name", _address_space_name(b), dd),
                    el("range", str(2 ** addr.width), dd),
                    el("width", str(data.width), dd),
                    el("addressUnitBits", "8", dd)), d)

    def register(reg, d: int) -> None:
        name, offset, access, desc, fields = reg
        el("name", name, d)
        el("description", desc, d)
        el("addressOffset", f"0x{offset:x}", d)
        el("size", "32", d)
        el("access", access, d)
        el("reset", lambda dd: el("value", "0", dd), d)
        for f in fields:
            def field(dd: int, f=f) -> None:
                fname, bit, width, faccess, on_write, on_read = f
                el("name", fname, dd)
                el("bitOffset", str(bit), dd)
                el("bitWidth", str(width), dd)
                el("access", faccess, dd)
                if on_write:
                    el("modifiedWriteValue", on_write, dd)
                if on_read:
                    el("readAction", on_read, dd)
            el("field", field, d)

    def memory_map(b: Bus, d: int) -> None:
        el("name", _memory_map_name(b), d)

        def block(dd: int) -> None:
            el("name", "Reg", dd)
            el("baseAddress", "0", dd)
            el("range", str(2 ** _address_width(b, regmaps)), dd)
            el("width", "32", dd)
            el("usage", "register", dd)
            for reg in _registers(b, regmaps):
                el("register", lambda e, reg=reg: register(reg, e), dd)
        el("addressBlock", block, d)
        el("addressUnitBits", "8", d)

    def memory_maps(d: int) -> None:
        for b in buses:
            if b.kind == "s_axilite":
                el("memoryMap", lambda dd, b=b: memory_map(b, dd), d)

    views = (("xilinx_verilogsynthesis", "Verilog Synthesis", "synthesis"),
             ("xilinx_verilogbehavioralsimulation", "Verilog Simulation", "simulation"))

    def model(d: int) -> None:
        def view(v, dd: int) -> None:
            name, display, env = v
            el("name", name, dd)
            el("displayName", display, dd)
            el("envIdentifier", f"verilogSource:vivado.xilinx.com:{env}", dd)
            el("language", "Verilog", dd)
            el("modelName", top, dd)
            el("fileSetRef", lambda e: el("localName", f"{name}_view_fileset", e), dd)
        el("views", lambda dd: [el("view", lambda e, v=v: view(v, e), dd) for v in views], d)

        def port(p: Port, dd: int) -> None:
            el("name", p.name, dd)

            def wire(e: int) -> None:
                el("direction", p.direction, e)
                if p.width > 1:
                    el("vector", lambda f: (el("left", str(p.width - 1), f, format="long"),
                                            el("right", "0", f, format="long")), e)
            el("wire", wire, dd)
        if module_ports(report):
            el("ports", lambda dd: [el("port", lambda e, p=p: port(p, e), dd)
                                    for p in module_ports(report)], d)

    def file_sets(d: int) -> None:
        for name, _, _ in views:
            el("fileSet", lambda dd, name=name: (
                el("name", f"{name}_view_fileset", dd),
                el("file", lambda e: (el("name", f"hdl/{top}.v", e),
                                      el("fileType", "verilogSource", e)), dd)), d)

    def vendor_extensions(d: int) -> None:
        def core(dd: int) -> None:
            el("xilinx:taxonomies", lambda e: el("xilinx:taxonomy", "/UserIP", e), dd)
            el("xilinx:displayName", top, dd)
            el("xilinx:coreRevision", "1", dd)
        el("xilinx:coreExtensions", core, d)

    def component(d: int) -> None:
        el("vendor", VENDOR, d)
        el("library", LIBRARY, d)
        el("name", top, d)
        el("version", VERSION, d)
        if any(b.kind != "conduit" for b in buses):
            el("busInterfaces", bus_interfaces, d)
        if any(b.kind == "m_axi" for b in buses):
            el("addressSpaces", address_spaces, d)
        if any(b.kind == "s_axilite" for b in buses):
            el("memoryMaps", memory_maps, d)
        el("model", model, d)
        el("fileSets", file_sets, d)
        el("description", f"{top}, generated by vichls", d)
        el("vendorExtensions", vendor_extensions, d)

    head = '<?xml version="1.0" encoding="UTF-8"?>'
    el("component", component, 0, xmlns__xilinx=XILINX_NS, xmlns__spirit=SPIRIT_NS)
    return "\n".join([head, *x.lines]) + "\n"


# -- fusesoc: CAPI2 --------------------------------------------------------------------------


def fusesoc_core(top: str) -> str:
    """``<top>.core`` (see the module doc): the core refers to ``<top>.v`` beside it."""
    return f"""CAPI=2:
# FuseSoC core of the vichls kernel {top} (generated by vichls).
name: {VENDOR.split('.')[0]}:{LIBRARY}:{top}:{VERSION}
description: "{top}, a high-level synthesis kernel generated by vichls"

filesets:
  rtl:
    files:
      - {top}.v
    file_type: verilogSource

targets:
  default:
    filesets: [rtl]
    toplevel: {top}

  lint:
    description: Verilator lint of the whole design (-Wall)
    default_tool: verilator
    filesets: [rtl]
    toplevel: {top}
    tools:
      verilator:
        mode: lint-only
        verilator_options: [-Wall]

  sim:
    description: Verilator model of the design (a testbench drives its ports)
    default_tool: verilator
    filesets: [rtl]
    toplevel: {top}
    tools:
      verilator:
        mode: binary
"""


# -- quartus: Platform Designer --------------------------------------------------------------

AXI_QSYS_TYPE = {"s_axilite": "axi4lite", "m_axi": "axi4", "axis": "axi4stream"}
#: AXI signals Platform Designer's axi4 interface has no role for (AXI3's write ID)
QSYS_UNMAPPED = {"m_axi": {"WID"}}


def _tcl_word(text: str) -> str:
    """A Tcl word for a name or a description (braced unless it is plain)."""
    if re.fullmatch(r"[A-Za-z0-9_.:/-]+", text):
        return text
    return "{" + text.replace("\\", "/").replace("{", "(").replace("}", ")") + "}"


def qsys_roles(bus: Bus) -> list[tuple[str, Port, str]]:
    """(interface, port, role) as Platform Designer names them, for one of ``classify``'s
    interfaces; AXI signals with no role there go to a conduit ``<bus>_extra``."""
    rows = []
    for p, role in bus.ports:
        if bus.kind == "clock":
            rows.append((bus.name, p, "clk"))
        elif bus.kind == "reset":
            rows.append((bus.name, p, "reset_n" if _active_low(bus) else "reset"))
        elif bus.kind == "interrupt":
            rows.append((bus.name, p, "irq"))
        elif role in QSYS_UNMAPPED.get(bus.kind, ()):
            rows.append((f"{bus.name}_extra", p, role.lower()))
        else:
            rows.append((bus.name, p, role.lower()))
    return rows


def platform_designer(top: str, report: dict, buses: list[Bus] | None = None) -> str:
    """``<top>_hw.tcl`` (see the module doc): the component refers to ``<top>.v`` beside it."""
    buses = classify(report) if buses is None else buses
    clock, reset = _clock_reset(buses)
    control = next((b for b in buses if b.kind == "s_axilite"
                    and (interface_section(report).get("registers") or {})
                    .get(b.bundle, {}).get("control")), None)
    if control is None:
        control = next((b for b in buses if b.kind == "s_axilite"), None)
    out = [f"# {top}_hw.tcl: Platform Designer component of the vichls kernel {top}",
           "# (generated by vichls; the HDL is the file beside this one).",
           "package require -exact qsys 16.1", "",
           f"set_module_property NAME {top}",
           f"set_module_property VERSION {VERSION}",
           f"set_module_property DISPLAY_NAME {top}",
           f"set_module_property DESCRIPTION {_tcl_word(f'{top}, generated by vichls')}",
           "set_module_property GROUP vichls",
           "set_module_property AUTHOR vichls",
           "set_module_property INTERNAL false",
           "set_module_property OPAQUE_ADDRESS_MAP true",
           "set_module_property EDITABLE false",
           "set_module_property INSTANTIATE_IN_SYSTEM_MODULE true", "",
           "add_fileset QUARTUS_SYNTH QUARTUS_SYNTH \"\" \"\"",
           f"set_fileset_property QUARTUS_SYNTH TOP_LEVEL {top}",
           f"add_fileset_file {top}.v VERILOG PATH {top}.v TOP_LEVEL_FILE",
           "add_fileset SIM_VERILOG SIM_VERILOG \"\" \"\"",
           f"set_fileset_property SIM_VERILOG TOP_LEVEL {top}",
           f"add_fileset_file {top}.v VERILOG PATH {top}.v"]
    direction = {"in": "Input", "out": "Output"}

    def interface(name: str, kind: str, end: str, comment: str) -> None:
        out.extend(["", f"# {comment}", f"add_interface {name} {kind} {end}"])

    def associate(name: str) -> None:
        if clock is not None:
            out.append(f"set_interface_property {name} associatedClock {clock.name}")
        if reset is not None:
            out.append(f"set_interface_property {name} associatedReset {reset.name}")

    def ports(rows) -> None:
        for iface, p, role in rows:
            out.append(f"add_interface_port {iface} {p.name} {role} {direction[p.direction]} "
                       f"{p.width}")

    for b in buses:
        rows = qsys_roles(b)
        main = [r for r in rows if r[0] == b.name]
        extra = [r for r in rows if r[0] != b.name]
        if b.kind == "clock":
            interface(b.name, "clock", "end", "the clock (sink)")
            out.append(f"set_interface_property {b.name} clockRate 0")
        elif b.kind == "reset":
            low = _active_low(b)
            interface(b.name, "reset", "end",
                      f"the reset (sink): synchronous, active {'low' if low else 'high'}")
            if clock is not None:
                out.append(f"set_interface_property {b.name} associatedClock {clock.name}")
            out.append(f"set_interface_property {b.name} synchronousEdges BOTH")
        elif b.kind == "interrupt":
            interface(b.name, "interrupt", "end", "the interrupt sender (level, active high)")
            associate(b.name)
            if control is not None:
                out.append(f"set_interface_property {b.name} associatedAddressablePoint "
                           f"{control.name}")
        elif b.kind == "s_axilite":
            interface(b.name, "axi4lite", "end", f"s_axilite bundle '{b.bundle}' (AXI4-Lite slave)")
            associate(b.name)
        elif b.kind == "m_axi":
            interface(b.name, "axi4", "start", f"m_axi bundle '{b.bundle}' (AXI4 master)")
            associate(b.name)
        elif b.kind == "axis":
            what = "source" if b.master else "sink"
            interface(b.name, "axi4stream", "start" if b.master else "end",
                      f"stream '{b.name}' (AXI4-Stream {what})")
            associate(b.name)
        else:
            interface(b.name, "conduit", "end", f"'{b.name}': exported as a conduit")
            associate(b.name)
        ports(main)
        if extra:
            name = extra[0][0]
            interface(name, "conduit", "end", f"signals of '{b.name}' that Platform Designer's "
                      f"{AXI_QSYS_TYPE[b.kind]} has no role for")
            associate(name)
            ports(extra)
    return "\n".join(out) + "\n"


# -- all of them -----------------------------------------------------------------------------


def package_files(top: str, verilog: str, report: dict, kinds: set[str]) -> dict[str, str]:
    """{path relative to the output folder: text} of the packages ``kinds`` names (a subset
    of ``KINDS``, or ``{"all"}``) for the delivered module ``top`` (its Verilog text and its
    report, ``FpgaDesign.report``, or the report's ``interface`` section)."""
    wanted = set(KINDS) if "all" in kinds else set(kinds)
    unknown = wanted - set(KINDS)
    if unknown:
        raise ValueError(f"unknown package kind(s) {', '.join(sorted(unknown))}: "
                         f"expected {', '.join(KINDS)} or all")
    buses = classify(report)
    files: dict[str, str] = {}
    if "vivado" in wanted:
        files["ip/component.xml"] = ip_xact(top, report, buses)
        files[f"ip/hdl/{top}.v"] = verilog
    if "fusesoc" in wanted:
        files[f"{top}.core"] = fusesoc_core(top)
        files[f"{top}.v"] = verilog
    if "quartus" in wanted:
        files[f"{top}_hw.tcl"] = platform_designer(top, report, buses)
        files[f"{top}.v"] = verilog
    return files
