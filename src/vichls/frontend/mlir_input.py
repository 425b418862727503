"""Reading and writing the portable package of a design: loop-level IR as MLIR text.

``vichls compile --emit loop`` prints the module with source locations; ``vichls compile
design.mlir`` reads it back here. xDSL parses ``affine.load %A[%i, %j]`` into a map over
symbols (``()[s0, s1] -> (s0, s1)``) where the front end builds one over dimensions, and
xDSL's lower-affine cannot lower the symbol form, so every affine access map read from text
is rewritten to dimensions; the result then compiles exactly like the in-memory module.
"""

from __future__ import annotations

import io
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from vichls.dialects import stream as ir_stream
from vichls.errors import VichlsError
from vichls.signature import top_function


def loop_level_context() -> Context:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, affine.Affine, scf.Scf, arith.Arith, memref.MemRef,
              ir_stream.Stream):
        ctx.load_dialect(d)
    return ctx


class _LocationPrinter(Printer):
    """xDSL 0.74 prints an scf.while's location in the middle of its custom form, where its
    own parser rejects it; this printer leaves it to the end, as for every other op."""

    def print_operation_type(self, op) -> None:
        if isinstance(op, scf.WhileOp):
            self.print_function_type(op.operand_types, op.result_types)
            return
        super().print_operation_type(op)


def print_module(module: ModuleOp, with_locations: bool = True) -> str:
    """MLIR text of the module; with locations, it parses back with ``load_mlir``."""
    buf = io.StringIO()
    _LocationPrinter(stream=buf, print_debuginfo=with_locations).print_op(module)
    return buf.getvalue() + "\n"


def _symbols_to_dims(m: AffineMap) -> AffineMap:
    if m.num_symbols == 0:
        return m
    replacement = [AffineExpr.dimension(m.num_dims + k) for k in range(m.num_symbols)]
    dims = [AffineExpr.dimension(k) for k in range(m.num_dims)]
    results = tuple(r.replace_dims_and_symbols(dims, replacement) for r in m.results)
    return AffineMap(m.num_dims + m.num_symbols, 0, results)


def normalize_affine_access_maps(module: ModuleOp) -> None:
    """Rewrite affine.load/store maps over symbols to the same maps over dimensions."""
    for op in module.walk():
        if isinstance(op, (affine.LoadOp, affine.StoreOp)):
            op.map = AffineMapAttr(_symbols_to_dims(op.map.data))


def load_mlir(path: str | Path) -> ModuleOp:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise VichlsError(f"cannot read {path}: {e.strerror}") from None
    try:
        module = Parser(loop_level_context(), text, str(path)).parse_module()
    except ParseError as e:
        line = col = None
        span = getattr(e, "span", None)
        if span is not None:
            try:
                line, col = span.get_line_col()
            except Exception:  # older/newer span APIs: the message still has the place
                line = col = None
        msg = str(e).strip().splitlines()[-1] if str(e).strip() else "parse error"
        raise VichlsError(f"not valid loop-level IR: {msg}", str(path), line, col) from None
    normalize_affine_access_maps(module)
    try:
        module.verify()
    except VerifyException as e:
        raise VichlsError(f"the IR does not verify: {e}", str(path)) from None
    try:
        top_function(module)
    except ValueError as e:
        raise VichlsError(str(e), str(path)) from None
    return module
