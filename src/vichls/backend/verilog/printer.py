"""Print a compiled structural component as one self-contained Verilog-2005 file.

Not a transformation: the last step of the FPGA flow. It accepts only the form that
control compilation leaves (ports, cells, comb datapath, guarded assignments, one FSM
with transitions; no groups and no control tree) and appends, once each, the primitives
of ``rtl_templates/`` that the cells instantiate.

Output rules: deterministic (everything is printed in IR order; names come from the
builder's name hints, made unique here in order), lint-clean under
``verilator -Wall``: every destination is driven (zero where no guard holds), widths
match exactly, and a signal of which some bits are deliberately not read (an unused
divider output, the high bits of an address, an input port the kernel never reads) is
wrapped in ``verilator lint_off UNUSED`` on its own.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from xdsl.context import Context
from xdsl.dialects import comb, hw
from xdsl.dialects.builtin import Float32Type, IntegerType, ModuleOp
from xdsl.ir import SSAValue
from xdsl.utils.target import Target

import vichls
from vichls.errors import FpgaError
from vichls.limits import deep
from vichls.dialects import structural as st
from vichls.dialects.attributes import ROM_ATTR, SIGNED_PRODUCT_ATTR

VERILOG_KEYWORDS = _KEYWORDS = set("""always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos
config deassign default defparam design disable edge else end endcase endconfig endfunction
endgenerate endmodule endprimitive endspecify endtable endtask event for force forever fork
function generate genvar highz0 highz1 if ifnone incdir include initial inout input instance
integer join large liblist library localparam macromodule medium module nand negedge nmos nor
noshowcancelled not notif0 notif1 or output parameter pmos posedge primitive pull0 pull1
pulldown pullup pulsestyle_ondetect pulsestyle_onevent rcmos real realtime reg release repeat
rnmos rpmos rtran rtranif0 rtranif1 scalared showcancelled signed small specify specparam
strong0 strong1 supply0 supply1 table task time tran tranif0 tranif1 tri tri0 tri1 triand
trior trireg unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor
bit byte int logic""".split())
_ICMP = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">=", 6: "<", 7: "<=", 8: ">", 9: ">="}
_BINARY = {comb.AddOp: "+", comb.SubOp: "-", comb.MulOp: "*", comb.AndOp: "&", comb.OrOp: "|",
           comb.XorOp: "^", comb.ShlOp: "<<", comb.ShrUOp: ">>"}


def width_of(value: SSAValue) -> int:
    assert isinstance(value.type, IntegerType)
    return value.type.width.data


def _range(width: int) -> str:
    return "" if width == 1 else f"[{width - 1}:0] "


def template_text(primitive: str) -> str:
    return (Path(__file__).resolve().parent / "rtl_templates" / f"{primitive}.v").read_text()


class VerilogPrinter:
    def __init__(self, component: st.ComponentOp, modules: frozenset[str] = frozenset()):
        """``modules``: components printed in the same file; a cell of one of them is an
        instance of that module (clocked by ``ap_clk``), not of a primitive."""
        self.component = component
        self.modules = modules
        self.ops = list(component.body.block.ops)
        self.names: dict[SSAValue, str] = {}
        self.taken: set[str] = set()
        self.next_suffix: dict[str, int] = {}  # base -> the first suffix not yet tried
        self.roms: list[str] = []  # the module of each ROM cell (print_module fills it)

    def name_for(self, base: str) -> str:
        """A fresh signal name (not a value's): ``base``, else ``base_1``, ``base_2``... the
        first not taken. Names are only ever added, so the search for a base resumes where
        it last stopped (linear in the names of a design, not quadratic)."""
        k = self.next_suffix.get(base, 0)
        candidate = base if k == 0 else f"{base}_{k}"
        while candidate in self.taken or candidate in _KEYWORDS:
            k += 1
            candidate = f"{base}_{k}"
        self.next_suffix[base] = k + 1
        self.taken.add(candidate)
        return candidate

    def name(self, value: SSAValue) -> str:
        if value not in self.names:
            self.names[value] = self.name_for(value.name_hint or "n")
        return self.names[value]

    # -- expressions -------------------------------------------------------------------
    @staticmethod
    def constant(value: SSAValue) -> int | None:
        owner = value.owner
        if isinstance(owner, hw.ConstantOp):
            return owner.value.value.data & ((1 << width_of(value)) - 1)
        if isinstance(owner, comb.ExtractOp):
            inner = VerilogPrinter.constant(owner.input)
            if inner is not None:
                return (inner >> owner.low_bit.value.data) & ((1 << width_of(value)) - 1)
        return None

    def ref(self, value: SSAValue) -> str:
        c = self.constant(value)
        if c is not None:
            return f"{width_of(value)}'d{c}"
        return self.name(value)

    def sign_flipped(self, value: SSAValue) -> str:
        """``value`` with its sign bit inverted (two's complement order → unsigned order)."""
        width = width_of(value)
        c = self.constant(value)
        if c is not None:
            return f"{width}'d{c ^ (1 << (width - 1))}"
        name = self.name(value)
        if width == 1:
            return f"~{name}"
        return f"{{~{name}[{width - 1}], {name}[{width - 2}:0]}}"

    def expression(self, op) -> str:
        if isinstance(op, comb.MulOp) and SIGNED_PRODUCT_ATTR in op.attributes:
            # the same low bits as the unsigned product; read signed, synthesis trims the
            # operands' sign extensions to the multiplier block's widths
            return " * ".join(f"$signed({self.ref(v)})" for v in op.operands)
        if type(op) in _BINARY:
            return f" {_BINARY[type(op)]} ".join(self.ref(v) for v in op.operands)
        if isinstance(op, comb.ShrSOp):
            return f"$signed({self.ref(op.lhs)}) >>> {self.ref(op.rhs)}"
        if isinstance(op, comb.ICmpOp):
            pred = op.predicate.value.data
            if 2 <= pred <= 5:
                # a signed order is the unsigned order of the operands with their sign bits
                # flipped: one carry chain whose carry-out is the result, where a $signed
                # compare also needs the overflow of the last stage and a LUT after it
                a, b = self.sign_flipped(op.lhs), self.sign_flipped(op.rhs)
            else:
                a, b = self.ref(op.lhs), self.ref(op.rhs)
            return f"{a} {_ICMP[pred]} {b}"
        if isinstance(op, comb.MuxOp):
            return f"{self.ref(op.cond)} ? {self.ref(op.true_value)} : {self.ref(op.false_value)}"
        if isinstance(op, comb.ExtractOp):
            low, width = op.low_bit.value.data, width_of(op.result)
            src = self.name(op.input)
            if width_of(op.input) == 1:  # a 1-bit wire has no bit range to select
                return src
            return f"{src}[{low}]" if width == 1 else f"{src}[{low + width - 1}:{low}]"
        if isinstance(op, comb.ConcatOp):
            return "{" + ", ".join(self.ref(v) for v in op.inputs) + "}"
        if isinstance(op, comb.ReplicateOp):
            times = width_of(op.result) // width_of(op.input)
            return "{" + f"{times}{{{self.ref(op.input)}}}" + "}"
        if isinstance(op, st.InStateOp):
            if op.fsm.owner.one_hot is not None:
                return f"{self.name(op.fsm)}[{op.index.value.data}]"
            return f"{self.name(op.fsm)} == {width_of(op.fsm)}'d{op.index.value.data}"
        raise ValueError(f"internal: the Verilog printer cannot print {op.name}")

    # -- usage analysis for lint ---------------------------------------------------------
    def partially_read(self) -> set[SSAValue]:
        """Values some of whose bits nothing reads."""
        bits: dict[SSAValue, set[int] | None] = {}
        for op in self.ops:
            if isinstance(op, st.AssignOp):
                reads = [op.src] + ([op.guard] if op.guard is not None else [])
            elif isinstance(op, (st.PortOp, st.CellOp, st.WireOp, hw.ConstantOp, st.FsmOp)):
                reads = []
            else:
                reads = list(op.operands)
            for v in reads:
                if isinstance(op, comb.ExtractOp):
                    low = op.low_bit.value.data
                    used = bits.setdefault(v, set())
                    if used is not None:
                        used.update(range(low, low + width_of(op.result)))
                else:
                    bits[v] = None
        partial = set()
        for op in self.ops:
            candidates = []
            if isinstance(op, st.PortOp) and op.direction.data == "in":
                candidates = [op.result]
            elif isinstance(op, st.CellOp):
                candidates = [p for p, d in zip(op.ports, op.port_directions.data) if d.data == "out"]
            elif op.results and not isinstance(op, (st.PortOp, st.WireOp, hw.ConstantOp, st.FsmOp)):
                candidates = list(op.results)
            for v in candidates:
                if v.name_hint in ("ap_clk", "ap_rst"):
                    continue
                used = bits.get(v, set())
                if used is not None and len(used) < width_of(v):
                    partial.add(v)
        return partial

    # -- the module ---------------------------------------------------------------------
    def print_module(self) -> tuple[str, list[str]]:
        partial = self.partially_read()
        out: list[str] = []
        ports = [op for op in self.ops if isinstance(op, st.PortOp)]
        for p in ports:
            self.taken.add(p.port_name.data)
            self.names[p.result] = p.port_name.data
        for op in self.ops:  # cells and wires are named by the builder; others must not clash
            if isinstance(op, st.WireOp):
                self.taken.add(op.wire_name.data)
                self.names[op.result] = op.wire_name.data
            elif isinstance(op, st.CellOp):
                self.taken.add(op.instance_name.data)
                for v, n in zip(op.ports, op.port_names.data):
                    self.names[v] = f"{op.instance_name.data}_{n.data}"
                    self.taken.add(self.names[v])
        top = self.component.sym_name.data
        out.append(f"module {top} (")
        for i, p in enumerate(ports):
            sep = "," if i + 1 < len(ports) else ""
            decl = f"    {'input ' if p.direction.data == 'in' else 'output'} wire {_range(width_of(p.result))}{p.port_name.data}{sep}"
            out.append(self.unused_wrapped(decl, p.result in partial))
        out.append(");")
        primitives: list[str] = []
        assigns: dict[SSAValue, list[st.AssignOp]] = {}
        drivable: list[SSAValue] = [p.result for p in ports if p.direction.data == "out"]
        transitions: dict[int, list[st.TransitionOp]] = {}
        body: list[str] = []
        fsm = None
        for op in self.ops:
            if isinstance(op, st.CellOp) and op.primitive.data == "vichls_rom":
                module_name = f"{top}_rom_{op.instance_name.data}"
                self.roms.append(rom_module(module_name, op))
                for v in op.ports:
                    out.append(self.unused_wrapped(f"    wire {_range(width_of(v))}{self.name(v)};",
                                                   v in partial))
                drivable += [v for v, d in zip(op.ports, op.port_directions.data)
                             if d.data == "in"]
                conns = ", ".join([".clk(ap_clk)"] + [f".{n.data}({self.name(v)})" for n, v
                                                     in zip(op.port_names.data, op.ports)])
                body.append(f"    {module_name} {op.instance_name.data} ({conns});")
            elif isinstance(op, st.CellOp):
                prim = op.primitive.data
                if prim not in primitives and prim not in self.modules:
                    primitives.append(prim)
                for v, d in zip(op.ports, op.port_directions.data):
                    out.append(self.unused_wrapped(f"    wire {_range(width_of(v))}{self.name(v)};", v in partial))
                    if d.data == "in":
                        drivable.append(v)
                params = ", ".join(f".{k}({a.value.data})" for k, a in op.params.data.items())
                clock = ".ap_clk(ap_clk)" if prim in self.modules else ".clk(ap_clk)"
                conns = ", ".join(
                    [clock] + [f".{n.data}({self.name(v)})" for n, v in zip(op.port_names.data, op.ports)]
                )
                parameters = f" #({params})" if params else ""
                body.append(f"    {prim}{parameters} {op.instance_name.data} ({conns});")
            elif isinstance(op, st.WireOp):
                # a wire only assigned is there for the simulator to watch (vichls_stalled)
                watched = all(isinstance(u.operation, st.AssignOp) and u.index == 0
                              for u in op.result.uses)
                decl = f"    wire {_range(width_of(op.result))}{self.name(op.result)};"
                out.append(self.unused_wrapped(decl, watched))
                drivable.append(op.result)
            elif isinstance(op, st.FsmOp):
                fsm = op
                out.append(f"    reg {_range(width_of(op.state))}{self.name(op.state)};")
            elif isinstance(op, st.AssignOp):
                assigns.setdefault(op.dest, []).append(op)
            elif isinstance(op, st.TransitionOp):
                transitions.setdefault(op.source.value.data, []).append(op)
            elif isinstance(op, (st.PortOp, hw.ConstantOp)):
                continue
            elif isinstance(op, (st.StaticGroupOp, st.ControlOp, st.GroupCycleOp)):
                raise ValueError("internal: print a component only after control compilation")
            else:
                v = op.results[0]
                if isinstance(op, comb.ExtractOp) and self.constant(v) is not None:
                    continue
                decl = f"    wire {_range(width_of(v))}{self.name(v)} = {self.expression(op)};"
                body.append(self.unused_wrapped(decl, v in partial))
        out.extend(body)
        for dest in drivable:
            out.append(f"    assign {self.name(dest)} = {self.driver(dest, assigns.get(dest, []))};")
        if fsm is not None:
            out.extend(self.fsm_block(fsm, transitions))
        out.append("endmodule")
        return "\n".join(out) + "\n", primitives

    @staticmethod
    def unused_wrapped(line: str, unused: bool) -> str:
        if not unused:
            return line
        return f"    /* verilator lint_off UNUSED */\n{line}\n    /* verilator lint_on UNUSED */"

    def driver(self, dest: SSAValue, assigns: list[st.AssignOp]) -> str:
        width = width_of(dest)
        zero = f"{width}'d0"
        if not assigns:
            return zero
        if len(assigns) == 1 and assigns[0].guard is None:
            return self.ref(assigns[0].src)
        if width == 1 and all(self.constant(a.src) == 1 for a in assigns):
            return " | ".join(self.ref(a.guard) for a in assigns)
        text = zero
        for a in reversed(assigns):
            if a.guard is None:
                raise ValueError(f"internal: {self.name(dest)} has an unguarded and a guarded driver")
            text = f"{self.ref(a.guard)} ? {self.ref(a.src)} : {text}"
        return text

    def fsm_block(self, fsm: st.FsmOp, transitions: dict[int, list[st.TransitionOp]]) -> list[str]:
        if fsm.one_hot is not None:
            return self.one_hot_fsm_block(fsm, transitions)
        state = self.name(fsm.state)
        sw = width_of(fsm.state)
        lines = ["    always @(posedge ap_clk) begin", "        if (ap_rst) begin",
                 f"            {state} <= {sw}'d0;", "        end else begin",
                 f"            case ({state})"]
        for source in sorted(transitions):
            lines.append(f"                {sw}'d{source}: begin")
            outs = transitions[source]
            for i, t in enumerate(outs):
                assign = f"{state} <= {sw}'d{t.target.value.data};"
                prefix = "" if i == 0 else "else "
                if t.cond is None:  # the default: transitions are tried in order
                    lines.append(f"                    {prefix}{assign}")
                    break
                lines.append(f"                    {prefix}if ({self.ref(t.cond)}) {assign}")
            lines.append("                end")
        lines += [f"                default: {state} <= {sw}'d0;", "            endcase",
                  "        end", "    end"]
        return lines


    def one_hot_fsm_block(self, fsm: st.FsmOp, transitions: dict[int, list[st.TransitionOp]]
                          ) -> list[str]:
        """The same machine as ``fsm_block`` with one flip-flop per state: bit ``t`` of the
        next state is the OR, over the transitions into ``t``, of the source's bit and
        "this transition is the first of its source that holds"; a source none of whose
        transitions holds stays; a state without transitions returns to idle (state 0)."""
        state = self.name(fsm.state)
        n = fsm.num_states.value.data
        into: dict[int, list[str]] = {t: [] for t in range(n)}
        for source in range(n):
            outs = transitions.get(source)
            if not outs:
                into[0].append(f"{state}[{source}]")
                continue
            earlier: list[str] = []  # conditions of the transitions tried before
            for t in outs:
                blocked = [f"~{c}" for c in earlier]
                if t.cond is None:  # the default: taken when no earlier one holds
                    into[t.target.value.data].append(" & ".join([f"{state}[{source}]", *blocked]))
                    break
                cond = self.ref(t.cond)
                into[t.target.value.data].append(
                    " & ".join([f"{state}[{source}]", cond, *blocked]))
                earlier.append(cond)
            else:  # every transition is conditional: with none holding, stay
                into[source].append(" & ".join([f"{state}[{source}]", *(f"~{c}" for c in earlier)]))
        next_name = self.name_for(f"{state}_next")
        lines = [f"    wire [{n - 1}:0] {next_name};"]
        for t in range(n):
            terms = [f"({term})" for term in into[t]] or ["1'b0"]
            lines.append(f"    assign {next_name}[{t}] = {' | '.join(terms)};")
        lines += ["    always @(posedge ap_clk) begin", "        if (ap_rst) begin",
                  f"            {state} <= {n}'d1;", "        end else begin",
                  f"            {state} <= {next_name};", "        end", "    end"]
        return lines


def rom_module(name: str, cell: st.CellOp) -> str:
    """The module of one ROM cell: its values in an ``initial`` block and a registered read
    per port (one cycle, as a RAM's), the memory template that Yosys and vendor tools infer
    as block or distributed ROM. A float32 table's words are its values' IEEE-754 bits."""
    params = {k: v.value.data for k, v in cell.params.data.items()}
    width, words, aw = params["WIDTH"], params["WORDS"], params["AW"]
    ports = sorted({n.data[len("address"):] for n in cell.port_names.data
                    if n.data.startswith("address")})
    decls = ["    input wire clk"]
    for p in ports:
        decls += [f"    input wire {_range(aw)}address{p}", f"    input wire ce{p}",
                  f"    output reg {_range(width)}q{p}"]
    mask = (1 << width) - 1
    digits = max(1, (width + 3) // 4)
    table = cell.attributes[ROM_ATTR]
    if isinstance(table.get_element_type(), Float32Type):  # float32: the IEEE-754 bits
        data = table.data.data
        values = list(struct.unpack(f"<{len(data) // 4}I", data))
        values = values * words if len(values) == 1 else values
    else:
        values = [int(v) & mask for v in table.get_values()]
    lines = [f"// vichls ROM: {words} words of {width} bits (a constant array), read in one "
             "cycle", f"module {name} (", ",\n".join(decls), ");",
             f"    reg {_range(width)}mem [0:{words - 1}];", "    initial begin"]
    lines += [f"        mem[{k}] = {width}'h{v:0{digits}x};" for k, v in enumerate(values)]
    lines.append("    end")
    for p in ports:
        lines += ["    always @(posedge clk) begin",
                  f"        if (ce{p}) q{p} <= mem[address{p}];", "    end"]
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


@deep
def emit_verilog(module: ModuleOp) -> str:
    """The Verilog text of the (single) component in ``module`` and its primitives."""
    components = [op for op in module.walk() if isinstance(op, st.ComponentOp)]
    header = (
        f"// Generated by vichls {vichls.__version__}: high-level synthesis of the kernel "
        f"'{components[0].sym_name.data}'.\n// Do not edit; regenerate from the Python source.\n"
        "`timescale 1ns / 1ps\n\n"
    )
    texts, primitives = [], []
    names = frozenset(c.sym_name.data for c in components)
    roms: list[str] = []
    for k, component in enumerate(components):
        printer = VerilogPrinter(component, names)
        text, used = printer.print_module()
        if k:  # the file is named after the first module, the top
            text = f"/* verilator lint_off DECLFILENAME */\n{text}/* verilator lint_on DECLFILENAME */\n"
        texts.append(text)
        roms += printer.roms
        primitives += [p for p in used if p not in primitives]
    if roms:
        texts.append("/* verilator lint_off DECLFILENAME */\n" + "\n".join(roms)
                     + "/* verilator lint_on DECLFILENAME */\n")
    if primitives:
        # The file is named after the top module; the primitives it carries cannot be.
        templates = "".join(template_text(prim) for prim in sorted(primitives))
        texts.append(f"/* verilator lint_off DECLFILENAME */\n{templates}/* verilator lint_on DECLFILENAME */\n")
    return header + "\n".join(texts)


@dataclass(frozen=True)
class VerilogTarget(Target):
    """``vichls-opt -t verilog``: the module's structural components as Verilog (what
    ``emit_verilog`` gives), for IR that went through to-structural and compile-control."""

    name = "verilog"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        ops = list(module.walk())
        if not any(isinstance(op, st.ComponentOp) for op in ops) or \
                any(isinstance(op, st.ControlOp) for op in ops):
            raise FpgaError("-t verilog needs structural components with their control "
                            "compiled: run to-structural and compile-control first (or the "
                            "fpga pipeline)")
        output.write(emit_verilog(module))
