"""Build the structural level (one component) from the scheduled loop-level top function.

Input: the top ``func.func`` after inlining, lower-affine, forwarding, hoisting and
scheduling (every time-taking op carries ``vichls.cycle``/``vichls.ready``). Output: a
``structural.component`` with the kernel's ports (docs hardware-interface.md), one cell per
storage or multi-cycle unit, ``comb`` datapath, one static group per scheduled segment (a
pipelined loop's iteration is one group, its ops predicated by the ifs around them, its
values carried from cycle to cycle in stage registers; the ops of a predicated if are
part of the segment around it, predicated the same way) and a control tree mirroring the
loops and the other ifs.

Binding is one unit per op, except the pipelined multipliers that transforms/fpga/bind_multipliers
shares between groups: a unit's inputs are wired continuously to its operands (a shared
multiplier's, to those of the multiply issuing in the current group cycle). Storage: a 0-d memref is a register (``vichls_reg``), an
N-d local is a RAM (``vichls_ram``, or ``vichls_ram_lut`` where the device keeps small
arrays in distributed RAM: oplib.local_ram_primitive), a constant array (``memref.get_global``
of a constant ``memref.global``) a ROM (``vichls_rom``, its contents in a ``vichls.rom``
attribute: the Verilog printer writes one module per ROM), an array parameter is an ap_memory
port set; every memory has one port (two when the modulo scheduler marked it
``vichls.dual_port``; each access then names its port) and all its accesses are muxed by
their group-cycle guards.

Streams: a stream parameter is an ap_fifo port set, a local stream a ``vichls_fifo`` cell,
emptied while the design is idle (a new stream is empty at every call) and by a
``stream.clear`` (transforms/fpga/hoist_local_streams.py) in its cycle.
A get reads the FIFO's head combinationally and strobes ``read``; a put drives ``din`` and
strobes ``write``, both under the op's guard. The design stalls in a cycle where an active
get meets an empty FIFO or an active put a full one: the builder drives the wire
``vichls_stalled`` with that condition, and structural/insert_stall.py (after control
compilation) holds every register, memory enable and state transition while it is high.
Multi-cycle units get a clock enable (``ce``) for that; it is 1 in designs without streams.

Values: a result is combinational in its ready cycle; if anything reads it later, in
another segment, or in a control decision, it is also captured in a register written in
its ready cycle. Control decisions read a register's next value (``en ? in : out``), so a
decision made in the very cycle that writes the register sees the new value. ``index`` is
32 bits wide. Operations whose value is known without hardware (constant operands,
``x - x``, comparisons no operand value can change) become constants.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, comb, func, hw, memref, scf
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.context import Context
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from vichls import ports
from vichls.targets import oplib
from vichls.dialects import stream
from vichls.dialects import structural as st
from vichls.scheduling.list_schedule import (
    bit_width,
    float_unit_cell,
    is_predicated,
    is_scalar_memref,
    mul_operand_width,
    op_kind,
    op_width,
    pipelined_unit,
    power_of_two_divisor,
    predicate_of,
    predicated_ops,
    reads_predicate,
    stream_port,
    segment_length,
    split_block,
)
from vichls.dialects.attributes import (
    CYCLE_ATTR,
    FUSED_ATTR,
    PIPELINED_DIVIDER_ATTR,
    READY_ATTR,
    ROM_ATTR,
    SHARERS_ATTR,
    SIGNED_PRODUCT_ATTR,
    UNIT_ATTR,
)
from vichls.analysis.loop_utils import pipeline_ii
from vichls.scheduling.modulo_schedule import is_dual_port, iteration_ops
from vichls.dialects.attributes import (
    DEPTH_ATTR,
    FORWARDED_ATTR,
    II_ATTR,
    NAME_ATTR,
    PORT_ATTR,
    REASON_ATTR,
)
from vichls.errors import FpgaError
from vichls.analysis.value_ranges import ValueRanges, signed_bits
from vichls.signature import KernelSignature, signature_of, top_function
from vichls.types import address_width, float32_bits

_VERILOG_RESERVED = {"state", "fsm_state"}


class NameAllocator:
    """Unique, readable Verilog identifiers: ``<hint>_<n>`` with one counter per design."""

    def __init__(self, reserved):
        self.used = set(reserved) | _VERILOG_RESERVED
        self.counter = 0

    def fresh(self, hint: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in hint) or "v"
        if base[0].isdigit():
            base = "v" + base
        while True:
            name = f"{base}_{self.counter}"
            self.counter += 1
            if name not in self.used:
                self.used.add(name)
                return name


@dataclass
class ValueInfo:
    always: SSAValue | None = None  # valid in every cycle (constant, port, loop counter)
    wire: SSAValue | None = None  # valid in cycle `ready` of segment `group`
    group: str | None = None
    ready: int = -1
    reg_out: SSAValue | None = None
    next: SSAValue | None = None  # the register's next value, for control decisions
    # in a pipelined loop: stage j holds the value from cycle ready + (j-1)*II + 1 on
    stages: list[SSAValue] | None = None
    # ... in the bits its value range needs; read back at the value's width
    stage_reads: list[SSAValue] | None = None


@dataclass
class Memory:
    address: SSAValue
    ce: SSAValue
    we: SSAValue | None  # (None: a ROM, or an array the design only reads)
    d: SSAValue | None
    q: SSAValue | None  # (None: an array the design only writes)
    shape: tuple[int, ...]
    address_width: int
    port1: "Memory | None" = None  # the second port of a dual-port memory


@dataclass
class StreamSide:
    """One side of a FIFO as the design sees it: ``data`` is the head (get) or the
    element to append (put), ``ready`` is empty_n / full_n, ``strobe`` is read / write."""

    data: SSAValue
    ready: SSAValue
    strobe: SSAValue


#: The wire that is high in a cycle where the design waits on a stream.
STALL_WIRE = "vichls_stalled"
#: Task modules (ap_ctrl_chain, see ``StructuralBuilder``): high while the FSM is idle
#: (driven by structural/compile_control.py); and the output port that tells the dataflow
#: top the task waits on a stream.
IDLE_WIRE = "vichls_idle"
WAITS_PORT = "vichls_waits"


@dataclass
class Register:
    in_: SSAValue
    en: SSAValue
    out: SSAValue
    next: SSAValue | None = None


def hint_of(value: SSAValue, default: str) -> str:
    return value.name_hint or default


def signed_narrow_product(op: arith.MuliOp) -> bool:
    """Is ``op`` a combinational product that the operator library costs at its
    operands' narrow widths, one of them sign-extended (list_schedule.mul_operand_width)?
    Its low bits are the same read signed or unsigned, but only a signed ``*`` lets
    synthesis see the extension (and a negative constant as a short one) and use one DSP
    block."""
    return (op_kind(op) == "mul" and mul_operand_width(op) < op_width(op)
            and any(isinstance(v.owner, arith.ExtSIOp) for v in op.operands))


def signed_constant(value: SSAValue) -> int | None:
    """The value of a ``hw.constant`` as a signed integer, else None."""
    if not isinstance(value.owner, hw.ConstantOp):
        return None
    width = value.type.width.data
    v = value.owner.value.value.data & ((1 << width) - 1)
    return v - (1 << width) if v >> (width - 1) else v


def _serves_memory_from_axi(function: func.FuncOp) -> bool:
    """Whether an interface directive gives one of ``function``'s arrays an m_axi port."""
    from vichls.interface.spec import requested_interfaces

    return any(i.mode == "m_axi" for i in requested_interfaces(function))


