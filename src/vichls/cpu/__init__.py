"""The CPU back end's lowering: loop-level IR → llvm dialect, one pass per file.

Passes, in the order of the ``cpu-lower`` pipeline (vichls/passes/pipelines.py):
c_entry_point, stream_put_bounds, lower_affine, scf_to_cf, lower_streams, memref_to_llvm,
index_to_i64, arith_to_llvm, cf_to_llvm, func_to_llvm. vichls/driver/cpu.py runs them,
then LLVM, and calls the machine code:

    from vichls.driver.cpu import compile_cpu
    m = compile_cpu(module)      # module: the loop-level IR of docs/ir.md (not modified)
    m(A, B, 3)                   # runs the top kernel on numpy arrays, in place
    m.llvm_ir, m.object_code()   # optimised LLVM IR text, relocatable host object

Stream arguments are `vichls.Stream` objects, consumed and appended in place; a get from
an empty stream raises `StreamUnderflowError`, a put to a full CPU buffer
`StreamOverflowError`.
"""
