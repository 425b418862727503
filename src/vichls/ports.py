"""The ports of a generated module, named in one place (docs/hardware-interface.md).

A kernel's module has the block-level control ports (``ap_clk``, ``ap_rst``, ``ap_start``
in; ``ap_done``, ``ap_idle``, ``ap_ready`` out; ``ap_return`` for a returned scalar; a
dataflow task also ``ap_continue``), a port per scalar parameter (its name), a memory
port set per array parameter and memory port (``A_address0``, ``A_ce0``, ``A_we0``,
``A_d0`` out, ``A_q0`` in; ``...1`` for the second port of a dual-port memory; no
``we``/``d`` for an array the design only reads, no ``q`` for one it only writes; a bank of
a partitioned array is the array ``A_<bank>``), and an ap_fifo port set per stream (``x_dout``,
``x_empty_n`` in and ``x_read`` out for a stream the kernel gets from; ``y_din``,
``y_write`` out and ``y_full_n`` in for one it puts to).

The kernel builder (conversion/to_structural), the dataflow top (driver/dataflow.py),
stall insertion and the simulation harness (flows/) all name ports here.
"""

from __future__ import annotations

CLOCK, RESET, START = "ap_clk", "ap_rst", "ap_start"
DONE, IDLE, READY = "ap_done", "ap_idle", "ap_ready"
RETURN = "ap_return"
CONTINUE = "ap_continue"  # a dataflow task's: its result was taken
#: a core behind an m_axi adapter: high while the adapter makes it wait (a stall)
HOLD = "vichls_hold"
CONTROL_INPUTS = (CLOCK, RESET, START)
CONTROL_OUTPUTS = (DONE, IDLE, READY)

#: a memory port set: (signal, direction), the address and data widths given apart
MEMORY_SIGNALS = (("address", "out"), ("ce", "out"), ("we", "out"), ("d", "out"), ("q", "in"))
#: an ap_fifo port set by the kernel's direction of the stream: (signal, direction), the
#: first signal carrying the data
STREAM_SIGNALS = {
    "in": (("dout", "in"), ("empty_n", "in"), ("read", "out")),
    "out": (("din", "out"), ("full_n", "in"), ("write", "out")),
}


def memory_port(array: str, signal: str, port: int) -> str:
    """``A_address0``: the ``signal`` of memory port ``port`` of array (or bank) ``array``."""
    return f"{array}_{signal}{port}"


def memory_ports(array: str, port: int, address_width: int, width: int, *,
                 reads: bool = True, writes: bool = True) -> list[tuple[str, str, int]]:
    """(name, direction, width) of the port set of memory port ``port`` of ``array``: an
    array the design only reads has no ``we``/``d``, one it only writes no ``q``, as Vitis
    generates them (docs/hardware-interface.md)."""
    widths = {"address": address_width, "ce": 1, "we": 1, "d": width, "q": width}
    return [(memory_port(array, s, port), d, widths[s]) for s, d in MEMORY_SIGNALS
            if (s != "q" or reads) and (s not in ("we", "d") or writes)]


def stream_port(stream: str, signal: str) -> str:
    """``x_dout``: the ``signal`` of the ap_fifo port set of ``stream``."""
    return f"{stream}_{signal}"


def stream_ports(stream: str, direction: str, width: int) -> list[tuple[str, str, int]]:
    """(name, direction, width) of the ap_fifo port set of a stream the kernel reads
    (``direction`` "in") or writes ("out")."""
    signals = STREAM_SIGNALS[direction]
    return [(stream_port(stream, s), d, width if k == 0 else 1)
            for k, (s, d) in enumerate(signals)]


def taken_names(param: str) -> list[str]:
    """Every port name a parameter ``param`` may give the module (no other signal may take
    one of them)."""
    return ([param] + [memory_port(param, s, n) for s, _ in MEMORY_SIGNALS for n in (0, 1)]
            + [stream_port(param, s) for d in ("in", "out") for s, _ in STREAM_SIGNALS[d]])


#: outputs that must not act while a design is stalled: memory port enables and stream
#: strobes (by suffix), and the handshake outputs
STALL_GATED_SUFFIXES = ("_ce0", "_ce1", "_read", "_write")
STALL_GATED_OUTPUTS = (DONE, READY)
