"""The operator library: one table of timing and cost for every operator kind, per device.

The scheduler (chaining under the clock period, multi-cycle latencies), the structural
builder (which primitive implements an op, how many multiplier stages) and the resource
estimate of the report all read this one module, so they always agree.

Two devices (``DEVICES``), chosen for a build with ``use_device(name)``:

- ``xc7`` (the default): rough Xilinx 7-series figures: carry-chain adders ~0.8 ns +
  0.03 ns/bit, a DSP48 multiplier ~3.5 ns for up to 18 bits, wider multipliers pipelined
  over several DSPs, an iterative divider of W+1 cycles (or, in a pipelined loop that needs
  one every cycle, a fully pipelined one of the same latency), and block RAM /
  ap_memory reads of one cycle. Builds without a device choice schedule exactly as before.
- ``ecp5``: Lattice ECP5 (LUT4 + CCU2 carry fabric, MULT18X18D), calibrated against the
  critical paths nextpnr-ecp5 reports for the benchmark suite (vichls bench --device ecp5).
  Every operator pays its logic delay plus one routed net (~1.1 ns, ECP5's dominant cost);
  the MULT18X18D is used without its internal registers (Yosys does not absorb them), so
  alone it takes ~4 ns plus its two nets: every multiplier by a variable gets a pipeline
  stage there, and wide ones a second stage that sums the partial products.

Why a context variable rather than a parameter threaded through every pass: the device is
a property of one build, read by passes deep inside compile_fpga (scheduler, modulo
scheduler, structural builder, division by constants); the context makes every one of them
read the same table without each signature changing, and it is per thread / per task.

``latency`` is the number of clock edges between issuing an op and its result; 0 means
combinational. ``delay_ns`` is the combinational delay spent in the issue cycle (before
the register of a multi-cycle op), ``out_delay_ns`` the delay from the clock edge to the
result in the cycle it is ready (clock-to-out of a RAM or register).
"""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from math import ceil, log2
from pathlib import Path

#: Time kept free in every cycle for register setup and clock-to-q on the default device
#: (``register_reserve_ns()`` gives the active device's).
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


