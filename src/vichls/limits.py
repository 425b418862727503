"""How deep a program may nest, and the stack the compiler runs deep programs on.

The front end and several passes walk the program recursively (an ``elif`` chain is an
``if`` nested in the ``else`` of the one before; ``a + b + c`` is ``(a + b) + c``), and so
does xDSL's parser of MLIR text. Python's default limit of 1,000 frames, and the 8 MiB
stack of the main thread, are far below what legal programs need: an ``elif`` chain of 400
branches, an expression of 1,000 terms. So:

- ``MAX_NESTING`` bounds the nesting of a kernel (statements and expressions, counted as
  the depth of its Python syntax tree) and of a loop-level package (regions in regions);
  deeper input is refused with "nested too deeply" at the place where it passes the limit;
- ``deep(fn)`` runs a compiler entry point on a thread with a stack and a recursion limit
  sized for that bound (the thread sees the caller's context variables, the device
  among them), and re-raises what it raises.

While it runs, the garbage collector looks for cycles less often (``_GC_THRESHOLDS``): a
compile builds hundreds of thousands of IR objects that all stay alive, and Python's
default thresholds (a collection every 700 allocations, a full one every 100 of those)
made it walk them again and again, a fifth of the time of a 5,000-statement kernel.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gc
import sys
import threading

#: The deepest nesting of a kernel's syntax tree or of a package's regions.
MAX_NESTING = 2000

#: Python frames allowed while running deep: the passes and the parser take a few dozen
#: frames per level of nesting.
_RECURSION_LIMIT = 200_000
#: The stack of the thread that runs deep (1 GiB of address space, used only as deep as
#: the program nests).
_STACK_BYTES = 1 << 30

#: The collector's thresholds while compiling (see the module's docstring).
_GC_THRESHOLDS = (10_000, 50, 100)

_local = threading.local()


@contextlib.contextmanager
def fewer_collections():
    """Collect cyclic garbage less often for the duration (restored after)."""
    old = gc.get_threshold()
    gc.set_threshold(*(max(a, b) for a, b in zip(_GC_THRESHOLDS, old)))
    try:
        yield
    finally:
        gc.set_threshold(*old)


@contextlib.contextmanager
def deep_recursion():
    """Raise the recursion limit for the duration (only where ``deep`` gave a big stack)."""
    if not getattr(_local, "deep", False):
        yield
        return
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def deep(fn):
    """Run ``fn`` on a thread with a big stack and a high recursion limit."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_local, "deep", False):
            return fn(*args, **kwargs)
        context = contextvars.copy_context()
        outcome: dict = {}

        def run():
            _local.deep = True
            try:
                with deep_recursion():
                    outcome["value"] = context.run(fn, *args, **kwargs)
            except BaseException as e:  # noqa: BLE001 - handed back to the caller
                outcome["error"] = e

        old = threading.stack_size()
        threading.stack_size(_STACK_BYTES)
        with fewer_collections():
            try:
                thread = threading.Thread(target=run, name=f"vichls-{fn.__name__}")
                thread.start()
            finally:
                threading.stack_size(old)
            thread.join()
        if "error" in outcome:
            raise outcome["error"].with_traceback(outcome["error"].__traceback__)
        return outcome.get("value")

    return wrapper


# -- how far a directive may unroll --------------------------------------------------------

#: The most copies of a loop body one directive may make (unroll, the inner loops a
#: pipeline unrolls, the loops a complete partition unrolls): beyond it the design and the
#: compile time grow out of any device's reach, and the directive is refused, naming the
#: loop and the count. ``use_unroll_limit`` (``--max-unroll`` on the command line) moves it.
MAX_UNROLL_COPIES = 4096

_unroll_limit: contextvars.ContextVar[int] = contextvars.ContextVar(
    "vichls_unroll_limit", default=MAX_UNROLL_COPIES)


def unroll_limit() -> int:
    """The active limit on the copies one directive may make."""
    return _unroll_limit.get()


@contextlib.contextmanager
def use_unroll_limit(copies: int):
    """Allow up to ``copies`` copies of a loop body per directive for the duration."""
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        raise ValueError(f"the unroll limit must be a positive integer, not {copies!r}")
    token = _unroll_limit.set(copies)
    try:
        yield
    finally:
        _unroll_limit.reset(token)


def unroll_limit_hint() -> str:
    """What a refusal says about moving the limit."""
    return (f"the limit is {unroll_limit()} copies; vichls compile --max-unroll N or "
            "vichls.limits.use_unroll_limit(N) raises it")
