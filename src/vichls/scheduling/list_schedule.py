"""List scheduling of straight-line code, with chaining under the clock period.

Every block of the (lowered) loop-level IR is cut into segments: maximal runs of
operations between control ops (``scf.for``, ``scf.if``, ``scf.while``). Each segment is
scheduled on its own and becomes one static group of the structural level. Constants,
allocas and terminators are not scheduled (they cost no time). An ``scf.if`` marked
``vichls.predicated`` (transforms/fpga/predicate_ifs.py) is not a control op: its operations belong
to the segment around it, and those with an effect (memory and register accesses) wait
for the conditions of the ifs around them, which guard them in hardware.

Constraints, all read from the operator library (vichls.targets.oplib):
- data dependences: a combinational op may chain after its operands in the same cycle as
  long as the sum of delays on the path stays within ``clock_period - reserve``; a
  multi-cycle op (multiplier, divider, memory read) delivers its result ``latency`` cycles
  after it issues;
- memory ordering per memref: stores are ordered after every earlier access and loads
  after earlier stores; loads may reorder among themselves; a 0-d memref (a register)
  may be written in the cycle it is read;
- at most one access per memory (array memref) per cycle: one port per array;
- a write to a register with many writers chains through their multiplexer
  (``oplib.register_input_ns``; ECP5 only);
- an access guarded by the condition of a predicated if computed in the same cycle leaves
  the device's decision time after it (the guard selects among the port's accessors, as
  the FSM's decisions do; 0 on xc7);
- a value that a control decision reads (a loop bound, an if or while condition) must
  leave the device's decision time (``oplib.decision_reserve_ns``, 0 on xc7) free at the
  end of its ready cycle, since the FSM's tests and next-state logic follow it in the
  segment's last cycle; one that settles later makes the segment one cycle longer, so
  that the decision reads it from its register (``vichls.decided``);
- streams (dialects/stream.py): at most one get and one put per stream per cycle, and
  the ops on one stream keep their program order, one cycle apart (a FIFO moves one
  element per edge and side). A get or put takes no time of its own: when the stream is
  not ready the whole design stalls (structural/insert_stall.py), which the schedule ignores.

The result is written onto the IR as attributes: ``vichls.cycle`` (issue cycle within the
segment) and ``vichls.ready`` (the cycle in which the result can be read, combinationally
from the unit's output; later cycles read a register). The segment's length is
``max(ready) + 1``. Ops are placed in priority order (longest latency path to the end of
the segment first), each at its earliest feasible cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.dialects import arith, math, memref, scf
from xdsl.dialects.builtin import Float32Type, IndexType, IntegerType, MemRefType
from xdsl.ir import Block, Operation

from vichls.dialects.attributes import (
    DECIDED_ATTR,
    PIPELINED_DIVIDER_ATTR,
    PREDICATED_ATTR,
    READY_ATTR,
    SHARERS_ATTR,
)
from vichls.analysis.loop_utils import scf_constant_bounds
from vichls.analysis.memory_names import is_scalar_memref  # noqa: F401 (used here and re-exported)
from vichls.targets import oplib
from vichls.dialects import stream

#: on an ``scf.if`` without results whose operations run in the segment around it, guarded
#: by its condition, instead of in branches of the control (transforms/fpga/predicate_ifs.py)
#: on an op whose result a control decision reads only from this cycle of the segment on

_BINARY_KINDS = {
    arith.AddiOp: "add",
    arith.SubiOp: "sub",
    arith.CmpiOp: "cmp",
    arith.AndIOp: "logic",
    arith.OrIOp: "logic",
    arith.XOrIOp: "logic",
    arith.SelectOp: "mux",
    arith.DivSIOp: "div",
    arith.DivUIOp: "div",
    arith.RemSIOp: "div",
    arith.RemUIOp: "div",
}
#: float32 operators: the kinds of the units of oplib.FLOAT_UNITS, and the sign-bit ops
_FLOAT_KINDS = {
    arith.AddfOp: "fadd",
    arith.SubfOp: "fadd",
    arith.MulfOp: "fmul",
    arith.DivfOp: "fdiv",
    math.SqrtOp: "fsqrt",
    arith.CmpfOp: "fcmp",
    arith.SIToFPOp: "itof",
    arith.UIToFPOp: "itof",
    arith.FPToSIOp: "ftoi",
    arith.FPToUIOp: "ftoi",
    arith.NegfOp: "fsign",
    math.AbsFOp: "fsign",
}
# By name: xDSL 0.74 has no class for arith.index_castui.
WIRE_OP_NAMES = (
    "arith.bitcast",  # a float32's bits: the same wires
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.index_cast",
    "arith.index_castui",
)
_SHIFT_OPS = (arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)


def bit_width(type_) -> int:
    """Hardware width of an IR type: ``index`` is 32 bits (docs/ir.md)."""
    if isinstance(type_, IndexType):
        return 32
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, Float32Type):  # its IEEE-754 bits
        return 32
    if isinstance(type_, MemRefType):
        return bit_width(type_.element_type)
    raise TypeError(f"no hardware width for type {type_}")


def is_constant(value) -> bool:
    return isinstance(value.owner, arith.ConstantOp)


def stream_port(op: Operation):
    """The scheduling resource of a stream op: one get side and one put side per stream."""
    if isinstance(op, stream.GetOp):
        return (op.stream, "get")
    if isinstance(op, (stream.PutOp, stream.ClearOp)):  # a clear resets the write side
        return (op.stream, "put")
    return None


def forwarding_store(op: Operation) -> bool:
    """A store to a register (0-d memref) of the result of a multi-cycle unit (a pipelined
    multiplier, a floating-point unit, a divider, a memory read): that value leaves a
    register, so no combinational path runs from a load of the register in the store's
    cycle back to it. In a pipelined loop the next iteration's load may then share the
    store's cycle and read the value being written (``vichls.forwarded``: the register's
    input, forwarded), so a recurrence through the register costs the unit's latency,
    not one cycle more. (The modulo scheduler and bench/bound.py both read this.)"""
    if not isinstance(op, memref.StoreOp) or not is_scalar_memref(op.memref):
        return False
    owner = op.value.owner
    return isinstance(owner, Operation) and op_kind(owner) is not None \
        and op_cost(owner).latency >= 1


def is_predicated(op: Operation | None) -> bool:
    return isinstance(op, scf.IfOp) and PREDICATED_ATTR in op.attributes


def predicated_ops(branch: scf.IfOp) -> list[Operation]:
    """The scheduled operations of a predicated if (both regions, nested ones included),
    in program order."""
    out: list[Operation] = []
    for region in (branch.true_region, branch.false_region):
        for block in region.blocks:
            for op in block.ops:
                if is_predicated(op):
                    out += predicated_ops(op)
                elif op_kind(op) is not None:
                    out.append(op)
    return out


def predicate_of(op: Operation) -> tuple:
    """(condition, polarity) of every predicated if around ``op``, outermost first."""
    out = []
    while is_predicated(parent := op.parent_op()):
        out.append((parent.cond, op.parent_region() is parent.true_region))
        op = parent
    return tuple(reversed(out))


def reads_predicate(op: Operation) -> bool:
    """Is ``op`` guarded by the conditions of the predicated ifs around it in hardware (it
    has an effect, or it occupies a memory port)?"""
    return op_kind(op) in ("mem_read", "mem_write", "reg_write", "stream_get", "stream_put",
                           "stream_clear")


def is_control(op: Operation) -> bool:
    return isinstance(op, (scf.ForOp, scf.IfOp, scf.WhileOp))


def power_of_two_divisor(op: Operation) -> int | None:
    """log2 of a constant positive power-of-two divisor of ``op``, else None."""
    divisor = op.operands[1]
    if not is_constant(divisor):
        return None
    value = divisor.owner.value.value.data
    if value > 0 and value & (value - 1) == 0:
        return value.bit_length() - 1
    return None


def op_kind(op: Operation) -> str | None:
    """The operator-library kind of ``op``, or None for free ops (constants, allocas,
    terminators) and for control."""
    if isinstance(op, (arith.ConstantOp, memref.AllocaOp, stream.CreateOp)) or is_control(op):
        return None
    if isinstance(op, stream.GetOp):
        return "stream_get"
    if isinstance(op, stream.PutOp):
        return "stream_put"
    if isinstance(op, stream.ClearOp):
        return "stream_clear"
    kind = _BINARY_KINDS.get(type(op)) or _FLOAT_KINDS.get(type(op))
    if kind is not None:
        return kind
    if op.name in WIRE_OP_NAMES:
        return "wire"
    if isinstance(op, _SHIFT_OPS):
        return "shift_const" if is_constant(op.operands[1]) else "shift_var"
    if isinstance(op, (arith.FloorDivSIOp, arith.CeilDivSIOp)):  # from lower-affine
        # by a power of two: an add and an arithmetic shift; else the divider
        return "add" if power_of_two_divisor(op) is not None else "div"
    if isinstance(op, arith.MuliOp):
        if is_constant(op.operands[0]) or is_constant(op.operands[1]):
            return "mul_const"
        return "mul"
    if isinstance(op, memref.LoadOp):
        return "reg_read" if is_scalar_memref(op.memref) else "mem_read"
    if isinstance(op, memref.StoreOp):
        return "reg_write" if is_scalar_memref(op.memref) else "mem_write"
    return None


def op_width(op: Operation) -> int:
    if isinstance(op, stream.ClearOp):  # a strobe
        return 1
    if isinstance(op, (memref.StoreOp, stream.PutOp)):
        return bit_width(op.value.type)
    if isinstance(op, (arith.CmpiOp, arith.CmpfOp, arith.SIToFPOp, arith.UIToFPOp)) \
            or not op.results:  # (a conversion to float: the integer's width)
        return bit_width(op.operands[0].type)
    return bit_width(op.results[0].type)


def mul_operand_width(op: Operation) -> int:
    """The width a multiplier by a variable is costed and built at: the result's, or the
    widest operand's when both are extended from at most 18 bits and the device multiplies
    them in one DSP block:

    - zero-extended (a limb product of transforms/fpga/div_by_constant.py): combinationally,
      or in its vendor form (18 x 18 -> 36 bits, ``OPERAND_WIDTH`` of
      rtl_templates/vichls_mul_ecp5.v): the whole product of up to 36 bits, one block
      instead of three;
    - sign-extended, or one of each (a fixed-point product: ``fixed(18, 4) * fixed(16, 2)``
      is computed on 34 bits): where such a product is combinational (xc7 up to 18 bits),
      the full-width ``$signed`` ``*`` of the Verilog (build_structural.signed_narrow_product),
      which synthesis trims to the operands' bits, one block. (An unsigned operand beside a
      signed one counts one bit more; the vendor form multiplies unsigned operands only.)"""
    width = op_width(op)
    owners = [v.owner for v in op.operands]
    if width > 36 or not all(isinstance(o, (arith.ExtUIOp, arith.ExtSIOp)) for o in owners):
        return width
    unsigned_only = all(isinstance(o, arith.ExtUIOp) for o in owners)
    narrow = max(bit_width(o.input.type) + (isinstance(o, arith.ExtUIOp) and not unsigned_only)
                 for o in owners)
    if narrow > 18:
        return width
    # combinational (xc7 up to 18 bits), or one vendor block with its output register
    if oplib.mul_latency(narrow) == 0 or (unsigned_only
                                         and oplib.mul_primitive(width) != "vichls_mul"):
        return narrow
    return width


def float_unit_cell(op: Operation) -> tuple[str, dict[str, int]] | None:
    """(primitive, parameters) of the float32 unit an operator is built on, or None for
    other ops (the sign-bit ops are logic)."""
    kind = op_kind(op)
    if kind is None or oplib.float_unit(kind) is None:
        return None
    primitive = oplib.float_primitive(kind)
    if kind == "fadd":
        return primitive, {"SUB": int(isinstance(op, arith.SubfOp))}
    if kind == "fcmp":
        return primitive, {"PREDICATE": op.predicate.value.data}
    if kind in ("itof", "ftoi"):
        signed = isinstance(op, (arith.SIToFPOp, arith.FPToSIOp))
        return primitive, {"WIDTH": op_width(op), "SIGNED": int(signed)}
    return primitive, {}


def pipelined_unit(op: Operation) -> tuple[str, dict[str, int]] | None:
    """(primitive, parameters) of the pipelined cell ``op`` issues into (a multiplier by a
    variable or a float32 unit of latency 1 or more), None for every other op. These cells
    take new operands every cycle and may be shared across groups
    (transforms/fpga/bind_multipliers.py)."""
    unit = float_unit_cell(op)
    if unit is not None:
        return unit if oplib.float_latency(op_kind(op)) > 0 else None
    return mul_unit(op)


def mul_unit(op: Operation) -> tuple[str, dict[str, int]] | None:
    """(primitive, parameters) of the pipelined multiplier cell a multiply by a variable
    is built on, or None for other ops and for combinational products."""
    if op_kind(op) != "mul":
        return None
    width, operands = op_width(op), mul_operand_width(op)
    latency = oplib.mul_latency(operands)
    if latency == 0:
        return None
    params = {"WIDTH": width, "LATENCY": latency}
    primitive = oplib.mul_primitive(operands)
    if operands < width:  # zero-extended operands: one vendor block
        primitive = oplib.mul_primitive(width)
        params["OPERAND_WIDTH"] = operands
    return primitive, params


#: On a division in a pipelined loop: it gets a fully pipelined divider (scheduling/modulo_schedule).
#: On a multiply by a variable: the index of the multiplier cell of its kind it is built on
#: (transforms/fpga/bind_multipliers.py); the number of multiplies sharing that cell


def op_cost(op: Operation) -> oplib.OpCost:
    kind = op_kind(op)
    assert kind is not None
    if kind == "div" and PIPELINED_DIVIDER_ATTR in op.attributes:
        kind = "div_pipe"
    if kind == "mem_read" and isinstance(op.memref.owner, (memref.AllocOp, memref.AllocaOp)):
        # a local array: its RAM's read data may be slower than a port's, or faster when
        # the array is small enough for distributed RAM
        mtype = op.memref.type
        words = prod(mtype.get_shape())
        kind = "lutram_read" if oplib.in_lutram(words, bit_width(mtype.element_type)) \
            else "ram_read"
    if kind == "reg_write":  # through the multiplexer of the register's writers
        writers = sum(isinstance(use.operation, memref.StoreOp) for use in op.memref.uses)
        return oplib.OpCost(0, oplib.register_input_ns(writers))
    cost = oplib.cost(kind, mul_operand_width(op) if kind == "mul" else op_width(op))
    if SHARERS_ATTR in op.attributes:  # a shared cell: its operands pass a multiplexer
        cost = oplib.shared_mul_cost(cost, op.attributes[SHARERS_ATTR].value.data,
                                     op_width(op))
    if any(isinstance(v.type, IndexType) for v in (*op.operands, *op.results)):
        # index arithmetic is 32 bits wide in the netlist, but synthesis trims it to the
        # address widths it feeds: its area is costed at oplib.INDEX_AREA_WIDTH bits
        # (calibrated against Yosys over the benchmark suite); its timing stays 32-bit
        area = oplib.cost(kind, oplib.INDEX_AREA_WIDTH)
        cost = oplib.OpCost(cost.latency, cost.delay_ns, area.lut, area.ff, cost.dsp,
                            cost.out_delay_ns)
    if kind in ("mem_read", "ram_read", "mem_write"):
        # Row-major address arithmetic happens in the issue cycle, before the port: a
        # multiply by a constant stride and an add per extra dimension, or nothing when
        # the dimension is a power of two (the index fills the low address bits).
        extra_dims = sum(1 for d in op.memref.type.get_shape()[1:] if d & (d - 1))
        step = oplib.cost("add", 32).delay_ns
        cost = oplib.OpCost(
            cost.latency, cost.delay_ns + 2 * step * extra_dims, out_delay_ns=cost.out_delay_ns
        )
    return cost


def split_block(block: Block) -> list[list[Operation] | Operation]:
    """The block as a sequence of segments (lists of scheduled ops) and control ops."""
    items: list[list[Operation] | Operation] = []
    current: list[Operation] = []
    for op in block.ops:
        if is_predicated(op):
            current += predicated_ops(op)
        elif is_control(op):
            if current:
                items.append(current)
                current = []
            items.append(op)
        elif op_kind(op) is not None:
            current.append(op)
    if current:
        items.append(current)
    return items


# -- the scheduler proper, on an abstract dependence graph --------------------------------


@dataclass
class Node:
    """One op to schedule. ``data_preds``: producers in the same segment whose result this
    op reads; ``order_preds``: (producer, minimum cycle distance) for memory order;
    ``port``: the memory it uses (one access per cycle), if any."""

    latency: int
    delay: float
    out_delay: float = 0.0
    data_preds: list[int] = field(default_factory=list)
    order_preds: list[tuple[int, int]] = field(default_factory=list)
    port: object = None
    #: a result a control decision reads must be valid this early in its ready cycle for
    #: the decision logic to follow it there; None: no decision reads it
    deadline: float | None = None
    #: producers of the conditions that guard this op (a predicated if's) and the time the
    #: guard logic after them takes: a condition produced in the op's cycle must leave it
    guards: list[int] = field(default_factory=list)
    guard_ns: float = 0.0


@dataclass
class Placement:
    cycle: int
    ready: int
    finish_ns: float  # time within the ready cycle at which the result is valid
    #: the cycle from which a control decision may read the result: the ready cycle, or
    #: the next one when the result settles too late for the decision logic to follow
    decided: int | None = None


def schedule_nodes(nodes: list[Node], budget_ns: float) -> list[Placement]:
    """List-schedule ``nodes`` (given in a topological order) under a chaining budget."""
    n = len(nodes)
    preds = [set(nd.data_preds) | {p for p, _ in nd.order_preds} for nd in nodes]
    succs: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for p in sorted(preds[i]):
            succs[p].append(i)
    # Priority: the longest path (in cycles, then in ns) from the node to the end.
    priority = [0.0] * n
    for i in reversed(range(n)):
        own = nodes[i].latency + nodes[i].delay / 100.0
        priority[i] = own + max((priority[s] for s in succs[i]), default=0.0)
    waiting = [len(p) for p in preds]
    ready_set = [i for i in range(n) if waiting[i] == 0]
    placed: list[Placement | None] = [None] * n
    busy_ports: set[tuple[object, int]] = set()
    while ready_set:
        ready_set.sort(key=lambda i: (-priority[i], i))
        i = ready_set.pop(0)
        placed[i] = _place(nodes[i], placed, busy_ports, budget_ns)
        for s in succs[i]:
            waiting[s] -= 1
            if waiting[s] == 0:
                ready_set.append(s)
    assert all(p is not None for p in placed), "dependence cycle in a straight-line segment"
    return placed  # type: ignore[return-value]


def _place(node: Node, placed, busy_ports, budget_ns: float) -> Placement:
    earliest = 0
    for p in node.data_preds:
        earliest = max(earliest, placed[p].ready)
    for p, distance in node.order_preds:
        earliest = max(earliest, placed[p].cycle + distance)
    cycle = earliest
    while True:
        arrival = max(
            (placed[p].finish_ns for p in node.data_preds if placed[p].ready == cycle),
            default=0.0,
        )
        fits = arrival == 0.0 or arrival + node.delay <= budget_ns
        fits = fits and all(placed[p].ready < cycle
                            or placed[p].finish_ns + node.guard_ns + node.delay <= budget_ns
                            for p in node.guards)
        if fits and (node.port is None or (node.port, cycle) not in busy_ports):
            break
        cycle += 1
    if node.port is not None:
        busy_ports.add((node.port, cycle))
    if node.latency == 0:
        return Placement(cycle, cycle, arrival + node.delay)
    return Placement(cycle, cycle + node.latency, node.out_delay)


# -- the pass ---------------------------------------------------------------------------


def feeds_control(op: Operation) -> bool:
    """Is a result of ``op`` a loop bound, an if condition or a while condition?"""
    for result in op.results:
        for use in result.uses:
            user = use.operation
            if is_predicated(user):
                continue  # a guard of the operations in it, not a decision
            if isinstance(user, (scf.ForOp, scf.IfOp)) or (
                    isinstance(user, scf.ConditionOp) and use.index == 0):
                return True
    return False


def schedule_segment(ops: list[Operation], budget_ns: float) -> list[Placement]:
    index = {op: i for i, op in enumerate(ops)}
    decision_reserve = oplib.decision_reserve_ns()
    nodes = []
    last_store: dict = {}
    loads_since_store: dict = {}
    last_on_stream: dict = {}
    for i, op in enumerate(ops):
        cost = op_cost(op)
        preds = []
        for v in op.operands:
            owner = v.owner
            if isinstance(owner, Operation) and owner in index:
                preds.append(index[owner])
        guards = []
        if reads_predicate(op):
            guards = sorted({index[cond.owner] for cond, _ in predicate_of(op)
                             if isinstance(cond.owner, Operation) and cond.owner in index})
        node = Node(cost.latency, cost.delay_ns, cost.out_delay_ns, sorted(set(preds + guards)),
                    guards=guards, guard_ns=decision_reserve)
        if decision_reserve and feeds_control(op):
            node.deadline = budget_ns - decision_reserve
        if isinstance(op, (memref.LoadOp, memref.StoreOp)):
            mem = op.memref
            scalar = is_scalar_memref(mem)
            if not scalar:
                node.port = mem
            if mem in last_store:
                node.order_preds.append((last_store[mem], 1))
            if isinstance(op, memref.StoreOp):
                for load in loads_since_store.get(mem, []):
                    node.order_preds.append((load, 0 if scalar else 1))
                last_store[mem] = i
                loads_since_store[mem] = []
            else:
                loads_since_store.setdefault(mem, []).append(i)
        elif isinstance(op, (stream.GetOp, stream.PutOp, stream.ClearOp)):
            node.port = stream_port(op)
            if op.stream in last_on_stream:
                node.order_preds.append((last_on_stream[op.stream], 1))
            last_on_stream[op.stream] = i
        nodes.append(node)
    placements = schedule_nodes(nodes, budget_ns)
    for node, placement in zip(nodes, placements):
        if node.deadline is not None and placement.finish_ns > node.deadline:
            # the decision reads it from its register, one cycle on: the segment waits
            placement.decided = placement.ready + 1
    return placements


def segment_length(ops: list[Operation]) -> int:
    """Cycles of a scheduled segment: up to the last ready result, or to the cycle from
    which a control decision may read a result (``DECIDED_ATTR``), whichever is later."""
    return max((op.attributes[a].value.data for op in ops for a in (READY_ATTR, DECIDED_ATTR)
                if a in op.attributes), default=-1) + 1


def constant_trip_count(loop: scf.ForOp) -> int | None:
    bounds = scf_constant_bounds(loop)
    return None if bounds is None else bounds.trip_count
