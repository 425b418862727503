"""The ``@kernel`` decorator and the ways a kernel file is loaded.

A ``Kernel`` wraps the user's Python function. Its source is read and checked lazily,
on first use, so kernels may call kernels defined later in the same file. Calling a kernel
runs the golden reference; ``module()`` builds the loop-level IR.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import inspect
import io
import linecache
import sys
import textwrap
import tokenize
from pathlib import Path

from vichls.limits import MAX_NESTING, deep
from vichls.errors import KernelError, VichlsError, line_col_of_byte
from vichls.frontend import tree as T
from vichls.frontend.markers import KernelBase, loop  # noqa: F401 (loop: vichls.loop)
from vichls.signature import KernelSignature, Param, call_on_raw


class Kernel(KernelBase):
    """A typed Python function that vichls can compile."""

    def __init__(self, fn):
        if not inspect.isfunction(fn):
            raise TypeError("@kernel decorates a function")
        self.fn = fn
        self.name = fn.__name__
        self._tree: T.KernelTree | None = None
        self._checking = False
        self._reference = None
        functools.update_wrapper(self, fn)

    def __repr__(self) -> str:
        return f"<vichls kernel {self.name}>"

    # -- source and checking ---------------------------------------------------------
    def _source(self) -> tuple[ast.FunctionDef, str, int, int]:
        fn = self.fn
        filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise KernelError(f"cannot read the source of kernel '{self.name}' ({e}); define "
                              "kernels in a file", filename, fn.__code__.co_firstlineno) from None
        raw = "".join(lines)
        dedented = textwrap.dedent(raw)
        indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
        try:
            mod = ast.parse(dedented)
        except SyntaxError as e:
            raise KernelError(f"syntax error: {e.msg}", filename,
                              (e.lineno or 1) + start - 1, e.offset) from None
        fdefs = [n for n in mod.body if isinstance(n, ast.FunctionDef)]
        if not fdefs and mod.body and isinstance(mod.body[0], ast.AsyncFunctionDef):
            node = mod.body[0]
            raise KernelError(f"kernel '{self.name}' is an async function; kernels are plain "
                              "functions", filename, node.lineno + start - 1,
                              node.col_offset + indent + 1)
        if not fdefs:
            raise KernelError(f"cannot find the definition of kernel '{self.name}'", filename,
                              start)
        too_deep = _deeper_than(fdefs[0], MAX_NESTING)
        if too_deep is not None:
            raise KernelError(f"statements and expressions nest too deeply (more than "
                              f"{MAX_NESTING} levels)", filename, too_deep.lineno + start - 1,
                              too_deep.col_offset + indent + 1)
        return fdefs[0], filename, start - 1, indent

    def tree(self) -> T.KernelTree:
        """The checked, typed kernel (raises KernelError on anything not allowed)."""
        if self._tree is None:
            from vichls.frontend.check import Checker

            fdef, filename, line_offset, col_offset = self._source()
            self._checking = True
            try:
                self._tree = deep(Checker(self, fdef, filename, line_offset, col_offset).run)()
            finally:
                self._checking = False
        return self._tree

    @property
    def signature(self) -> KernelSignature:
        t = self.tree()
        return KernelSignature(t.name, tuple(Param(p.name, p.type, p.direction) for p in t.params),
                               t.ret)

    # -- the golden reference ------------------------------------------------------------
    def reference(self):
        """The reference implementation: a Python function on checked arguments."""
        if self._reference is None:
            from vichls.frontend.reference import build_reference

            self._reference = build_reference(self)
        return self._reference

    def __call__(self, *args):
        return call_on_raw(self.signature, args, self.reference())

    # -- IR -------------------------------------------------------------------------------------
    def module(self):
        """A fresh loop-level IR module (docs/ir.md) with this kernel as top."""
        from vichls.frontend.to_ir import build_module

        return build_module(self)


def _deeper_than(root: ast.AST, limit: int) -> ast.AST | None:
    """The first node (with a position) deeper than ``limit`` in ``root``'s syntax tree,
    found without recursion."""
    stack = [(root, 0, root)]
    while stack:
        node, depth, placed = stack.pop()
        if hasattr(node, "lineno"):
            placed = node
        if depth > limit:
            return placed
        stack.extend((child, depth + 1, placed) for child in ast.iter_child_nodes(node))
    return None


def kernel(fn) -> Kernel:
    """Declare a kernel: a typed Python function vichls compiles to hardware and to the CPU."""
    return Kernel(fn)


# -- loading kernel files ----------------------------------------------------------------------


def kernels_in(namespace: dict) -> dict[str, Kernel]:
    return {k.name: k for k in namespace.values() if isinstance(k, Kernel)}


def load_file(path: str | Path) -> dict:
    """Import a kernel file and return its global namespace.

    User code runs here (as it would under ``python file.py``); an exception while importing
    becomes a VichlsError naming the file and line."""
    path = Path(path)
    if not path.is_file():
        raise VichlsError(f"no such file: {path}")
    _check_encoding(path)
    mod_name = f"_vichls_user_{abs(hash(str(path.resolve()))) % 10**12}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise VichlsError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    sys.path.insert(0, str(path.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise KernelError(f"syntax error: {e.msg}", str(path), e.lineno, e.offset) from None
    except VichlsError:
        raise
    except Exception as e:  # the user's module failed while importing
        line, col = _innermost_position_in(e.__traceback__, str(path))
        raise VichlsError(f"importing the kernel file failed: {type(e).__name__}: {e}",
                          str(path), line, col) from None
    finally:
        sys.path.pop(0)
    return vars(module)


def _check_encoding(path: Path) -> None:
    """Refuse a file that its declared encoding (UTF-8 unless it says otherwise, PEP 263)
    does not decode, at the first byte that does not decode."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise VichlsError(f"cannot read {path}: {e.strerror}") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as e:  # a bad byte in the first two lines, or a bad declaration
        encoding = "utf-8"
        declaration_error = e
    else:
        declaration_error = None
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as e:
        line, col = line_col_of_byte(raw, e.start)
        raise KernelError(f"the file is not valid {encoding} text (byte 0x{raw[e.start]:02x}); "
                          "save it as UTF-8 or declare its encoding (# -*- coding: ... -*-)",
                          str(path), line, col) from None
    if declaration_error is not None:
        raise KernelError(f"bad encoding declaration: {declaration_error.msg}", str(path),
                          declaration_error.lineno or 1, 1) from None


def _innermost_position_in(tb, filename: str) -> tuple[int | None, int | None]:
    """(line, 1-based column) of the innermost traceback entry in ``filename``: where in
    the user's file the failing expression starts."""
    line = col = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename:
            line, col = tb.tb_lineno, None
            # each bytecode instruction is 2 bytes; co_positions lists one entry per instruction
            positions = list(code.co_positions())
            k = tb.tb_lasti // 2
            if 0 <= k < len(positions) and positions[k][0] == line and positions[k][2] is not None:
                col = positions[k][2] + 1
        tb = tb.tb_next
    return line, col


def load_source(source: str, filename: str = "<kernel>") -> dict:
    """Execute kernel source text (for generated programs) and return its namespace."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {"__name__": f"_vichls_src_{abs(hash(filename)) % 10**12}"}
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as e:
        raise KernelError(f"syntax error: {e.msg}", filename, e.lineno, e.offset) from None
    exec(code, namespace)
    return namespace