@dataclass(frozen=True)
class Device:
    """The timing of one FPGA family, in the terms the cost functions use."""

    name: str
    description: str
    register_reserve_ns: float  # clock-to-q + setup (+ the clock's uncertainty)
    net_ns: float  # one routed net between two cells, added to every operator
    carry_base_ns: float  # entering and leaving a carry chain (adders, comparators)
    carry_per_bit_ns: float
    lut_ns: float  # one LUT level (logic op, one 2:1 mux)
    shift_levels_ns: float  # per level of a barrel shifter
    mul_comb_ns: float  # a combinational multiplier block (up to 18 bits)
    mul_comb_max_width: int  # widest product kept combinational; above it, pipelined
    mul_wide_stages: int  # stages of a multiplier wider than 18 bits
    mem_issue_ns: float  # address / data to a memory port
    mem_out_ns: float  # read data after the clock edge
    reg_out_ns: float  # a register's clock-to-out as an operand
    #: kept free after a value that a control decision reads in the cycle it is computed
    #: (loop bounds, if and while conditions): the FSM's compare, path decode and
    #: next-state / register-enable logic follow it in the same cycle
    decision_ns: float = 0.0
    ram_out_ns: float | None = None  # a local array's block RAM read data (None: mem_out_ns)
    #: loop exit tests read from a register computed during the body (when the body
    #: takes two cycles or more): structural/compile_control.py
    registered_loop_tests: bool = False
    #: resource estimates calibrated against the synthesis of the benchmark suite
    #: (benchmarks/calibrate_estimator.py): flip-flops per bit of a datapath register
    #: (synthesis drops constant and duplicate bits and folds multiplier pipeline
    #: registers into DSP blocks) and a scale on the summed LUT costs
    ff_per_register_bit: float = 1.0
    lut_scale: float = 1.0
    #: the primitive of rtl_templates/ a pipelined multiplier up to ``vendor_mul_max_width``
    #: bits becomes (one that registers its first stage inside the vendor's DSP blocks);
    #: wider ones, and every one when None, are the portable ``vichls_mul``
    vendor_mul: str | None = None
    vendor_mul_max_width: int = 0
    #: a product read straight from the vendor block's output register: its clock-to-out
    #: and the longer route from the multiplier column (None: reg_out_ns)
    vendor_mul_out_ns: float | None = None
    #: the control FSM one-hot encoded (one flip-flop per state; see structural.fsm)
    one_hot_fsm: bool = False
    #: products by a constant of at most this many signed digits become shifts and adders
    #: (transforms/fpga/shift_add_products.py); 0: all stay products
    shift_add_max_digits: int = 0
    #: local arrays of at most this many bits become distributed RAM with a registered read
    #: address (rtl_templates/vichls_ram_lut.v); 0: all stay in the block-RAM template
    lutram_max_bits: int = 0
    #: their read data after the clock edge: the address register, the LUT RAM and the
    #: read multiplexer of a ``lutram_max_bits`` array
    lutram_out_ns: float = 0.0
    #: a register written by several operations takes its input through a multiplexer of
    #: their values, one LUT level per doubling of the writers: charged to the write from
    #: the third writer on (the first level shares a LUT with the data); False: never
    register_input_mux: bool = False
    #: pipelined multipliers of groups that never run at the same time share one cell
    #: (transforms/fpga/bind_multipliers.py); False where the multiplexer in front of the block
    #: would not fit the cycle (ECP5 at 150 MHz)
    share_multipliers: bool = False
    #: float32 units built on the vendor's blocks: (kind, primitive of rtl_templates/)
    #: pairs replacing ``FLOAT_UNITS[kind].primitive`` on this device
    vendor_float_units: tuple[tuple[str, str], ...] = ()
    #: the part the report compares its estimate with, and what it holds: (resource,
    #: count) pairs in the report's terms (lut, ff, dsp, bram18)
    part: str = ""
    capacity: tuple[tuple[str, int], ...] = ()


XC7 = Device(
    name="xc7", description="Xilinx 7-series (rough figures; the default)",
    register_reserve_ns=1.0, net_ns=0.0, carry_base_ns=0.8, carry_per_bit_ns=0.03,
    lut_ns=0.5, shift_levels_ns=0.3, mul_comb_ns=3.5, mul_comb_max_width=18,
    mul_wide_stages=1, mem_issue_ns=0.3, mem_out_ns=1.0, reg_out_ns=0.3,
    ff_per_register_bit=0.62, lut_scale=0.86,  # Yosys synth_xilinx, small suite
    # the Zynq xc7z020 of a PYNQ-Z1 board (also the DSE's default budget)
    part="xc7z020",
    capacity=(("lut", 53200), ("ff", 106400), ("dsp", 220), ("bram18", 280)),
    share_multipliers=True,
)

ECP5 = Device(
    name="ecp5", description="Lattice ECP5 (calibrated against nextpnr-ecp5 routed timing)",
    register_reserve_ns=0.9, net_ns=1.1, carry_base_ns=0.9, carry_per_bit_ns=0.035,
    lut_ns=0.25, shift_levels_ns=0.25, mul_comb_ns=4.0, mul_comb_max_width=0,
    mul_wide_stages=2, mem_issue_ns=0.4, mem_out_ns=1.2, reg_out_ns=0.5,
    decision_ns=4.0, ram_out_ns=5.6 + 1.1,  # DP16KD without its output register
    registered_loop_tests=True,
    vendor_mul="vichls_mul_ecp5", vendor_mul_max_width=36,  # MULT18X18D output registers
    vendor_mul_out_ns=0.75 + 0.4,  # the block's clock-to-out, and 0.4 ns more of route
    one_hot_fsm=True,  # LUT4s: a binary state decode plus the next-state mux is too deep
    shift_add_max_digits=4,  # Yosys puts other constant products on a MULT18X18D
    # a DP16KD read takes 5.8 ns to leave the block: small arrays go to LUT RAM
    lutram_max_bits=4096, lutram_out_ns=0.5 + 1.1 + 0.25 + 2 * (0.25 + 0.7),
    register_input_mux=True,  # LUT4s: two writers per level
    # the portable multiplier's product and normalisation do not fit 5 ns (about 87 MHz)
    vendor_float_units=(("fmul", "vichls_fmul_ecp5"),),
    # LFE5U-85F: 83,640 LUT4s and flip-flops, 156 18x18 multipliers, 208 18 Kb block RAMs
    # (the report's estimate is in xc7 terms, where a LUT holds more than a LUT4)
    part="LFE5U-85F",
    capacity=(("lut", 83640), ("ff", 83640), ("dsp", 156), ("bram18", 208)),
)

