"""The structural level of vichls: a Calyx-like dialect for scheduled hardware.

A ``structural.component`` is one Verilog module. Its body is a graph region (order does
not matter, as in hardware) holding:

- ``port``: a module port (``in`` or ``out``);
- ``cell``: an instance of a primitive from ``rtl_templates/`` (register, RAM, multiplier,
  divider); its results are its ports, inputs and outputs alike, as in Calyx;
- ``wire``: a named combinational signal;
- combinational datapath in CIRCT's ``comb`` dialect and ``hw.constant``;
- ``assign dest = src if guard``: a guarded continuous assignment to an input port of a
  cell, an output port or a wire. Several assignments to one destination must have
  disjoint guards; where none holds the destination is zero;
- ``static_group``: a named set of assignments that runs for ``latency`` cycles; inside,
  ``group_cycle "g" k`` is high in the k-th cycle of group g;
- ``control``: the control tree, made of ``seq``, ``enable`` (of a static group), ``for``
  (a counted loop whose induction register the control updates), ``pipeline`` (a counted
  loop whose iterations, one static group each, overlap), ``if`` and ``while``.

Control compilation (structural/compile_control.py) replaces groups and the control tree by
one ``fsm`` (the state register), ``in_state`` tests and ``transition`` ops; the Verilog
printer accepts only that compiled form.

Each op verifies where it stands: ports, cells, wires, groups, the control and the FSM
ops directly in a component, assignments in a component or a static group, the control
ops inside the control tree; a component names each port once, and every group an enable,
a pipeline or a group_cycle names is one of its static groups.

Assumptions: values are signless integers (``iW``); loop bounds and conditions that the
control reads are valid in the cycle where the control decides (the builder passes a
register's next value, ``en ? in : out``).
"""

from __future__ import annotations

import functools
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i1,
    i32,
)
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_result_def,
)
from xdsl.traits import HasParent, NoTerminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class ComponentOp(IRDLOperation):
    """One hardware module: ports, cells, wires, datapath, assignments, control."""

    name = "structural.component"
    sym_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$sym_name attr-dict-with-keyword $body"

    def verify_(self) -> None:
        """Ports named once; one control tree at most; every group that an enable, a
        pipeline or a group_cycle names is a static group of this component."""
        ports = [op.port_name.data for op in self.body.block.ops if isinstance(op, PortOp)]
        twice = sorted({n for n in ports if ports.count(n) > 1}) if len(set(ports)) < len(ports) \
            else []
        if twice:
            raise VerifyException(f"component '{self.sym_name.data}': port {twice[0]} twice")
        if sum(isinstance(op, ControlOp) for op in self.body.block.ops) > 1:
            raise VerifyException(f"component '{self.sym_name.data}': more than one control")
        groups = {op.sym_name.data for op in self.body.block.ops if isinstance(op, StaticGroupOp)}
        for op in self.walk():
            if isinstance(op, (EnableOp, PipelineOp, GroupCycleOp)) \
                    and op.group.data not in groups:
                raise VerifyException(f"{op.name} names the group '{op.group.data}', which "
                                      f"component '{self.sym_name.data}' does not have")


@irdl_op_definition
class PortOp(IRDLOperation):
    """A port of the enclosing component; ``direction`` is ``in`` or ``out``."""

    name = "structural.port"
    port_name = prop_def(StringAttr)
    direction = prop_def(StringAttr)
    result = result_def(IntegerType)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = "$port_name $direction attr-dict `:` type($result)"


@irdl_op_definition
class CellOp(IRDLOperation):
    """An instance of a primitive; one result per primitive port, in ``port_names`` order."""

    name = "structural.cell"
    instance_name = prop_def(StringAttr)
    primitive = prop_def(StringAttr)
    params = prop_def(DictionaryAttr)
    port_names = prop_def(ArrayAttr[StringAttr])
    port_directions = prop_def(ArrayAttr[StringAttr])
    ports = var_result_def(IntegerType)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = (
        "$instance_name $primitive $params `ports` $port_names `dirs` $port_directions "
        "attr-dict `:` type($ports)"
    )

    def port(self, port_name: str):
        names = [n.data for n in self.port_names.data]
        return self.ports[names.index(port_name)]

    @classmethod
    def instance(cls, name: str, primitive: str, params: dict[str, int],
                 ports: list[tuple[str, str, int]]) -> "CellOp":
        """An instance ``name`` of ``primitive`` with integer ``params`` and ``ports`` given
        as (name, "in"/"out", width); each port value is hinted ``<name>_<port>``."""
        names, directions, types = _port_attrs(tuple(ports))
        op = cls.create(
            properties={
                "instance_name": StringAttr(name),
                "primitive": _string_attr(primitive),
                "params": _params_attr(tuple(params.items())),
                "port_names": names,
                "port_directions": directions,
            },
            result_types=types,
        )
        for r, (p, _, _) in zip(op.results, ports):
            r.name_hint = f"{name}_{p}"
        return op


