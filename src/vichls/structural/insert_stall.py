"""Stall a design that waits on a stream: hold all of its state for the cycle.

Why: a static schedule assumes every get finds an element and every put finds room. When
one does not, the simplest correct behaviour (and Vitis's for a pipeline with streams) is
to freeze the whole design for that cycle, as if the clock had not ticked, and to try
again in the next. Everything that changes state is gated by ``~vichls_stalled``:

- register write enables (data, stage, valid and loop registers alike);
- memory enables of local RAMs and of ap_memory ports: a RAM's output then holds its last
  read, which the stalled design reads again in the next cycle (block RAMs and the
  simulator's memories hold ``q`` while ``ce`` is low);
- the clock enables of multi-cycle units (multipliers, dividers);
- FIFO strobes (read/write of local streams and ap_fifo ports), ``ap_done``/``ap_ready``;
- every FSM transition (the FSM stays in its state).

Input: a component after control compilation (structural/compile_control.py) whose builder
drove the wire ``vichls_stalled`` (conversion/to_structural/build_structural.py); components without that
wire are left alone. The stall condition itself reads only state (FSM state, valid bits,
stage registers) and FIFO flags, which are registered, so gating adds no combinational loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import comb, hw
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from vichls import ports
from vichls.dialects import structural as st
from vichls.conversion.to_structural.build_structural import STALL_WIRE

#: For each primitive, the input ports through which it changes state.
_GATED_CELL_PORTS = {
    "vichls_reg": ("en",),
    "vichls_ram": ("ce0",),
    "vichls_ram_dp": ("ce0", "ce1"),
    "vichls_ram_lut": ("ce0",),
    "vichls_ram_dp_lut": ("ce0", "ce1"),
    "vichls_fifo": ("read", "write"),
    "vichls_mul": ("ce",),
    "vichls_mul_ecp5": ("ce",),
    "vichls_div": ("ce",),
    "vichls_div_pipe": ("ce",),
}


def _gated_destinations(block) -> set[SSAValue]:
    gated: set[SSAValue] = set()
    for op in block.ops:
        if isinstance(op, st.CellOp):
            for port in _GATED_CELL_PORTS.get(op.primitive.data, ()):
                gated.add(op.port(port))
        elif isinstance(op, st.PortOp) and op.direction.data == "out":
            name = op.port_name.data
            if name in ports.STALL_GATED_OUTPUTS or name.endswith(ports.STALL_GATED_SUFFIXES):
                gated.add(op.result)
    return gated


def insert_stall(module: ModuleOp) -> None:
    for component in [op for op in module.walk() if isinstance(op, st.ComponentOp)]:
        block = component.body.block
        wire = next((op for op in block.ops
                     if isinstance(op, st.WireOp) and op.wire_name.data == STALL_WIRE), None)
        if wire is None:
            continue
        one = hw.ConstantOp(1, IntegerType(1), truncate_bits=True)
        go = comb.XorOp([wire.result, one.result])
        block.add_ops([one, go])
        go.result.name_hint = "advance"
        gated = _gated_destinations(block)

        gated_guards: dict[SSAValue, SSAValue] = {}

        def with_go(guard: SSAValue | None) -> SSAValue:
            if guard is None:
                return go.result
            if guard not in gated_guards:
                both = comb.AndOp([guard, go.result])
                block.add_op(both)
                both.result.name_hint = "go"
                gated_guards[guard] = both.result
            return gated_guards[guard]

        for op in list(block.ops):
            if isinstance(op, st.AssignOp) and op.dest in gated:
                new = st.AssignOp.of(op.dest, op.src, with_go(op.guard))
            elif isinstance(op, st.TransitionOp):
                new = st.TransitionOp.build(operands=[op.fsm, with_go(op.cond)],
                                            properties={"source": op.source, "target": op.target})
            else:
                continue
            block.insert_op_before(new, op)
            op.detach()
            op.erase()


@dataclass(frozen=True)
class InsertStallPass(ModulePass):
    """``insert-stall``: hold the state of every component that waits on a stream while it
    waits (see above); after control-to-fsm."""

    name = "insert-stall"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        insert_stall(op)
