"""The s_axilite register files: their map (UG1399's layout) and their Verilog.

What: ``register_maps(signature, interfaces)`` lays out one ``RegisterMap`` per s_axilite
bundle: in the bundle that holds the block control (``s.interface("return", "s_axilite")``)
0x00 control (bit 0 ap_start, 1 ap_done clear-on-read, 2 ap_idle, 3 ap_ready clear-on-read,
7 auto_restart), 0x04 global interrupt enable, 0x08 IP interrupt enable (bit 0 ap_done, 1
ap_ready), 0x0C IP interrupt status (toggle on a write of 1); from 0x10 the returned value
(read-only) and then the arguments in declaration order, each its data words (one up to 32
bits, two up to 64, low word first) and one reserved word; an m_axi argument with
``offset="slave"`` takes its 64-bit base address the same way, in the control bundle.
``register_file(top, regmap)`` is the Verilog module ``<top>_<bundle>_s_axi`` serving it:
an AXI4-Lite slave (32-bit data, the address as wide as the map needs) whose write takes
the address then the data and answers OKAY, and whose read answers the next cycle.

Why: the contract (docs/hardware-interface.md, version 2) is Vitis's, so that software
written for a Vitis block (its ``x<top>_hw.h`` offsets, PYNQ's ``MMIO``) drives ours.

Assumes arguments of at most 64 bits (the kernel language's widest scalar).
"""

from __future__ import annotations

from dataclasses import dataclass

from vichls.interface.spec import RETURN, Interface

CTRL, GIE, IER, ISR = 0x00, 0x04, 0x08, 0x0C
FIRST_ARGUMENT = 0x10


@dataclass(frozen=True)
class Register:
    """One value in the map: an argument the host writes, or the returned value it reads."""

    name: str  # the argument's name, or "ap_return"
    offset: int  # byte offset of its first data word
    width: int  # bits of the value
    kind: str  # "scalar" | "return" | "base" (an m_axi argument's base address)
    signed: bool = False

    @property
    def words(self) -> int:
        return (self.width + 31) // 32

    @property
    def host_writes(self) -> bool:
        return self.kind != "return"


@dataclass(frozen=True)
class RegisterMap:
    bundle: str
    control: bool  # holds the block control registers and drives ``interrupt``
    registers: tuple[Register, ...]

    @property
    def end(self) -> int:
        """One past the last byte of the map."""
        last = self.registers[-1] if self.registers else None
        return FIRST_ARGUMENT if last is None else last.offset + 4 * (last.words + 1)

    @property
    def address_width(self) -> int:
        return max(4, (self.end - 1).bit_length())


def control_bundle(interfaces: dict[str, Interface]) -> str | None:
    """The s_axilite bundle of the block control, if the control is there."""
    ret = interfaces[RETURN]
    return ret.option("bundle") if ret.mode == "s_axilite" else None


def register_maps(signature, interfaces: dict[str, Interface]) -> dict[str, RegisterMap]:
    """{bundle: map} for every s_axilite bundle the interfaces name (see the module doc)."""
    control = control_bundle(interfaces)
    bases_in = control or "control"
    entries: dict[str, list[Register]] = {}
    offsets: dict[str, int] = {}

    def place(bundle: str, name: str, width: int, kind: str, signed: bool = False) -> None:
        at = offsets.setdefault(bundle, FIRST_ARGUMENT)
        reg = Register(name, at, width, kind, signed)
        entries.setdefault(bundle, []).append(reg)
        offsets[bundle] = at + 4 * (reg.words + 1)

    if control is not None:
        entries.setdefault(control, [])
        if signature.ret is not None:
            place(control, "ap_return", signature.ret.width, "return", signature.ret.signed)
    for p in signature.params:
        i = interfaces[p.name]
        if i.mode == "s_axilite":
            place(i.option("bundle"), p.name, p.scalar.width, "scalar", p.scalar.signed)
        elif i.mode == "m_axi" and i.option("offset") == "slave":
            place(bases_in, p.name, 64, "base")
    return {b: RegisterMap(b, b == control, tuple(regs)) for b, regs in sorted(entries.items())}


def axilite_ports(bundle: str, address_width: int) -> list[tuple[str, str, int]]:
    """(name, direction, width) of an s_axilite port set, in Vitis's order."""
    p = f"s_axi_{bundle}_"
    return [(p + "AWVALID", "in", 1), (p + "AWREADY", "out", 1), (p + "AWADDR", "in", address_width),
            (p + "WVALID", "in", 1), (p + "WREADY", "out", 1), (p + "WDATA", "in", 32),
            (p + "WSTRB", "in", 4), (p + "ARVALID", "in", 1), (p + "ARREADY", "out", 1),
            (p + "ARADDR", "in", address_width), (p + "RVALID", "out", 1),
            (p + "RREADY", "in", 1), (p + "RDATA", "out", 32), (p + "RRESP", "out", 2),
            (p + "BVALID", "out", 1), (p + "BREADY", "in", 1), (p + "BRESP", "out", 2)]