# Attributes are immutable: the parts that many cells share (a register's ports, its
# WIDTH) are made once; a design of thousands of cells spent a tenth of its structural
# build constructing them again.
@functools.lru_cache(maxsize=None)
def _string_attr(text: str) -> StringAttr:
    return StringAttr(text)


@functools.lru_cache(maxsize=None)
def _params_attr(params: tuple[tuple[str, int], ...]) -> DictionaryAttr:
    return DictionaryAttr({k: IntegerAttr(v, i32) for k, v in params})


@functools.lru_cache(maxsize=None)
def _port_attrs(ports: tuple[tuple[str, str, int], ...]):
    return (ArrayAttr([_string_attr(p) for p, _, _ in ports]),
            ArrayAttr([_string_attr(d) for _, d, _ in ports]),
            tuple(IntegerType(w) for _, _, w in ports))


@irdl_op_definition
class WireOp(IRDLOperation):
    """A named combinational signal driven by ``assign``."""

    name = "structural.wire"
    wire_name = prop_def(StringAttr)
    result = result_def(IntegerType)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = "$wire_name attr-dict `:` type($result)"


@irdl_op_definition
class AssignOp(IRDLOperation):
    """``dest = src`` while ``guard`` (always if no guard)."""

    name = "structural.assign"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    dest = operand_def(T)
    src = operand_def(T)
    guard = opt_operand_def(i1)
    assembly_format = "$dest `=` $src (`if` $guard^)? attr-dict `:` type($src)"

    @classmethod
    def of(cls, dest: SSAValue, src: SSAValue, guard: SSAValue | None = None) -> "AssignOp":
        """``dest = src`` (while ``guard``): ``build`` without its generic argument
        handling, for the builders that make one per value."""
        return cls.create(operands=[dest, src] if guard is None else [dest, src, guard])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), (ComponentOp, StaticGroupOp)):
            raise VerifyException("structural.assign must be in a component or a static group")


@irdl_op_definition
class StaticGroupOp(IRDLOperation):
    """Assignments active for ``latency`` cycles when the control enables the group."""

    name = "structural.static_group"
    sym_name = prop_def(StringAttr)
    latency = prop_def(IntegerAttr)
    body = region_def("single_block")
    traits = traits_def(HasParent(ComponentOp), NoTerminator())
    assembly_format = "$sym_name `latency` $latency attr-dict-with-keyword $body"


@irdl_op_definition
class GroupCycleOp(IRDLOperation):
    """High in cycle ``cycle`` (0-based) of the static group ``group``."""

    name = "structural.group_cycle"
    group = prop_def(StringAttr)
    cycle = prop_def(IntegerAttr)
    result = result_def(i1)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = "$group $cycle attr-dict"


@irdl_op_definition
class ControlOp(IRDLOperation):
    """The control tree of the component (one ``seq``)."""

    name = "structural.control"
    body = region_def("single_block")
    traits = traits_def(HasParent(ComponentOp), NoTerminator())
    assembly_format = "attr-dict-with-keyword $body"


