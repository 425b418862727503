"""vichls: high-level synthesis of typed Python kernels to Verilog and LLVM machine code."""

from vichls.types import (
    Stream,
    StreamType,
    stream,
    ArrayType,
    FixedType,
    ScalarType,
    bool_,
    fixed,
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
from vichls.frontend.customize import Schedule, customize

__version__ = "0.1.0"