def _hex(value: int, width: int) -> str:
    return f"{width}'h{value:x}"


def register_file(top: str, regmap: RegisterMap) -> str:
    """The Verilog module ``<top>_<bundle>_s_axi`` (see the module doc). Its ports: the
    AXI4-Lite set without the ``s_axi_<bundle>_`` prefix, ``ACLK``, ``ARESET`` (active
    high), and on the kernel's side ``ap_start`` out and ``ap_done``/``ap_idle``/``ap_ready``
    (``ap_return``) in when it holds the control, with ``interrupt``; one output per
    argument it holds (``arg_<name>``)."""
    aw = regmap.address_width
    name = f"{top}_{regmap.bundle}_s_axi"
    regs = regmap.registers
    ports = ["input wire ACLK", "input wire ARESET",
             "input wire AWVALID", "output wire AWREADY", f"input wire [{aw - 1}:0] AWADDR",
             "input wire WVALID", "output wire WREADY", "input wire [31:0] WDATA",
             "input wire [3:0] WSTRB", "input wire ARVALID", "output wire ARREADY",
             f"input wire [{aw - 1}:0] ARADDR", "output wire RVALID", "input wire RREADY",
             "output wire [31:0] RDATA", "output wire [1:0] RRESP", "output wire BVALID",
             "input wire BREADY", "output wire [1:0] BRESP"]
    if regmap.control:
        ports += ["/* verilator lint_off SYMRSVDWORD */ output wire interrupt "
                  "/* verilator lint_on SYMRSVDWORD */", "output wire ap_start", "input wire ap_done",
                  "input wire ap_idle", "input wire ap_ready"]
    for r in regs:
        if r.kind == "return":
            ports.append(f"input wire [{r.width - 1}:0] ap_return")
        else:
            ports.append(f"output wire [{r.width - 1}:0] arg_{r.name}")
    lines = [f"// The s_axilite register file of bundle '{regmap.bundle}' (the map: "
             f"x{top}_hw.h).", f"module {name} (", ",\n".join(f"    {p}" for p in ports), ");"]
    add = lines.append
    if regmap.control:  # (a bundle of arguments alone leaves these words unused)
        add(f"    localparam [{aw - 1}:0] ADDR_AP_CTRL = {_hex(CTRL, aw)}, ADDR_GIE = "
            f"{_hex(GIE, aw)}, ADDR_IER = {_hex(IER, aw)}, ADDR_ISR = {_hex(ISR, aw)};")
    for r in regs:
        for w in range(r.words):
            add(f"    localparam [{aw - 1}:0] ADDR_{r.name.upper()}_{w} = "
                f"{_hex(r.offset + 4 * w, aw)};")
    add("    localparam [1:0] WRIDLE = 2'd0, WRDATA = 2'd1, WRRESP = 2'd2;")
    add("    localparam RDIDLE = 1'b0, RDDATA = 1'b1;")
    add("    // the write channel: the address, then the data, then the response")
    add("    reg [1:0] wstate;")
    add(f"    reg [{aw - 1}:0] waddr;")
    add("    wire aw_hs = AWVALID & AWREADY;")
    add("    wire w_hs = WVALID & WREADY;")
    if not any(r.kind != "return" for r in regs):
        # only the control bits: the rest of a written word goes nowhere
        add("    /* verilator lint_off UNUSED */")
        add("    wire wdata_unused = ^{WDATA, WSTRB[3:1]};")
        add("    /* verilator lint_on UNUSED */")
    add("    assign AWREADY = wstate == WRIDLE;")
    add("    assign WREADY = wstate == WRDATA;")
    add("    assign BVALID = wstate == WRRESP;")
    add("    assign BRESP = 2'b00;")
    add("    always @(posedge ACLK) begin")
    add("        if (ARESET) wstate <= WRIDLE;")
    add("        else case (wstate)")
    add("            WRIDLE: if (AWVALID) wstate <= WRDATA;")
    add("            WRDATA: if (WVALID) wstate <= WRRESP;")
    add("            WRRESP: if (BREADY) wstate <= WRIDLE;")
    add("            default: wstate <= WRIDLE;")
    add("        endcase")
    add("        if (aw_hs) waddr <= AWADDR;")
    add("    end")
    add("    // the read channel: the data the cycle after the address")
    add("    reg rstate;")
    add("    reg [31:0] rdata;")
    add("    wire ar_hs = ARVALID & ARREADY;")
    add("    assign ARREADY = rstate == RDIDLE;")
    add("    assign RVALID = rstate == RDDATA;")
    add("    assign RDATA = rdata;")
    add("    assign RRESP = 2'b00;")
    add("    always @(posedge ACLK) begin")
    add("        if (ARESET) rstate <= RDIDLE;")
    add("        else if (rstate == RDIDLE) begin")
    add("            if (ARVALID) rstate <= RDDATA;")
    add("        end else if (RREADY) rstate <= RDIDLE;")
    add("    end")
    # registers
    reads = []
    if regmap.control:
        add("    // the block control (UG1399's layout)")
        add("    reg int_ap_start, int_auto_restart, int_ap_done, int_ap_ready, int_gie;")
        add("    reg [1:0] int_ier, int_isr;")
        add("    wire ctrl_written = w_hs && waddr == ADDR_AP_CTRL && WSTRB[0];")
        add("    wire ctrl_read = ar_hs && ARADDR == ADDR_AP_CTRL;")
        add("    assign ap_start = int_ap_start;")
        add("    assign interrupt = int_gie & (|int_isr);")
        add("    always @(posedge ACLK) begin")
        add("        if (ARESET) begin")
        add("            int_ap_start <= 1'b0; int_auto_restart <= 1'b0; int_ap_done <= 1'b0;")
        add("            int_ap_ready <= 1'b0; int_gie <= 1'b0; int_ier <= 2'b00; int_isr <= 2'b00;")
        add("        end else begin")
        add("            if (ctrl_written && WDATA[0]) int_ap_start <= 1'b1;")
        add("            else if (ap_ready) int_ap_start <= int_auto_restart;")
        add("            if (ctrl_written) int_auto_restart <= WDATA[7];")
        add("            if (ap_done) int_ap_done <= 1'b1;")
        add("            else if (ctrl_read) int_ap_done <= 1'b0;")
        add("            if (ap_ready) int_ap_ready <= 1'b1;")
        add("            else if (ctrl_read) int_ap_ready <= 1'b0;")
        add("            if (w_hs && waddr == ADDR_GIE && WSTRB[0]) int_gie <= WDATA[0];")
        add("            if (w_hs && waddr == ADDR_IER && WSTRB[0]) int_ier <= WDATA[1:0];")
        add("            if (int_ier[0] & ap_done) int_isr[0] <= 1'b1;")
        add("            else if (w_hs && waddr == ADDR_ISR && WSTRB[0])"
            " int_isr[0] <= int_isr[0] ^ WDATA[0];")
        add("            if (int_ier[1] & ap_ready) int_isr[1] <= 1'b1;")
        add("            else if (w_hs && waddr == ADDR_ISR && WSTRB[0])"
            " int_isr[1] <= int_isr[1] ^ WDATA[1];")
        add("        end")
        add("    end")
        reads += [("ADDR_AP_CTRL", "{24'b0, int_auto_restart, 3'b0, int_ap_ready, ap_idle, "
                                   "int_ap_done, int_ap_start}"),
                  ("ADDR_GIE", "{31'b0, int_gie}"), ("ADDR_IER", "{30'b0, int_ier}"),
                  ("ADDR_ISR", "{30'b0, int_isr}")]
    for r in regs:
        bits = 32 * r.words
        add(f"    reg [{bits - 1}:0] int_{r.name};")
        if r.kind == "return":
            add("    always @(posedge ACLK) begin")
            add(f"        if (ARESET) int_{r.name} <= {bits}'d0;")
            pad = bits - r.width
            value = "ap_return" if not pad else f"{{{pad}'d0, ap_return}}"
            add(f"        else if (ap_done) int_{r.name} <= {value};")
            add("    end")
        else:
            add(f"    assign arg_{r.name} = int_{r.name}[{r.width - 1}:0];")
            add("    always @(posedge ACLK) begin")
            # a byte at a time, as WSTRB selects them, the reset first: each byte's
            # flip-flops take WDATA with an enable and a synchronous reset, no logic per bit
            add(f"        if (ARESET) int_{r.name} <= {bits}'d0;")
            add("        else begin")
            for w in range(r.words):
                lo = 32 * w
                for k in range(4):
                    add(f"            if (w_hs && waddr == ADDR_{r.name.upper()}_{w} && WSTRB[{k}]) "
                        f"int_{r.name}[{lo + 8 * k + 7}:{lo + 8 * k}] <= WDATA[{8 * k + 7}:{8 * k}];")
            add("        end")
            add("    end")
        for w in range(r.words):
            reads.append((f"ADDR_{r.name.upper()}_{w}", f"int_{r.name}[{32 * w + 31}:{32 * w}]"))
    add("    always @(posedge ACLK) begin")
    add("        if (ar_hs) begin")
    add("            case (ARADDR)")
    for addr, value in reads:
        add(f"                {addr}: rdata <= {value};")
    add("                default: rdata <= 32'd0;")
    add("            endcase")
    add("        end")
    add("    end")
    add("endmodule")
    return "\n".join(lines) + "\n"
