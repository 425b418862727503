"""The one exception type of the CPU back end.

`CpuError` is raised for IR that the CPU back end cannot compile: an operation or type
outside the loop-level subset of docs/ir.md, or a module without a usable top kernel. It is
a `VichlsError`, so it carries the Python source position of the offending op (from its
`FileLineColLoc`) and the CLI reports it as ``file:line:col: error: ...`` with exit status 2.
"""

from __future__ import annotations

from xdsl.ir import Operation

from vichls.errors import VichlsError, location_of


class CpuError(VichlsError):
    """The CPU back end cannot compile this IR."""


def unsupported(op: Operation, what: str = "") -> CpuError:
    """A CpuError naming `op`, located at its Python source position when it has one."""
    detail = f": {what}" if what else ""
    return CpuError(f"cpu back end: unsupported op '{op.name}'{detail}", *location_of(op))
