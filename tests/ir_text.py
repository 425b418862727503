"""Helpers of the pytest tests that build IR from text (most IR-text tests are in
tests/filecheck/, run by lit): parse the loop level, find ops by name."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, memref, scf
from xdsl.parser import Parser


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef, affine.Affine):
        ctx.load_dialect(d)
    return Parser(ctx, text).parse_module()


def ops_named(module, name):
    return [op for op in module.walk() if op.name == name]