DEVICES: dict[str, Device] = {d.name: d for d in (XC7, ECP5)}
DEFAULT_DEVICE = XC7.name

_active: ContextVar[Device] = ContextVar("vichls_device", default=XC7)


def device(name: str) -> Device:
    """The device called ``name``; ValueError naming the known ones otherwise."""
    try:
        return DEVICES[name]
    except KeyError:
        raise ValueError(f"unknown device {name!r} (known: {', '.join(DEVICES)})") from None


def current_device() -> Device:
    """The device the build in progress targets (xc7 unless ``use_device`` says otherwise)."""
    return _active.get()


@contextmanager
def use_device(name: str | Device):
    """Within the block, every cost read from this library is that of device ``name``."""
    token = _active.set(name if isinstance(name, Device) else device(name))
    try:
        yield _active.get()
    finally:
        _active.reset(token)


def register_reserve_ns(dev: Device | None = None) -> float:
    """Time kept free in every cycle for clock-to-q and setup on ``dev`` (default: active)."""
    return (dev or current_device()).register_reserve_ns


def decision_reserve_ns(dev: Device | None = None) -> float:
    """Time left free after a value that a control decision reads in its own cycle."""
    return (dev or current_device()).decision_ns


def mul_latency(width: int, dev: Device | None = None) -> int:
    """Latency of a multiplier by a variable. xc7: combinational DSP up to 18 bits, then
    one pipeline stage up to 32 bits, two up to 64. ecp5: the multiplier block is too slow
    to chain, so one stage up to 18 bits and ``mul_wide_stages`` above (the partial
    products of the halves are summed into the second stage rather than after it)."""
    d = dev or current_device()
    if width <= d.mul_comb_max_width:
        return 0
    if width <= 18:
        return 1
    return d.mul_wide_stages if width <= 32 else max(2, d.mul_wide_stages)


def mul_primitive(width: int, dev: Device | None = None) -> str:
    """The primitive a multiplier by a variable with ``mul_latency(width) > 0`` becomes."""
    d = dev or current_device()
    # (the vendor forms have one or two stages: the block's register, then the sum's)
    if d.vendor_mul and width <= d.vendor_mul_max_width and mul_latency(width, d) <= 2:
        return d.vendor_mul
    return "vichls_mul"


def div_latency(width: int) -> int:
    """The iterative divider takes one cycle to load and one per quotient bit."""
    return max(width, 2) + 1


@dataclass(frozen=True)
class FloatUnit:
    """A floating-point unit of rtl_templates/: fully pipelined (a new operation every
    cycle), its latency (clock-enabled cycles from operands to result) as its template
    declares it (``localparam LATENCY``, read by ``float_latency``: the unit is the one
    source of its latency; a device may build a kind on a unit of its own,
    ``Device.vendor_float_units``).
    ``issue_ns``: the logic between the operand inputs and the first register; ``out_ns``:
    between the last register and the result output (both on the xc7 scale; other
    devices add their nets). Areas: Yosys synth_xilinx of the unit alone
    (benchmarks/float_units.py)."""

    primitive: str
    issue_ns: float
    out_ns: float
    lut: int
    ff: int
    dsp: int = 0
    ecp5_ns: tuple[float, float] | None = None  # (issue, out) as routed on the ECP5


def float_primitive(kind: str, dev: Device | None = None) -> str:
    """The primitive of rtl_templates/ a float32 operator of ``kind`` is built on, on
    ``dev`` (default: the active device)."""
    d = dev or current_device()
    return dict(d.vendor_float_units).get(kind, FLOAT_UNITS[kind].primitive)


