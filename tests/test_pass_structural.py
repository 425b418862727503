"""Tests of the structural level: the builder's groups and control tree, and control
compilation into one FSM with no cycle spent between steps."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, comb, hw
from xdsl.parser import Parser

from vichls import int32, kernel
from vichls.dialects import structural as st
from vichls.driver.fpga import compile_fpga
from vichls.structural.compile_control import compile_control


@kernel
def nest(A: int32[4, 4], k: int32):
    for i in range(4):
        for j in range(4):
            A[i, j] += k


def ops_of(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


def test_builder_makes_groups_and_a_control_tree():
    design = compile_fpga(nest.module())
    view = design.structural
    groups = ops_of(view, st.StaticGroupOp)
    fors = ops_of(view, st.ForOp)
    assert len(fors) == 2
    # the inner body is one static group: load in cycle 0, add and store in cycle 1
    inner = fors[1]
    (enable,) = list(inner.body.block.ops)
    group = next(g for g in groups if g.sym_name.data == enable.group.data)
    assert group.latency.value.data == 2
    # every assignment of a group is guarded by one of its cycles
    for g in groups:
        for a in g.body.block.ops:
            assert isinstance(a.guard.owner, st.GroupCycleOp)
            assert a.guard.owner.group.data == g.sym_name.data


def test_control_compilation_has_no_idle_cycles():
    design = compile_fpga(nest.module())
    view = design.structural.clone()
    total = sum(g.latency.value.data for g in ops_of(view, st.StaticGroupOp))
    compile_control(view)
    (fsm,) = ops_of(view, st.FsmOp)
    assert fsm.num_states.value.data == total + 1  # idle plus one state per group cycle
    assert not ops_of(view, st.StaticGroupOp) and not ops_of(view, st.ControlOp)
    assert not ops_of(view, st.GroupCycleOp)
    # 16 iterations of a 2-cycle body and nothing else
    assert design.report["latency"] == {"min": 32, "max": 32}
    loops = design.report["loops"]
    assert [(lp["name"], lp["trip_count"], lp["iteration_latency"]) for lp in loops] == [
        ("i", 4, 8), ("j", 4, 2)]


def test_one_hot_control_is_one_bit_per_state_and_reparses():
    from vichls.targets import oplib

    design = compile_fpga(nest.module())
    view = design.structural.clone()
    with oplib.use_device("ecp5"):
        compile_control(view)
    (fsm,) = ops_of(view, st.FsmOp)
    assert fsm.one_hot is not None
    assert fsm.state.type.width.data == fsm.num_states.value.data
    text = str(view)
    (line,) = [ln for ln in text.splitlines() if "structural.fsm" in ln]
    assert "one_hot" in line
    ctx = Context()
    for dialect in (builtin.Builtin, comb.Comb, hw.HW, st.Structural):
        ctx.load_dialect(dialect)
    assert str(Parser(ctx, text).parse_module()) == text


def test_structural_ir_prints_and_reparses():
    design = compile_fpga(nest.module())
    text = str(design.structural)
    assert "structural.component" in text and "structural.static_group" in text
    assert "structural.for" in text and "structural.enable" in text
    ctx = Context()
    for dialect in (builtin.Builtin, comb.Comb, hw.HW, st.Structural):
        ctx.load_dialect(dialect)
    assert str(Parser(ctx, text).parse_module()) == text


def test_comparisons_that_cannot_vary_are_folded():
    from xdsl.dialects.builtin import IntegerType
    from xdsl.ir import Block

    from vichls.conversion.to_structural.build_structural import constant_comparison

    block = Block(arg_types=[IntegerType(8)])
    x = block.args[0]

    def c(v):
        op = hw.ConstantOp(v, IntegerType(8), truncate_bits=True)
        block.add_op(op)
        return op.result

    assert constant_comparison(x, c(0), 9) is True     # x >= 0 unsigned
    assert constant_comparison(x, c(0), 6) is False    # x < 0 unsigned
    assert constant_comparison(x, c(255), 7) is True   # x <= 255 unsigned
    assert constant_comparison(x, c(-128), 5) is True  # x >= -128 signed
    assert constant_comparison(x, c(0), 2) is None     # x < 0 signed varies
    assert constant_comparison(x, c(3), 0) is None     # x == 3 varies
    assert constant_comparison(c(2), c(-1), 6) is True  # 2 < 255 unsigned
    assert constant_comparison(c(2), c(-1), 2) is False  # 2 < -1 signed
