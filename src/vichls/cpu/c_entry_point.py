"""Give the top kernel a C entry point whose scalars use their numpy container types.

What: every kernel `func.func @f` is renamed `@__vichls_f` and made private (so no kernel
name can clash with, or be mistaken by LLVM for, a C library function such as `abs`), calls
follow the new names, and a new public `func.func @k` for the top kernel `k` is added. It
takes every scalar parameter in its container width (the width of `ScalarType.dtype`:
`int_(12)` → i16, `bool_` → i8), truncates it to the kernel width, calls the kernel, and
extends the result back to its container width (sign-extended for signed return types,
zero-extended otherwise). Array and stream parameters pass through unchanged.

Why: LLVM leaves the bits above an odd-width integer (i12, i1) undefined at a call
boundary, so a C caller (ctypes, or user code linking the object file) cannot pass or
receive them directly. With the wrapper, `@k` in the object file has a plain C signature
(`int16_t k(int32_t *A, int16_t x)`), and the kernel itself stays an ordinary LLVM function
that O3 inlines into the wrapper.

Assumes: the loop-level IR of docs/ir.md with its `vichls.*` signature attributes, every
callee defined in the module.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import Float32Type, IntegerType, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass

from vichls.signature import signature_of, top_function
from vichls.types import FloatType, ScalarType

KERNEL_PREFIX = "__vichls_"


def container_width(t: ScalarType) -> int:
    """Bits of the numpy dtype that stores values of `t`."""
    return t.dtype.itemsize * 8


def _c_type(t: ScalarType):
    """The C type a scalar crosses as: its container integer, or a float."""
    return Float32Type() if isinstance(t, FloatType) else IntegerType(container_width(t))


def _resized(t: ScalarType) -> bool:
    return not isinstance(t, FloatType) and t.width != container_width(t)


class AddCEntryPoint(ModulePass):
    """Wrap the top kernel in a C-ABI function named after it."""

    name = "vichls-cpu-c-entry-point"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        kernel = top_function(op)
        sig = signature_of(kernel)
        public_name = kernel.sym_name.data
        for f in op.ops:
            if isinstance(f, func.FuncOp):
                f.sym_name = StringAttr(KERNEL_PREFIX + f.sym_name.data)
                f.sym_visibility = StringAttr("private")
        for call in op.walk():
            if isinstance(call, func.CallOp):
                call.callee = SymbolRefAttr(KERNEL_PREFIX + call.callee.root_reference.data)

        arg_types = []
        for param, ir_type in zip(sig.params, kernel.function_type.inputs.data):
            passed_whole = param.is_array or param.is_stream
            arg_types.append(ir_type if passed_whole else _c_type(param.type))
        result_types = [] if sig.ret is None else [_c_type(sig.ret)]

        body = Block(arg_types=arg_types)
        call_args: list[SSAValue] = []
        for param, arg in zip(sig.params, body.args):
            if not param.is_array and not param.is_stream and _resized(param.type):
                narrowed = arith.TruncIOp(arg, IntegerType(param.type.width))
                body.add_op(narrowed)
                call_args.append(narrowed.result)
            else:
                call_args.append(arg)
        call = func.CallOp(kernel.sym_name.data, call_args, kernel.function_type.outputs.data)
        body.add_op(call)
        returned: list[SSAValue] = []
        if sig.ret is not None:
            value = call.results[0]
            if _resized(sig.ret):
                widen = arith.ExtSIOp if sig.ret.signed else arith.ExtUIOp
                extended = widen(value, IntegerType(container_width(sig.ret)))
                body.add_op(extended)
                value = extended.result
            returned.append(value)
        body.add_op(func.ReturnOp(*returned))

        wrapper = func.FuncOp(public_name, (arg_types, result_types), Region(body), arg_attrs=kernel.arg_attrs)
        op.body.block.add_op(wrapper)
