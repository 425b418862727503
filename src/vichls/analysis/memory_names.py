"""The kernel's name of a memory: a parameter, local array, scalar register or stream.

One rule for every message and report that names storage: the source name the front end
recorded (``vichls.name`` on a function argument or on the op that makes the memory: local
arrays, banks after partitioning, streams, constant arrays), else the SSA name hint (scalar
locals carry their source name there), else a description by kind.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.ir import Block, SSAValue

from vichls.dialects.attributes import NAME_ATTR


def source_name(value: SSAValue) -> str | None:
    """The ``vichls.name`` of the argument or op that makes ``value``, if any."""
    owner = value.owner
    if isinstance(owner, Block):
        function = owner.parent_op()
        arg_attrs = getattr(function, "arg_attrs", None)
        if arg_attrs is None or value.index >= len(arg_attrs.data):
            return None
        name = arg_attrs.data[value.index].data.get(NAME_ATTR)
    else:
        name = owner.attributes.get(NAME_ATTR)
    return name.data if isinstance(name, StringAttr) else None


def is_scalar_memref(value: SSAValue) -> bool:
    """A 0-d memref: a scalar local held in a register."""
    return isinstance(value.type, MemRefType) and not value.type.get_shape()


def display_name(value: SSAValue) -> str:
    """How a message names ``value``: its source name or name hint, else by its kind."""
    name = source_name(value) or value.name_hint
    if name:
        return name
    return "a local variable" if is_scalar_memref(value) else "a local array"


def described(value: SSAValue) -> str:
    """``scalar 'acc'``, ``array 'w'`` (or ``a local array`` without a name)."""
    name = source_name(value) or value.name_hint
    if not name:
        return display_name(value)
    return f"{'scalar' if is_scalar_memref(value) else 'array'} '{name}'"
