"""The interface of a kernel: parameter names and types, and the scalar it returns.

The signature travels with the loop-level IR (see docs/ir.md): each ``func.func`` argument
carries ``{vichls.name = "A", vichls.type = "int32"}`` and a function that returns a scalar
carries ``vichls.ret_type``. Everything that needs to know what a port or a numpy argument
means (the reference interpreter, the CPU and simulation callables, the Verilog top, the
report) reads it from here, so the IR alone is a complete package of the design.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
)

from vichls.dialects.attributes import (
    DEPTH_ATTR,
    KERNEL_ATTR,
    NAME_ATTR,
    RET_ATTR,
    STREAM_ATTR,
    TOP_ATTR,
    TYPE_ATTR,
)
from vichls.dialects import stream as ir_stream
from vichls.types import (
    ArrayType,
    FixedType,
    FloatType,
    ScalarType,
    float32,
    Stream,
    StreamType,
    from_bits,
    parse_type_name,
    quantize,
    to_bits,
    type_name,
)

#: on a stream argument: "in" when the kernel gets from it, "out" when it puts to it
#: on a stream argument: the depth its declaration gives (``stream[int32, 4]``)


@dataclass(frozen=True)
class Param:
    name: str
    type: ScalarType | ArrayType | StreamType
    #: for a stream: "in" (the kernel gets from it: ap_fifo _dout/_empty_n/_read ports) or
    #: "out" (it puts to it: _din/_full_n/_write); None for arrays and scalars
    direction: str | None = None

    @property
    def is_array(self) -> bool:
        return isinstance(self.type, ArrayType)

    @property
    def is_stream(self) -> bool:
        return isinstance(self.type, StreamType)

    @property
    def scalar(self) -> ScalarType:
        return self.type if isinstance(self.type, ScalarType) else self.type.element


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: tuple[Param, ...]
    ret: ScalarType | None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    # -- IR encoding -----------------------------------------------------------------
    def ir_arg_types(self) -> list:
        return [ir_type(p.type) for p in self.params]

    def ir_result_types(self) -> list:
        return [] if self.ret is None else [ir_type(self.ret)]

    def ir_arg_attrs(self) -> ArrayAttr:
        def attrs(p: Param) -> DictionaryAttr:
            entries = {NAME_ATTR: StringAttr(p.name), TYPE_ATTR: StringAttr(type_name(p.scalar))}
            if p.direction is not None:
                entries[STREAM_ATTR] = StringAttr(p.direction)
            if isinstance(p.type, StreamType):
                entries[DEPTH_ATTR] = IntegerAttr(p.type.depth, IntegerType(64))
            return DictionaryAttr(entries)

        return ArrayAttr([attrs(p) for p in self.params])


def ir_type(t: ScalarType | ArrayType | StreamType):
    """The IR type of a kernel type: ``i32`` (signless), ``f32``, ``memref<8x8xi32>`` or
    ``!stream.stream<i32>``."""
    if isinstance(t, ArrayType):
        return MemRefType(ir_type(t.element), list(t.shape))
    if isinstance(t, StreamType):
        return ir_stream.StreamType(ir_type(t.element))
    if isinstance(t, FloatType):
        return Float32Type()
    return IntegerType(t.width)


def signature_of(f: func.FuncOp) -> KernelSignature:
    """Read the kernel signature that the front end attached to ``f``."""
    arg_types = f.function_type.inputs.data
    attrs = f.arg_attrs.data if f.arg_attrs is not None else [DictionaryAttr({})] * len(arg_types)
    params = []
    for i, (ty, d) in enumerate(zip(arg_types, attrs, strict=True)):
        entries = d.data
        name = entries[NAME_ATTR].data if NAME_ATTR in entries else f"arg{i}"
        if TYPE_ATTR in entries:
            scalar = parse_type_name(entries[TYPE_ATTR].data)
        else:  # unannotated IR: signless integers are taken as signed
            elem = ty.element_type if isinstance(ty, (MemRefType, ir_stream.StreamType)) else ty
            scalar = float32 if isinstance(elem, Float32Type) else ScalarType(elem.width.data,
                                                                              True)
        if isinstance(ty, MemRefType):
            shape = tuple(ty.get_shape())
            params.append(Param(name, ArrayType(scalar, shape)))
        elif isinstance(ty, ir_stream.StreamType):
            direction = entries[STREAM_ATTR].data if STREAM_ATTR in entries else None
            depth = entries[DEPTH_ATTR].value.data if DEPTH_ATTR in entries else 2
            params.append(Param(name, StreamType(scalar, depth), direction))
        else:
            params.append(Param(name, scalar))
    ret = None
    if f.function_type.outputs.data:
        if RET_ATTR in f.attributes:
            ret = parse_type_name(f.attributes[RET_ATTR].data)
        elif isinstance(f.function_type.outputs.data[0], Float32Type):
            ret = float32
        else:
            ret = ScalarType(f.function_type.outputs.data[0].width.data, True)
    return KernelSignature(f.sym_name.data, tuple(params), ret)


def annotate(f: func.FuncOp, sig: KernelSignature) -> None:
    """Attach ``sig`` to ``f`` (the front end's side of ``signature_of``)."""
    f.arg_attrs = sig.ir_arg_attrs()
    f.attributes[KERNEL_ATTR] = builtin.UnitAttr()
    if sig.ret is not None:
        f.attributes[RET_ATTR] = StringAttr(type_name(sig.ret))


def top_function(module: ModuleOp) -> func.FuncOp:
    """The top kernel of a design module: the one named by ``vichls.top``, else the only
    function, else the last one."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    if not funcs:
        raise ValueError("the module holds no function")
    if TOP_ATTR in module.attributes:
        name = module.attributes[TOP_ATTR].data
        for f in funcs:
            if f.sym_name.data == name:
                return f
        raise ValueError(f"the module names top {name!r} but has no such function")
    return funcs[-1]


def find_function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise KeyError(name)


# -- calling a compiled kernel with numpy arguments ---------------------------------------


class KernelArgumentError(TypeError):
    """A kernel was called with arguments that do not match its signature."""


def _as_float(t: ScalarType) -> bool:
    """Do values of ``t`` cross to and from Python as floats (fixed point of at most 53
    bits), rather than as integers (integers, and wider fixed point as raw bits)?"""
    return isinstance(t, FixedType) and t.crosses_as_float


def python_dtype(t: ScalarType) -> np.dtype:
    """The dtype of a numpy array argument of element type ``t``: float64 for fixed point
    that crosses as floats, else the dtype of its raw bits (``ScalarType.dtype``)."""
    return np.dtype(np.float64) if _as_float(t) else t.dtype


def check_call_args(sig: KernelSignature, args: Sequence) -> list:
    """Validate the arguments of a call against ``sig``.

    Arrays must be numpy arrays of the parameter's shape and of ``python_dtype`` of its
    element type, C-contiguous, since every target updates them in place. Scalars are
    Python or numpy integers (a fixed-point scalar: a number), converted to the parameter
    type as an assignment would. Returns the arguments in that normal form; ``raw_args``
    gives the raw bits every target computes on.
    """
    if len(args) != len(sig.params):
        raise KernelArgumentError(
            f"{sig.name}() takes {len(sig.params)} arguments "
            f"({', '.join(p.name for p in sig.params)}), got {len(args)}"
        )
    out = []
    for p, a in zip(sig.params, args):
        if isinstance(p.type, ArrayType):
            if not isinstance(a, np.ndarray):
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be a numpy array of "
                    f"{p.type!r}, got {type(a).__name__}"
                )
            want = python_dtype(p.type.element)
            if a.shape != p.type.shape or a.dtype != want:
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must have shape {p.type.shape} and "
                    f"dtype {want}, got shape {a.shape} and dtype {a.dtype}"
                )
            if not a.flags.c_contiguous or not a.flags.writeable:
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be a writeable C-contiguous array"
                )
            out.append(a)
        elif isinstance(p.type, StreamType):
            if not isinstance(a, Stream) or a.type.element != p.type.element:
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be a vichls stream of "
                    f"{p.type.element!r} (e.g. vichls.stream[{p.type.element!r}]()), got "
                    f"{a!r}"
                )
            out.append(a)
        elif isinstance(p.type, FloatType):
            if not isinstance(a, (bool, int, float, np.bool_, np.integer, np.floating)):
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be a number, got {a!r}")
            out.append(np.float32(a))
        elif _as_float(p.type):
            if isinstance(a, (bool, np.bool_)):
                a = int(a)
            if isinstance(a, (int, np.integer)):
                exact = int(a)
            elif isinstance(a, (float, np.floating)) and np.isfinite(a):
                exact = float(a)
            else:
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be a finite number, got {a!r}"
                )
            out.append(from_bits(quantize(exact, p.type), p.type))
        else:
            if isinstance(a, (bool, np.bool_)):
                a = int(a)
            if not isinstance(a, (int, np.integer)):
                raise KernelArgumentError(
                    f"{sig.name}(): argument {p.name!r} must be an integer, got {type(a).__name__}"
                )
            out.append(p.type.wrap(int(a)))
    return out


def raw_args(sig: KernelSignature, normal: Sequence) -> list:
    """The arguments in normal form (``check_call_args``) as the raw bits the targets
    compute on: a fixed-point array that crosses as floats becomes a new array of its raw
    bits (``write_back`` returns what the call left in it), a fixed scalar its raw bits;
    everything else is passed as it is."""
    out = []
    for p, a in zip(sig.params, normal):
        if _as_float(p.scalar) and not p.is_stream:
            out.append(to_bits(a, p.scalar))
        else:
            out.append(a)
    return out


def write_back(sig: KernelSignature, normal: Sequence, raw: Sequence) -> None:
    """Copy what a call left in the raw arrays of fixed-point parameters back into the
    caller's float arrays (every array is updated in place)."""
    for p, a, r in zip(sig.params, normal, raw):
        if p.is_array and r is not a:
            np.copyto(a, from_bits(r, p.scalar))


def from_raw(t: ScalarType | None, raw):
    """A value of type ``t`` as the caller sees it, from its raw bits: a float for fixed
    point that crosses as floats (an array of them for an array), else the raw value."""
    if t is None or not _as_float(t):
        return raw
    return from_bits(raw, t)


def call_on_raw(sig: KernelSignature, args: Sequence, run):
    """Check ``args``, call ``run`` with their raw bits, copy the arrays back and return
    the result as the caller sees it: what every target's call does."""
    normal = check_call_args(sig, args)
    raw = raw_args(sig, normal)
    with np.errstate(all="ignore"):  # (float32 overflow, division by zero, NaN: IEEE's)
        result = run(*raw)
    write_back(sig, normal, raw)
    return from_raw(sig.ret, result)


def to_array_value(t: ScalarType, v: int):
    """A wrapped int as the numpy scalar that stores it in an array of type ``t``."""
    return t.dtype.type(t.wrap(v))
