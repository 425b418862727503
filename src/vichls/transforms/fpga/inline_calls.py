"""Inline every ``func.call`` of another kernel into its caller.

Why: the FPGA back end builds one component for the top kernel; inlining is the simplest
correct way to support calls (sub-components can come later). Assumes the loop-level IR of
docs/ir.md: no recursion, and a callee body is one entry block ending in its only
``func.return``. The callee's allocas are cloned at the call site, which is fine because
the front end re-initialises locals explicitly at each declaration.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from vichls.errors import FpgaError
from vichls.signature import top_function


class InlineError(Exception):
    def __init__(self, message: str, op=None):
        super().__init__(message)
        self.op = op


def inline_calls(module: ModuleOp, top_name: str) -> None:
    """Inline all calls in the function ``top_name``, then drop the other functions.

    Callees are inlined into their callers bottom-up (a callee's own calls first), so each
    function body is copied once per call site and a chain of kernels calling each other
    costs time linear in its length, however long. A call that reaches a function still
    being expanded is recursion, which kernels cannot do."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    top = functions[top_name]
    done: set[str] = set()
    # an explicit stack (chains can be longer than Python's recursion allows):
    # (function, whether its callees have been pushed)
    stack: list[tuple[func.FuncOp, bool]] = [(top, False)]
    open_: set[str] = set()
    while stack:
        f, expanded = stack.pop()
        name = f.sym_name.data
        if expanded:
            for call in [op for op in f.walk() if isinstance(op, func.CallOp)]:
                _inline_one(call, functions[call.callee.root_reference.data])
            open_.discard(name)
            done.add(name)
            continue
        if name in done:
            continue
        open_.add(name)
        stack.append((f, True))
        for call in [op for op in f.walk() if isinstance(op, func.CallOp)]:
            callee_name = call.callee.root_reference.data
            callee = functions.get(callee_name)
            if callee is None:
                raise InlineError(f"func.call of unknown function {call.callee}", call)
            if callee_name in open_:
                raise InlineError(f"func.call of {call.callee} is recursive", call)
            if callee_name not in done:
                stack.append((callee, False))
    for name, f in functions.items():
        if name != top_name:
            f.detach()
            f.erase()


def _inline_one(call: func.CallOp, callee: func.FuncOp) -> None:
    body: Block = callee.body.blocks.first
    mapping = {arg: operand for arg, operand in zip(body.args, call.arguments, strict=True)}
    returned = []
    for op in body.ops:
        if isinstance(op, func.ReturnOp):
            returned = [mapping.get(v, v) for v in op.arguments]
            break
        clone = op.clone(value_mapper=mapping)
        Rewriter.insert_op(clone, InsertPoint.before(call))
    for result, value in zip(call.results, returned, strict=True):
        result.replace_all_uses_with(value)
    call.detach()
    call.erase()


@dataclass(frozen=True)
class InlineCallsPass(ModulePass):
    """Inline every call of the top kernel (``vichls.top``) and drop the other functions."""

    name = "inline-calls"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            inline_calls(op, top_function(op).sym_name.data)
        except InlineError as e:
            raise FpgaError.at(e.op, str(e)) if e.op is not None else FpgaError(str(e)) from e
