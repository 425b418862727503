"""The module the user drops into a system: the kernel's core inside the adapters its
interface directives ask for.

What: ``wrap(top, core_verilog, core_ports, signature, interfaces)`` gives ``None`` when every
argument keeps its default protocol (the core is the deliverable, unchanged), else a
``Wrapped``: the Verilog of a module named ``top`` around the core (renamed ``<top>_core``)
and the register files of its s_axilite bundles (interface/axilite.py), its port list, and
the interface table the report prints (argument, mode, bundle, ports, register offset).
The adapters, each between the top's ports and the core's:

- s_axilite (scalars, the returned value, the block control): the register file drives the
  core's ``ap_start`` and scalar inputs and takes ``ap_done``/``ap_idle``/``ap_ready``/
  ``ap_return``; ``interrupt`` when the control is in the bundle;
- ``ap_ctrl_chain`` (a core without ``ap_continue``): ``ap_done`` (and ``ap_return``) held
  from the core's done until ``ap_continue``, and no new call before;
- ``ap_ctrl_none``: the core is started whenever it is idle (no control ports; a kernel that
  returns a value is refused: nothing would say when it is valid);
- m_axi (an array in memory, interface/maxi.py): the core's ap_memory port set served through
  an AXI4 master, the core held while a read waits or a write has no room, its ``ap_done`` and
  ``ap_ready`` held until the adapters have sent its writes (no call starts meanwhile); the
  base address from the control bundle (``offset="slave"``), a port (``"direct"``) or 0;
  the adapters of the arrays of one bundle share its port through the bundle's
  interconnect (interface/interconnect.py; none for a bundle of one array);
- bram (arrays, interface/bram.py): the core's memory ports as Vitis's ``bram`` port set
  (byte addresses, a write enable per byte, clock and reset for the memory);
- axis (streams): AXI4-Stream ports through a two-element FIFO on either side;
- ``ap_vld`` on a scalar input: the value is taken in a cycle its ``<name>_ap_vld`` is high
  while the core is idle, and a call starts only once every such input has been taken since
  the last one started;
- everything else (ap_none scalars, ap_memory arrays, ap_fifo streams) is wired through.

Wherever an AXI interface is present the reset is ``ap_rst_n`` (active low), as Vitis has
it; the core keeps its active-high ``ap_rst``.

Assumes the core's ports as ``vichls.ports`` names them and its top module named ``top``,
first in ``core_verilog``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import vichls
from vichls import ports as P
from vichls.backend.verilog.printer import template_text
from vichls.errors import FpgaError
from vichls.interface.bram import bram_adapter
from vichls.interface.axilite import RegisterMap, axilite_ports, register_file, register_maps
from vichls.interface.interconnect import BROADCAST, MASTER, bundle_mux, clocked
from vichls.interface.maxi import M_AXI_SIGNALS, bus_width, m_axi_ports, maxi_adapter
from vichls.interface.spec import RETURN, Interface, has_axi

@dataclass
class Wrapped:
    verilog: str
    ports: list[tuple[str, str, int]]
    #: per argument (and "return"): mode, bundle, the top's ports, register offsets
    table: list[dict] = field(default_factory=list)
    maps: dict[str, RegisterMap] = field(default_factory=dict)


def needs_wrapper(interfaces: dict[str, Interface]) -> bool:
    defaults = {"ap_memory", "ap_fifo", "ap_none", "ap_ctrl_hs"}
    return any(i.mode not in defaults for i in interfaces.values())


def core_name(top: str) -> str:
    return f"{top}_core"


def _rename_core(top: str, verilog: str) -> str:
    renamed, n = re.subn(rf"^module {re.escape(top)}(?=[\s(])", f"module {core_name(top)}",
                         verilog, count=1, flags=re.M)
    if n != 1:
        raise FpgaError(f"internal: the core of '{top}' has no module of that name")
    return renamed


def _decl(direction: str, width: int, name: str) -> str:
    kind = "input wire" if direction == "in" else "output wire"
    text = f"{kind} {f'[{width - 1}:0] ' if width > 1 else ''}{name}"
    if name == "interrupt":  # the contract's name, a C++ word to Verilator
        return f"/* verilator lint_off SYMRSVDWORD */ {text} /* verilator lint_on SYMRSVDWORD */"
    return text


def wrap(top: str, core_verilog: str, core_ports: list[dict], signature,
         interfaces: dict[str, Interface]) -> Wrapped | None:
    if not needs_wrapper(interfaces):
        return None
    core = {p["name"]: (p["direction"], p["width"]) for p in core_ports}
    axi = has_axi(interfaces)
    ret = interfaces[RETURN]
    chain_native = P.CONTINUE in core
    if ret.mode == "ap_ctrl_none" and P.RETURN in core:
        raise FpgaError(f"s.interface('return', 'ap_ctrl_none'): '{top}' returns a value, and "
                        "without ap_done nothing says when it is valid; use ap_ctrl_hs, "
                        "ap_ctrl_chain or s_axilite")
    maps = register_maps(signature, interfaces)
    bundles = _maxi_bundles(signature, interfaces, core)
    top_ports: list[tuple[str, str, int]] = [(P.CLOCK, "in", 1)]
    top_ports.append(("ap_rst_n", "in", 1) if axi else (P.RESET, "in", 1))
    body: list[str] = []
    conns: dict[str, str] = {P.CLOCK: P.CLOCK, P.RESET: P.RESET}
    table: list[dict] = []
    if axi:
        body.append(f"    wire {P.RESET} = ~ap_rst_n;")
    # -- the block control ------------------------------------------------------------------
    for sig in (P.START, P.DONE, P.IDLE, P.READY):
        body.append(f"    wire core_{sig};")
        conns[sig] = f"core_{sig}"
    if P.RETURN in core:
        body.append(f"    wire [{core[P.RETURN][1] - 1}:0] core_{P.RETURN};")
        conns[P.RETURN] = f"core_{P.RETURN}"
    if chain_native:
        conns[P.CONTINUE] = P.CONTINUE if ret.mode == "ap_ctrl_chain" else "1'b1"
    control_ports = []
    if ret.mode in ("ap_ctrl_hs", "ap_ctrl_chain"):
        control_ports = [(P.START, "in", 1), (P.DONE, "out", 1), (P.IDLE, "out", 1),
                         (P.READY, "out", 1)]
        if ret.mode == "ap_ctrl_chain":
            control_ports.append((P.CONTINUE, "in", 1))
        if P.RETURN in core:
            control_ports.append((P.RETURN, "out", core[P.RETURN][1]))
    top_ports += control_ports
    start_gates: list[str] = []  # conditions a call waits for (ap_vld inputs)
    if ret.mode == "ap_ctrl_hs" or (ret.mode == "ap_ctrl_chain" and chain_native):
        body += [f"    assign {P.DONE} = core_{P.DONE};", f"    assign {P.IDLE} = core_{P.IDLE};",
                 f"    assign {P.READY} = core_{P.READY};"]
        if P.RETURN in core:
            body.append(f"    assign {P.RETURN} = core_{P.RETURN};")
        start = P.START
    elif ret.mode == "ap_ctrl_chain":
        body += ["    // ap_ctrl_chain: ap_done (and ap_return) held until ap_continue",
                 "    reg done_held;",
                 "    always @(posedge ap_clk) begin",
                 "        if (ap_rst) done_held <= 1'b0;",
                 f"        else if (core_{P.DONE} && !{P.CONTINUE}) done_held <= 1'b1;",
                 f"        else if ({P.CONTINUE}) done_held <= 1'b0;",
                 "    end",
                 f"    assign {P.DONE} = core_{P.DONE} | done_held;",
                 f"    assign {P.IDLE} = core_{P.IDLE} & ~done_held;",
                 f"    assign {P.READY} = core_{P.READY};"]
        if P.RETURN in core:
            w = core[P.RETURN][1]
            body += [f"    reg [{w - 1}:0] return_held;",
                     "    always @(posedge ap_clk) begin",
                     f"        if (core_{P.DONE}) return_held <= core_{P.RETURN};",
                     "    end",
                     f"    assign {P.RETURN} = core_{P.DONE} ? core_{P.RETURN} : return_held;"]
        start = f"{P.START} & ~done_held"
    elif ret.mode == "ap_ctrl_none":
        start = "1'b1"
        body.append("    // ap_ctrl_none: the core runs whenever it is idle")
    else:  # s_axilite: the register file drives the control
        start = "control_ap_start"
        body.append("    wire control_ap_start;")
    table.append({"argument": RETURN, "mode": ret.mode,
                  **({"bundle": ret.option("bundle")} if ret.mode == "s_axilite" else {}),
                  "ports": [n for n, _, _ in control_ports]})
    # -- the arguments ------------------------------------------------------------------------
    passthrough: list[tuple[str, str, int]] = []
    uses_fifo = False
    maxi: list[str] = []  # the arrays behind m_axi adapters
    for p in signature.params:
        i = interfaces[p.name]
        mine = [n for n in core if _owner(n, signature) == p.name]
        entry = {"argument": p.name, "mode": i.mode}
        if i.mode == "s_axilite":
            conns[p.name] = f"control_{p.name}"
            body.append(f"    wire [{core[p.name][1] - 1}:0] control_{p.name};")
            entry["bundle"] = i.option("bundle")
            entry["ports"] = []
        elif i.mode == "m_axi":
            shared = bundles[i.option("bundle")]
            lines, made = _maxi(top, p, i, {n: core[n] for n in mine}, shared)
            body += lines
            passthrough += made
            for n in mine:
                conns[n] = f"core_{n}"
            entry["bundle"] = i.option("bundle")
            # (the bundle's port set, shared: it comes with the bundle's first array)
            entry["ports"] = [n for n, _, _ in m_axi_ports(i.option("bundle"),
                                                            _bus_width(p, i))] + \
                ([p.name] if i.option("offset") == "direct" else [])
            entry["element_width"] = p.scalar.width
            entry["data_width"] = _bus_width(p, i)
            entry["max_burst"] = i.option("max_burst")
            maxi.append(p.name)
        elif i.mode == "bram":
            made, lines, wired = bram_adapter(p.name, p.scalar.width, {n: core[n] for n in mine})
            passthrough += made
            body += lines
            conns.update(wired)
            entry["ports"] = [n for n, _, _ in made]
        elif i.mode == "axis":
            made, lines = _axis(p, i, core)
            passthrough += made
            body += lines
            for n in mine:
                conns[n] = f"core_{n}"
            entry["ports"] = [n for n, _, _ in made]
            uses_fifo = True
        elif i.mode == "ap_vld":
            w = core[p.name][1]
            vld = f"{p.name}_ap_vld"
            passthrough += [(p.name, "in", w), (vld, "in", 1)]
            body += [f"    // ap_vld: '{p.name}' is taken while the core is idle",
                     f"    reg [{w - 1}:0] {p.name}_q;",
                     f"    reg {p.name}_taken;",
                     "    always @(posedge ap_clk) begin",
                     f"        if (ap_rst) {p.name}_taken <= 1'b0;",
                     f"        else if ({vld} && core_{P.IDLE}) {p.name}_taken <= 1'b1;",
                     f"        else if (core_{P.START} && core_{P.IDLE}) {p.name}_taken <= 1'b0;",
                     f"        if ({vld} && core_{P.IDLE}) {p.name}_q <= {p.name};",
                     "    end"]
            conns[p.name] = f"{p.name}_q"
            start_gates.append(f"{p.name}_taken")
            entry["ports"] = [p.name, vld]
        else:
            passthrough += [(n, *core[n]) for n in mine]
            for n in mine:
                conns[n] = n
            entry["ports"] = mine
        table.append(entry)
    top_ports += passthrough
    # -- the s_axilite bundles --------------------------------------------------------------
    offsets = {r.name: (b, r.offset) for b, m in maps.items() for r in m.registers}
    for entry in table:
        key = "ap_return" if entry["argument"] == RETURN else entry["argument"]
        if key in offsets:
            entry["offset"] = f"0x{offsets[key][1]:02x}"
    for bundle, regmap in maps.items():
        top_ports += axilite_ports(bundle, regmap.address_width)
        if regmap.control:
            top_ports.append(("interrupt", "out", 1))
        c = [".ACLK(ap_clk)", ".ARESET(ap_rst)"]
        c += [f".{n[len(f's_axi_{bundle}_'):]}({n})"
              for n, _, _ in axilite_ports(bundle, regmap.address_width)]
        if regmap.control:
            c += [".interrupt(interrupt)", ".ap_start(control_ap_start)",
                  f".ap_done(core_{P.DONE})", f".ap_idle(core_{P.IDLE})",
                  f".ap_ready(core_{P.READY})"]
        for r in regmap.registers:
            if r.kind == "return":
                c.append(f".ap_return(core_{P.RETURN})")
            else:
                c.append(f".arg_{r.name}(control_{r.name})")
        body.append(f"    {top}_{bundle}_s_axi {bundle}_s_axi (\n        "
                    + ",\n        ".join(c) + "\n    );")
    if start_gates:
        start = f"({start}) & " + " & ".join(start_gates)
    body.append(f"    assign core_{P.START} = {start};")
    if maxi:
        body += _drain(maxi, P.RETURN in core and core[P.RETURN][1])
        for sig in (P.START, P.DONE, P.IDLE, P.READY):
            conns[sig] = f"raw_{sig}"
        if P.RETURN in core:
            conns[P.RETURN] = f"raw_{P.RETURN}"
        conns[P.HOLD] = " | ".join(f"{n}_hold" for n in maxi)
        rw = {n: (r, w) for arrays in bundles.values() for n, r, w in arrays}
        shared = {b: arrays for b, arrays in bundles.items() if len(arrays) > 1}
        gathering = {n for arrays in shared.values() for n in _gathering(arrays)}
        width = {b: _bus_width(signature.param(arrays[0][0]), interfaces[arrays[0][0]])
                 for b, arrays in shared.items()}
        for bundle, arrays in shared.items():
            body += _bundle_mux(top, bundle, arrays, width[bundle])
        adapters = [maxi_adapter(top, n, signature.param(n).type.size,
                                 signature.param(n).scalar.width,
                                 interfaces[n].option("max_burst"),
                                 *rw[n], interfaces[n].option("latency"),
                                 _bus_width(signature.param(n), interfaces[n]),
                                 gather=n in gathering)
                    for n in maxi]
        adapters += [bundle_mux(top, bundle, arrays, width[bundle])
                     for bundle, arrays in shared.items()]
    else:
        adapters = []
    core_conns = [f".{name}({conns.get(name, '')})" for name in core]
    body.append(f"    {core_name(top)} core (\n        " + ",\n        ".join(core_conns)
                + "\n    );")
    header = (f"// Generated by vichls {vichls.__version__}: the interfaces of the kernel "
              f"'{top}' (s.interface directives)\n// around its core, {core_name(top)}. "
              "Do not edit; regenerate from the Python source.\n`timescale 1ns / 1ps\n\n")
    unused = [f"core_{s}" for s in (P.DONE, P.IDLE, P.READY)] if ret.mode == "ap_ctrl_none" \
        else []
    decls = ",\n".join(f"    {_decl(d, w, n)}" for n, d, w in top_ports)
    module = [f"module {top} (", decls, ");"]
    if unused:
        module.append("    /* verilator lint_off UNUSED */")
        module += [line for line in body if any(f"wire {u};" in line for u in unused)]
        module.append("    /* verilator lint_on UNUSED */")
        body = [line for line in body if not any(f"wire {u};" in line for u in unused)]
    module += body + ["endmodule", ""]
    files = [header + "\n".join(module)]
    for bundle, regmap in maps.items():
        files.append("/* verilator lint_off DECLFILENAME */\n" + register_file(top, regmap)
                     + "/* verilator lint_on DECLFILENAME */\n")
    for text in adapters:
        files.append("/* verilator lint_off DECLFILENAME */\n" + text
                     + "/* verilator lint_on DECLFILENAME */\n")
    files.append("/* verilator lint_off DECLFILENAME */\n" + _rename_core(top, core_verilog)
                 + "/* verilator lint_on DECLFILENAME */\n")
    if uses_fifo and not re.search(r"^module vichls_fifo\b", core_verilog, flags=re.M):
        files.append("/* verilator lint_off DECLFILENAME */\n" + template_text("vichls_fifo")
                     + "/* verilator lint_on DECLFILENAME */\n")
    return Wrapped("\n".join(files), top_ports, table, maps)


def _bus_width(p, i: Interface) -> int:
    """The data width of the m_axi port of array ``p``: its ``data_width``, or by default
    an element's and at least 32 bits (maxi.bus_width)."""
    return bus_width(p.scalar.width, i.option("data_width"))


