"""Streams on the loop level: first-in first-out channels of integers.

A value of type ``!stream.stream<i32, 4>`` is a FIFO of ``i32`` elements with room for 4.
Kernels get one as a parameter (``x: vichls.stream[int32, 4]``: an ``ap_fifo`` port set
of the Verilog top) or make one locally (``q = vichls.stream[int32, 4]()``) to connect
the tasks of a dataflow design; the graph level also makes them when it turns an array
written and read in the same order into a FIFO (passes/infer_streams.py).

- ``stream.create``: a local stream (one FIFO of ``depth`` elements in hardware);
- ``stream.get %s : i32``: removes the oldest element and yields it; waits while the
  stream is empty (in hardware the whole task stalls; the sequential Python and CPU
  semantics have unbounded streams, so a get from an empty one is an error there);
- ``stream.put %v, %s : i32``: appends an element; waits while the stream is full;
- ``stream.clear %s``: empties the stream. The front end never writes it: the FPGA back end
  hoists a ``stream.create`` that runs more than once per call (a kernel with a local stream
  called in a loop, once inlined) to the function's entry, with a ``stream.clear`` where it
  was, so that the one FIFO starts empty wherever the program makes a new stream
  (passes/hoist_local_streams.py).

Element types are signless integers, as everywhere on the loop level; the kernel type
(signedness) travels in the ``vichls.type`` attributes of the signature. ``depth`` is the
FIFO capacity in hardware; it does not change the meaning of a program.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, IntegerType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    param_def,
    result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """A FIFO of ``element_type`` values with room for ``depth`` of them."""

    name = "stream.stream"

    element_type: IntegerType
    depth: IntAttr = param_def(converter=IntAttr.get)

    def __init__(self, element_type: IntegerType, depth: int | IntAttr = 2):
        super().__init__(element_type, depth if isinstance(depth, IntAttr) else IntAttr(depth))

    @property
    def width(self) -> int:
        return self.element_type.width.data

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(", ")
            printer.print_int(self.depth.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, IntAttr]:
        with parser.in_angle_brackets():
            element = parser.parse_type()
            parser.parse_punctuation(",")
            depth = IntAttr(parser.parse_integer())
        return (element, depth)


@irdl_op_definition
class CreateOp(IRDLOperation):
    """A local stream, empty on entry to the kernel."""

    name = "stream.create"
    result = result_def(StreamType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, stream_type: StreamType):
        super().__init__(result_types=[stream_type])


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
    result = result_def(IntegerType)
    assembly_format = "$stream attr-dict `:` type($stream) `->` type($result)"

    def __init__(self, stream):
        super().__init__(operands=[stream], result_types=[stream.type.element_type])


@irdl_op_definition
class PutOp(IRDLOperation):
    """Append ``value`` to ``stream``."""

    name = "stream.put"
    value = operand_def(IntegerType)
    stream = operand_def(StreamType)
    assembly_format = "$value `,` $stream attr-dict `:` type($value) `,` type($stream)"

    def __init__(self, value, stream):
        super().__init__(operands=[value, stream])


Stream = Dialect("stream", [CreateOp, ClearOp, GetOp, PutOp], [StreamType])
