"""Task extraction: the body of a dataflow kernel becomes tasks and channels.

What: in the top function marked ``vichls.dataflow`` (``s.dataflow()``), every call of
another kernel and every top-level loop nest starts a task; the statements between them
join the task that follows (the last task, at the end). Then, until the graph is legal,
the range of tasks between two offending ones is merged into one task:

- a kernel parameter (array or stream) used by several tasks: one port set cannot be
  shared by concurrent tasks;
- a local scalar used by several tasks, or a value computed in one task and used in
  another: scalars do not travel on channels;
- a local array that is not written by exactly one task and then read by at most one later
  task (single producer, single consumer); a local stream with more than one task putting
  or getting.

A local array or stream left shared by a producer task and a later consumer task becomes a
``graph.channel`` (kind ``buffer``; transforms/graph/infer_streams.py types it); storage used by one
task moves into it. Before that, the front end's initialisation of a local array (a nest
storing a constant into every element) is dropped when the next statement that touches the
array overwrites every element in order before reading any, and otherwise joins that
statement's task (either way it does not make a second producer of its own).

A kernel's return value is returned by the last task (which computes it: the value lives
in a local scalar, which merges every task that writes it into that one). A task that is
one call whose arguments are parameters, channels and constants runs the callee itself, so a kernel called twice is one module instantiated twice; any other task
is extracted into a new function ``<top>_<name>`` whose parameters are the kernel
parameters and channels it uses. Pure arithmetic on parameters and constants is copied into
every task that uses it.

Why: the graph level (dialects/graph.py) is what the back end turns into concurrent
modules. Assumes the loop-level IR of docs/ir.md, before inlining and before the FPGA
preparation; loop directives have been applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from vichls.dialects import graph
from vichls.dialects import stream
from vichls.errors import VichlsError, location_of
from vichls.signature import top_function
from vichls.dialects.attributes import KERNEL_ATTR, NAME_ATTR, RET_ATTR, STREAM_ATTR, TYPE_ATTR
from vichls.types import ScalarType, type_name
from vichls.analysis.array_writes import (
    Usage,
    direct_access,
    init_nest,
    overwrites_in_order,
)


class DataflowError(VichlsError):
    """A dataflow kernel the graph level cannot build."""

    @classmethod
    def at(cls, op: Operation, message: str) -> "DataflowError":
        return cls(message, *location_of(op))


@dataclass
class Segment:
    ops: list[Operation]
    name: str = ""
    accesses: dict = field(default_factory=dict)  # value -> {"r", "w"}


def _is_seed(op: Operation) -> bool:
    return isinstance(op, (affine.ForOp, scf.ForOp, scf.WhileOp, func.CallOp))


def _free_ops(body: Block) -> set[Operation]:
    """Pure arithmetic on parameters and constants: copied wherever it is used."""
    free: set[Operation] = set()
    for op in body.ops:
        if op.dialect_name() == "arith" and not op.regions and all(
            v.owner is body or v.owner in free for v in op.operands
        ):
            free.add(op)
    return free


def _is_storage(op: Operation) -> bool:
    return isinstance(op, (memref.AllocaOp, stream.CreateOp))


def place_initialisations(body: Block, usage: Usage) -> set[Operation]:
    """Drop each dead initialisation of a local array; move each live one next to the
    first statement that touches the array after it (nothing in between does), so that it
    joins that statement's task instead of making a task of its own. Returns the moved
    initialisations."""
    kept: set[Operation] = set()
    for alloca in [op for op in body.ops if isinstance(op, memref.AllocaOp)]:
        value = alloca.memref
        touching = [op for op in body.ops if op is not alloca and any(
            (direct_access(x) or (None,))[0] is value
            or (isinstance(x, func.CallOp) and value in x.arguments) for x in op.walk())]
        if not touching or not init_nest(touching[0], value):
            continue
        if len(touching) >= 2 and overwrites_in_order([touching[1]], value, usage):
            touching[0].detach()
            touching[0].erase()
        elif len(touching) >= 2:
            init = touching[0]
            init.detach()
            body.insert_op_before(init, touching[1])
            kept.add(init)
    return kept


# -- segments and their legalisation ------------------------------------------------------------


def _segments(body: Block, free: set[Operation], attached: set[Operation]) -> list[Segment]:
    segments: list[Segment] = []
    pending: list[Operation] = []
    for op in body.ops:
        if op is body.last_op or _is_storage(op) or op in free:
            continue
        if _is_seed(op) and op not in attached:
            segments.append(Segment(pending + [op]))
            pending = []
        else:
            pending.append(op)
    if pending:
        if segments:
            segments[-1].ops += pending
        else:
            segments.append(Segment(pending))
    return segments


def _top_level(op: Operation, body: Block) -> Operation:
    while op.parent_block() is not body:
        op = op.parent_op()
    return op


def _violation(segments: list[Segment], body: Block, free: set[Operation]) -> tuple[int, int] | None:
    """The first range of segments that must be merged, or None when the graph is legal."""
    where: dict[Operation, int] = {op: k for k, s in enumerate(segments) for op in s.ops}
    # values crossing tasks
    for k, seg in enumerate(segments):
        for top in seg.ops:
            for op in top.walk():
                for v in op.operands:
                    owner = v.owner
                    if isinstance(owner, Operation) and owner.parent_block() is not None:
                        if owner in free or _is_storage(owner):
                            continue
                        outer = _top_level(owner, body) if _inside(owner, body) else None
                        j = where.get(outer) if outer is not None else None
                        if j is not None and j != k:
                            return min(j, k), max(j, k)
    users: dict[SSAValue, dict[int, set[str]]] = {}
    for k, seg in enumerate(segments):
        for value, modes in seg.accesses.items():
            users.setdefault(value, {})[k] = modes
    for value, by_seg in users.items():
        if len(by_seg) < 2:
            continue
        span = (min(by_seg), max(by_seg))
        is_param = value.owner is body
        if is_param or not _is_channel_type(value):
            return span
        # one producer, then one consumer: merge the producers, or the consumers, or a
        # consumer that comes first with the producer
        writers = sorted(k for k, m in by_seg.items() if "w" in m)
        readers = sorted(k for k, m in by_seg.items() if "w" not in m)
        if len(writers) > 1:
            return writers[0], writers[-1]
        if len(readers) > 1:
            return readers[0], readers[-1]
        if not writers or readers[0] < writers[0]:
            return span
    return None


def _inside(op: Operation, body: Block) -> bool:
    while op is not None:
        if op.parent_block() is body:
            return True
        op = op.parent_op()
    return False


def _is_channel_type(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, stream.StreamType) or (isinstance(t, MemRefType) and len(t.get_shape()) > 0)


# -- building the graph ---------------------------------------------------------------------------


def _value_name(value: SSAValue, default: str) -> str:
    owner = value.owner
    if isinstance(owner, Operation) and NAME_ATTR in owner.attributes:
        return owner.attributes[NAME_ATTR].data
    return value.name_hint or default


def _declared_at(value: SSAValue, body: Block):
    """Where a local is declared: its first use in program order (the front end hoists the
    alloca itself to the top of the function)."""
    for top in body.ops:
        for op in top.walk():
            if value in op.operands:
                return op.location
    return value.owner.location


def _seed_name(seg: Segment) -> str:
    """The first call's callee or the first named loop's variable (initialisation nests
    have no name)."""
    for op in seg.ops:
        if isinstance(op, func.CallOp):
            return op.callee.root_reference.data
        if isinstance(op, (affine.ForOp, scf.ForOp)) and op.body.block.args[0].name_hint:
            return f"loop_{op.body.block.args[0].name_hint}"
    for op in seg.ops:
        if isinstance(op, (affine.ForOp, scf.ForOp)):
            return "loop_nest"
        if isinstance(op, scf.WhileOp):
            return "while_loop"
    return "body"


def _element_name(value: SSAValue) -> str:
    t = value.type
    width = t.element_type.width.data
    return type_name(ScalarType(width, True))


def extract_tasks(module: ModuleOp) -> bool:
    """Build the graph of the top kernel if it asks for dataflow; True if it did."""
    top = top_function(module)
    if graph.DATAFLOW_ATTR not in top.attributes:
        return False
    body = top.body.block
    usage = Usage(module)
    declared = {op.results[0]: _declared_at(op.results[0], body)
                for op in body.ops if _is_storage(op)}
    initialisations = place_initialisations(body, usage)
    free = _free_ops(body)
    segments = _segments(body, free, initialisations)
    if not segments:
        raise DataflowError.at(top, "s.dataflow(): the kernel has no task (no call and no loop)")
    while True:
        for seg in segments:
            seg.accesses = usage.accesses(seg.ops)
        span = _violation(segments, body, free)
        if span is None:
            break
        a, b = span
        segments[a:b + 1] = [Segment([op for s in segments[a:b + 1] for op in s.ops])]
    _build_graph(module, top, segments, free, declared)
    return True


def _build_graph(module: ModuleOp, top: func.FuncOp, segments: list[Segment],
                 free: set[Operation], declared: dict) -> None:
    body = top.body.block
    params = list(body.args)
    names: dict[str, int] = {}
    for seg in segments:
        base = _seed_name(seg)
        names[base] = names.get(base, 0) + 1
        seg.name = base if names[base] == 1 else f"{base}_{names[base] - 1}"
    # channels: local storage shared by two tasks
    storage = [op for op in body.ops if _is_storage(op)]
    shared: dict[SSAValue, tuple[int, int]] = {}
    for op in storage:
        value = op.results[0]
        by_seg = {k: seg.accesses[value] for k, seg in enumerate(segments) if value in seg.accesses}
        if len(by_seg) == 2:
            writer = next(k for k, m in by_seg.items() if "w" in m)
            reader = next(k for k in by_seg if k != writer)
            shared[value] = (writer, reader)

    new_body = Block(arg_types=[a.type for a in params])
    top_map: dict[SSAValue, SSAValue] = dict(zip(params, new_body.args))
    for value, (writer, reader) in shared.items():
        kind = "fifo" if isinstance(value.type, stream.StreamType) else "buffer"
        props = {
            "kind": StringAttr(kind),
            "channel_name": StringAttr(_value_name(value, "channel")),
            "producer": StringAttr(segments[writer].name),
            "consumer": StringAttr(segments[reader].name),
        }
        if isinstance(value.owner, stream.CreateOp):
            props["depth"] = value.owner.depth
        channel = graph.ChannelOp.create(properties=props, result_types=[value.type])
        channel.location = declared[value]  # for messages
        new_body.add_op(channel)
        channel.result.name_hint = _value_name(value, "channel")
        top_map[value] = channel.result

    existing = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}
    new_funcs: list[func.FuncOp] = []
    ret = body.last_op
    returned = list(ret.arguments) if isinstance(ret, func.ReturnOp) else []
    for seg in segments:
        call = seg.ops[0] if len(seg.ops) == 1 and isinstance(seg.ops[0], func.CallOp) else None
        if returned and seg is segments[-1]:
            call = None  # the last task returns the kernel's value: its own function
        if call is not None and all(
            v in top_map or isinstance(v.owner, arith.ConstantOp) for v in call.arguments
        ):
            args = []
            for v in call.arguments:
                if v in top_map:
                    args.append(top_map[v])
                else:
                    c = v.owner.clone()
                    new_body.add_op(c)
                    args.append(c.result)
            new_body.add_op(graph.TaskOp.build(
                operands=[args], result_types=[[]],
                properties={"task_name": StringAttr(seg.name), "callee": call.callee}))
            continue
        fname = f"{top.sym_name.data}_{seg.name}"
        while fname in existing:
            fname += "_"
        existing.add(fname)
        task_func, operands = _extract(seg, fname, body, free, shared, top,
                                       returned if seg is segments[-1] else [])
        new_funcs.append(task_func)
        results = [v.type for v in returned] if seg is segments[-1] else []
        task = graph.TaskOp.build(
            operands=[[top_map[v] for v in operands]], result_types=[results],
            properties={"task_name": StringAttr(seg.name), "callee": SymbolRefAttr(fname)})
        new_body.add_op(task)
    # the last task returns the kernel's value
    new_body.add_op(func.ReturnOp(*(task.res if returned else [])))
    old = top.body.block
    top.body.detach_block(old)
    top.body.add_block(new_body)
    for f in new_funcs:
        module.body.block.insert_op_before(f, top)


def _stream_direction(v: SSAValue, seg: Segment, top: func.FuncOp) -> str | None:
    """``"in"`` or ``"out"``: whether the statements of ``seg`` get from local stream ``v``
    or put to it (directly, or through a kernel they call with it); None for an array."""
    if not isinstance(v.type, stream.StreamType):
        return None
    module = top.parent_op()
    for top_op in seg.ops:
        for op in top_op.walk():
            if isinstance(op, stream.GetOp) and op.stream is v:
                return "in"
            if isinstance(op, stream.PutOp) and op.stream is v:
                return "out"
            if isinstance(op, func.CallOp) and v in op.arguments:
                callee = next((f for f in module.ops if isinstance(f, func.FuncOp)
                               and f.sym_name.data == op.callee.root_reference.data), None)
                k = list(op.arguments).index(v)
                if callee is not None and callee.arg_attrs is not None:
                    attr = callee.arg_attrs.data[k].data.get(STREAM_ATTR)
                    if attr is not None:
                        return attr.data
    return None


def _extract(seg: Segment, name: str, body: Block, free: set[Operation],
             shared: dict, top: func.FuncOp, returned: list[SSAValue]
             ) -> tuple[func.FuncOp, list[SSAValue]]:
    """A new function running ``seg`` (and returning ``returned``); also the top-level
    values it takes as arguments."""
    inside = set(returned)
    for top_op in seg.ops:
        for op in top_op.walk():
            inside.update(op.operands)
    params = list(body.args)
    arg_attrs = top.arg_attrs.data if top.arg_attrs is not None else [DictionaryAttr({})] * len(params)
    operands = [p for p in params if p in inside]
    operands += [v for v in shared if v in inside or v in seg.accesses]
    # free arithmetic and local storage used only here, in body order
    needed_free: list[Operation] = []
    wanted = set(inside)
    for op in reversed(list(body.ops)):
        if op in free and any(r in wanted for r in op.results):
            needed_free.append(op)
            wanted.update(op.operands)
    needed_free.reverse()
    operands += [p for p in params if p in wanted and p not in operands]
    operands = [v for v in params if v in operands] + [v for v in operands if v not in params]
    local = [op for op in body.ops if _is_storage(op) and op.results[0] not in shared
             and (op.results[0] in seg.accesses or op.results[0] in inside)]
    block = Block(arg_types=[v.type for v in operands])
    mapping: dict[SSAValue, SSAValue] = dict(zip(operands, block.args))
    attrs = []
    for v, arg in zip(operands, block.args):
        if v in params:
            attrs.append(arg_attrs[params.index(v)])
        else:
            arg.name_hint = _value_name(v, "channel")
            entries = {NAME_ATTR: StringAttr(_value_name(v, "channel")),
                       TYPE_ATTR: StringAttr(_element_name(v))}
            direction = _stream_direction(v, seg, top)
            if direction is not None:  # (a stream parameter's port set needs it)
                entries[STREAM_ATTR] = StringAttr(direction)
            attrs.append(DictionaryAttr(entries))
    for op in local + needed_free:
        block.add_op(op.clone(value_mapper=mapping))
    for op in seg.ops:
        block.add_op(op.clone(value_mapper=mapping))
    block.add_op(func.ReturnOp(*[mapping.get(v, v) for v in returned]))
    task = func.FuncOp(name, FunctionType.from_lists([v.type for v in operands],
                                                     [v.type for v in returned]), Region(block))
    task.arg_attrs = ArrayAttr(attrs)
    task.attributes[KERNEL_ATTR] = UnitAttr()
    if returned and RET_ATTR in top.attributes:
        task.attributes[RET_ATTR] = top.attributes[RET_ATTR]
    return task, operands


@dataclass(frozen=True)
class ExtractTasksPass(ModulePass):
    """``extract-tasks``: a top kernel marked ``vichls.dataflow`` becomes its graph of tasks
    and channels (see above); any other module is left as it is."""

    name = "extract-tasks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        extract_tasks(op)