def float_unit(kind: str, dev: Device | None = None) -> FloatUnit | None:
    """The unit a float32 operator of ``kind`` is built on, on ``dev`` (default: the active
    device); None for other kinds."""
    if kind not in FLOAT_UNITS:
        return None
    primitive = float_primitive(kind, dev)
    return VENDOR_FLOAT_UNITS.get(primitive, FLOAT_UNITS[kind])


def float_latency(kind: str, dev: Device | None = None) -> int:
    """The latency of the float32 unit of ``kind`` on ``dev``: its template's."""
    return template_latency(float_primitive(kind, dev))


_TEMPLATES = Path(__file__).resolve().parent.parent / "backend" / "verilog" / "rtl_templates"


@functools.cache
def template_latency(primitive: str) -> int:
    """The ``localparam LATENCY = n;`` of the template ``primitive``.v."""
    text = (_TEMPLATES / f"{primitive}.v").read_text()
    found = re.search(r"localparam\s+LATENCY\s*=\s*(\d+)\s*;", text)
    if found is None:
        raise ValueError(f"rtl_templates/{primitive}.v declares no localparam LATENCY")
    return int(found.group(1))


#: the float32 operator kinds and their units (latency 0: combinational). ``ecp5_ns``: the
#: issue and output logic as routed on the ECP5 (nextpnr, the units alone): their first
#: stages fill most of a 5 ns cycle there, so an operand must come from a register
FLOAT_UNITS: dict[str, FloatUnit] = {
    "fadd": FloatUnit("vichls_fadd", issue_ns=2.0, out_ns=0.0, lut=789, ff=671,
                      ecp5_ns=(4.2, 0.0)),
    "fmul": FloatUnit("vichls_fmul", issue_ns=2.0, out_ns=0.0, lut=345, ff=169, dsp=2,
                      ecp5_ns=(4.0, 0.0)),
    "fdiv": FloatUnit("vichls_fdiv", issue_ns=2.0, out_ns=0.0, lut=1138, ff=1751,
                      ecp5_ns=(3.5, 0.0)),
    "fsqrt": FloatUnit("vichls_fsqrt", issue_ns=2.0, out_ns=0.0, lut=560, ff=832,
                       ecp5_ns=(3.5, 0.0)),
    # itof: its rounding adder sits after the last register (the result leaves through it)
    "itof": FloatUnit("vichls_itof", issue_ns=2.5, out_ns=2.0, lut=324, ff=147,
                      ecp5_ns=(4.2, 4.4)),
    "ftoi": FloatUnit("vichls_ftoi", issue_ns=2.0, out_ns=0.0, lut=148, ff=110,
                      ecp5_ns=(4.0, 0.0)),
    "fcmp": FloatUnit("vichls_fcmp", issue_ns=2.5, out_ns=0.0, lut=32, ff=0,
                      ecp5_ns=(3.0, 0.0)),
}


#: the units a device builds on its own blocks (``Device.vendor_float_units``), by primitive
VENDOR_FLOAT_UNITS: dict[str, FloatUnit] = {
    # four MULT18X18D blocks with their input and output registers (two of the five stages);
    # the first stage: the exponent fields' sums and the first levels of the leading-one
    # trees; after the last registers, one LUT level (the OR of four rounded fractions)
    "vichls_fmul_ecp5": FloatUnit("vichls_fmul_ecp5", issue_ns=2.0, out_ns=0.5, lut=1330,
                                  ff=866, dsp=4, ecp5_ns=(3.5, 0.25 + 1.1)),
}


def _carry(d: Device, w: int) -> float:
    return d.carry_base_ns + d.carry_per_bit_ns * w + d.net_ns