def _maxi_bundles(signature, interfaces: dict[str, Interface],
                  core: dict) -> dict[str, list[tuple[str, bool, bool]]]:
    """The m_axi bundles: {bundle: [(array, reads, writes), ...]} in the order of the
    parameters; the arrays of a bundle share its port (one bus width)."""
    bundles: dict[str, list[tuple[str, bool, bool]]] = {}
    for p in signature.params:
        i = interfaces[p.name]
        if i.mode != "m_axi":
            continue
        arrays = bundles.setdefault(i.option("bundle"), [])
        if arrays:
            q = signature.param(arrays[0][0])
            first, mine = _bus_width(q, interfaces[q.name]), _bus_width(p, i)
            if mine != first:
                raise FpgaError(f"s.interface('{p.name}', 'm_axi', bundle='{i.option('bundle')}'):"
                                f" '{q.name}' in that bundle is on a {first}-bit bus, "
                                f"'{p.name}' on a {mine}-bit one; the arrays of a bundle share "
                                "one bus: give them the same data_width, or bundles of "
                                "their own")
        arrays.append((p.name, P.memory_port(p.name, "q", 0) in core,
                       P.memory_port(p.name, "we", 0) in core))
    return bundles


def _maxi(top: str, p, i: Interface, core: dict,
          shared: list[tuple[str, bool, bool]]) -> tuple[list[str], list]:
    """The adapter instance of array ``p`` behind m_axi (interface/maxi.py), its wires, and
    the top's ports it brings (the bundle's AXI4 master, with the bundle's first array; a
    ``direct`` base address). ``core``: the core's ports of ``p`` (name: (direction,
    width)); ``shared``: the arrays of its bundle (with others, the adapter's AXI4 signals
    go to the bundle's interconnect, interface/interconnect.py, but for the read data and
    the write response's payload, which it takes from the port)."""
    n, w = p.name, p.scalar.width
    if f"{n}_address0" not in core:
        raise FpgaError(f"s.interface('{n}', 'm_axi'): a partitioned array cannot be served "
                        "through m_axi")
    if f"{n}_address1" in core:
        raise FpgaError(f"s.interface('{n}', 'm_axi'): the schedule reads '{n}' through two "
                        "ports; this version of vichls serves one port through m_axi")
    if w not in (8, 16, 32, 64):
        raise FpgaError(f"s.interface('{n}', 'm_axi'): this version of vichls builds m_axi "
                        f"for elements of 8, 16, 32 or 64 bits ('{n}' has {w})")
    bundle = i.option("bundle")
    bus = _bus_width(p, i)
    made = list(m_axi_ports(bundle, bus)) if shared[0][0] == n else []
    offset = i.option("offset")
    if offset == "slave":
        base = f"control_{n}"
        lines = [f"    wire [63:0] control_{n};"]
    elif offset == "direct":
        made.append((n, "in", 64))
        base, lines = n, []
    else:
        base, lines = "64'd0", []
    mine = {s.removeprefix(f"{n}_"): (d, wd) for s, (d, wd) in core.items()
            if s.startswith(f"{n}_")}
    for signal, (d, wd) in mine.items():
        lines.append(f"    wire {f'[{wd - 1}:0] ' if wd > 1 else ''}core_{n}_{signal};")
    lines.append(f"    wire {n}_hold, {n}_idle;")
    c = [".clk(ap_clk)", ".rst(ap_rst)", f".base({base})", ".drain(maxi_drain)",
         f".hold({n}_hold)", f".idle({n}_idle)"]
    c += [f".{signal}(core_{n}_{signal})" for signal in mine]
    prefix = f"m_axi_{bundle}_"
    for name, _, wd in m_axi_ports(bundle, bus):
        signal = name[len(prefix):]
        if len(shared) > 1 and signal not in BROADCAST:
            lines.append(f"    wire {f'[{wd - 1}:0] ' if wd > 1 else ''}{n}_axi_{signal};")
            c.append(f".{signal}({n}_axi_{signal})")
        else:
            c.append(f".{signal}({name})")
    lines.append(f"    {top}_{n}_m_axi {n}_m_axi (\n        " + ",\n        ".join(c) + "\n    );")
    return lines, made


