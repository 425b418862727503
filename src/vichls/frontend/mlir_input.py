"""Reading and writing the portable package of a design: loop-level IR as MLIR text.

``vichls compile --emit loop`` prints the module with source locations; ``vichls compile
design.mlir`` reads it back here. xDSL parses ``affine.load %A[%i, %j]`` into a map over
symbols (``()[s0, s1] -> (s0, s1)``) where the front end builds one over dimensions, and
xDSL's lower-affine cannot lower the symbol form, so every affine access map read from text
is rewritten to dimensions; the result then compiles exactly like the in-memory module.
"""

from __future__ import annotations

import io
from math import isfinite
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, math, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float32Type,
    IntAttr,
    ModuleOp,
)
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from vichls.limits import deep
from vichls.dialects import stream as ir_stream
from vichls.errors import VichlsError, line_col_of_byte
from vichls.frontend.package_check import PackageError, check_package
from vichls.limits import MAX_NESTING, deep_recursion
from vichls.signature import top_function


def loop_level_context() -> Context:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, affine.Affine, scf.Scf, arith.Arith, memref.MemRef,
              math.Math, ir_stream.Stream):
        ctx.load_dialect(d)
    return ctx


#: Ops whose custom form in xDSL 0.74 neither prints nor parses an attribute dictionary:
#: with attributes of their own they are printed in the generic form, which keeps them.
_CUSTOM_FORM_DROPS_ATTRIBUTES = frozenset({"arith.cmpi", "affine.load", "affine.store",
                                           "affine.apply"})


class PackagePrinter(Printer):
    """The printer of vichls's MLIR text (packages, vichls-opt's output).

    xDSL 0.74 prints an scf.while's location in the middle of its custom form, where its
    own parser rejects it; this printer leaves it to the end, as for every other op. The
    custom forms of ``arith.cmpi`` and the affine accesses drop discardable attributes (a
    scheduled compare would lose its ``vichls.cycle``): such an op with attributes is
    printed in the generic form.

    It also prints faster, which a package of 30,000 operations notices: the text of a
    location's file is made once per file, and text without a newline goes straight to the
    stream."""

    def print_operation_type(self, op) -> None:
        if isinstance(op, scf.WhileOp):
            self.print_function_type(op.operand_types, op.result_types)
            return
        super().print_operation_type(op)

    def print_op(self, op) -> None:
        if op.attributes and op.name in _CUSTOM_FORM_DROPS_ATTRIBUTES \
                and not self.print_generic_format:
            self.print_generic_format = True
            try:
                super().print_op(op)
            finally:
                self.print_generic_format = False
            return
        super().print_op(op)

    def print_attribute(self, attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr) and _f32_needs_hex(attribute):
            # xDSL 0.74 prints an f32 it cannot write in decimal (NaN, infinities, some
            # integers) as its bits, 0x7F800000, but reads such a literal in dense<[...]>
            # as an integer value: the hexadecimal form of the data reads back exactly
            self.print_string(f'dense<"0x{attribute.data.data.hex().upper()}"> : ')
            self.print_attribute(attribute.type)
            return
        if not isinstance(attribute, FileLineColLoc):
            super().print_attribute(attribute)
            return
        # ``loc("<file>":<line>:<col>)``: the text before the line is made once per file
        # (printing the file name escapes it character by character)
        prefixes = self.__dict__.setdefault("_location_prefixes", {})
        prefix = prefixes.get(attribute.filename)
        if prefix is None:
            probe = FileLineColLoc(attribute.filename, IntAttr(0), IntAttr(0))
            saved, self.stream = self.stream, io.StringIO()
            try:
                super().print_attribute(probe)
                text = self.stream.getvalue()
            finally:
                self.stream = saved
            self._current_column -= len(text)
            # (another form of location text: no shortcut)
            prefix = prefixes[attribute.filename] = (
                text[:-len("0:0)")] if text.endswith('":0:0)') else "")
        if not prefix:
            super().print_attribute(attribute)
            return
        self.print_string(f"{prefix}{attribute.line.data}:{attribute.column.data})")

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text or self.stream is None:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)


def _f32_needs_hex(attribute: DenseIntOrFPElementsAttr) -> bool:
    """Would xDSL print an element of this f32 attribute as hexadecimal bits (which its
    parser misreads in a dense attribute)?"""
    if not isinstance(attribute.get_element_type(), Float32Type):
        return False
    f32 = attribute.get_element_type()
    for value in attribute.get_values():
        if not isfinite(value):
            return True
        text = f"{value:.5e}"
        if f32.unpack(f32.pack([float(text)]), 1)[0] != value and "." not in f"{value:.9g}":
            return True
    return False


@deep
def print_module(module: ModuleOp, with_locations: bool = True) -> str:
    """MLIR text of the module; with locations, it parses back with ``load_mlir``."""
    buf = io.StringIO()
    PackagePrinter(stream=buf, print_debuginfo=with_locations).print_op(module)
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


class _PositionParser(Parser):
    """A parser that remembers where in the text each operation starts, so that errors
    found after parsing (verification, the package check) point into the file."""

    def __init__(self, ctx: Context, text: str, name: str):
        super().__init__(ctx, text, name)
        self.starts: dict[Operation, int] = {}
        self.last_start = 0

    def parse_operation(self) -> Operation:
        start = self.last_start = self.pos
        op = super().parse_operation()
        self.starts[op] = start
        return op

    def line_col(self, position: int) -> tuple[int, int]:
        where = Span(position, position, self.lexer.input).get_location()
        return where.line, where.col


def _error_at(parser: _PositionParser, path: Path, op: Operation | None, message: str
              ) -> VichlsError:
    position = None
    while op is not None and position is None:  # an op the parser made (a terminator left
        position = parser.starts.get(op)       # implicit in the text): its parent's place
        op = op.parent_op()
    if position is None:
        return VichlsError(message, str(path))
    return VichlsError(message, str(path), *parser.line_col(position))


@deep
def load_mlir(path: str | Path) -> ModuleOp:
    """Parse, verify and check a package; every error is a VichlsError with the place in
    the file (exit status 2 on the command line)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise VichlsError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        line, col = line_col_of_byte(e.object, e.start)
        raise VichlsError("the file is not UTF-8 text (MLIR text is UTF-8)", str(path),
                          line, col) from None
    parser = _PositionParser(loop_level_context(), text, str(path))
    try:
        with deep_recursion():
            module = parser.parse_module()
    except ParseError as e:
        where = e.span.get_location()
        msg = " ".join(e.msg.split()) if e.msg else "parse error"
        raise VichlsError(f"not valid loop-level IR: {msg}", str(path), where.line,
                          where.col) from None
    except VerifyException as e:  # raised while parsing an attribute (a constant too wide)
        raise VichlsError(f"not valid loop-level IR: {' '.join(str(e).split())}", str(path),
                          *parser.line_col(parser.last_start)) from None
    except RecursionError:
        raise VichlsError(f"not valid loop-level IR: regions nest too deeply (at most "
                          f"{MAX_NESTING} levels)", str(path),
                          *parser.line_col(parser.last_start)) from None
    normalize_affine_access_maps(module)
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            raise _error_at(parser, path, op, f"the IR does not verify: "
                                              f"{' '.join(str(e).split())}") from None
    try:
        module.verify()
    except VerifyException as e:
        raise VichlsError(f"the IR does not verify: {' '.join(str(e).split())}", str(path)) from None
    try:
        top_function(module)
    except ValueError as e:
        raise VichlsError(str(e), str(path)) from None
    try:
        check_package(module)
    except PackageError as e:
        raise _error_at(parser, path, e.op, str(e)) from None
    return module