@irdl_op_definition
class SeqOp(IRDLOperation):
    """Run the children one after the other, with no idle cycle in between."""

    name = "structural.seq"
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "attr-dict-with-keyword $body"

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class EnableOp(IRDLOperation):
    """Run the static group ``group`` once."""

    name = "structural.enable"
    group = prop_def(StringAttr)
    assembly_format = "$group attr-dict"

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class ForOp(IRDLOperation):
    """Counted loop: iv = lb; while iv < ub (signed): body; iv += step.

    The control writes the induction register through ``iv_in``/``iv_en`` and reads
    ``iv_out``; the entry test and the loop-back test are made in the last cycle of
    whatever runs before, so the loop adds no cycle of its own.
    """

    name = "structural.for"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    iv_in = operand_def(T)
    iv_en = operand_def(i1)
    iv_out = operand_def(T)
    lower = operand_def(T)
    upper = operand_def(T)
    step = operand_def(T)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = (
        "$iv_in `,` $iv_en `,` $iv_out `=` $lower `to` $upper `step` $step "
        "attr-dict-with-keyword `:` type($iv_in) $body"
    )

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class PipelineOp(IRDLOperation):
    """A pipelined counted loop: iterations of the static group ``group`` start every
    ``ii`` cycles (iv = lb, lb + step, ... while iv < ub), overlapping.

    Inside the group, ``group_cycle g k`` is high in the k-th cycle of every iteration in
    flight (several at once when ``ii`` is below the group's latency). The control writes
    the induction register on entry and as each iteration starts; the loop ends in the
    cycle the last iteration ends, and, like ``for``, adds no cycle of its own.
    """

    name = "structural.pipeline"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    iv_in = operand_def(T)
    iv_en = operand_def(i1)
    iv_out = operand_def(T)
    lower = operand_def(T)
    upper = operand_def(T)
    step = operand_def(T)
    group = prop_def(StringAttr)
    ii = prop_def(IntegerAttr)
    assembly_format = (
        "$group $iv_in `,` $iv_en `,` $iv_out `=` $lower `to` $upper `step` $step "
        "`ii` $ii attr-dict `:` type($iv_in)"
    )

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class IfOp(IRDLOperation):
    """Run ``then`` if ``cond`` holds at the decision, else ``else_``."""

    name = "structural.if"
    cond = operand_def(i1)
    then = region_def("single_block")
    else_ = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$cond attr-dict-with-keyword $then `else` $else_"

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class WhileOp(IRDLOperation):
    """Run ``before``; if ``cond`` then run ``after`` and repeat, else leave."""

    name = "structural.while"
    cond = operand_def(i1)
    before = region_def("single_block")
    after = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$cond attr-dict-with-keyword $before `do` $after"

    def verify_(self) -> None:
        _in_control(self)


@irdl_op_definition
class FsmOp(IRDLOperation):
    """The state register of a compiled component; state 0 is idle. Binary-encoded, or
    with ``one_hot`` one bit per state (as wide as ``num_states``): state ``k`` is bit
    ``k`` alone, so deciding a state reads one flip-flop instead of comparing the whole
    register, which shortens the control paths of a large FSM."""

    name = "structural.fsm"
    num_states = prop_def(IntegerAttr)
    one_hot = opt_prop_def(UnitAttr)
    state = result_def(IntegerType)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = "`states` $num_states (`one_hot` $one_hot^)? attr-dict `:` type($state)"


@irdl_op_definition
class InStateOp(IRDLOperation):
    """High while the FSM is in state ``index``."""

    name = "structural.in_state"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    fsm = operand_def(T)
    index = prop_def(IntegerAttr)
    result = result_def(i1)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = "$fsm $index attr-dict `:` type($fsm)"


@irdl_op_definition
class TransitionOp(IRDLOperation):
    """From state ``source`` go to state ``target`` if ``cond`` (always if none).

    The transitions leaving one state are tried in IR order and the first that holds is
    taken; with none, the state is kept (only the idle state relies on this)."""

    name = "structural.transition"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    fsm = operand_def(T)
    source = prop_def(IntegerAttr)
    target = prop_def(IntegerAttr)
    cond = opt_operand_def(i1)
    traits = traits_def(HasParent(ComponentOp))
    assembly_format = (
        "$fsm `from` $source `to` $target (`if` $cond^)? attr-dict `:` type($fsm)"
    )


def _in_control(op) -> None:
    """A control op sits in a component's control tree (``structural.control``)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, (ControlOp, ComponentOp)):
        parent = parent.parent_op()
    if not isinstance(parent, ControlOp):
        raise VerifyException(f"{op.name} must be inside a structural.control")


Structural = Dialect(
    "structural",
    [
        ComponentOp,
        PortOp,
        CellOp,
        WireOp,
        AssignOp,
        StaticGroupOp,
        GroupCycleOp,
        ControlOp,
        SeqOp,
        EnableOp,
        ForOp,
        PipelineOp,
        IfOp,
        WhileOp,
        FsmOp,
        InStateOp,
        TransitionOp,
    ],
    [],
)
