"""Check a loop-level package read from text against the rules of docs/ir.md.

Why: a package (``vichls compile --emit loop``) can be edited by hand or written by another
tool, and the back ends trust what the front end guarantees: integers of 1 to 64 bits,
arrays of 1 to 4 constant, positive dimensions, a ``vichls.type`` attribute that names the
signedness of the very width the IR computes in, streams with a direction. A package that
breaks one of these would compile into a wrong design (an ``uint8`` label on a
``memref<8xi32>`` made 8-bit hardware while the CPU computed in 32 bits) or crash a pass.

What: ``check_package`` raises ``PackageError`` naming the first operation that breaks a
rule (the loader turns it into ``file:line:col``); it changes nothing. Parsing and xDSL's
own verification come first (vichls/frontend/mlir_input.py).
"""

from __future__ import annotations

import keyword
import re

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Operation

from vichls.dialects import stream as ir_stream
from vichls.dialects.attributes import (
    INTERFACES_ATTR,
    DEPTH_ATTR,
    KERNEL_ATTR,
    NAME_ATTR,
    RET_ATTR,
    STREAM_ATTR,
    TOP_ATTR,
    TYPE_ATTR,
    VichlsAttributeError,
    verify_attributes,
)
from vichls.limits import MAX_NESTING
from vichls.types import MAX_ARRAY_ELEMENTS, MAX_WIDTH, FloatType, parse_type_name

#: arrays have 1 to this many dimensions (the kernel language's rule)
MAX_DIMS = 4

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


#: the dialects whose operations a package may hold (docs/ir.md), and of ours the stream ops
#: the front end writes (not stream.clear, nor the graph and structural levels)
_LOOP_LEVEL_DIALECTS = frozenset({"func", "affine", "scf", "arith", "memref"})
_FLOAT_MATH_OPS = frozenset({"math.sqrt", "math.absf"})  # (float32 kernels)
_STREAM_OPS = frozenset({"stream.create", "stream.get", "stream.put"})


class PackageError(Exception):
    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


def _integer_width(t: Attribute, op: Operation, what: str) -> int:
    """The width of an integer (or float32: 32) type; anything else is refused."""
    if isinstance(t, IndexType):
        return 32
    if isinstance(t, Float32Type):
        return 32
    if not isinstance(t, IntegerType):
        raise PackageError(op, f"{what} has type {t}, not an integer type")
    width = t.width.data
    if not 1 <= width <= MAX_WIDTH:
        raise PackageError(op, f"{what} is a {width}-bit integer; vichls integers have 1 to "
                               f"{MAX_WIDTH} bits")
    return width


def _check_type(t: Attribute, op: Operation, what: str) -> None:
    if isinstance(t, MemRefType):
        shape = list(t.get_shape())
        if not shape:
            _integer_width(t.element_type, op, f"the element of {what}")
            return  # a 0-d memref: a local scalar
        if len(shape) > MAX_DIMS:
            raise PackageError(op, f"{what} has {len(shape)} dimensions; arrays have 1 to "
                                   f"{MAX_DIMS}")
        if any(d < 1 for d in shape):
            raise PackageError(op, f"{what} has type {t}: every dimension must be a positive "
                                   "constant")
        elements = 1
        for d in shape:
            elements *= d
        if elements > MAX_ARRAY_ELEMENTS:
            raise PackageError(op, f"{what} has {elements} elements; at most {MAX_ARRAY_ELEMENTS}")
        _integer_width(t.element_type, op, f"the element of {what}")
    elif isinstance(t, ir_stream.StreamType):
        _integer_width(t.element_type, op, f"the element of {what}")
    else:
        _integer_width(t, op, what)


def _string(entries: dict, key: str, f: func.FuncOp, what: str) -> str | None:
    if key not in entries:
        return None
    value = entries[key]
    if not isinstance(value, StringAttr):
        raise PackageError(f, f"{what}: {key} must be a string, got {value}")
    return value.data