def counter_span(loop: scf.ForOp, ranges: ValueRanges) -> tuple[int, int] | None:
    """The values a loop's control compares and counts through: both bounds, and the
    counter up to the last increment past the upper bound; None when a bound's range is
    unknown."""
    low, high, step = (ranges.known(v) for v in (loop.lb, loop.ub, loop.step))
    if low is None or high is None or step is None or step[0] != step[1] or step[0] <= 0:
        return None
    return min(low[0], high[0]), max(low[1], high[1] + step[0] - 1, 1)


_COMPARE = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b,
    2: lambda a, b: a < b, 3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
    6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b,
}


def constant_comparison(lhs: SSAValue, rhs: SSAValue, predicate: int) -> bool | None:
    """The result of ``icmp predicate lhs, rhs`` when it does not depend on the
    non-constant operand (both constants, or an ordering against a constant that every
    value of the other operand's range satisfies, or none does), else None."""
    width = lhs.type.width.data
    signed = 2 <= predicate <= 5

    def value(v: SSAValue) -> int | None:
        c = signed_constant(v)
        return c if c is None or signed else c & ((1 << width) - 1)

    a, b = value(lhs), value(rhs)
    compare = _COMPARE[predicate]
    if a is not None and b is not None:
        return compare(a, b)
    if predicate <= 1 or (a is None and b is None):
        return None  # equality with a constant varies; so does a comparison of variables
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    ends = [compare(x, b) for x in (low, high)] if a is None else [compare(a, x) for x in (low, high)]
    return ends[0] if ends[0] == ends[1] else None  # orderings are monotonic in each operand


#: On a structural ``for``, ``pipeline`` or ``if``: the index of the ``scf.for`` or
#: ``scf.if`` it was built from in ``source_controls(function)`` (the report evaluates the
#: bounds and conditions that vary with enclosing loop counters on those).
SOURCE_ATTR = "source"


def source_controls(function: Operation) -> list[scf.ForOp | scf.IfOp]:
    """The ``scf.for`` and ``scf.if`` ops of a prepared function, in walk order."""
    return [op for op in function.walk() if isinstance(op, (scf.ForOp, scf.IfOp))]


