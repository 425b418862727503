"""A wall-clock limit on a block of code, for the commands that run user code or long jobs.

``with time_limit(seconds):`` raises ``TimeLimitExceeded`` in the block once ``seconds`` have
passed. It uses a SIGALRM interval timer, which exists only on POSIX and only fires in the
main thread; elsewhere (a Dask worker's threads, Windows) the block runs without a limit, so
callers keep a limit that always works (a step count) where one is needed.
"""

from __future__ import annotations

import contextlib
import signal
import threading


class TimeLimitExceeded(Exception):
    """The block ran longer than its limit."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    usable = (bool(seconds) and seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise TimeLimitExceeded()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