def _check_signature(f: func.FuncOp) -> None:
    fname = f.sym_name.data
    inputs = f.function_type.inputs.data
    attrs = f.arg_attrs.data if f.arg_attrs is not None else [DictionaryAttr({})] * len(inputs)
    names = set()
    for i, (t, d) in enumerate(zip(inputs, attrs, strict=True)):
        what = f"parameter {i} of '{fname}'"
        _check_type(t, f, what)
        entries = d.data
        name = _string(entries, NAME_ATTR, f, what)
        if name is not None:
            if not _IDENTIFIER.match(name) or keyword.iskeyword(name):
                raise PackageError(f, f"{what}: {NAME_ATTR} {name!r} is not an identifier")
            if name in names:
                raise PackageError(f, f"{what}: two parameters are named {name!r}")
            names.add(name)
            what = f"parameter '{name}' of '{fname}'"
        type_name = _string(entries, TYPE_ATTR, f, what)
        element = t.element_type if isinstance(t, (MemRefType, ir_stream.StreamType)) else t
        if type_name is not None:
            try:
                scalar = parse_type_name(type_name)
            except ValueError:
                raise PackageError(f, f"{what}: {TYPE_ATTR} {type_name!r} is not a vichls type "
                                      "(int32, uint8, int_12 ...)") from None
            if isinstance(scalar, FloatType) != isinstance(element, Float32Type):
                raise PackageError(f, f"{what}: {TYPE_ATTR} says {type_name} but the IR type is "
                                      f"{t}")
            if isinstance(element, IntegerType) and scalar.width != element.width.data:
                raise PackageError(f, f"{what}: {TYPE_ATTR} says {type_name} ({scalar.width} "
                                      f"bits) but the IR type is {t} ({element.width.data} bits)")
        direction = _string(entries, STREAM_ATTR, f, what)
        if isinstance(t, ir_stream.StreamType):
            if direction not in ("in", "out"):
                raise PackageError(f, f"{what} is a stream: {STREAM_ATTR} must be \"in\" (the "
                                      "kernel gets from it) or \"out\" (it puts to it)")
            depth = entries.get(DEPTH_ATTR)
            if depth is not None and not (isinstance(depth, IntegerAttr) and depth.value.data >= 1):
                raise PackageError(f, f"{what}: {DEPTH_ATTR} must be a positive integer")
        elif direction is not None:
            raise PackageError(f, f"{what} is not a stream but has {STREAM_ATTR}")
    outputs = f.function_type.outputs.data
    if len(outputs) > 1:
        raise PackageError(f, f"'{fname}' returns {len(outputs)} values; a kernel returns at "
                              "most one scalar")
    if outputs:
        width = _integer_width(outputs[0], f, f"the result of '{fname}'")
        ret = f.attributes.get(RET_ATTR)
        if ret is not None:
            if not isinstance(ret, StringAttr):
                raise PackageError(f, f"'{fname}': {RET_ATTR} must be a string")
            try:
                scalar = parse_type_name(ret.data)
            except ValueError:
                raise PackageError(f, f"'{fname}': {RET_ATTR} {ret.data!r} is not a vichls "
                                      "type") from None
            if scalar.width != width or isinstance(scalar, FloatType) != isinstance(
                    outputs[0], Float32Type):
                raise PackageError(f, f"'{fname}': {RET_ATTR} says {ret.data} but the function "
                                      f"returns {outputs[0]}")
    elif RET_ATTR in f.attributes:
        raise PackageError(f, f"'{fname}' has {RET_ATTR} but returns nothing")


def _check_nesting(module: ModuleOp) -> None:
    """Regions in regions at most MAX_NESTING deep (iteratively: the check must not be
    the thing that overflows)."""
    stack = [(module, 0)]
    while stack:
        op, depth = stack.pop()
        if depth > MAX_NESTING:
            raise PackageError(op, f"regions nest too deeply (more than {MAX_NESTING} levels, "
                                   "docs/ir.md)")
        for region in op.regions:
            for block in region.blocks:
                stack.extend((inner, depth + 1) for inner in block.ops)


