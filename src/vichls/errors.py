"""Errors that vichls reports to its user.

Every mistake in a kernel, a directive or a command line becomes a ``VichlsError`` that
knows where it happened (file, line, column) and how to say it in one line. ``FpgaError``
is what every FPGA pass raises for IR it cannot handle (at the op's location), and
``StreamUnderflowError`` a get from an empty stream on a sequential target. The CLI prints
``str(error)`` and exits with status 2; it never shows a Python traceback for these.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc

from vichls.types import StreamEmptyError


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


class StreamUnderflowError(VichlsError, StreamEmptyError):
    """``get()`` from an empty stream: the sequential program would wait for ever (in
    hardware, a deadlock). The same error on every sequential target (Python, CPU)."""

    def __init__(self, stream_name: str, filename: str | None = None,
                 line: int | None = None, col: int | None = None):
        super().__init__(f"get() from the empty stream '{stream_name}': the kernel reads more "
                         "elements than were put", filename, line, col)
        self.stream_name = stream_name


class FpgaError(VichlsError):
    """The FPGA back end cannot compile this IR; ``location`` is the op's FileLineColLoc."""

    def __init__(self, message: str, location=None):
        if isinstance(location, FileLineColLoc):
            super().__init__(message, location.filename.data, location.line.data,
                             location.column.data)
        else:
            super().__init__(message)
        self.location = location

    @classmethod
    def at(cls, op, message: str) -> "FpgaError":
        """An error about ``op``: the message names it, the location is its own."""
        loc = getattr(op, "location", None)
        return cls(f"{op.name}: {message}", loc if isinstance(loc, FileLineColLoc) else None)