def static_trip_count(loop: st.ForOp | st.PipelineOp) -> int | None:
    """The trip count of a structural ``for`` or ``pipeline`` whose bounds and step are
    constants."""
    lb, ub, step = (signed_constant(v) for v in (loop.lower, loop.upper, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


class StructuralBuilder:
    """``task_mode`` builds the module of a dataflow task (vichls/driver/dataflow.py): an extra
    ``ap_continue`` input (ap_ctrl_chain: ``ap_done`` is held until it, see
    compile_control), scalar inputs latched when the call is taken so that the top may
    move on to its next call, and the ``vichls_waits`` output."""

    def __init__(self, function: func.FuncOp, signature: KernelSignature, task_mode: bool = False):
        self.function = function
        self.signature = signature
        self.task_mode = task_mode
        self.ranges = ValueRanges()  # loop bounds' value intervals
        self._sources: dict[Operation, int] | None = None
        self.idle: SSAValue | None = None
        self.component = st.ComponentOp.create(
            properties={"sym_name": StringAttr(signature.name)}, regions=[Region(Block())]
        )
        self.top = self.component.body.block
        reserved = [*ports.CONTROL_INPUTS, *ports.CONTROL_OUTPUTS, ports.RETURN, ports.CONTINUE,
                    ports.HOLD, WAITS_PORT, IDLE_WIRE, STALL_WIRE]
        for p in signature.params:
            reserved += ports.taken_names(p.name)
        self.names = NameAllocator(reserved)
        self.values: dict[SSAValue, ValueInfo] = {}
        self.memories: dict[SSAValue, Memory] = {}
        self.registers: dict[SSAValue, Register] = {}
        self.constants: dict[tuple[int, int], SSAValue] = {}
        self.cycle_guards: dict[tuple[str, int], SSAValue] = {}
        self.segment_of: dict[Operation, str] = {}
        self.group_ops: dict[str, st.StaticGroupOp] = {}
        self.ports: dict[str, SSAValue] = {}
        self.needs: dict[SSAValue, bool] = {}  # values kept in a register: read by control?
        self.pipeline_ii: dict[str, int] = {}  # pipelined group -> its II
        #: (primitive, parameters, unit index) -> the multiplier cell (transforms/fpga/bind_multipliers)
        self.units: dict[tuple, st.CellOp] = {}
        self.predicate: tuple = ()  # (condition, polarity) of the ifs around the op built
        self.stream_sides: dict[tuple, StreamSide] = {}  # (stream value, "get"/"put") -> side
        self.stall_terms: list[tuple[SSAValue, SSAValue]] = []  # (op guard, side ready)
        self.fifo_resets: dict[SSAValue, SSAValue] = {}  # local stream -> its FIFO's rst
        self.op_guards: dict[tuple, SSAValue] = {}  # (group, cycle, predicate prefix) -> guard

    # -- small helpers --------------------------------------------------------------
    def emit(self, op: Operation, name: str | None = None) -> Operation:
        self.top.add_op(op)
        if name is not None:
            for r in op.results:
                r.name_hint = name
        return op

    def const(self, value: int, width: int) -> SSAValue:
        value &= (1 << width) - 1
        key = (value, width)
        if key not in self.constants:
            op = hw.ConstantOp(value, IntegerType(width), truncate_bits=True)
            self.emit(op)
            self.constants[key] = op.result
        return self.constants[key]

    def port(self, name: str, direction: str, width: int) -> SSAValue:
        op = st.PortOp.create(
            properties={"port_name": StringAttr(name), "direction": StringAttr(direction)},
            result_types=[IntegerType(width)],
        )
        self.emit(op, name)
        self.ports[name] = op.result
        return op.result

    def cell(self, hint: str, primitive: str, params: dict[str, int], cell_ports) -> st.CellOp:
        op = st.CellOp.instance(self.names.fresh(hint), primitive, params, cell_ports)
        self.emit(op)
        return op

    def register(self, hint: str, width: int, with_next: bool) -> Register:
        cell = self.cell(hint, "vichls_reg", {"WIDTH": width},
                         [("in", "in", width), ("en", "in", 1), ("out", "out", width)])
        reg = Register(cell.port("in"), cell.port("en"), cell.port("out"))
        if with_next:
            mux = self.emit(comb.MuxOp(reg.en, reg.in_, reg.out), f"{cell.instance_name.data}_next")
            reg.next = mux.result
        return reg

    def guard(self, group: str, cycle: int) -> SSAValue:
        key = (group, cycle)
        if key not in self.cycle_guards:
            op = st.GroupCycleOp.create(
                properties={"group": StringAttr(group), "cycle": IntegerAttr(cycle, i32)},
                result_types=[IntegerType(1)],
            )
            self.emit(op, f"{group}_c{cycle}")
            self.cycle_guards[key] = op.result
        return self.cycle_guards[key]

    def assign(self, block: Block, dest: SSAValue, src: SSAValue, guard: SSAValue | None):
        block.add_op(st.AssignOp.of(dest, src, guard))

    # -- the build ----------------------------------------------------------------------
    def build(self) -> st.ComponentOp:
        sig = self.signature
        for name in ports.CONTROL_INPUTS:
            self.port(name, "in", 1)
        for name in ports.CONTROL_OUTPUTS:
            self.port(name, "out", 1)
        if sig.ret is not None:
            self.port(ports.RETURN, "out", sig.ret.width)
        if self.task_mode:
            self.port(ports.CONTINUE, "in", 1)
            waits = self.port(WAITS_PORT, "out", 1)
        if _serves_memory_from_axi(self.function):
            # an m_axi adapter (interface/wrapper.py) holds the design while a read waits
            # for its data or a write for room: the design stalls as on a stream
            self.stall_terms.append((self.port(ports.HOLD, "in", 1), self.const(0, 1)))
        body = self.function.body.block
        for p, arg in zip(sig.params, body.args, strict=True):
            if p.is_array:
                words = p.type.size
                aw = address_width(words)
                w = p.scalar.width
                memory_ports = [0, 1] if is_dual_port(arg) else [0]
                access = {type(u.operation) for u in arg.uses}
                reads, writes = memref.LoadOp in access, memref.StoreOp in access
                mems = []
                for n in memory_ports:
                    made = {signal: self.port(name, direction, width)
                            for (signal, _), (name, direction, width) in zip(
                                (m for m in ports.MEMORY_SIGNALS
                                 if (m[0] != "q" or reads) and (m[0] not in ("we", "d") or writes)),
                                ports.memory_ports(p.name, n, aw, w, reads=reads, writes=writes),
                                strict=True)}
                    mems.append(Memory(made["address"], made["ce"], made.get("we"),
                                       made.get("d"), made.get("q"), tuple(p.type.shape), aw))
                if len(mems) == 2:
                    mems[0].port1 = mems[1]
                self.memories[arg] = mems[0]
            elif p.is_stream:
                w = p.scalar.width
                if p.direction in ports.STREAM_SIGNALS:
                    side = "get" if p.direction == "in" else "put"
                    self.stream_sides[(arg, side)] = StreamSide(
                        *(self.port(name, direction, width) for name, direction, width
                          in ports.stream_ports(p.name, p.direction, w)))
                else:
                    raise FpgaError(f"stream parameter '{p.name}' has no direction (in/out)")
            else:
                self.values[arg] = ValueInfo(always=self.scalar_input(p.name, p.scalar.width))
        for op in self.function.walk():
            if isinstance(op, memref.AllocaOp):
                self.storage(op)
            elif isinstance(op, memref.GetGlobalOp):
                self.rom(op)
            elif isinstance(op, stream.CreateOp):
                self.local_stream(op)
        self.number_segments(body)
        self.needs = self.registered_values()
        control = st.ControlOp.create(regions=[Region(Block())])
        self.build_block(body, control.body.block)
        self.ensure_cycles(control.body.block)
        self.emit(control)
        stalled = self.stall_logic()
        if self.task_mode:
            self.top.add_op(st.AssignOp.of(
                waits, stalled if stalled is not None else self.const(0, 1)))
        terminator = body.last_op
        if isinstance(terminator, func.ReturnOp) and terminator.arguments:
            if sig.ret is None:
                raise FpgaError.at(terminator, "returns a value but the signature has none")
            ret = self.control_value(terminator.arguments[0])
            self.top.add_op(st.AssignOp.of(self.ports[ports.RETURN], ret))
        return self.component

    def storage(self, op: memref.AllocaOp):
        mtype = op.memref.type
        width = bit_width(mtype.element_type)
        shape = tuple(mtype.get_shape())
        hint = hint_of(op.memref, "local")
        if not shape:
            self.registers[op.memref] = self.register(hint, width, with_next=False)
            return
        words = 1
        for d in shape:
            words *= d
        aw = address_width(words)
        memory_ports = [0, 1] if is_dual_port(op.memref) else [0]
        cell = self.cell(hint, oplib.local_ram_primitive(words, width, len(memory_ports) == 2),
                         {"WIDTH": width, "WORDS": words, "AW": aw}, [
            (f"{name}{n}", direction, w)
            for n in memory_ports
            for name, direction, w in (("address", "in", aw), ("ce", "in", 1), ("we", "in", 1),
                                       ("d", "in", width), ("q", "out", width))
        ])
        mems = [Memory(
            cell.port(f"address{n}"), cell.port(f"ce{n}"), cell.port(f"we{n}"),
            cell.port(f"d{n}"), cell.port(f"q{n}"), shape, aw,
        ) for n in memory_ports]
        if len(mems) == 2:
            mems[0].port1 = mems[1]
        self.memories[op.memref] = mems[0]

    def rom(self, op: memref.GetGlobalOp):
        """A constant array (``vichls.const``): a ROM cell holding its ``memref.global``'s
        values, read through ports like a local RAM's (one cycle), never written."""
        name = op.name_.root_reference.data
        module = self.function.parent_op()
        glob = next((g for g in module.ops if isinstance(g, memref.GlobalOp)
                     and g.sym_name.data == name), None)
        if glob is None or glob.constant is None:
            raise FpgaError.at(op, f"memref.get_global @{name}: no constant memref.global of "
                                   "that name")
        mtype = op.memref.type
        width = bit_width(mtype.element_type)
        shape = tuple(mtype.get_shape())
        words = 1
        for d in shape:
            words *= d
        aw = address_width(words)
        memory_ports = [0, 1] if is_dual_port(op.memref) else [0]
        source = op.attributes.get(NAME_ATTR)
        hint = f"{source.data}_rom" if source is not None else hint_of(op.memref, "rom")
        cell = self.cell(hint, "vichls_rom",
                         {"WIDTH": width, "WORDS": words, "AW": aw}, [
            (f"{port}{n}", direction, w)
            for n in memory_ports
            for port, direction, w in (("address", "in", aw), ("ce", "in", 1),
                                       ("q", "out", width))
        ])
        cell.attributes[ROM_ATTR] = glob.initial_value
        mems = [Memory(cell.port(f"address{n}"), cell.port(f"ce{n}"), None, None,
                       cell.port(f"q{n}"), shape, aw) for n in memory_ports]
        if len(mems) == 2:
            mems[0].port1 = mems[1]
        self.memories[op.memref] = mems[0]

    def local_stream(self, op: stream.CreateOp):
        width = op.result.type.width
        cell = self.cell(hint_of(op.result, "fifo"), "vichls_fifo",
                         {"WIDTH": width, "DEPTH": op.depth.value.data}, [
            ("rst", "in", 1), ("din", "in", width), ("write", "in", 1), ("full_n", "out", 1),
            ("dout", "out", width), ("read", "in", 1), ("empty_n", "out", 1)])
        # emptied by reset and between calls, as a new stream is empty at every call;
        # a create that runs more than once per call has a stream.clear where it ran
        # (transforms/fpga/hoist_local_streams.py), which empties it too (build_op)
        one = self.const(1, 1)
        for reason in (self.ports[ports.RESET], self.idle_wire()):
            self.top.add_op(st.AssignOp.of(cell.port("rst"), one, reason))
        self.fifo_resets[op.result] = cell.port("rst")
        self.stream_sides[(op.result, "get")] = StreamSide(
            cell.port("dout"), cell.port("empty_n"), cell.port("read"))
        self.stream_sides[(op.result, "put")] = StreamSide(
            cell.port("din"), cell.port("full_n"), cell.port("write"))

    def scalar_input(self, name: str, width: int) -> SSAValue:
        port = self.port(name, "in", width)
        if not self.task_mode:
            return port
        # the value at the start of the call: the port while idle, then the latched copy
        idle = self.idle_wire()
        latched = self.register(f"{name}_latched", width, with_next=False)
        accept = self.emit(comb.AndOp([idle, self.ports[ports.START]]),
                           self.names.fresh("accept")).results[0]
        self.top.add_op(st.AssignOp.of(latched.in_, port))
        self.top.add_op(st.AssignOp.of(latched.en, self.const(1, 1), accept))
        return self.emit(comb.MuxOp(idle, port, latched.out), self.names.fresh(name)).results[0]

    def idle_wire(self) -> SSAValue:
        """``vichls_idle``: high while the FSM waits for a call (driven by
        structural/compile_control.py)."""
        if self.idle is None:
            idle = st.WireOp.create(properties={"wire_name": StringAttr(IDLE_WIRE)},
                                    result_types=[IntegerType(1)])
            self.emit(idle, IDLE_WIRE)
            self.idle = idle.result
        return self.idle

    def stall_logic(self) -> SSAValue | None:
        """``vichls_stalled``: some get or put is active and its FIFO is not ready. Never
        during reset, so that the control registers clear."""
        if not self.stall_terms:
            return None
        one = self.const(1, 1)
        terms = []
        for guard, ready in self.stall_terms:
            waiting = self.emit(comb.XorOp([ready, one]), self.names.fresh("not_ready")).results[0]
            terms.append(self.emit(comb.AndOp([guard, waiting]), self.names.fresh("waits")).results[0])
        any_waits = terms[0] if len(terms) == 1 else \
            self.emit(comb.OrOp(terms), self.names.fresh("waits")).results[0]
        running = self.emit(comb.XorOp([self.ports[ports.RESET], one]), self.names.fresh("running"))
        stalled = self.emit(comb.AndOp([any_waits, running.results[0]]),
                            self.names.fresh("stall")).results[0]
        wire = st.WireOp.create(properties={"wire_name": StringAttr(STALL_WIRE)},
                                result_types=[IntegerType(1)])
        self.emit(wire, STALL_WIRE)
        self.top.add_op(st.AssignOp.of(wire.result, stalled))
        return wire.result

    def clock_enable(self, cell: st.CellOp):
        """A multi-cycle unit runs while the design is not stalled (insert_stall gates it)."""
        self.top.add_op(st.AssignOp.of(cell.port("ce"), self.const(1, 1)))

    def number_segments(self, block: Block):
        for item in split_block(block):
            if isinstance(item, scf.ForOp) and pipeline_ii(item) is not None:
                name = self.names.fresh("pipe")
                self.pipeline_ii[name] = item.attributes[II_ATTR].value.data
                for op, _ in iteration_ops(item.body.block):
                    self.segment_of[op] = name
            elif isinstance(item, list):
                name = self.names.fresh("grp")
                for op in item:
                    self.segment_of[op] = name
            else:
                for region in item.regions:
                    for b in region.blocks:
                        self.number_segments(b)

    def registered_values(self) -> dict[SSAValue, bool]:
        """Values that need a register, mapped to whether a control decision reads them."""
        needs: dict[SSAValue, bool] = {}
        for op in self.function.walk():
            if op not in self.segment_of or self.segment_of[op] in self.pipeline_ii:
                continue  # pipelined values travel in stage registers (see read)
            ready = op.attributes[READY_ATTR].value.data
            for result in op.results:
                for use in result.uses:
                    user = use.operation
                    if user in self.segment_of:
                        later = (
                            self.segment_of[user] != self.segment_of[op]
                            or user.attributes[CYCLE_ATTR].value.data != ready
                        )
                        if later:
                            needs.setdefault(result, False)
                    elif is_predicated(user):  # read by the guards of the ops in it
                        if any(self.segment_of[g] != self.segment_of[op]
                               or g.attributes[CYCLE_ATTR].value.data != ready
                               for g in predicated_ops(user) if reads_predicate(g)):
                            needs.setdefault(result, False)
                    else:  # control ops and terminators decide at a cycle boundary
                        needs[result] = True
        return needs

    # -- values ---------------------------------------------------------------------------
    def read(self, value: SSAValue, group: str, cycle: int) -> SSAValue:
        """The structural value carrying ``value`` in ``cycle`` of ``group``."""
        if isinstance(value.owner, arith.ConstantOp):
            return self.constant_of(value)
        info = self.values.get(value)
        if info is None:
            raise FpgaError.at(value.owner if isinstance(value.owner, Operation) else self.function,
                               "value used before it is defined in the schedule")
        if info.always is not None:
            return info.always
        if info.group == group and info.ready == cycle:
            return info.wire
        if info.group == group and group in self.pipeline_ii:
            return self.stage(value, info, group, cycle)
        if info.reg_out is None:
            raise FpgaError(f"internal: {value} read in {group}@{cycle} has no register")
        return info.reg_out

    def stage(self, value: SSAValue, info: ValueInfo, group: str, cycle: int) -> SSAValue:
        """``value`` of the same pipelined iteration, read ``cycle - ready`` cycles after it
        was produced. Stage j is captured when its iteration is in cycle
        ``ready + (j-1)*II`` and holds until the next iteration overwrites it II cycles
        later, so stage ceil((cycle - ready) / II) is the one to read."""
        ii = self.pipeline_ii[group]
        needed = -(-(cycle - info.ready) // ii)
        if info.stages is None:
            info.stages, info.stage_reads = [], []
        block = self.group_ops[group].body.block
        width = bit_width(value.type)
        # an index or integer of a known range travels in the bits the range needs (a
        # flattened loop's stepped variables: 32-bit indices that count to 11)
        kept, signed = width, True
        span = self.ranges.known(value) if isinstance(value.type, (IntegerType, IndexType)) \
            else None
        if span is not None:
            signed = span[0] < 0
            kept = min(width, signed_bits(*span) if signed else max(1, span[1].bit_length()))
        hint = hint_of(value, 'v')
        while len(info.stages) < needed:
            j = len(info.stages) + 1
            source = self.resize(info.wire, kept, signed, hint) if j == 1 else info.stages[-1]
            reg = self.register(f"{hint}_s{j}", kept, with_next=False)
            g = self.guard(group, info.ready + (j - 1) * ii)
            self.assign(block, reg.in_, source, g)
            self.assign(block, reg.en, self.const(1, 1), g)
            info.stages.append(reg.out)
            info.stage_reads.append(self.resize(reg.out, width, signed, hint))
        return info.stage_reads[needed - 1]

    def op_guard(self, group: str, cycle: int) -> SSAValue:
        """The guard of an access: the group's cycle, and the conditions of the ifs around
        it in a pipelined loop or a predicated if (which are not branched)."""
        g = self.guard(group, cycle)
        for k, (cond, polarity) in enumerate(self.predicate):
            # one conjunction per prefix of the ifs around: ops under the same ifs share it,
            # and a nest of n ifs costs n gates, not one chain of n per op
            key = (group, cycle, self.predicate[:k + 1])
            if key not in self.op_guards:
                c = self.read(cond, group, cycle)
                if not polarity:
                    c = self.emit(comb.XorOp([c, self.const(1, 1)]),
                                  self.names.fresh("not")).results[0]
                self.op_guards[key] = self.emit(comb.AndOp([g, c]),
                                                self.names.fresh("pred")).results[0]
            g = self.op_guards[key]
        return g

    def control_value(self, value: SSAValue) -> SSAValue:
        if isinstance(value.owner, arith.ConstantOp):
            return self.constant_of(value)
        info = self.values[value]
        if info.next is not None:
            return info.next
        if info.always is not None:
            return info.always
        raise FpgaError(f"internal: control reads {value} which has no register")

    def constant_of(self, value: SSAValue) -> SSAValue:
        attr = value.owner.value
        if isinstance(value.type, Float32Type):  # its IEEE-754 bits
            return self.const(float32_bits(attr.value.data), 32)
        return self.const(attr.value.data, bit_width(value.type))

    def define(self, result: SSAValue, wire: SSAValue, group: str, ready: int, block: Block,
               hint: str):
        if signed_constant(wire) is not None:
            # the op folded to a constant (an extension or shift of one, as a fixed-point
            # constant arrives): every cycle reads it, no register keeps it
            self.values[result] = ValueInfo(wire=wire, group=group, ready=ready, always=wire)
            return
        info = ValueInfo(wire=wire, group=group, ready=ready)
        self.values[result] = info
        if result in self.needs:
            reg = self.register(hint, bit_width(result.type), self.needs[result])
            g = self.guard(group, ready)
            self.assign(block, reg.in_, wire, g)
            self.assign(block, reg.en, self.const(1, 1), g)
            info.reg_out, info.next = reg.out, reg.next

    # -- control tree -----------------------------------------------------------------
    def build_block(self, block: Block, control: Block):
        for item in split_block(block):
            if isinstance(item, list):
                self.build_segment(item, control)
            elif isinstance(item, scf.ForOp) and pipeline_ii(item) is not None:
                self.build_pipeline(item, control)
            elif isinstance(item, scf.ForOp):
                self.build_for(item, control)
            elif isinstance(item, scf.IfOp):
                self.build_if(item, control)
            elif isinstance(item, scf.WhileOp):
                self.build_while(item, control)

    def build_segment(self, ops: list[Operation], control: Block):
        name = self.segment_of[ops[0]]
        group = st.StaticGroupOp.create(
            properties={"sym_name": StringAttr(name),
                        "latency": IntegerAttr(segment_length(ops), i32)},
            regions=[Region(Block())],
        )
        self.emit(group)
        self.group_ops[name] = group
        for op in ops:
            self.predicate = predicate_of(op)
            self.build_op(op, name, group.body.block)
        self.predicate = ()
        control.add_op(st.EnableOp.create(properties={"group": StringAttr(name)}))

    def loop_counter(self, loop: scf.ForOp, with_next: bool):
        """The induction register of ``loop`` and its bounds as the control sees them. When
        the range of the bounds is known (constants, or index arithmetic on outer loop
        counters with known ranges: triangular loops) the register is only as wide as the
        values the control computes need (the bounds, up to ub + step - 1, with a sign bit
        for its signed tests), which keeps loop tests and increments short; the datapath
        reads it extended to the index width, the bounds are read truncated to it."""
        full = bit_width(loop.lb.type)
        iv = loop.body.block.args[0]
        span = counter_span(loop, self.ranges)
        width = full if span is None else min(full, signed_bits(*span))
        reg = self.register(hint_of(iv, "iv"), width, with_next=with_next)
        if width == full:
            bounds = [self.control_value(v) for v in (loop.lb, loop.ub, loop.step)]
            return reg, reg.out, reg.next, bounds
        negative = span[0] < 0
        out = self.resize(reg.out, full, negative, hint_of(iv, "iv"))
        nxt = self.resize(reg.next, full, negative, hint_of(iv, "iv")) if with_next else None
        bounds = [self.resize(self.control_value(v), width, True, hint_of(iv, "bound"))
                  for v in (loop.lb, loop.ub, loop.step)]
        return reg, out, nxt, bounds

    def source_index(self, op: scf.ForOp | scf.IfOp) -> IntegerAttr:
        """The position of ``op`` in ``source_controls`` of the function."""
        if self._sources is None:
            self._sources = {c: k for k, c in enumerate(source_controls(self.function))}
        return IntegerAttr(self._sources[op], i32)

    def build_for(self, loop: scf.ForOp, control: Block):
        iv = loop.body.block.args[0]
        reg, out, nxt, bounds = self.loop_counter(loop, with_next=True)
        self.values[iv] = ValueInfo(always=out, next=nxt)
        op = st.ForOp.build(
            operands=[reg.in_, reg.en, reg.out, *bounds],
            regions=[Region(Block())],
            attributes={"loop_name": StringAttr(hint_of(iv, "loop")),
                        SOURCE_ATTR: self.source_index(loop)},
        )
        self.build_block(loop.body.block, op.body.block)
        self.ensure_cycles(op.body.block)
        control.add_op(op)

    def build_pipeline(self, loop: scf.ForOp, control: Block):
        entries = iteration_ops(loop.body.block)
        name = self.segment_of[entries[0][0]] if entries else self.names.fresh("pipe")
        self.pipeline_ii.setdefault(name, loop.attributes[II_ATTR].value.data)
        depth = loop.attributes[DEPTH_ATTR].value.data
        group = st.StaticGroupOp.create(
            properties={"sym_name": StringAttr(name), "latency": IntegerAttr(depth, i32)},
            regions=[Region(Block())],
        )
        self.emit(group)
        self.group_ops[name] = group
        iv = loop.body.block.args[0]
        reg, out, _, bounds = self.loop_counter(loop, with_next=False)
        self.values[iv] = ValueInfo(wire=out, group=name, ready=0)
        for op, predicate in entries:
            self.predicate = predicate
            self.build_op(op, name, group.body.block)
        self.predicate = ()
        control.add_op(st.PipelineOp.build(
            operands=[reg.in_, reg.en, reg.out, *bounds],
            properties={"group": StringAttr(name),
                        "ii": IntegerAttr(self.pipeline_ii[name], i32)},
            attributes={"loop_name": StringAttr(hint_of(iv, "loop")),
                        SOURCE_ATTR: self.source_index(loop),
                        "requested_ii": IntegerAttr(pipeline_ii(loop), i32),
                        **({"ii_reason": loop.attributes[REASON_ATTR]}
                           if REASON_ATTR in loop.attributes else {}),
                        **({"fused": loop.attributes[FUSED_ATTR]}
                           if FUSED_ATTR in loop.attributes else {})},
        ))

    def build_if(self, branch: scf.IfOp, control: Block):
        op = st.IfOp.build(operands=[self.control_value(branch.cond)],
                           regions=[Region(Block()), Region(Block())],
                           attributes={SOURCE_ATTR: self.source_index(branch)})
        self.build_block(branch.true_region.block, op.then.block)
        if branch.false_region.blocks:
            self.build_block(branch.false_region.block, op.else_.block)
        control.add_op(op)

    def build_while(self, loop: scf.WhileOp, control: Block):
        before = Block()
        self.build_block(loop.before_region.block, before)
        self.ensure_cycles(before)
        condition = loop.before_region.block.last_op
        if not isinstance(condition, scf.ConditionOp) or condition.args:
            raise FpgaError.at(loop, "the before region must end in scf.condition with no forwarded values")
        cond = self.control_value(condition.condition)
        after = Block()
        self.build_block(loop.after_region.block, after)
        op = st.WhileOp.build(operands=[cond], regions=[Region(before), Region(after)])
        control.add_op(op)

    def min_cycles(self, block: Block) -> int:
        total = 0
        for op in block.ops:
            if isinstance(op, st.EnableOp):
                total += self.group_ops[op.group.data].latency.value.data
            elif isinstance(op, st.IfOp):
                total += min(self.min_cycles(op.then.block), self.min_cycles(op.else_.block))
            elif isinstance(op, st.WhileOp):
                total += self.min_cycles(op.before.block)
            elif isinstance(op, st.ForOp) and (static_trip_count(op) or 0) > 0:
                total += self.min_cycles(op.body.block)
            elif isinstance(op, st.PipelineOp) and (static_trip_count(op) or 0) > 0:
                total += self.group_ops[op.group.data].latency.value.data
        return total

    def ensure_cycles(self, block: Block):
        """A loop body (or the whole kernel) must spend at least one cycle on every path,
        or the FSM would loop within one cycle."""
        if self.min_cycles(block) > 0:
            return
        name = self.names.fresh("grp")
        group = st.StaticGroupOp.create(
            properties={"sym_name": StringAttr(name), "latency": IntegerAttr(1, i32)},
            regions=[Region(Block())],
        )
        self.emit(group)
        self.group_ops[name] = group
        block.add_op(st.EnableOp.create(properties={"group": StringAttr(name)}))

    # -- datapath -------------------------------------------------------------------------
    def build_op(self, op: Operation, group: str, block: Block):
        cycle = op.attributes[CYCLE_ATTR].value.data
        ready = op.attributes[READY_ATTR].value.data
        kind = op_kind(op)

        def arg(i: int) -> SSAValue:
            return self.read(op.operands[i], group, cycle)

        if isinstance(op, stream.PutOp):
            side = self.stream_side(op)
            g = self.op_guard(group, cycle)
            self.assign(block, side.data, arg(0), g)
            self.assign(block, side.strobe, self.const(1, 1), g)
            self.stall_terms.append((g, side.ready))
            return
        if isinstance(op, stream.ClearOp):
            reset = self.fifo_resets.get(op.stream)
            if reset is None:
                raise FpgaError.at(op, "clears a stream that is not a local stream")
            self.assign(block, reset, self.const(1, 1), self.op_guard(group, cycle))
            return
        if isinstance(op, stream.GetOp):
            side = self.stream_side(op)
            g = self.op_guard(group, cycle)
            self.assign(block, side.strobe, self.const(1, 1), g)
            self.stall_terms.append((g, side.ready))
            self.define(op.result, side.data, group, ready, block,
                        hint_of(op.result, f"{hint_of(op.stream, 'stream')}_value"))
            return
        if isinstance(op, memref.StoreOp):
            value = arg(0)
            if is_scalar_memref(op.memref):
                reg = self.registers[op.memref]
                g = self.op_guard(group, cycle)
                self.assign(block, reg.in_, value, g)
                self.assign(block, reg.en, self.const(1, 1), g)
                return
            mem = self.memory_of(op)
            g = self.op_guard(group, cycle)
            self.assign(block, mem.address, self.address(op, mem, group, cycle), g)
            self.assign(block, mem.ce, self.const(1, 1), g)
            self.assign(block, mem.we, self.const(1, 1), g)
            self.assign(block, mem.d, value, g)
            return
        result = op.results[0]
        width = bit_width(result.type)
        hint = hint_of(result, op.name.split(".")[-1])
        if isinstance(op, memref.LoadOp):
            hint = hint_of(result, f"{hint_of(op.memref, 'mem')}_value")
            if is_scalar_memref(op.memref):
                reg = self.registers[op.memref]
                wire = reg.out
                if FORWARDED_ATTR in op.attributes:  # the value written in this cycle
                    if reg.next is None:
                        reg.next = self.emit(comb.MuxOp(reg.en, reg.in_, reg.out),
                                             self.names.fresh(f"{hint}_next")).result
                    wire = reg.next
            else:
                mem = self.memory_of(op)
                g = self.op_guard(group, cycle)
                self.assign(block, mem.address, self.address(op, mem, group, cycle), g)
                self.assign(block, mem.ce, self.const(1, 1), g)
                wire = mem.q
            self.define(result, wire, group, ready, block, hint)
            return
        if op.name == "arith.bitcast":  # a float32's bits: the same wires
            self.define(result, arg(0), group, ready, block, hint)
            return
        if op.name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
                       "arith.index_castui"):
            signed = op.name in ("arith.extsi", "arith.index_cast")
            wire = self.resize(arg(0), width, signed, hint)
            self.define(result, wire, group, ready, block, hint)
            return
        if isinstance(op, (arith.FloorDivSIOp, arith.CeilDivSIOp)):
            wire = self.rounded_division(op, arg(0), arg(1), width, group, cycle, block, hint)
            self.define(result, wire, group, ready, block, hint)
            return
        if kind == "div":
            wire = self.divider(op, arg(0), arg(1), width, group, cycle, block, hint)
            self.define(result, wire, group, ready, block, hint)
            return
        unit = pipelined_unit(op)
        if unit is not None:
            primitive, params = unit
            key = (primitive, tuple(sorted(params.items())), op.attributes[UNIT_ATTR].value.data)
            cell = self.units.get(key)
            operands = [arg(i) for i in range(len(op.operands))]
            out_port = "p" if kind == "mul" else "r"
            if cell is None:
                cell = self.cell(hint, primitive, params,
                                 [("ce", "in", 1),
                                  *((name, "in", v.type.width.data)
                                    for name, v in zip("ab", operands)),
                                  (out_port, "out", width)])
                self.clock_enable(cell)
                self.units[key] = cell
            # a shared cell (transforms/fpga/bind_multipliers) takes the operands of the group
            # issuing in this cycle
            g = self.guard(group, cycle) if SHARERS_ATTR in op.attributes else None
            for name, v in zip("ab", operands):
                self.top.add_op(st.AssignOp.of(cell.port(name), v, g))
            self.define(result, cell.port(out_port), group, ready, block, hint)
            return
        if kind == "fcmp":  # combinational: a cell of its own
            primitive, params = float_unit_cell(op)
            cell = self.cell(hint, primitive, params, [
                ("ce", "in", 1), ("a", "in", 32), ("b", "in", 32), ("r", "out", 1)])
            self.top.add_op(st.AssignOp.of(cell.port("ce"), self.const(1, 1)))
            for name, i in (("a", 0), ("b", 1)):
                self.top.add_op(st.AssignOp.of(cell.port(name), arg(i)))
            self.define(result, cell.port("r"), group, ready, block, hint)
            return
        if kind == "fsign":  # negf flips the sign bit, absf clears it
            value = arg(0)
            sign = self.emit(comb.ExtractOp(value, IntegerAttr(31, i32), IntegerType(1)),
                             self.names.fresh("sign")).results[0]
            if isinstance(op, arith.NegfOp):
                sign = self.emit(comb.XorOp([sign, self.const(1, 1)]),
                                 self.names.fresh("sign")).results[0]
            else:
                sign = self.const(0, 1)
            magnitude = self.resize(value, 31, False, "magnitude")
            wire = self.emit(comb.ConcatOp([sign, magnitude], IntegerType(32)),
                             self.names.fresh(hint)).results[0]
            self.define(result, wire, group, ready, block, hint)
            return
        folded = self.fold(op, arg, width)
        if folded is not None:
            self.define(result, folded, group, ready, block, hint)
            return
        comb_op = self.comb_of(op, arg)
        if comb_op is None:
            raise FpgaError.at(op, "operation is not supported by the FPGA back end")
        self.emit(comb_op, self.names.fresh(hint))
        self.define(result, comb_op.results[0], group, ready, block, hint)

    def fold(self, op: Operation, arg, width: int) -> SSAValue | None:
        """The value of ``op`` when it is known without hardware: all operands constant,
        or an identity such as ``x - x``, ``x & 0``, a select on a constant. Verilator
        rejects comparisons it can prove constant, so constants must not reach them
        disguised as logic."""
        if not isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp,
                               arith.XOrIOp, arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp,
                               arith.SelectOp)):
            return None
        mask = (1 << width) - 1
        values = [arg(i) for i in range(len(op.operands))]
        known = [signed_constant(v) for v in values]
        if isinstance(op, arith.SelectOp):
            if known[0] is not None:
                return values[1] if known[0] & 1 else values[2]
            return values[1] if values[1] is values[2] else None
        a, b = values
        ka, kb = known
        if a is b and isinstance(op, (arith.SubiOp, arith.XOrIOp)):
            return self.const(0, width)
        if a is b and isinstance(op, (arith.AndIOp, arith.OrIOp)):
            return a
        if isinstance(op, (arith.AndIOp, arith.MuliOp)) and 0 in (ka, kb):
            return self.const(0, width)
        if isinstance(op, arith.OrIOp) and -1 in (ka, kb):
            return self.const(mask, width)
        if ka is None or kb is None:
            return None
        ua, ub = ka & mask, kb & mask
        if isinstance(op, (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)) and ub >= width:
            return None  # the front end never shifts this far; leave it to the hardware
        result = {
            arith.AddiOp: lambda: ua + ub, arith.SubiOp: lambda: ua - ub,
            arith.MuliOp: lambda: ua * ub, arith.AndIOp: lambda: ua & ub,
            arith.OrIOp: lambda: ua | ub, arith.XOrIOp: lambda: ua ^ ub,
            arith.ShLIOp: lambda: ua << ub, arith.ShRUIOp: lambda: ua >> ub,
            arith.ShRSIOp: lambda: ka >> ub,
        }[type(op)]()
        return self.const(result & mask, width)

    def comb_of(self, op: Operation, arg) -> Operation | None:
        if isinstance(op, arith.AddiOp):
            return comb.AddOp([arg(0), arg(1)])
        if isinstance(op, arith.SubiOp):
            return comb.SubOp(arg(0), arg(1))
        if isinstance(op, arith.MuliOp):
            product = comb.MulOp([arg(0), arg(1)])
            if signed_narrow_product(op):
                product.attributes[SIGNED_PRODUCT_ATTR] = UnitAttr()
            return product
        if isinstance(op, arith.AndIOp):
            return comb.AndOp([arg(0), arg(1)])
        if isinstance(op, arith.OrIOp):
            return comb.OrOp([arg(0), arg(1)])
        if isinstance(op, arith.XOrIOp):
            return comb.XorOp([arg(0), arg(1)])
        if isinstance(op, arith.ShLIOp):
            return comb.ShlOp(arg(0), arg(1))
        if isinstance(op, arith.ShRUIOp):
            return comb.ShrUOp(arg(0), arg(1))
        if isinstance(op, arith.ShRSIOp):
            return comb.ShrSOp(arg(0), arg(1))
        if isinstance(op, arith.CmpiOp):
            lhs, rhs, predicate = arg(0), arg(1), op.predicate.value.data
            known = constant_comparison(lhs, rhs, predicate)
            if known is not None:  # Verilator rejects comparisons that cannot vary
                return hw.ConstantOp(int(known), IntegerType(1), truncate_bits=True)
            return comb.ICmpOp(lhs, rhs, predicate)
        if isinstance(op, arith.SelectOp):
            return comb.MuxOp(arg(0), arg(1), arg(2))
        return None

    def resize(self, value: SSAValue, width: int, signed: bool, hint: str) -> SSAValue:
        have = value.type.width.data
        if have == width:
            return value
        known = signed_constant(value)
        if known is not None:  # fold: a literal reads better and lints clean
            return self.const(known if signed else known & ((1 << have) - 1), width)
        if have > width:
            op = comb.ExtractOp(value, IntegerAttr(0, i32), IntegerType(width))
            return self.emit(op, self.names.fresh(hint)).results[0]
        if signed:
            msb = value if have == 1 else self.emit(
                comb.ExtractOp(value, IntegerAttr(have - 1, i32), IntegerType(1)),
                self.names.fresh("msb")).results[0]
            high = self.emit(comb.ReplicateOp(msb, IntegerType(width - have)),
                             self.names.fresh("sext")).results[0]
        else:
            high = self.const(0, width - have)
        return self.emit(comb.ConcatOp([high, value], IntegerType(width)),
                         self.names.fresh(hint)).results[0]

    def stream_side(self, op) -> StreamSide:
        side = self.stream_sides.get(stream_port(op))
        if side is None:
            verb = "gets from" if isinstance(op, stream.GetOp) else "puts to"
            raise FpgaError.at(op, f"{verb} a stream that is not a parameter of that direction "
                                   "or a local stream")
        return side

    def memory_of(self, op) -> Memory:
        mem = self.memories.get(op.memref)
        if mem is None:
            raise FpgaError.at(op, "accesses a memref that is neither a parameter, a local "
                                   "alloca nor a constant array")
        port = op.attributes.get(PORT_ATTR)
        if port is not None and port.value.data == 1:
            return mem.port1
        return mem

    def address(self, op, mem: Memory, group: str, cycle: int) -> SSAValue:
        """Row-major word address of ``op``'s indices, truncated to the port width."""
        indices = [self.read(v, group, cycle) for v in op.indices]
        if len(indices) != len(mem.shape):
            raise FpgaError.at(op, "index count does not match the memref rank")
        linear = indices[0]
        for size, index in zip(mem.shape[1:], indices[1:]):
            known = signed_constant(linear), signed_constant(index)
            if None not in known:
                linear = self.const(known[0] * size + known[1], 32)
            elif size & (size - 1) == 0:
                # a power of two: the index (in range by the language's contract) fills
                # the low bits, no adder
                bits = size.bit_length() - 1
                if bits:
                    high = self.resize(linear, 32 - bits, False, "addr")
                    low = self.resize(index, bits, False, "addr")
                    linear = self.emit(comb.ConcatOp([high, low], IntegerType(32)),
                                       self.names.fresh("addr")).results[0]
            else:
                scaled = self.emit(comb.MulOp([linear, self.const(size, 32)]),
                                   self.names.fresh("addr")).results[0]
                linear = self.emit(comb.AddOp([scaled, index]), self.names.fresh("addr")).results[0]
        return self.resize(linear, mem.address_width, False, "addr")

    def rounded_division(self, op, a, b, width, group, cycle, block, hint) -> SSAValue:
        """floordivsi / ceildivsi, which lower-affine emits for affine maps: by a
        power of two an arithmetic shift (after adding divisor - 1 for ceil); else the
        divider's truncated quotient, moved by one when the remainder is not zero and
        its sign calls for it."""
        ceil = isinstance(op, arith.CeilDivSIOp)
        shift = power_of_two_divisor(op)
        if shift is not None:
            if ceil and shift:
                a = self.emit(comb.AddOp([a, self.const((1 << shift) - 1, width)]),
                              self.names.fresh(hint)).results[0]
            return self.emit(comb.ShrSOp(a, self.const(shift, width)), self.names.fresh(hint)).results[0]
        unit = max(width, 2)
        cell = self.divider_cell(op, a, b, unit, True, group, cycle, block, hint)
        quotient = self.resize(cell.port("quotient"), width, True, hint)
        remainder = self.resize(cell.port("remainder"), width, True, hint)
        zero = self.const(0, width)

        def emit(op_):
            return self.emit(op_, self.names.fresh(hint)).results[0]

        inexact = emit(comb.ICmpOp(remainder, zero, "ne"))
        r_negative = emit(comb.ICmpOp(remainder, zero, "slt"))
        b_negative = emit(comb.ICmpOp(b, zero, "slt"))
        signs_differ = emit(comb.XorOp([r_negative, b_negative]))
        if ceil:  # round up when the exact quotient is positive: signs agree
            move = emit(comb.AndOp([inexact, emit(comb.XorOp([signs_differ, self.const(1, 1)]))]))
            return emit(comb.MuxOp(move, emit(comb.AddOp([quotient, self.const(1, width)])), quotient))
        move = emit(comb.AndOp([inexact, signs_differ]))
        return emit(comb.MuxOp(move, emit(comb.SubOp(quotient, self.const(1, width))), quotient))

    def divider_cell(self, op, a, b, unit_width, signed, group, cycle, block, hint) -> st.CellOp:
        a = self.resize(a, unit_width, signed, "div_in")
        b = self.resize(b, unit_width, signed, "div_in")
        unit_ports = [("a", "in", unit_width), ("b", "in", unit_width),
                      ("quotient", "out", unit_width), ("remainder", "out", unit_width)]
        params = {"WIDTH": unit_width, "SIGNED": int(signed)}
        if PIPELINED_DIVIDER_ATTR in op.attributes:  # takes operands every cycle, no start
            cell = self.cell(hint, "vichls_div_pipe", params, [("ce", "in", 1), *unit_ports])
        else:
            cell = self.cell(hint, "vichls_div", params, [("ce", "in", 1), ("start", "in", 1),
                                                          *unit_ports])
            self.assign(block, cell.port("start"), self.const(1, 1), self.guard(group, cycle))
        self.clock_enable(cell)
        self.top.add_op(st.AssignOp.of(cell.port("a"), a))
        self.top.add_op(st.AssignOp.of(cell.port("b"), b))
        return cell

    def divider(self, op, a, b, width, group, cycle, block, hint) -> SSAValue:
        signed = isinstance(op, (arith.DivSIOp, arith.RemSIOp))
        unit_width = max(width, 2)  # the template needs at least two bits
        cell = self.divider_cell(op, a, b, unit_width, signed, group, cycle, block, hint)
        quotient = isinstance(op, (arith.DivSIOp, arith.DivUIOp))
        out = cell.port("quotient" if quotient else "remainder")
        return self.resize(out, width, signed, hint)


def build_structural(module: ModuleOp, function: func.FuncOp, signature: KernelSignature,
                     task_mode: bool = False) -> ModuleOp:
    """A new module holding the component built from the scheduled ``function``."""
    component = StructuralBuilder(function, signature, task_mode).build()
    return ModuleOp([component])


@dataclass(frozen=True)
class ToStructuralPass(ModulePass):
    """``to-structural``: the module's scheduled top kernel becomes its structural component,
    which then is all the module holds. Assumes fpga-prepare and fpga-schedule have run.
    Options: ``task_mode``, the component of a dataflow task (see above); ``device``.

    The FPGA driver calls ``build_structural`` itself, because its report reads both the
    loop level and the structural level; this pass serves ``vichls-opt`` and IR tests."""

    name = "to-structural"
    task_mode: bool = False
    device: str = "xc7"  # the operator library's device (which memories are LUT RAMs)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        top = top_function(op)
        with oplib.use_device(self.device):
            structural = build_structural(op, top, signature_of(top), self.task_mode)
        for old in list(op.body.block.ops):
            old.detach()
            old.erase(safe_erase=False)
        for new in list(structural.body.block.ops):
            new.detach()
            op.body.block.add_op(new)
