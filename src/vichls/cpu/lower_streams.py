"""Lower streams to ring buffers in memory, with run-time checks that stop the kernel.

What: a stream becomes one `i64` buffer: a header `[head, tail, mask]` and `mask + 1`
element slots (a power of two). `head` and `tail` count the elements got and put since the
buffer was filled (they only grow), so the stream holds `tail - head` elements, the oldest
in slot `head & mask`. Elements are stored sign-extended to i64 (an f32 element: its
IEEE-754 bits as an i32, sign-extended).

- a `!stream.stream<iW>` argument becomes `memref<?xi64>` (the caller's buffer; the
  CPU call wrapper builds the top kernel's from a `vichls.Stream`, jit.py);
- `stream.create` becomes a `memref.alloca` of the capacity given by the put bound of
  vichls.cpu.stream_put_bounds (every element ever put fits, so it cannot overflow), or
  `DEFAULT_CAPACITY` where there is no static bound, and a header with `head = tail = 0`;
- `stream.get` checks `head != tail`, `stream.put` checks `tail - head <= mask`;
- every function gets a last argument `memref<1xi64>`, the status word, shared by all the
  functions of one call: a failing check stores its site number there (1-based, an index
  into the module attribute `vichls.stream_sites`) and the function returns at once (with
  0 as its value); after every `func.call` the caller returns too if the status is set.
  So the kernel stops at the first failing get or put, as the Python reference raises
  there, and the wrapper raises the error of that site.

Why: the reference's streams are unbounded queues; the ring buffer has the same behaviour
up to its capacity, and a failure can never be silent. Returning early needs branches to
an exit block, so this pass runs on the control-flow graph, after `scf_to_cf`.

Assumes: runs after `c_entry_point`, `stream_put_bounds` (its attributes) and `scf_to_cf`,
before `memref_to_llvm`; every stream value is a function argument or a `stream.create`
result, used only by `stream.get`, `stream.put` and `func.call`; every callee is a function
of the module. A module without streams is left unchanged.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.passes import ModulePass

from vichls.dialects.attributes import ENTRY_PUT_BOUNDS_ATTR, SITES_ATTR
from vichls.cpu.errors import unsupported
from vichls.dialects.attributes import ARG_PUT_BOUNDS_ATTR, PUT_BOUND_ATTR
from vichls.dialects import stream as ir_stream
from vichls.errors import location_of
from vichls.dialects.attributes import NAME_ATTR, TYPE_ATTR

#: slots of a stream whose puts have no static bound (8 MiB of i64; only the pages used
#: are touched)
DEFAULT_CAPACITY = 1 << 20
#: a static bound above this gets this many slots (still a ring: only the elements
#: pending at once must fit)
MAX_STATIC_CAPACITY = 1 << 22
HEADER_WORDS = 3  # head, tail, mask
STATUS_ARG_NAME = "__vichls_stream_status"
#: module attribute: one dictionary per check site (kind, stream, file, line, col, capacity)
#: module attribute: the put bounds of the public entry point's arguments (-1: unknown)

_I64 = IntegerType(64)
_INDEX = IndexType()
_BUFFER = MemRefType(_I64, [-1])
_STATUS = MemRefType(_I64, [1])


def capacity_for(put_bound: int | None) -> int:
    """Slots of a ring buffer that must hold ``put_bound`` elements (None: unknown)."""
    if put_bound is None or put_bound < 0:
        return DEFAULT_CAPACITY
    capacity = 1
    while capacity < put_bound and capacity < MAX_STATIC_CAPACITY:
        capacity *= 2
    return capacity


def uses_streams(module: builtin.ModuleOp) -> bool:
    for op in module.walk():
        if isinstance(op, ir_stream.CreateOp):
            return True
        if isinstance(op, func.FuncOp) and any(
                isinstance(t, ir_stream.StreamType) for t in op.function_type.inputs.data):
            return True
    return False


class LowerStreams(ModulePass):
    """Streams → i64 ring buffers with checked get/put and early return on failure."""

    name = "vichls-cpu-lower-streams"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if not uses_streams(op):
            return
        sites: list[DictionaryAttr] = []
        for f in list(op.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                if f.sym_visibility is None or f.sym_visibility.data != "private":
                    op.attributes[ENTRY_PUT_BOUNDS_ATTR] = f.attributes.get(
                        ARG_PUT_BOUNDS_ATTR, ArrayAttr([]))
                _FunctionLowering(f, sites).run()
        op.attributes[SITES_ATTR] = ArrayAttr(sites)


class _FunctionLowering:
    def __init__(self, f: func.FuncOp, sites: list[DictionaryAttr]):
        self.f = f
        self.sites = sites
        self.entry = f.body.blocks[0]
        self.names: dict[SSAValue, str] = {}  # buffer → stream name
        self.capacities: dict[SSAValue, int] = {}  # local buffers → their static capacity
        self.exit_block: Block | None = None

    def run(self) -> None:
        f = self.f
        attrs = list(f.arg_attrs.data) if f.arg_attrs is not None else [
            DictionaryAttr({}) for _ in self.entry.args]
        for i, arg in enumerate(list(self.entry.args)):
            if isinstance(arg.type, ir_stream.StreamType):
                entries = dict(attrs[i].data)
                name = entries[NAME_ATTR].data if NAME_ATTR in entries else f"arg{i}"
                entries = {NAME_ATTR: StringAttr(name), TYPE_ATTR: StringAttr("int64")}
                attrs[i] = DictionaryAttr(entries)
                new_arg = Rewriter.replace_value_with_new_type(arg, _BUFFER)
                self.names[new_arg] = name
        self.status = self.entry.insert_arg(_STATUS, len(self.entry.args))
        attrs.append(DictionaryAttr({NAME_ATTR: StringAttr(STATUS_ARG_NAME),
                                     TYPE_ATTR: StringAttr("int64")}))
        f.arg_attrs = ArrayAttr(attrs)
        f.function_type = FunctionType.from_lists([a.type for a in self.entry.args],
                                                  f.function_type.outputs.data)
        for op in list(f.walk()):
            if isinstance(op, ir_stream.CreateOp):
                self.lower_create(op)
        for op in list(f.walk()):
            if isinstance(op, ir_stream.GetOp):
                self.lower_get(op)
            elif isinstance(op, ir_stream.PutOp):
                self.lower_put(op)
            elif isinstance(op, func.CallOp):
                self.lower_call(op)
            elif op.dialect_name() == "stream":
                raise unsupported(op, "the CPU back end lowers stream.create/get/put only")

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def index(value: int) -> arith.ConstantOp:
        return arith.ConstantOp(IntegerAttr(value, _INDEX))

    def site(self, op: Operation, kind: str, buffer: SSAValue) -> int:
        if buffer not in self.names:
            raise unsupported(op, "the stream must be a function argument or a stream.create")
        filename, line, col = location_of(op)
        self.sites.append(DictionaryAttr({
            "kind": StringAttr(kind),
            "stream": StringAttr(self.names[buffer]),
            "file": StringAttr(filename or "?"),
            "line": IntAttr(line or 0),
            "col": IntAttr(col or 0),
            "capacity": IntAttr(self.capacities.get(buffer, -1)),
        }))
        return len(self.sites)

    def exit(self) -> Block:
        """The block that returns at once (0 as the result, if any)."""
        if self.exit_block is None:
            block = Block()
            values = []
            for t in self.f.function_type.outputs.data:
                zero = arith.ConstantOp(FloatAttr(0.0, t) if isinstance(t, Float32Type)
                                        else IntegerAttr(0, t))
                block.add_op(zero)
                values.append(zero.result)
            block.add_op(func.ReturnOp(*values))
            self.f.body.add_block(block)
            self.exit_block = block
        return self.exit_block

    def failure(self, site: int) -> Block:
        """A block that records ``site`` in the status word and returns."""
        block = Block()
        code = arith.ConstantOp(IntegerAttr(site, _I64))
        zero = self.index(0)
        block.add_ops([code, zero, memref.StoreOp.get(code, self.status, [zero]),
                       cf.BranchOp(self.exit())])
        self.f.body.insert_block_before(block, self.exit())
        return block

    def header(self, buffer: SSAValue, ops: list[Operation]) -> tuple[SSAValue, SSAValue]:
        """Load head and tail (ops appended to ``ops``)."""
        c0, c1 = self.index(0), self.index(1)
        head = memref.LoadOp.get(buffer, [c0])
        tail = memref.LoadOp.get(buffer, [c1])
        ops += [c0, c1, head, tail]
        return head.res, tail.res

    def slot(self, buffer: SSAValue, counter: SSAValue, ops: list[Operation]) -> SSAValue:
        """The index of the slot of element number ``counter``."""
        c2 = self.index(2)
        mask = memref.LoadOp.get(buffer, [c2])
        masked = arith.AndIOp(counter, mask.res)
        offset = arith.ConstantOp(IntegerAttr(HEADER_WORDS, _I64))
        position = arith.AddiOp(masked, offset)
        index = arith.IndexCastOp(position, _INDEX)
        ops += [c2, mask, masked, offset, position, index]
        return index.result

    def bump(self, buffer: SSAValue, counter: SSAValue, word: int, ops: list[Operation]) -> None:
        one = arith.ConstantOp(IntegerAttr(1, _I64))
        nxt = arith.AddiOp(counter, one)
        at = self.index(word)
        ops += [one, nxt, at, memref.StoreOp.get(nxt, buffer, [at])]

    def check(self, op: Operation, ok: SSAValue, site: int, before: list[Operation]) -> Block:
        """Insert ``before`` and a branch on ``ok`` in front of ``op``; ``op`` starts the
        block that runs when ``ok`` holds (returned)."""
        block = op.parent_block()
        assert block is not None
        for o in before:
            o.location = op.location
        Rewriter.insert_op(before, InsertPoint.before(op))
        rest = block.split_before(op)
        branch = cf.ConditionalBranchOp(ok, rest, [], self.failure(site), [])
        branch.location = op.location
        block.add_op(branch)
        return rest

    # -- the ops --------------------------------------------------------------------------
    def lower_create(self, op: ir_stream.CreateOp) -> None:
        bound_attr = op.attributes.get(PUT_BOUND_ATTR)
        bound = bound_attr.value.data if isinstance(bound_attr, IntegerAttr) else -1
        capacity = capacity_for(bound)
        alloca = memref.AllocaOp.get(_I64, shape=[HEADER_WORDS + capacity])
        ops: list[Operation] = [alloca]
        for word, value in enumerate((0, 0, capacity - 1)):
            v = arith.ConstantOp(IntegerAttr(value, _I64))
            at = self.index(word)
            ops += [v, at, memref.StoreOp.get(v, alloca.memref, [at])]
        for o in ops:
            o.location = op.location
        name = op.attributes.get(NAME_ATTR)
        self.names[alloca.memref] = name.data if isinstance(name, StringAttr) else "local"
        self.capacities[alloca.memref] = capacity
        Rewriter.replace_op(op, ops, [alloca.memref])

    def lower_get(self, op: ir_stream.GetOp) -> None:
        buffer = op.stream
        site = self.site(op, "get", buffer)
        before: list[Operation] = []
        head, tail = self.header(buffer, before)
        nonempty = arith.CmpiOp(head, tail, "ne")
        before.append(nonempty)
        self.check(op, nonempty.result, site, before)
        after: list[Operation] = []
        index = self.slot(buffer, head, after)
        element = memref.LoadOp.get(buffer, [index])
        after.append(element)
        self.bump(buffer, head, 0, after)
        value = element.res
        width = 32 if isinstance(op.result.type, Float32Type) else op.result.type.width.data
        if width < 64:
            narrowed = arith.TruncIOp(value, IntegerType(width))
            after.append(narrowed)
            value = narrowed.result
        if isinstance(op.result.type, Float32Type):  # its bits, back to the float
            as_float = arith.BitcastOp(value, op.result.type)
            after.append(as_float)
            value = as_float.result
        for o in after:
            o.location = op.location
        Rewriter.replace_op(op, after, [value])

    def lower_put(self, op: ir_stream.PutOp) -> None:
        buffer = op.stream
        site = self.site(op, "put", buffer)
        before: list[Operation] = []
        head, tail = self.header(buffer, before)
        pending = arith.SubiOp(tail, head)
        c2 = self.index(2)
        mask = memref.LoadOp.get(buffer, [c2])
        room = arith.CmpiOp(pending.result, mask.res, "ule")
        before += [pending, c2, mask, room]
        self.check(op, room.result, site, before)
        after: list[Operation] = []
        index = self.slot(buffer, tail, after)
        value = op.value
        if isinstance(value.type, Float32Type):  # stored as its IEEE-754 bits
            bits = arith.BitcastOp(value, IntegerType(32))
            after.append(bits)
            value = bits.result
        if value.type.width.data < 64:
            widened = arith.ExtSIOp(value, _I64)
            after.append(widened)
            value = widened.result
        after.append(memref.StoreOp.get(value, buffer, [index]))
        self.bump(buffer, tail, 1, after)
        for o in after:
            o.location = op.location
        Rewriter.replace_op(op, after, [])

    def lower_call(self, op: func.CallOp) -> None:
        call = func.CallOp(op.callee, [*op.arguments, self.status], op.result_types)
        call.location = op.location
        Rewriter.replace_op(op, call)
        block = call.parent_block()
        assert block is not None and call.next_op is not None
        c0 = self.index(0)
        status = memref.LoadOp.get(self.status, [c0])
        zero = arith.ConstantOp(IntegerAttr(0, _I64))
        failed = arith.CmpiOp(status.res, zero.result, "ne")
        rest = block.split_before(call.next_op)
        ops = [c0, status, zero, failed, cf.ConditionalBranchOp(failed.result, self.exit(), [],
                                                                rest, [])]
        for o in ops:
            o.location = op.location
        block.add_ops(ops)
