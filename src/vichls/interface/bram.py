"""An array argument as Vitis's ``bram`` interface: the port set a Block Memory Generator or
an AXI BRAM Controller takes, in place of the core's ``ap_memory`` ports.

What: ``bram_ports(name, width, ports)`` names the top's ports of one array (port A from the
core's memory port 0, port B from port 1 of a dual-port schedule), and ``bram_adapter``
gives the wires between them and the core. Per port ``<X>`` (``A``, ``B``):

- ``<name>_Clk_<X>`` and ``<name>_Rst_<X>`` (outputs): the block's clock and its reset,
  active high, so that the memory runs in the block's clock domain;
- ``<name>_EN_<X>``: the core's ``ce``;
- ``<name>_WEN_<X>``: a write enable per byte of the word, all of them the core's ``we``
  (0 for an array the design only reads);
- ``<name>_Addr_<X>``: a 32-bit BYTE address, the core's word address times the word's
  bytes (``ap_memory`` counts words, ``bram`` bytes: this is the difference UG1399 names);
- ``<name>_Din_<X>`` (to the memory) and ``<name>_Dout_<X>`` (from it): the element
  zero-extended to the word.

Why: IP integrator connects a ``bram`` port set to a BRAM controller or memory generator as
one bus (xilinx.com:interface:bram_rtl:1.0, interface/package.py), where ``ap_memory`` is a
loose set of wires; the protocol is otherwise the same (read data one cycle after the
enable).

Assumes: the element is 1 to 64 bits; the word is the element rounded up to 1, 2, 4 or 8
whole bytes (so the byte address is a shift of the word address); an array that is not
partitioned (a partitioned array has a port set per bank, which a single memory cannot
serve: refused with an error naming the directive).
"""

from __future__ import annotations

from vichls.errors import FpgaError

#: a bram port set, in Vitis's order: (signal, direction); widths from ``bram_ports``
BRAM_SIGNALS = (("Addr", "out"), ("EN", "out"), ("WEN", "out"), ("Din", "out"),
                ("Dout", "in"), ("Clk", "out"), ("Rst", "out"))
#: the bram ports of the core's memory ports 0 and 1
PORT_LETTERS = ("A", "B")
ADDRESS_BITS = 32


def word_bytes(width: int) -> int:
    """The bytes of a bram word holding an element of ``width`` bits: 1, 2, 4 or 8."""
    nbytes = (width + 7) // 8
    return 1 << (nbytes - 1).bit_length()


def bram_port(name: str, signal: str, letter: str) -> str:
    """``A_Addr_A``: the ``signal`` of bram port ``letter`` of array ``name``."""
    return f"{name}_{signal}_{letter}"


def bram_ports(name: str, width: int, nports: int) -> list[tuple[str, str, int]]:
    """(name, direction, width) of the top's bram ports of array ``name`` of ``width``-bit
    elements served through ``nports`` (1 or 2) memory ports."""
    nb = word_bytes(width)
    widths = {"Addr": ADDRESS_BITS, "EN": 1, "WEN": nb, "Din": 8 * nb, "Dout": 8 * nb,
              "Clk": 1, "Rst": 1}
    return [(bram_port(name, s, letter), d, widths[s])
            for letter in PORT_LETTERS[:nports] for s, d in BRAM_SIGNALS]


def _zero_extended(expr: str, pad: int) -> str:
    """``expr`` with ``pad`` zero bits above it (Verilog)."""
    return f"{{{pad}'b0, {expr}}}" if pad > 0 else expr


def bram_adapter(name: str, width: int, core: dict[str, tuple[str, int]]
                 ) -> tuple[list[tuple[str, str, int]], list[str], dict[str, str]]:
    """The top's ports of array ``name`` as bram, the wires between them and the core, and
    the core's connections (core port: expression). ``core``: the core's ports of the array
    (name: (direction, width))."""
    if not any(n == f"{name}_address0" for n in core):
        raise FpgaError(f"s.interface('{name}', 'bram'): a partitioned array has a port set "
                        "per bank; one bram interface cannot serve it (drop the partition, "
                        "or keep ap_memory)")
    nports = 2 if f"{name}_address1" in core else 1
    nb = word_bytes(width)
    shift = (nb - 1).bit_length()
    ports = bram_ports(name, width, nports)
    body = [f"    // bram '{name}': byte addresses, a write enable per byte, {8 * nb}-bit words"]
    conns: dict[str, str] = {}
    unused: list[str] = []
    for k, letter in enumerate(PORT_LETTERS[:nports]):
        def top(signal: str) -> str:
            return bram_port(name, signal, letter)

        def mine(signal: str) -> str:
            return f"{name}_{signal}{k}"

        aw = core[mine("address")][1]
        body.append(f"    wire [{aw - 1}:0] core_{mine('address')};")
        conns[mine("address")] = f"core_{mine('address')}"
        address = f"core_{mine('address')}"
        if shift:
            address = f"{{{address}, {shift}'b0}}"
        pad = ADDRESS_BITS - aw - shift
        body.append(f"    assign {top('Addr')} = {_zero_extended(address, pad)};")
        body.append(f"    wire core_{mine('ce')};")
        conns[mine("ce")] = f"core_{mine('ce')}"
        body.append(f"    assign {top('EN')} = core_{mine('ce')};")
        if mine("we") in core:
            body += [f"    wire core_{mine('we')};", f"    wire [{width - 1}:0] core_{mine('d')};",
                     f"    assign {top('WEN')} = {{{nb}{{core_{mine('we')}}}}};"]
            conns[mine("we")] = f"core_{mine('we')}"
            conns[mine("d")] = f"core_{mine('d')}"
            data = f"core_{mine('d')}"
            body.append(f"    assign {top('Din')} = {_zero_extended(data, 8 * nb - width)};")
        else:
            body += [f"    assign {top('WEN')} = {nb}'b0;", f"    assign {top('Din')} = {8 * nb}'b0;"]
        if mine("q") in core:
            conns[mine("q")] = f"{top('Dout')}[{width - 1}:0]"
            if 8 * nb > width:
                unused.append(top("Dout"))
        else:
            unused.append(top("Dout"))
        body += [f"    assign {top('Clk')} = ap_clk;", f"    assign {top('Rst')} = ap_rst;"]
    if unused:  # (the word's padding, and a write-only array's read data, go nowhere)
        body += ["    /* verilator lint_off UNUSED */",
                 "    wire " + ", ".join(f"{u}_unused" for u in unused) + ";",
                 "    /* verilator lint_on UNUSED */"]
        body += [f"    assign {u}_unused = ^{u};" for u in unused]
    return ports, body, conns
