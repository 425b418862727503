"""Control compilation: a component's static groups and control tree → one FSM.

Every cycle of every static group becomes one state (state 0 is idle), so
``group_cycle g k`` becomes ``in_state (base(g) + k)`` and the groups' assignments become
plain guarded assignments of the component. Within a group the states follow each other
unconditionally. In the last state of a group the FSM decides, in that same cycle, where
to go next: it walks the control tree from that point through loop tests, loop entries,
ifs and the end of the kernel until it reaches the first state of the next group. So no
cycle is spent between steps: a ``for`` loop's increment and exit test chain into the
last cycle of its body, and its entry test into the last cycle of what precedes it.

Decisions read values that are valid in the deciding cycle (the builder hands the control
registers' next values). A loop entry writes the induction register through its
``in``/``en`` ports on the path taken, so a nested loop entered in the same cycle must see
the new value. The builder's next value of an induction register (``en ? in : out``)
would give it, but its ``en`` is itself decided by the tests that read it: a combinational
loop (nextpnr refuses to time it) that also lets a test placed before the write on its path
see the value written after it. So each decision is rebuilt for its path: an induction
register's next value becomes the value written earlier on that path, or the register's
output when there is none (only decisions write induction registers). This also takes the
``en`` decode and the mux out of every loop test's timing path. Assumes every loop body
(and a while's ``before``) spends at least one cycle on every path, which the builder
guarantees.
The end of the kernel pulses ``ap_done``/``ap_ready`` and returns to idle.

A dataflow task's module (built with ``task_mode``) follows ap_ctrl_chain instead: it pulses
``ap_ready`` in the cycle it takes ``ap_start`` (its scalar inputs are latched then), and
at the end it returns to idle only with ``ap_continue``; without it, it waits in one more
state, F, holding ``ap_done`` high until ``ap_continue`` comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from xdsl.dialects import comb, hw
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, UnitAttr, i32
from xdsl.context import Context
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from vichls import ports
from vichls.targets import oplib
from vichls.dialects import structural as st
from vichls.conversion.to_structural.build_structural import IDLE_WIRE, signed_constant
from vichls.errors import FpgaError
from vichls.types import clog2


@dataclass
class Leaf:
    target: int | str  # a state, "done" or "stay"


@dataclass
class Cond:
    value: SSAValue
    then: object
    else_: object


@dataclass
class Write:
    """Write ``value`` into a register through its ``in``/``en`` ports, then go on."""

    reg_in: SSAValue
    reg_en: SSAValue
    value: SSAValue
    then: object


Thunk = Callable[[], object]

#: Decisions in all the decision trees; ifs in a row whose branches may all take no cycle
#: multiply them.
MAX_DECISIONS = 50000


class ControlCompiler:
    def __init__(self, component: st.ComponentOp, task_mode: bool = False):
        self.component = component
        self.task_mode = task_mode
        self.finished_state: int | None = None  # state F of a task module
        self.top = component.body.block
        self._taken: set[str] | None = None  # cell and wire names (see _taken_names)
        self.groups = {op.sym_name.data: op for op in self.top.ops if isinstance(op, st.StaticGroupOp)}
        self.control = next(op for op in self.top.ops if isinstance(op, st.ControlOp))
        self.ports = {op.port_name.data: op.result for op in self.top.ops if isinstance(op, st.PortOp)}
        self.base: dict[str, int] = {}
        self.continuation: dict[str, Thunk] = {}
        self.cache: dict[tuple, SSAValue] = {}
        self.in_states: dict[int, SSAValue] = {}
        self.decisions = 0
        self.pipelines: dict[str, st.PipelineOp] = {}
        self.pipe: dict[str, PipelineControl] = {}
        # induction registers (written by decisions only): en port -> out port, and the
        # builder's next-value muxes of them: mux result -> en port
        self.induction: dict[SSAValue, SSAValue] = {
            op.iv_en: op.iv_out for op in self.control.walk() if isinstance(op, st.ForOp)}
        self.next_muxes: dict[SSAValue, SSAValue] = {
            op.result: op.operands[0] for op in self.top.ops
            if isinstance(op, comb.MuxOp) and op.operands[0] in self.induction
            and op.operands[2] == self.induction[op.operands[0]]}
        # every register's next-value mux (en ? in : out) -> (en, in, out), for decisions
        # that know in which state they are taken (``in_state_view``)
        registers = {c.port("en"): (c.port("in"), c.port("out")) for c in self.top.ops
                     if isinstance(c, st.CellOp) and c.primitive.data == "vichls_reg"}
        self.value_next: dict[SSAValue, tuple[SSAValue, SSAValue, SSAValue]] = {
            op.result: (op.operands[0], *registers[op.operands[0]]) for op in self.top.ops
            if isinstance(op, comb.MuxOp) and op.operands[0] in registers
            and op.operands[0] not in self.induction  # (decisions write those: on_path)
            and tuple(op.operands[1:]) == registers[op.operands[0]]}
        self.writing_states: dict[SSAValue, frozenset[int] | None] = {}  # filled in run()
        self.decide_in_state = oplib.current_device().registered_loop_tests
        self.reads_next: dict[SSAValue, bool] = {}
        self.rebuilt: dict[tuple, Operation] = {}  # (comb op, new operands...) -> its copy
        self.registered_tests = oplib.current_device().registered_loop_tests
        self.one_hot = oplib.current_device().one_hot_fsm

    def emit(self, op, hint: str | None = None):
        self.top.add_op(op)
        if hint:
            op.results[0].name_hint = hint
        return op.results[0]

    # -- combinational helpers, folded when the operands are constants ---------------
    def less_than(self, a: SSAValue, b: SSAValue) -> SSAValue | bool:
        ca, cb = signed_constant(a), signed_constant(b)
        if ca is not None and cb is not None:
            return ca < cb
        key = ("slt", a, b)
        if key not in self.cache:
            self.cache[key] = self.emit(comb.ICmpOp(a, b, "slt"), "loop_test")
        return self.cache[key]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        key = ("add", a, b)
        if key not in self.cache:
            self.cache[key] = self.emit(comb.AddOp([a, b]), "loop_next")
        return self.cache[key]

    def one(self, width: int = 1) -> SSAValue:
        key = ("one", width)
        if key not in self.cache:
            self.cache[key] = self.emit(hw.ConstantOp(1, IntegerType(width), truncate_bits=True))
        return self.cache[key]

    def negate(self, v: SSAValue) -> SSAValue:
        key = ("not", v)
        if key not in self.cache:
            self.cache[key] = self.emit(comb.XorOp([v, self.one()]), "inv")
        return self.cache[key]

    def conjunction(self, literals: list[SSAValue]) -> SSAValue | None:
        if not literals:
            return None
        if len(literals) == 1:
            return literals[0]
        key = ("and", *literals)
        if key not in self.cache:
            self.cache[key] = self.emit(comb.AndOp(literals), "path")
        return self.cache[key]

    def in_state(self, index: int) -> SSAValue:
        if index not in self.in_states:
            op = st.InStateOp.build(operands=[self.fsm], properties={"index": IntegerAttr(index, i32)},
                                    result_types=[IntegerType(1)])
            self.in_states[index] = self.emit(op, f"in_state_{index}")
        return self.in_states[index]

    # -- values of a path: induction registers written earlier on it --------------------
    def depends_on_next(self, value: SSAValue) -> bool:
        """Does ``value`` read an induction register's next value (through comb logic)?"""
        known = self.reads_next.get(value)
        if known is None:
            owner = value.owner
            known = value in self.next_muxes or (
                isinstance(owner, Operation) and owner.dialect_name() == "comb"
                and any(self.depends_on_next(o) for o in owner.operands))
            self.reads_next[value] = known
        return known

    def on_path(self, value: SSAValue, written: dict[SSAValue, SSAValue]) -> SSAValue:
        """``value`` as the path that wrote ``written`` (en port -> value) sees it: each next
        value of an induction register is replaced by what the path wrote, else its output."""
        if not self.depends_on_next(value):
            return value
        if value in self.next_muxes:
            en = self.next_muxes[value]
            return written.get(en, self.induction[en])
        owner = value.owner
        return self.rebuilt_with(value, [self.on_path(o, written) for o in owner.operands])

    def rebuilt_with(self, value: SSAValue, operands: list[SSAValue]) -> SSAValue:
        """``value`` computed by a copy of its comb op reading ``operands`` instead (one
        copy per distinct operand list), or ``value`` itself when they are its own."""
        owner = value.owner
        if operands == list(owner.operands):
            return value
        key = (owner, *operands)
        if key not in self.rebuilt:
            self.rebuilt[key] = owner.clone(value_mapper=dict(zip(owner.operands, operands)))
            self.top.add_op(self.rebuilt[key])
        return self.rebuilt[key].results[value.index]

    def find_writing_states(self) -> None:
        """For each register with a next-value mux, the FSM states in which its enable is
        high: those of its assignments of 1 guarded by exactly one state; None when any
        other guard (a pipeline stage, a condition), none, or another value enables it."""
        for en, _, _ in self.value_next.values():
            self.writing_states[en] = frozenset()
        for op in self.top.walk():
            if isinstance(op, st.AssignOp) and op.dest in self.writing_states:
                states = self.writing_states[op.dest]
                guard = None if op.guard is None else op.guard.owner
                src = op.src.owner
                enables = isinstance(src, hw.ConstantOp) and src.value.value.data & 1
                if states is None or not isinstance(guard, st.InStateOp) or not enables:
                    self.writing_states[op.dest] = None
                else:
                    self.writing_states[op.dest] = states | {guard.index.value.data}

    def in_state_view(self, value: SSAValue, state: int) -> SSAValue:
        """``value`` as a decision taken in ``state`` sees it (with the device's
        ``registered_loop_tests``): a register's next value is its output when no
        assignment enables it in that state, and its input when its only enabling
        assignment there is the state itself. The mux leaves the decision's path, where
        static timing would otherwise follow the register's input logic (a loop bound's
        arithmetic) into decisions of states that never write it."""
        if not self.decide_in_state:
            return value
        if value in self.value_next:
            en, in_, out = self.value_next[value]
            states = self.writing_states.get(en)
            if states is None:
                return value
            return in_ if state in states else out
        owner = value.owner
        if not isinstance(owner, Operation) or owner.dialect_name() != "comb":
            return value
        return self.rebuilt_with(value, [self.in_state_view(o, state) for o in owner.operands])

    def settled_view(self, value: SSAValue) -> SSAValue:
        """``value`` computed from registers' outputs only: every next value (of a counter
        or of a datapath register) is replaced by the register's output. Right for a test
        recomputed every cycle of a loop's body from values the body never writes (the
        counter, stepped at the back edge only, and loop-invariant bounds)."""
        if value in self.value_next:
            return self.value_next[value][2]
        if value in self.next_muxes:
            return self.induction[self.next_muxes[value]]
        owner = value.owner
        if not isinstance(owner, Operation) or owner.dialect_name() != "comb":
            return value
        return self.rebuilt_with(value, [self.settled_view(o) for o in owner.operands])

    # -- decision trees ----------------------------------------------------------------
    def branch(self, test, then: Thunk, else_: Thunk):
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            raise FpgaError(
                "the control flow is too complex to decide in one cycle: more than "
                f"{MAX_DECISIONS} decisions (many ifs in a row that may all spend no cycle)"
            )
        if isinstance(test, bool):
            return then() if test else else_()
        return Cond(test, then(), else_())

    def enter_seq(self, ops: list, index: int, k: Thunk):
        if index == len(ops):
            return k()
        return self.enter(ops[index], lambda: self.enter_seq(ops, index + 1, k))

    def enter(self, op, k: Thunk):
        if isinstance(op, st.EnableOp):
            return Leaf(self.base[op.group.data])
        if isinstance(op, st.ForOp):
            body = list(op.body.block.ops)
            ahead = self.lookahead(op)

            def start():
                run = self.enter_seq(body, 0, self.loop_back(op, k))
                if ahead is not None:
                    run = Write(ahead[0], ahead[1], self.add(op.lower, op.step), run)
                return Write(op.iv_in, op.iv_en, op.lower, run)
            return self.branch(self.less_than(op.lower, op.upper), start, k)
        if isinstance(op, st.PipelineOp):
            pipe = self.pipe[op.group.data]
            return self.branch(
                self.less_than(op.lower, op.upper),
                lambda: Write(op.iv_in, op.iv_en, op.lower, pipe.entry(Leaf(self.base[op.group.data]))),
                k,
            )
        if isinstance(op, st.IfOp):
            return self.branch(
                op.cond,
                lambda: self.enter_seq(list(op.then.block.ops), 0, k),
                lambda: self.enter_seq(list(op.else_.block.ops), 0, k),
            )
        if isinstance(op, st.WhileOp):
            return self.enter_seq(list(op.before.block.ops), 0, self.while_test(op, k))
        if isinstance(op, st.SeqOp):
            return self.enter_seq(list(op.body.block.ops), 0, k)
        raise ValueError(f"internal: {op.name} in a control tree")

    def loop_back(self, op: st.ForOp, k: Thunk) -> Thunk:
        def decide():
            ahead = self.lookahead(op)
            following = self.add(op.iv_out, op.step) if ahead is None else ahead[2]
            body = list(op.body.block.ops)

            def again():
                run = self.enter_seq(body, 0, self.loop_back(op, k))
                if ahead is not None:
                    run = Write(ahead[0], ahead[1], self.add(ahead[2], op.step), run)
                return Write(op.iv_in, op.iv_en, following, run)
            return self.branch(self.exit_test(op, following), again, k)
        return decide

    def lookahead(self, op: st.ForOp) -> tuple[SSAValue, SSAValue, SSAValue] | None:
        """With a registered exit test (``exit_test``), the register that holds the
        counter's next value (counter + step), written with the counter: the test is then
        one compare of two registers, and the back edge copies it into the counter. The
        counter's range leaves room for it (conversion/to_structural/build_structural.counter_span); None
        for loops whose test is not registered."""
        if not self.registered_exit(op):
            return None
        key = ("ahead", op)
        if key not in self.cache:
            self.cache[key] = self.register(f"{_loop_name(op)}_ahead", op.iv_out.type.width.data)
        return self.cache[key]

    def registered_exit(self, op: st.ForOp) -> bool:
        """Whether ``op``'s exit test comes from a register (``exit_test``)."""
        key = ("registered", op)
        if key not in self.cache:
            self.cache[key] = self.registered_tests and self.min_cycles(op.body.block) >= 2
        return self.cache[key]

    def exit_test(self, op: st.ForOp, following: SSAValue) -> SSAValue | bool:
        """Whether ``op`` runs another iteration after this one. With registered loop tests
        (the device's choice, oplib) and a body of two cycles or more on every path, the
        test comes from a register that recomputes it every cycle from the counter's
        output: the counter and the bounds settle in the body's first cycle, so the
        register holds the right answer from its second on, and the adder and comparator
        leave the decision's path."""
        test = self.less_than(following, op.upper)
        if isinstance(test, bool) or not self.registered_exit(op):
            return test
        key = ("more", op)
        if key not in self.cache:
            reg_in, reg_en, reg_out = self.register(f"{_loop_name(op)}_more", 1)
            # the outputs of the registers (the next values would drag the decisions and
            # the bounds' arithmetic in)
            self.top.add_op(st.AssignOp.of(reg_in, self.settled_view(test)))
            self.top.add_op(st.AssignOp.of(reg_en, self.one()))
            self.cache[key] = reg_out
        return self.cache[key]

    def min_cycles(self, block: Block) -> int:
        """The fewest cycles a run of ``block`` spends (a loop may run no iteration)."""
        total = 0
        for op in block.ops:
            if isinstance(op, st.EnableOp):
                total += self.groups[op.group.data].latency.value.data
            elif isinstance(op, st.IfOp):
                total += min(self.min_cycles(op.then.block), self.min_cycles(op.else_.block))
            elif isinstance(op, st.WhileOp):
                total += self.min_cycles(op.before.block)
            elif isinstance(op, st.SeqOp):
                total += self.min_cycles(op.body.block)
        return total

    def register(self, name: str, width: int) -> tuple[SSAValue, SSAValue, SSAValue]:
        """A control register (``vichls_reg``): its in, en and out ports. Its instance name
        is ``name``, made unique among the component's cells and wires."""
        taken = self._taken_names()
        base, n = name, 0
        while name in taken or any(f"{name}_{p}" in taken for p in ("in", "en", "out")):
            n += 1
            name = f"{base}_{n}"
        cell = st.CellOp.instance(name, "vichls_reg", {"WIDTH": width},
                                  [("in", "in", width), ("en", "in", 1), ("out", "out", width)])
        self.top.add_op(cell)
        taken.add(name)
        return tuple(cell.results)

    def _taken_names(self) -> set[str]:
        """Cell and wire names of the component, read once (this pass adds cells only
        through ``register``, which keeps the set up to date)."""
        if self._taken is None:
            self._taken = {op.instance_name.data for op in self.top.ops
                           if isinstance(op, st.CellOp)}
            self._taken |= {op.wire_name.data for op in self.top.ops
                            if isinstance(op, st.WireOp)}
        return self._taken

    def while_test(self, op: st.WhileOp, k: Thunk) -> Thunk:
        def decide():
            after = list(op.after.block.ops)
            return self.branch(op.cond, lambda: self.enter_seq(after, 0, lambda: self.enter(op, k)), k)
        return decide

    def record(self, block: Block, k: Thunk):
        """Note, for every enable, the thunk that decides what follows it."""
        ops = list(block.ops)
        for i, op in enumerate(ops):
            after = (lambda i=i: self.enter_seq(ops, i + 1, k))
            if isinstance(op, (st.EnableOp, st.PipelineOp)):
                self.continuation[op.group.data] = after
            elif isinstance(op, st.ForOp):
                self.record(op.body.block, self.loop_back(op, after))
            elif isinstance(op, st.IfOp):
                self.record(op.then.block, after)
                self.record(op.else_.block, after)
            elif isinstance(op, st.WhileOp):
                self.record(op.before.block, self.while_test(op, after))
                self.record(op.after.block, lambda op=op, after=after: self.enter(op, after))
            elif isinstance(op, st.SeqOp):
                self.record(op.body.block, after)

    def number_states(self, block: Block, next_state: int) -> int:
        for op in block.ops:
            if isinstance(op, st.EnableOp):
                self.base[op.group.data] = next_state
                next_state += self.groups[op.group.data].latency.value.data
            elif isinstance(op, st.PipelineOp):  # one state while iterations are in flight
                self.base[op.group.data] = next_state
                self.pipelines[op.group.data] = op
                next_state += 1
            for region in op.regions:
                next_state = self.number_states(region.block, next_state)
        return next_state

    # -- emission ----------------------------------------------------------------------
    def lower(self, source: int, tree, literals: list[SSAValue], done_guards: list[SSAValue],
              last: bool = True, written: dict[SSAValue, SSAValue] | None = None):
        """Emit the transitions and register writes of ``tree`` leaving ``source``. Leaves
        are emitted in order; the last leaf of an exhaustive tree needs no condition,
        since transitions are tried in order. ``written``: the induction registers the
        path wrote so far (en port -> value), which its later tests read."""
        written = written or {}
        if isinstance(tree, Leaf):
            if tree.target == "stay":
                return
            if tree.target == "done" and self.task_mode:  # idle only once continued
                self.top.add_op(st.TransitionOp.build(
                    operands=[self.fsm, self.conjunction([*literals, self.ports[ports.CONTINUE]])],
                    properties={"source": IntegerAttr(source, i32), "target": IntegerAttr(0, i32)},
                ))
            cond = None if last and source != 0 else self.conjunction(literals)
            target = tree.target
            if target == "done":
                target = self.finished_state if self.task_mode else 0
            self.top.add_op(st.TransitionOp.build(
                operands=[self.fsm, cond],
                properties={"source": IntegerAttr(source, i32), "target": IntegerAttr(target, i32)},
            ))
            if tree.target == "done":
                done_guards.append(self.conjunction([self.in_state(source), *literals]))
        elif isinstance(tree, Cond):
            test = self.in_state_view(self.on_path(tree.value, written), source)
            self.lower(source, tree.then, [*literals, test], done_guards, False, written)
            self.lower(source, tree.else_, [*literals, self.negate(test)], done_guards, last,
                       written)
        else:
            guard = self.conjunction([self.in_state(source), *literals])
            value = self.in_state_view(self.on_path(tree.value, written), source)
            self.top.add_op(st.AssignOp.of(tree.reg_in, value, guard))
            self.top.add_op(st.AssignOp.of(tree.reg_en, self.one(), guard))
            if tree.reg_en in self.induction:
                written = {**written, tree.reg_en: value}
            self.lower(source, tree.then, literals, done_guards, last, written)

    def run(self):
        root = self.control.body.block
        num_states = self.number_states(root, 1)
        if self.task_mode:
            self.finished_state = num_states
            num_states += 1
        properties = {"num_states": IntegerAttr(num_states, i32)}
        width = max(1, clog2(num_states))
        if self.one_hot and num_states > 2:  # (two states: one bit either way)
            properties["one_hot"] = UnitAttr()
            width = num_states
        fsm_op = st.FsmOp.build(properties=properties, result_types=[IntegerType(width)])
        self.fsm = self.emit(fsm_op, "fsm_state")
        self.record(root, lambda: Leaf("done"))
        for name, loop in self.pipelines.items():
            self.pipe[name] = PipelineControl(self, name, loop, self.groups[name].latency.value.data)
        # Group cycles become states (in a pipeline: the valid bit of that stage); group
        # assignments become component assignments.
        for op in list(self.top.ops):
            if isinstance(op, st.GroupCycleOp):
                if op.group.data in self.pipe:
                    signal = self.pipe[op.group.data].valid[op.cycle.value.data]
                else:
                    signal = self.in_state(self.base[op.group.data] + op.cycle.value.data)
                op.result.replace_all_uses_with(signal)
                op.detach()
                op.erase()
        if self.decide_in_state:
            self.find_writing_states()
        done_guards: list[SSAValue] = []
        start = self.ports[ports.START]
        root_ops = list(root.ops)
        self.lower(0, self.branch(start, lambda: self.enter_seq(root_ops, 0, lambda: Leaf("done")),
                                  lambda: Leaf("stay")), [], done_guards)
        for name, group in self.groups.items():
            base, latency = self.base[name], group.latency.value.data
            if name in self.pipe:  # stay until the last iteration's last cycle
                self.lower(base, Cond(self.pipe[name].last, self.continuation[name](), Leaf("stay")),
                           [], done_guards)
                latency = 0
            for k in range(latency - 1):
                self.lower(base + k, Leaf(base + k + 1), [], done_guards)
            if latency:
                self.lower(base + latency - 1, self.continuation[name](), [], done_guards)
            for assign in list(group.body.block.ops):
                assign.detach()
                self.top.add_op(assign)
            group.detach()
            group.erase()
        self.control.detach()
        self.control.erase()
        if self.task_mode:
            finished = self.in_state(self.finished_state)
            self.top.add_op(st.TransitionOp.build(
                operands=[self.fsm, self.ports[ports.CONTINUE]],
                properties={"source": IntegerAttr(self.finished_state, i32),
                            "target": IntegerAttr(0, i32)}))
            done_guards.append(finished)
            for guard in done_guards:
                self.top.add_op(st.AssignOp.of(self.ports[ports.DONE], self.one(), guard))
            accept = self.conjunction([self.in_state(0), start])
            self.top.add_op(st.AssignOp.of(self.ports[ports.READY], self.one(), accept))
        else:
            for port in (ports.DONE, ports.READY):
                for guard in done_guards:
                    self.top.add_op(st.AssignOp.of(self.ports[port], self.one(), guard))
        self.top.add_op(st.AssignOp.of(self.ports[ports.IDLE], self.in_state(0)))
        idle = next((op for op in self.top.ops
                     if isinstance(op, st.WireOp) and op.wire_name.data == IDLE_WIRE), None)
        if idle is not None:  # scalar inputs to latch, local FIFOs to empty between calls
            self.top.add_op(st.AssignOp.of(idle.result, self.in_state(0)))
        remove_unused_logic(self.top)