def _gathering(arrays: list[tuple[str, bool, bool]]) -> set[str]:
    """The adapters of a bundle that gather each burst before its address (maxi.py,
    ``gather``): those that write, when two or more do (they share the W channel)."""
    writers = {n for n, _, w in arrays if w}
    return writers if len(writers) > 1 else set()


def _bundle_mux(top: str, bundle: str, arrays: list[tuple[str, bool, bool]],
                width: int) -> list[str]:
    """The instance of the interconnect of a bundle of several arrays
    (interface/interconnect.py) between their adapters and the bundle's port."""
    prefix = f"m_axi_{bundle}_"
    c = [".clk(ap_clk)", ".rst(ap_rst)"] if clocked(arrays) else []
    c += [f".{s}({prefix}{s})" for s, _ in MASTER]
    for n, _, _ in arrays:
        c += [f".{n}_{s}({n}_axi_{s})" for s, _ in M_AXI_SIGNALS if s not in BROADCAST]
    names = ", ".join(f"'{n}'" for n, _, _ in arrays)
    return [f"    // the m_axi bundle '{bundle}': {names} on one port",
            f"    {top}_{bundle}_m_axi_mux {bundle}_m_axi_mux (\n        "
            + ",\n        ".join(c) + "\n    );"]


def _drain(arrays: list[str], ret_width) -> list[str]:
    """The block control seen through m_axi adapters: a call is done (and ready) once the
    core has finished and every adapter has sent its writes (``maxi_drain`` asks them to);
    meanwhile the core takes no new call."""
    idle = " & ".join(f"{n}_idle" for n in arrays)
    lines = ["    // the core's control, held while the m_axi adapters finish its writes",
             f"    wire raw_{P.START}, raw_{P.DONE}, raw_{P.IDLE}, raw_{P.READY};",
             f"    wire maxi_idle = {idle};",
             "    reg done_pending, ready_pending;",
             f"    wire maxi_drain = raw_{P.DONE} | done_pending;",
             f"    wire readying = raw_{P.READY} | ready_pending;",
             f"    assign core_{P.DONE} = maxi_drain & maxi_idle;",
             f"    assign core_{P.READY} = readying & maxi_idle;",
             f"    assign core_{P.IDLE} = raw_{P.IDLE} & ~done_pending & maxi_idle;",
             f"    assign raw_{P.START} = core_{P.START} & ~done_pending & ~ready_pending"
             f" & ~(raw_{P.READY} & ~maxi_idle);",
             "    always @(posedge ap_clk) begin",
             "        if (ap_rst) begin",
             "            done_pending <= 1'b0;",
             "            ready_pending <= 1'b0;",
             "        end else begin",
             "            done_pending <= maxi_drain & ~maxi_idle;",
             "            ready_pending <= readying & ~maxi_idle;",
             "        end",
             "    end"]
    if ret_width:
        lines += [f"    wire [{ret_width - 1}:0] raw_{P.RETURN};",
                  f"    reg [{ret_width - 1}:0] return_kept;",
                  f"    always @(posedge ap_clk) if (raw_{P.DONE}) return_kept <= raw_{P.RETURN};",
                  f"    assign core_{P.RETURN} = raw_{P.DONE} ? raw_{P.RETURN} : return_kept;"]
    return lines


