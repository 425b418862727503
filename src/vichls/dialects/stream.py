"""Streams on the loop level: first-in first-out channels of integers or float32 values.

A value of type ``!stream.stream<i32>`` is a FIFO of ``i32`` elements.
Kernels get one as a parameter (``x: vichls.stream[int32, 4]``: an ``ap_fifo`` port set
of the Verilog top) or make one locally (``q = vichls.stream[int32, 4]()``) to connect
the tasks of a dataflow design; the graph level also makes them when it turns an array
written and read in the same order into a FIFO (transforms/graph/infer_streams.py).

- ``stream.create {depth = 8 : i64}``: a local stream (one FIFO of ``depth`` elements in
  hardware);
- ``stream.get %s : i32``: removes the oldest element and yields it; waits while the
  stream is empty (in hardware the whole task stalls; the sequential Python and CPU
  semantics have unbounded streams, so a get from an empty one is an error there);
- ``stream.put %v, %s : i32``: appends an element; waits while the stream is full;
- ``stream.clear %s``: empties the stream. The front end never writes it: the FPGA back end
  hoists a ``stream.create`` that runs more than once per call (a kernel with a local stream
  called in a loop, once inlined) to the function's entry, with a ``stream.clear`` where it
  was, so that the one FIFO starts empty wherever the program makes a new stream
  (transforms/fpga/hoist_local_streams.py).

Element types are signless integers, as everywhere on the loop level, or ``f32`` (its
IEEE-754 bits: 32 bits wide in hardware); the kernel type (signedness) travels in the
``vichls.type`` attributes of the signature. ``depth`` (an
attribute of ``stream.create``, and ``vichls.depth`` of a stream parameter) is the FIFO
capacity in hardware; it does not change the meaning of a program.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)

from vichls.dialects.attributes import NAME_ATTR
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """A FIFO of ``element_type`` values. Its depth is not part of the type: a kernel takes
    streams of any depth, so that calls type-check whatever the depth of the stream passed;
    the depth of a local stream is an attribute of its ``stream.create``."""

    name = "stream.stream"

    element_type: IntegerType | Float32Type

    def __init__(self, element_type: IntegerType | Float32Type):
        super().__init__(element_type)

    @property
    def width(self) -> int:
        """The element's width in bits (an f32: 32, its IEEE-754 bits)."""
        if isinstance(self.element_type, Float32Type):
            return 32
        return self.element_type.width.data

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            element = parser.parse_type()
        return (element,)


@irdl_op_definition
class CreateOp(IRDLOperation):
    """A local stream with room for ``depth`` elements, empty when made."""

    name = "stream.create"
    depth = prop_def(IntegerAttr)
    result = result_def(StreamType)
    assembly_format = "attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, stream_type: StreamType, depth: int):
        super().__init__(result_types=[stream_type],
                         properties={"depth": IntegerAttr(depth, IntegerType(64))})

    @property
    def display_name(self) -> str:
        """The stream's name in the source (``vichls.name``), for messages."""
        name = self.attributes.get(NAME_ATTR)
        return name.data if name is not None else (self.result.name_hint or "a local stream")

    def verify_(self) -> None:
        if self.depth.value.data < 1:
            raise VerifyException(f"a stream holds at least one element, not {self.depth.value.data}")


@irdl_op_definition
class ClearOp(IRDLOperation):
    """Empty ``stream``: what was put to it and not got is dropped."""

    name = "stream.clear"
    stream = operand_def(StreamType)
    assembly_format = "$stream attr-dict `:` type($stream)"

    def __init__(self, stream):
        super().__init__(operands=[stream])


@irdl_op_definition
class GetOp(IRDLOperation):
    """Remove the oldest element of ``stream`` and yield it."""

    name = "stream.get"
    stream = operand_def(StreamType)
    result = result_def(base(IntegerType) | base(Float32Type))
    assembly_format = "$stream attr-dict `:` type($stream) `->` type($result)"

    def __init__(self, stream):
        super().__init__(operands=[stream], result_types=[stream.type.element_type])


@irdl_op_definition
class PutOp(IRDLOperation):
    """Append ``value`` to ``stream``."""

    name = "stream.put"
    value = operand_def(base(IntegerType) | base(Float32Type))
    stream = operand_def(StreamType)
    assembly_format = "$value `,` $stream attr-dict `:` type($value) `,` type($stream)"

    def __init__(self, value, stream):
        super().__init__(operands=[value, stream])


Stream = Dialect("stream", [CreateOp, ClearOp, GetOp, PutOp], [StreamType])
