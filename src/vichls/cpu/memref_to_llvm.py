"""Lower memref to the llvm dialect: arrays become bare pointers into numpy-layout storage.

What:
- every `memref<d0x...xiW>` function argument becomes `!llvm.ptr` (the function type and
  the entry block argument change together, so `func.call` operands follow);
- `memref.alloca` becomes one `llvm.alloca` of d0*...*dn elements, placed at the start of
  the entry block so LLVM's mem2reg/SROA promote 0-d scalars to registers; a local array
  of more than `HEAP_THRESHOLD_BYTES` is taken from `malloc` instead (and given back with
  `free` before the function's return) so that big local arrays cannot overflow the stack;
- a constant `memref.global` (a `vichls.const` array) becomes an internal LLVM constant array
  of the containers below, and `memref.get_global` its address;
- `memref.load`/`memref.store` become a row-major linear index in i64
  (`((i0*d1 + i1)*d2 + i2)...`, no signed wrap since indices fit in 32 bits),
  `llvm.getelementptr inbounds`, and `llvm.load`/`llvm.store`.

A 1-D `memref<?xiW>` function argument (a stream buffer, vichls.cpu.lower_streams) is a
bare pointer too: its size is the caller's business.

Storage: an element of IR type iW is stored in the container integer of its numpy dtype
(`ScalarType.dtype`: i12 → i16, i1 → i8), so a store extends (signed element types
sign-extend, unsigned and `bool_` zero-extend, as numpy holds them) and a load truncates.
The signedness of a memref argument comes from its `vichls.type` argument attribute; local
arrays are never seen by numpy, and sign-extension is used for them.

Assumes: loop-level IR after `lower_affine` (indices are `index` values, shapes are static,
every memref is a function argument or an alloca). Anything else raises CpuError.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, llvm, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FunctionType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.cpu.errors import unsupported
from vichls.dialects.attributes import TYPE_ATTR
from vichls.types import ScalarType, parse_type_name

_NO_SIGNED_WRAP = llvm.OverflowAttr((llvm.OverflowFlag.NO_SIGNED_WRAP,))

HEAP_THRESHOLD_BYTES = 64 * 1024


def _element_width(op: Operation, mtype) -> int:
    if not isinstance(mtype, MemRefType) or not isinstance(mtype.element_type,
                                                           (IntegerType, Float32Type)):
        raise unsupported(op, f"only memrefs of integers and f32 are supported, got {mtype}")
    shape = mtype.get_shape()
    if any(d < 0 for d in shape) and len(shape) != 1:  # 1-D `?`: a buffer of the caller's
        raise unsupported(op, f"only static shapes are supported, got {mtype}")
    if isinstance(mtype.element_type, Float32Type):
        return 32
    return mtype.element_type.width.data


def _container(width: int) -> IntegerType:
    return IntegerType(ScalarType(width, True).dtype.itemsize * 8)


def _storage(op: Operation, mtype) -> tuple:
    """(the element's IR type, the type it is stored as): an integer in its numpy
    container, an f32 as itself."""
    width = _element_width(op, mtype)
    if isinstance(mtype.element_type, Float32Type):
        return mtype.element_type, mtype.element_type
    return IntegerType(width), _container(width)


def _bytes(t) -> int:
    return 4 if isinstance(t, Float32Type) else t.width.data // 8


def _constant_global(g: memref.GlobalOp) -> llvm.GlobalOp:
    """A constant array (``vichls.const``): an internal LLVM constant of its elements in
    their containers, extended as numpy holds them (signed per its ``vichls.type``); of
    float32 elements, an LLVM constant array of floats (the same bits)."""
    mtype = g.type
    width = _element_width(g, mtype)
    if not isinstance(g.initial_value, DenseIntOrFPElementsAttr) or g.constant is None:
        raise unsupported(g, "only constant memref.globals with dense values are supported")
    if isinstance(mtype.element_type, Float32Type):  # an LLVM constant of floats
        values = list(g.initial_value.get_values())
        return llvm.GlobalOp(llvm.LLVMArrayType(len(values), mtype.element_type),
                             g.sym_name.data, "internal", constant=True,
                             value=DenseIntOrFPElementsAttr(
                                 TensorType(mtype.element_type, [len(values)]),
                                 g.initial_value.data))
    signed = parse_type_name(g.attributes[TYPE_ATTR].data).signed \
        if TYPE_ATTR in g.attributes else True
    container = _container(width)
    element = ScalarType(width, signed)  # (the value as numpy holds it: wrapped to its type)
    values = [element.wrap(int(v)) for v in g.initial_value.get_values()]
    count = len(values)
    return llvm.GlobalOp(llvm.LLVMArrayType(count, container),
                         g.sym_name.data, "internal", constant=True,
                         value=DenseIntOrFPElementsAttr.from_list(
                             TensorType(container, [count]), values))


class MemrefToLlvm(ModulePass):
    """memref arguments, allocas, loads and stores → llvm pointers, GEPs, loads, stores."""

    name = "vichls-cpu-memref-to-llvm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        self._uses_heap = False
        for g in list(op.ops):
            if isinstance(g, memref.GlobalOp):
                Rewriter.replace_op(g, _constant_global(g))
        for f in list(op.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                self._lower_function(f)
        if self._uses_heap:
            ptr = llvm.LLVMPointerType()
            for name, signature in (
                ("malloc", llvm.LLVMFunctionType([i64], ptr)),
                ("free", llvm.LLVMFunctionType([ptr])),
            ):
                op.body.block.add_op(llvm.FuncOp(name, signature, linkage=llvm.LinkageAttr("external")))

    def _lower_function(self, f: func.FuncOp) -> None:
        entry = f.body.blocks[0]
        # One i64 view per index value and one constant per extent, shared by all accesses
        # of the function (fewer ops to build here and to clean up in LLVM).
        self._entry = entry
        self._index_as_i64: dict[SSAValue, SSAValue] = {}
        self._extent_constants: dict[int, SSAValue] = {}
        # Per memref value: does a store sign-extend into the container?
        sign_extends: dict[SSAValue, bool] = {}
        arg_attrs = f.arg_attrs.data if f.arg_attrs is not None else ()
        for arg, attrs in zip(entry.args, arg_attrs):
            if isinstance(arg.type, MemRefType) and TYPE_ATTR in attrs.data:
                sign_extends[arg] = parse_type_name(attrs.data[TYPE_ATTR].data).signed
        for arg in entry.args:
            if isinstance(arg.type, MemRefType):
                sign_extends.setdefault(arg, True)
        allocas = [o for o in f.walk() if isinstance(o, memref.AllocaOp)]
        for alloca in allocas:
            sign_extends[alloca.memref] = True

        for o in list(f.walk()):
            if isinstance(o, memref.LoadOp):
                self._lower_load(o)
            elif isinstance(o, memref.StoreOp):
                self._lower_store(o, sign_extends)
            elif o.dialect_name() == "memref" and not isinstance(
                    o, (memref.AllocaOp, memref.GetGlobalOp)):
                raise unsupported(o, "the CPU back end lowers memref.alloca/get_global/load/store "
                                     "only")
        for o in list(f.walk()):  # a constant array: the address of its global
            if isinstance(o, memref.GetGlobalOp):
                Rewriter.replace_op(o, llvm.AddressOfOp(o.name_.root_reference,
                                                        llvm.LLVMPointerType()))

        returns = [o for o in f.walk() if isinstance(o, func.ReturnOp)]
        for alloca in allocas:
            self._lower_alloca(alloca, entry, returns)

        new_inputs = []
        for arg in list(entry.args):
            if isinstance(arg.type, MemRefType):
                _element_width(f, arg.type)
                arg = Rewriter.replace_value_with_new_type(arg, llvm.LLVMPointerType())
            new_inputs.append(arg.type)
        f.function_type = FunctionType.from_lists(new_inputs, f.function_type.outputs.data)

    def _as_i64(self, index: SSAValue) -> SSAValue:
        """`index` cast to i64, inserted once right after its definition."""
        if index not in self._index_as_i64:
            cast = arith.IndexCastOp(index, i64)
            if isinstance(index, BlockArgument):
                Rewriter.insert_op(cast, InsertPoint.at_start(index.block))
            else:
                assert isinstance(index, OpResult)
                Rewriter.insert_op(cast, InsertPoint.after(index.op))
            self._index_as_i64[index] = cast.result
        return self._index_as_i64[index]

    def _extent(self, extent: int) -> SSAValue:
        if extent not in self._extent_constants:
            constant = llvm.ConstantOp(IntegerAttr(extent, i64), i64)
            Rewriter.insert_op(constant, InsertPoint.at_start(self._entry))
            self._extent_constants[extent] = constant.result
        return self._extent_constants[extent]

    def _element_pointer(self, op: Operation, base: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        """Insert before `op` the address of element `indices` of the array at `base`."""
        mtype = base.type
        _, container = _storage(op, mtype)
        if not indices:
            return base
        ops: list[Operation] = []
        linear = self._as_i64(indices[0])
        for extent, index in zip(mtype.get_shape()[1:], indices[1:]):
            scaled = llvm.MulOp(linear, self._extent(extent), overflow=_NO_SIGNED_WRAP)
            summed = llvm.AddOp(scaled.res, self._as_i64(index), overflow=_NO_SIGNED_WRAP)
            ops += [scaled, summed]
            linear = summed.res
        gep = llvm.GEPOp.from_mixed_indices(base, [linear], pointee_type=container, inbounds=True)
        ops.append(gep)
        Rewriter.insert_op(ops, InsertPoint.before(op))
        return gep.result

    def _lower_load(self, op: memref.LoadOp) -> None:
        element, container = _storage(op, op.memref.type)
        pointer = self._element_pointer(op, op.memref, op.indices)
        load = llvm.LoadOp(pointer, container, alignment=_bytes(container))
        new_ops: list[Operation] = [load]
        if container != element:
            new_ops.append(llvm.TruncOp(load.dereferenced_value, element))
        Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]])

    def _lower_store(self, op: memref.StoreOp, sign_extends: dict[SSAValue, bool]) -> None:
        element, container = _storage(op, op.memref.type)
        if op.memref not in sign_extends:
            raise unsupported(op, "a stored-to memref must be a function argument or a memref.alloca")
        pointer = self._element_pointer(op, op.memref, op.indices)
        new_ops: list[Operation] = []
        value = op.value
        if container != element:
            extend = llvm.SExtOp if sign_extends[op.memref] else llvm.ZExtOp
            new_ops.append(extend(value, container))
            value = new_ops[-1].results[0]
        new_ops.append(llvm.StoreOp(value, pointer, alignment=_bytes(container)))
        Rewriter.replace_op(op, new_ops, [])

    def _lower_alloca(self, op: memref.AllocaOp, entry: Block, returns: list[func.ReturnOp]) -> None:
        mtype = op.memref.type
        _, container = _storage(op, mtype)
        if op.operands or any(d < 0 for d in mtype.get_shape()):
            raise unsupported(op, "dynamic allocas are not supported")
        count = 1
        for d in mtype.get_shape():
            count *= d
        element_bytes = _bytes(container)
        assert entry.first_op is not None
        if count * element_bytes > HEAP_THRESHOLD_BYTES:
            self._uses_heap = True
            size = llvm.ConstantOp(IntegerAttr(count * element_bytes, i64), i64)
            storage = llvm.CallOp("malloc", size.result, return_type=llvm.LLVMPointerType())
            Rewriter.insert_op([size, storage], InsertPoint.before(entry.first_op))
            for ret in returns:
                Rewriter.insert_op(llvm.CallOp("free", storage.returned), InsertPoint.before(ret))
            address = storage.returned
        else:
            size = llvm.ConstantOp(IntegerAttr(count, i64), i64)
            # Arrays get vector-friendly alignment; scalars their natural one.
            alignment = 32 if mtype.get_shape() else element_bytes
            alloca = llvm.AllocaOp(size.result, container, alignment=alignment)
            Rewriter.insert_op([size, alloca], InsertPoint.before(entry.first_op))
            address = alloca.res
        op.memref.replace_all_uses_with(address)
        Rewriter.erase_op(op)


