"""What a kernel's source may name that the checker must recognise by identity: another
kernel (any ``KernelBase``; frontend/kernel.py's ``Kernel`` is the one), the loop label
``vichls.loop`` and ``vichls.sqrt``. Apart from both, so that the checker (frontend/check.py) and the kernel
wrapper (frontend/kernel.py, which runs the checker) do not import each other."""

from __future__ import annotations


class KernelBase:
    """The base class of ``@kernel`` functions; ``name`` and ``_checking`` (the checker
    is reading this kernel's body: a call to it is recursion) are all the checker reads
    besides ``tree()``."""

    name: str
    _checking: bool


def loop(rng, name: str | None = None):
    """Label a loop for directives: ``for i in vichls.loop(range(N), name="outer"):``.

    In Python it is the range itself."""
    return rng


def sqrt(x):
    """The square root of a float32 value (``vichls.sqrt``), correctly rounded as IEEE-754
    requires; in a kernel, what the checker recognises. Called from Python, numpy's float32
    square root."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        return float(np.sqrt(np.float32(x)))