#: the depth of the FIFO between an axis port and the core: two elements move one a cycle
AXIS_FIFO_DEPTH = 2


def _axis(p, i: Interface, core: dict) -> tuple[list[tuple[str, str, int]], list[str]]:
    """The AXI4-Stream ports of stream ``p`` and the adapter between them and the core's
    ap_fifo ports: a two-element FIFO on either side (its registered flags keep the
    stream's handshake apart from the core's stall logic, and TVALID never waits for
    TREADY). With ``last=True`` an output holds back each element until the next one or the
    end of the call says whether it is the last (TLAST)."""
    n, w = p.name, p.scalar.width
    tw = 8 * ((w + 7) // 8)  # TDATA in whole bytes
    pad = tw - w
    last = bool(i.option("last"))
    keep = w % 8 != 0  # (the contract: TKEEP/TSTRB where the element is not whole bytes)
    body = [f"    // axis '{n}' ({'in' if p.direction == 'in' else 'out'}): a "
            f"{AXIS_FIFO_DEPTH}-element FIFO between the stream and the core"]
    ports: list[tuple[str, str, int]]
    f = f"{n}_fifo"
    if p.direction == "in":
        ports = [(f"{n}_TDATA", "in", tw), (f"{n}_TVALID", "in", 1), (f"{n}_TREADY", "out", 1)]
        if last:
            ports.append((f"{n}_TLAST", "in", 1))
        if keep:
            ports += [(f"{n}_TKEEP", "in", tw // 8), (f"{n}_TSTRB", "in", tw // 8)]
        unused = [pn for pn, _, _ in ports if pn.endswith(("_TLAST", "_TKEEP", "_TSTRB"))]
        if pad:
            unused.append(f"{n}_TDATA")
        body += [f"    wire [{w - 1}:0] core_{n}_dout;", f"    wire core_{n}_empty_n, core_{n}_read;",
                 f"    vichls_fifo #(.WIDTH({w}), .DEPTH({AXIS_FIFO_DEPTH})) {f} (.clk(ap_clk), "
                 f".rst(ap_rst), .din({n}_TDATA[{w - 1}:0]), .write({n}_TVALID), "
                 f".full_n({n}_TREADY), .dout(core_{n}_dout), .read(core_{n}_read), "
                 f".empty_n(core_{n}_empty_n));"]
        if unused:  # (a stream's end marker and byte enables carry nothing the core reads)
            body.insert(1, "    /* verilator lint_off UNUSED */")
            body.insert(2, "    wire " + ", ".join(f"{u}_unused" for u in unused) + ";")
            body.insert(3, "    /* verilator lint_on UNUSED */")
            body += [f"    assign {u}_unused = ^{u};" for u in unused]
        return ports, body
    ports = [(f"{n}_TDATA", "out", tw), (f"{n}_TVALID", "out", 1), (f"{n}_TREADY", "in", 1)]
    if last:
        ports.append((f"{n}_TLAST", "out", 1))
    if keep:
        ports += [(f"{n}_TKEEP", "out", tw // 8), (f"{n}_TSTRB", "out", tw // 8)]
    fw = w + 1 if last else w
    body += [f"    wire [{w - 1}:0] core_{n}_din;", f"    wire core_{n}_full_n, core_{n}_write;",
             f"    wire [{fw - 1}:0] {f}_din, {f}_dout;", f"    wire {f}_write, {f}_full_n;"]
    if last:
        body += [
            f"    // TLAST: the newest element waits in {n}_held until the next one (not the",
            "    // last) or the end of the call (the last) lets it into the FIFO",
            f"    reg [{w - 1}:0] {n}_held;",
            f"    reg {n}_held_valid, {n}_flush;",
            f"    assign {f}_write = {n}_held_valid & ({n}_flush | core_{n}_write);",
            f"    assign {f}_din = {{{n}_flush, {n}_held}};",
            f"    assign core_{n}_full_n = {f}_full_n & ~{n}_flush;",
            "    always @(posedge ap_clk) begin",
            "        if (ap_rst) begin",
            f"            {n}_held_valid <= 1'b0;",
            f"            {n}_flush <= 1'b0;",
            "        end else begin",
            f"            if (core_{n}_write) {n}_held_valid <= 1'b1;",
            f"            else if ({n}_flush & {f}_full_n) {n}_held_valid <= 1'b0;",
            f"            if ({n}_flush & ({f}_full_n | ~{n}_held_valid)) {n}_flush <= 1'b0;",
            f"            else if (core_{P.DONE} & ({n}_held_valid | core_{n}_write)) {n}_flush <= 1'b1;",
            "        end",
            f"        if (core_{n}_write) {n}_held <= core_{n}_din;",
            "    end",
            f"    assign {n}_TLAST = {f}_dout[{w}];"]
    else:
        body += [f"    assign {f}_write = core_{n}_write;", f"    assign {f}_din = core_{n}_din;",
                 f"    assign core_{n}_full_n = {f}_full_n;"]
    data = f"{f}_dout[{w - 1}:0]"
    body += [f"    vichls_fifo #(.WIDTH({fw}), .DEPTH({AXIS_FIFO_DEPTH})) {f} (.clk(ap_clk), "
             f".rst(ap_rst), .din({f}_din), .write({f}_write), .full_n({f}_full_n), "
             f".dout({f}_dout), .read({n}_TREADY), .empty_n({n}_TVALID));",
             f"    assign {n}_TDATA = {'{' + f'{pad}' + chr(39) + 'b0, ' + data + '}' if pad else data};"]
    if keep:
        body += [f"    assign {n}_TKEEP = {{{tw // 8}{{1'b1}}}};",
                 f"    assign {n}_TSTRB = {{{tw // 8}{{1'b1}}}};"]
    return ports, body


def _owner(port: str, signature) -> str | None:
    """The parameter a core port belongs to: the longest parameter name it is named for
    (``a_b_address0`` is b's of ``a_b``, not a's); None for the block's control ports."""
    if port in (P.CLOCK, P.RESET, P.START, P.DONE, P.IDLE, P.READY, P.RETURN, P.CONTINUE,
                P.HOLD):
        return None
    best = None
    for p in signature.params:
        if port == p.name or port.startswith(p.name + "_"):
            if best is None or len(p.name) > len(best):
                best = p.name
    return best