class PipelineControl:
    """The control of one pipelined loop (a ``structural.pipeline`` in FSM state P).

    Registers: ``issuing`` (iterations remain to start), ``phase`` (cycles until the next
    start may happen, when II > 1) and the valid bits: ``valid[0]`` is high in the cycle an
    iteration starts, ``valid[k]`` k cycles later (a shift register cleared by ``ap_rst``).
    An iteration starts when the FSM is in P, ``issuing`` holds and ``phase`` is 0; it
    advances the induction register and clears ``issuing`` after the last one. The loop is
    over in the cycle where only the oldest stage is valid and nothing remains to start.
    Entry (from the decision that enters the loop) writes the induction register, sets
    ``issuing`` and zeroes ``phase``; the depth is at least 2, so entry never coincides
    with a start."""

    def __init__(self, cc: "ControlCompiler", name: str, loop: st.PipelineOp, depth: int):
        self.cc = cc
        ii = loop.ii.value.data
        in_p = cc.in_state(cc.base[name])
        self.issuing = self.register(f"{name}_issuing", 1)
        self.phase = self.register(f"{name}_phase", max(1, clog2(ii))) if ii > 1 else None
        active = cc.emit(comb.AndOp([in_p, self.issuing[2]]), f"{name}_active")
        if self.phase is not None:
            phase_width = self.phase[2].type.width.data
            zero = cc.emit(hw.ConstantOp(0, IntegerType(phase_width), truncate_bits=True))
            at_zero = cc.emit(comb.ICmpOp(self.phase[2], zero, "eq"), f"{name}_phase_zero")
            issue = cc.emit(comb.AndOp([active, at_zero]), f"{name}_issue")
            counting = cc.emit(comb.AndOp([active, cc.negate(at_zero)]), f"{name}_wait")
            one = cc.emit(hw.ConstantOp(1, IntegerType(phase_width), truncate_bits=True))
            restart = cc.emit(hw.ConstantOp(ii - 1, IntegerType(phase_width), truncate_bits=True))
            self.assign(self.phase[0], restart, issue)
            self.assign(self.phase[1], cc.one(), issue)
            self.assign(self.phase[0], cc.emit(comb.SubOp(self.phase[2], one), f"{name}_phase_next"),
                        counting)
            self.assign(self.phase[1], cc.one(), counting)
            self.phase_zero = zero
        else:
            issue = active
        following = cc.add(loop.iv_out, loop.step)
        more = cc.less_than(following, loop.upper)
        more = cc.one() if more is True else (
            cc.emit(hw.ConstantOp(0, IntegerType(1), truncate_bits=True)) if more is False else more)
        self.assign(loop.iv_in, following, issue)
        self.assign(loop.iv_en, cc.one(), issue)
        self.assign(self.issuing[0], more, issue)
        self.assign(self.issuing[1], cc.one(), issue)
        not_reset = cc.negate(cc.ports[ports.RESET])
        self.valid = [issue]
        for k in range(1, depth):
            reg = self.register(f"{name}_valid{k}", 1)
            self.assign(reg[0], cc.emit(comb.AndOp([self.valid[-1], not_reset]), f"{name}_valid{k}_in"), None)
            self.assign(reg[1], cc.one(), None)
            self.valid.append(reg[2])
        younger = self.valid[:-1]
        busy = younger[0] if len(younger) == 1 else cc.emit(comb.OrOp(younger), f"{name}_busy")
        self.last = cc.emit(comb.AndOp([self.valid[-1], cc.negate(busy), cc.negate(self.issuing[2])]),
                            f"{name}_last")

    def register(self, name: str, width: int) -> tuple[SSAValue, SSAValue, SSAValue]:
        return self.cc.register(name, width)

    def assign(self, dest: SSAValue, src: SSAValue, guard: SSAValue | None):
        self.cc.top.add_op(st.AssignOp.of(dest, src, guard))

    def entry(self, then):
        """Writes that start the loop, then ``then``."""
        tree = Write(self.issuing[0], self.issuing[1], self.cc.one(), then)
        if self.phase is not None:
            tree = Write(self.phase[0], self.phase[1], self.phase_zero, tree)
        return tree


def _loop_name(op: st.ForOp) -> str:
    return op.attributes["loop_name"].data if "loop_name" in op.attributes else "loop"


def remove_unused_logic(block: Block) -> None:
    """Drop combinational ops nobody reads (decision paths that were folded away,
    next-value muxes of registers no decision reads)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.ops)):
            dead = isinstance(op, (hw.ConstantOp, st.InStateOp)) or op.dialect_name() == "comb"
            if dead and all(not r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True


def compile_control(module: ModuleOp, task_mode: bool = False) -> None:
    for component in [op for op in module.walk() if isinstance(op, st.ComponentOp)]:
        ControlCompiler(component, task_mode).run()


@dataclass(frozen=True)
class ControlToFsmPass(ModulePass):
    """``control-to-fsm``: every component's control tree becomes its FSM (see above).
    Options: ``task_mode``, for the component of a dataflow task; ``device`` (its FSM encoding
    and loop tests)."""

    name = "control-to-fsm"
    device: str = "xc7"  # the operator library's device (its costs and choices)
    task_mode: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with oplib.use_device(self.device):
            compile_control(op, self.task_mode)
