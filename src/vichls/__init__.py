"""vichls: high-level synthesis of typed Python kernels to Verilog and LLVM machine code."""

from vichls.types import (
    Stream,
    StreamType,
    stream,
    ArrayType,
    ConstArray,
    FixedType,
    ScalarType,
    bool_,
    const,
    fixed,
    float32,
    from_bits,
    to_bits,
    ufixed,
    int8,
    int16,
    int32,
    int64,
    int_,
    uint8,
    uint16,
    uint32,
    uint64,
    uint_,
)

from vichls.errors import DirectiveError, KernelError, VichlsError
from vichls.frontend.kernel import Kernel, kernel, loop
from vichls.frontend.markers import sqrt
from vichls.frontend.customize import Schedule, customize

__version__ = "0.1.0"

#: the public names (``from vichls import *``; also what linters count as used)
__all__ = [
    "ArrayType", "ConstArray", "DirectiveError", "FixedType", "Kernel", "KernelError",
    "ScalarType", "Schedule", "Stream", "StreamType", "VichlsError", "bool_", "const",
    "customize", "fixed", "float32", "from_bits", "int16", "int32", "int64", "int8", "int_", "kernel",
    "loop", "sqrt", "stream", "to_bits", "ufixed", "uint16", "uint32", "uint64", "uint8", "uint_",
]
