"""Errors that vichls reports to its user.

Every mistake in a kernel, a directive or a command line becomes a ``VichlsError`` that
knows where it happened (file, line, column) and how to say it in one line. The CLI prints
``str(error)`` and exits with status 2; it never shows a Python traceback for these.
"""

from __future__ import annotations


def line_col_of_byte(data: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, column) of byte ``offset`` in ``data`` (columns count bytes)."""
    before = data[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


class VichlsError(Exception):
    """A user-facing error with an optional source location."""

    def __init__(self, message: str, filename: str | None = None, line: int | None = None,
                 col: int | None = None):
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col

    def where(self) -> str:
        if self.filename is None:
            return ""
        parts = [self.filename]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: error: {self.message}" if where else f"error: {self.message}"


class KernelError(VichlsError):
    """The kernel source uses something the kernel language does not allow."""


class DirectiveError(VichlsError):
    """A directive (schedule primitive) that cannot be applied."""


def location_of(op) -> tuple[str | None, int | None, int | None]:
    """(file, line, column) of an xDSL operation's FileLineColLoc, or Nones."""
    loc = getattr(op, "location", None)
    filename = getattr(loc, "filename", None)
    if filename is None:
        return None, None, None
    return filename.data, loc.line.data, loc.column.data