def cost(kind: str, width: int, dev: Device | None = None) -> OpCost:
    """Timing and cost of one operator of ``kind`` on ``width``-bit operands, on ``dev``
    (default: the active device). Areas are the xc7 estimate on every device (the report's
    resources are 7-series figures)."""
    d = dev or current_device()
    w = max(1, width)
    if kind in ("add", "sub", "cmp"):
        return OpCost(0, _carry(d, w), lut=w)
    if kind == "logic":
        return OpCost(0, d.lut_ns + d.net_ns, lut=ceil(w / 2))
    if kind == "mux":
        return OpCost(0, d.lut_ns + 0.1 + d.net_ns, lut=w)
    unit = float_unit(kind, d)
    if unit is not None:
        # the unit's own stages meet the device's clock by design; around it: the routed
        # nets into its first stage and out of its last (for itof / ftoi the area grows
        # with the integer's width, costed at 32 bits)
        scale = max(1.0, w / 32) if kind in ("itof", "ftoi") else 1.0
        latency = float_latency(kind, d)
        if d is ECP5 and unit.ecp5_ns is not None:  # measured there, nets included
            issue, out = unit.ecp5_ns[0], d.reg_out_ns + unit.ecp5_ns[1]
        else:
            issue, out = unit.issue_ns + d.net_ns, d.reg_out_ns + unit.out_ns + d.net_ns
        if latency == 0:
            return OpCost(0, issue + d.net_ns, lut=round(unit.lut * scale))
        return OpCost(latency, issue, lut=round(unit.lut * scale), ff=round(unit.ff * scale),
                      dsp=unit.dsp, out_delay_ns=out)
    if kind == "fsign":  # negf / absf: the sign bit inverted or cleared
        return OpCost(0, d.lut_ns + d.net_ns, lut=1)
    if kind in ("shift_const", "wire"):  # wiring only: extensions, truncations, casts
        return OpCost(0, 0.0)
    if kind == "shift_var":
        levels = max(1, (w - 1).bit_length())
        delay = 1.5 if d is XC7 else d.shift_levels_ns * levels + 2 * d.net_ns
        return OpCost(0, delay, lut=w * levels // 2)
    if kind == "mul_const":  # shift-and-add of a constant
        if d is XC7:
            return OpCost(0, _carry(d, w), lut=w)
        # Yosys synth_ecp5 maps a product by a constant that is not a power of two onto the
        # multiplier blocks too, summing the pieces of operands wider than 18 bits
        return OpCost(0, d.mul_comb_ns + 2 * d.net_ns + (_carry(d, w) if w > 18 else 0.0), lut=w)
    if kind == "mul":
        lat = mul_latency(w, d)
        dsp = 1 if w <= 18 else (3 if w <= 32 else 10)
        if lat == 0:
            return OpCost(0, d.mul_comb_ns + d.net_ns, dsp=dsp)
        in_block = mul_primitive(w, d) != "vichls_mul"  # the first stage inside the DSP
        # vichls_mul registers the partial products of the halves; with one stage their
        # sum (two adders) settles in the cycle the result is read (the vendor form keeps
        # operands up to 18 bits whole)
        summed = lat == 1 and w % 2 == 0 and not (in_block and w <= 18)
        from_block = in_block and lat == 1 and not summed and d.vendor_mul_out_ns is not None
        out = (d.vendor_mul_out_ns if from_block else d.reg_out_ns) \
            + (2 * _carry(d, w) if summed else 0.0)
        # the issue cycle holds the multiplier block itself: operands routed in, and the
        # product routed out to a fabric register unless the block registers it
        issue = 3.0 if d is XC7 else d.mul_comb_ns + (1 if in_block else 2) * d.net_ns
        # the pipeline registers sit inside the DSP blocks on xc7: no fabric FFs
        return OpCost(lat, issue, lut=w if summed else 0, ff=0, dsp=dsp, out_delay_ns=out)
    if kind == "div":
        return OpCost(div_latency(w), d.mem_issue_ns + 0.2, lut=4 * w, ff=4 * w + 8,
                      out_delay_ns=_div_out(d, w))
    if kind == "div_pipe":  # one subtract-and-select stage per quotient bit, registered
        return OpCost(div_latency(w), d.mem_issue_ns + 0.2, lut=w * (w + 3), ff=w * (3 * w + 2),
                      out_delay_ns=_div_out(d, w))
    if kind == "mem_read":  # address setup in the issue cycle, data one cycle later
        return OpCost(1, d.mem_issue_ns, out_delay_ns=d.mem_out_ns)
    if kind == "ram_read":  # a local array's RAM (ap_memory ports are "mem_read")
        out = d.mem_out_ns if d.ram_out_ns is None else d.ram_out_ns
        return OpCost(1, d.mem_issue_ns, out_delay_ns=out)
    if kind == "lutram_read":  # a small local array in distributed RAM
        return OpCost(1, d.mem_issue_ns, out_delay_ns=d.lutram_out_ns)
    if kind == "mem_write":
        return OpCost(0, d.mem_issue_ns)
    if kind in ("stream_get", "stream_put", "stream_clear"):  # the FIFO's registered head;
        # a stall is apart
        return OpCost(0, d.mem_issue_ns)
    if kind in ("reg_read", "reg_write"):
        return OpCost(0, 0.0)
    raise KeyError(f"operator library has no entry for {kind!r}")


def over_capacity(resources: dict, dev: Device | None = None) -> list[str]:
    """Warnings for each resource of an estimate (the report's ``resources``) above what
    the device's part holds."""
    d = dev or current_device()
    return [f"the estimate exceeds the {d.part} ({d.name}): {key.upper()} "
            f"{resources.get(key, 0)} > {limit}"
            for key, limit in d.capacity if resources.get(key, 0) > limit]


def register_input_ns(writers: int, dev: Device | None = None) -> float:
    """The delay a register's input multiplexer adds to a write, for ``writers`` writing
    operations (see ``Device.register_input_mux``)."""
    d = dev or current_device()
    if not d.register_input_mux or writers <= 2:
        return 0.0
    return (ceil(log2(writers)) - 1) * (d.lut_ns + d.net_ns)


def shared_mul_cost(cost: OpCost, sharers: int, width: int, dev: Device | None = None
                    ) -> OpCost:
    """A multiply whose cell serves ``sharers`` multiplies: each operand passes a
    multiplexer of theirs (one LUT level per doubling) before the block; the cell's DSP
    blocks and the multiplexers' LUTs are counted once per cell, here spread evenly over
    its multiplies (the report's totals sum them)."""
    d = dev or current_device()
    levels = max(1, ceil(log2(sharers)))
    mux_luts = 2 * width * (sharers - 1)
    return OpCost(cost.latency, cost.delay_ns + levels * (d.lut_ns + d.net_ns),
                  lut=(cost.lut * 1.0 + mux_luts) / sharers, ff=cost.ff / sharers,
                  dsp=cost.dsp / sharers, out_delay_ns=cost.out_delay_ns)


def _div_out(d: Device, w: int) -> float:
    # the quotient / remainder leave the divider through a sign correction
    return 0.9 + 0.03 * w if d is XC7 else _carry(d, w)


def register_cost(width: int) -> OpCost:
    return OpCost(0, 0.0, ff=width)


def in_lutram(words: int, width: int, dev: Device | None = None) -> bool:
    """Whether a local array of ``words`` × ``width`` bits becomes distributed RAM."""
    return words * width <= (dev or current_device()).lutram_max_bits


def local_ram_primitive(words: int, width: int, dual_port: bool, dev: Device | None = None) -> str:
    """The primitive of rtl_templates/ a local array becomes on ``dev`` (default: active)."""
    name = "vichls_ram_dp" if dual_port else "vichls_ram"
    return name + "_lut" if in_lutram(words, width, dev) else name


def ram_cost(words: int, width: int) -> dict:
    """A local array: small ones in LUT RAM, others in 18 Kb block RAMs."""
    bits = words * width
    if bits <= 1024:
        return {"lut": ceil(bits / 64) * 2 + width, "ff": width, "bram18": 0}
    per_bram_width = 36 if words <= 512 else 18 if words <= 1024 else 9
    brams = ceil(width / per_bram_width) * ceil(words / (18432 // per_bram_width))
    return {"lut": width, "ff": 0, "bram18": brams}
