"""Inline every ``func.call`` of another kernel into its caller.

Why: the FPGA back end builds one component for the top kernel; inlining is the simplest
correct way to support calls (sub-components can come later). Assumes the loop-level IR of
docs/ir.md: no recursion, and a callee body is one entry block ending in its only
``func.return``. The callee's allocas are cloned at the call site, which is fine because
the front end re-initialises locals explicitly at each declaration.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.rewriter import InsertPoint, Rewriter


class InlineError(Exception):
    def __init__(self, message: str, op=None):
        super().__init__(message)
        self.op = op


def inline_calls(module: ModuleOp, top_name: str) -> None:
    """Inline all calls in the function ``top_name``, then drop the other functions."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    top = functions[top_name]
    depth = 0
    while True:
        calls = [op for op in top.walk() if isinstance(op, func.CallOp)]
        if not calls:
            break
        depth += 1
        if depth > 64:
            raise InlineError("calls nest more than 64 deep (recursion?)", calls[0])
        for call in calls:
            callee = functions.get(call.callee.root_reference.data)
            if callee is None or callee is top:
                raise InlineError(f"func.call of unknown or recursive function {call.callee}", call)
            _inline_one(call, callee)
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