def _check_global(g: memref.GlobalOp, seen: dict) -> None:
    """A constant array: a constant global of static shape whose dense values (integers or
    f32) have that shape and element type (and a ``vichls.type`` of that width; float32 for
    f32)."""
    name = g.sym_name.data
    if name in seen:
        raise PackageError(g, f"two memref.globals are named @{name}")
    seen[name] = g
    _check_type(g.type, g, f"the type of @{name}")
    if not g.type.get_shape():
        raise PackageError(g, f"@{name}: a constant array has 1 to 4 dimensions")
    if g.constant is None or not isinstance(g.initial_value, DenseIntOrFPElementsAttr):
        raise PackageError(g, f"@{name}: only constant memref.globals with dense values (the "
                              "constant arrays of vichls.const) are part of the loop level")
    value_type = g.initial_value.get_type()
    if list(g.initial_value.get_shape() or ()) != list(g.type.get_shape()) or \
            value_type.get_element_type() != g.type.element_type:
        raise PackageError(g, f"@{name}: its values are {value_type}, its type {g.type}")
    if TYPE_ATTR in g.attributes:
        attr = g.attributes[TYPE_ATTR]
        try:
            t = parse_type_name(attr.data)
        except (ValueError, AttributeError):
            raise PackageError(g, f"@{name}: {TYPE_ATTR} is not a type name") from None
        element = g.type.element_type
        if isinstance(t, FloatType) != isinstance(element, Float32Type):
            raise PackageError(g, f"@{name}: {TYPE_ATTR} = {attr.data}, but the values are "
                                  f"{element}")
        if isinstance(element, IntegerType) and t.width != element.width.data:
            raise PackageError(g, f"@{name}: {TYPE_ATTR} = {attr.data} is {t.width} bits wide, "
                                  f"the values {element}")


def check_package(module: ModuleOp) -> None:
    _check_nesting(module)
    top = module.attributes.get(TOP_ATTR)
    if top is not None and not isinstance(top, StringAttr):
        raise PackageError(module, f"{TOP_ATTR} must be a string naming the top function")
    globals_: dict[str, memref.GlobalOp] = {}
    for f in module.ops:
        if isinstance(f, memref.GlobalOp):
            _check_global(f, globals_)
            continue
        if not isinstance(f, func.FuncOp):
            raise PackageError(f, f"a package holds only func.func operations and the "
                                  f"memref.global of constant arrays, not {f.name}")
        if not f.body.blocks:
            raise PackageError(f, f"'{f.sym_name.data}' has no body")
        if KERNEL_ATTR not in f.attributes:
            raise PackageError(f, f"'{f.sym_name.data}' is not marked {KERNEL_ATTR}")
        _check_signature(f)
    try:  # every vichls attribute declared, of its kind, where it may be
        verify_attributes(module)
    except VichlsAttributeError as e:
        raise PackageError(e.op, str(e)) from None
    for f in module.ops:  # interface directives that fit the kernel they are on
        if isinstance(f, func.FuncOp) and INTERFACES_ATTR in f.attributes:
            from vichls.interface.spec import check_recorded
            from vichls.signature import signature_of

            try:
                check_recorded(f, signature_of(f))
            except (ValueError, KeyError) as e:
                raise PackageError(f, f"{INTERFACES_ATTR}: {e}") from None
    for op in module.walk():
        if isinstance(op, (ModuleOp, func.FuncOp)):
            continue
        if op.dialect_name() not in _LOOP_LEVEL_DIALECTS and op.name not in _STREAM_OPS \
                and op.name not in _FLOAT_MATH_OPS:
            raise PackageError(op, f"{op.name} is not part of the loop level (docs/ir.md): a "
                                   "package holds func, affine, scf, arith and memref operations "
                                   "and stream.create/get/put")
        for k, v in enumerate(op.results):
            _check_type(v.type, op, f"result {k} of {op.name}")
        for k, block in ((k, b) for r in op.regions for k, b in enumerate(r.blocks)):
            for a in block.args:
                _check_type(a.type, op, f"a block argument of {op.name}")
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) \
                and isinstance(op.value.type, IntegerType):
            width = op.value.type.width.data
            value = op.value.value.data
            if not -(1 << (width - 1)) <= value < (1 << width):
                raise PackageError(op, f"the constant {value} does not fit in {width} bits")
        if isinstance(op, memref.AllocOp):
            raise PackageError(op, "memref.alloc is not part of the loop level; local arrays "
                                   "are memref.alloca")
        if isinstance(op, memref.GetGlobalOp):
            name = op.name_.root_reference.data
            if name not in globals_:
                raise PackageError(op, f"memref.get_global @{name}: the package has no "
                                       "memref.global of that name")
            if globals_[name].type != op.memref.type:
                raise PackageError(op, f"memref.get_global @{name} reads {op.memref.type}, but "
                                       f"the global is {globals_[name].type}")
