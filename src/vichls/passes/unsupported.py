"""The error every FPGA pass raises for input it cannot handle.

It lives apart from vichls.fpga (which re-exports it as ``vichls.fpga.FpgaError``) so that
passes can raise it without importing the driver. ``location`` is the offending op's
``FileLineColLoc`` when it has one, for the lead's file:line:col message.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc

from vichls.errors import VichlsError


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
