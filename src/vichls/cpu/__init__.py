"""The CPU back end: loop-level IR → llvm dialect → llvmlite → host machine code.

    from vichls.cpu import compile_cpu
    m = compile_cpu(module)      # module: the loop-level IR of docs/ir.md (not modified)
    m(A, B, 3)                   # runs the top kernel on numpy arrays, in place
    m.llvm_ir, m.object_code()   # optimised LLVM IR text, relocatable host object

Passes, in order (one per file): c_entry_point, stream_put_bounds, lower_affine, scf_to_cf,
lower_streams, memref_to_llvm, index_to_i64, arith_to_llvm, cf_to_llvm, func_to_llvm; jit.py
drives them and LLVM. Stream arguments are `vichls.Stream` objects, consumed and appended
in place; a get from an empty stream raises `StreamUnderflowError`, a put to a full CPU
buffer `StreamOverflowError`.
"""

from vichls.cpu.errors import CpuError
from vichls.cpu.jit import CpuModule, StreamOverflowError, compile_cpu, lower_to_llvm_dialect

__all__ = ["CpuError", "CpuModule", "StreamOverflowError", "compile_cpu", "lower_to_llvm_dialect"]
