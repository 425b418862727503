"""The operator library: one table of timing and cost for every operator kind.

The scheduler (chaining under the clock period, multi-cycle latencies), the structural
builder (which primitive implements an op) and the resource estimate of the report all
read this one module, so they always agree. Figures are rough Xilinx 7-series ones:
carry-chain adders ~0.8 ns + 0.03 ns/bit, a DSP48 multiplier ~3.5 ns for up to 18 bits,
wider multipliers pipelined over several DSPs, an iterative divider of W+1 cycles (or, in a
pipelined loop that needs one every cycle, a fully pipelined one of the same latency), and
block RAM / ap_memory reads of one cycle.

``latency`` is the number of clock edges between issuing an op and its result; 0 means
combinational. ``delay_ns`` is the combinational delay spent in the issue cycle (before
the register of a multi-cycle op), ``out_delay_ns`` the delay from the clock edge to the
result in the cycle it is ready (clock-to-out of a RAM or register).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

#: Time kept free in every cycle for register setup and clock-to-q.
REGISTER_RESERVE_NS = 1.0

#: The width at which index (address) arithmetic is costed in area: synthesis trims its
#: 32 bits to the address widths it feeds (fit against Yosys synth_xilinx over the suite).
INDEX_AREA_WIDTH = 8


@dataclass(frozen=True)
class OpCost:
    latency: int
    delay_ns: float
    lut: int = 0
    ff: int = 0
    dsp: int = 0
    out_delay_ns: float = 0.0


def mul_latency(width: int) -> int:
    """Latency of a multiplier by a variable: combinational DSP up to 18 bits, then
    one pipeline stage up to 32 bits, two up to 64."""
    if width <= 18:
        return 0
    return 1 if width <= 32 else 2


def div_latency(width: int) -> int:
    """The iterative divider takes one cycle to load and one per quotient bit."""
    return max(width, 2) + 1


def cost(kind: str, width: int) -> OpCost:
    """Timing and cost of one operator of ``kind`` on ``width``-bit operands."""
    w = max(1, width)
    if kind in ("add", "sub", "cmp"):
        return OpCost(0, 0.8 + 0.03 * w, lut=w)
    if kind == "logic":
        return OpCost(0, 0.5, lut=ceil(w / 2))
    if kind == "mux":
        return OpCost(0, 0.6, lut=w)
    if kind in ("shift_const", "wire"):  # wiring only: extensions, truncations, casts
        return OpCost(0, 0.0)
    if kind == "shift_var":
        return OpCost(0, 1.5, lut=w * max(1, (w - 1).bit_length()) // 2)
    if kind == "mul_const":  # shift-and-add of a constant
        return OpCost(0, 0.8 + 0.03 * w, lut=w)
    if kind == "mul":
        lat = mul_latency(w)
        dsp = 1 if w <= 18 else (3 if w <= 32 else 10)
        if lat == 0:
            return OpCost(0, 3.5, dsp=dsp)
        # vichls_mul registers the partial products of the halves; with one stage their
        # sum (two adders) settles in the cycle the result is read
        summed = lat == 1 and w % 2 == 0
        out = 0.3 + (2 * (0.8 + 0.03 * w) if summed else 0.0)
        # the pipeline registers sit inside the DSP blocks: no fabric FFs
        return OpCost(lat, 3.0, lut=w if summed else 0, ff=0, dsp=dsp, out_delay_ns=out)
    if kind == "div":
        return OpCost(div_latency(w), 0.5, lut=4 * w, ff=4 * w + 8, out_delay_ns=0.9 + 0.03 * w)
    if kind == "div_pipe":  # one subtract-and-select stage per quotient bit, registered
        return OpCost(div_latency(w), 0.5, lut=w * (w + 3), ff=w * (3 * w + 2),
                      out_delay_ns=0.9 + 0.03 * w)
    if kind == "mem_read":  # address setup in the issue cycle, data one cycle later
        return OpCost(1, 0.3, out_delay_ns=1.0)
    if kind == "mem_write":
        return OpCost(0, 0.3)
    if kind == "stream_get":  # the FIFO's registered head; the stall is a separate net
        return OpCost(0, 0.3)
    if kind == "stream_put":
        return OpCost(0, 0.3)
    if kind == "reg_read":
        return OpCost(0, 0.0)
    if kind == "reg_write":
        return OpCost(0, 0.0)
    raise KeyError(f"operator library has no entry for {kind!r}")


def register_cost(width: int) -> OpCost:
    return OpCost(0, 0.0, ff=width)


def ram_cost(words: int, width: int) -> dict:
    """A local array: small ones in LUT RAM, others in 18 Kb block RAMs."""
    bits = words * width
    if bits <= 1024:
        return {"lut": ceil(bits / 64) * 2 + width, "ff": width, "bram18": 0}
    per_bram_width = 36 if words <= 512 else 18 if words <= 1024 else 9
    brams = ceil(width / per_bram_width) * ceil(words / (18432 // per_bram_width))
    return {"lut": width, "ff": 0, "bram18": brams}
