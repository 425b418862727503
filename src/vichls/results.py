"""Results of a kernel call, and their bit-level comparison.

A result is ``(return value or None, {array parameter: ndarray after the call, stream
parameter: list of the elements it holds after the call})``. The
reference, the CPU build and the simulated RTL all produce one; ``differences`` says, in
readable lines, where two of them disagree. ``vichls sim``, ``vichls fuzz`` and the tests
share it so that every check compares the same things the same way.
"""

from __future__ import annotations

import numpy as np

from vichls.signature import KernelSignature


def results_of(sig: KernelSignature, args, ret) -> tuple:
    """The result of a call of ``sig`` on ``args`` (after the call) that returned ``ret``."""
    return ret, {p.name: (list(a) if p.is_stream else a)
                 for p, a in zip(sig.params, args) if p.is_array or p.is_stream}


def differences(expected, got) -> list[str]:
    """Readable bit-level differences between two results (empty when they agree)."""
    ret_e, arr_e = expected
    ret_g, arr_g = got
    out = []
    if not _same(ret_e, ret_g):
        out.append(f"return: expected {ret_e}, got {ret_g}")
    for name, e in arr_e.items():
        if isinstance(e, list):  # a stream's contents
            g = list(arr_g[name])
            # (element by element as return values are: float32 elements by their bits)
            if len(e) != len(g) or not all(_same(a, b) for a, b in zip(e, g)):
                at = next((k for k, (a, b) in enumerate(zip(e, g)) if not _same(a, b)),
                          min(len(e), len(g)))
                out.append(f"stream {name}: expected {len(e)} elements, got {len(g)}; first "
                           f"difference at element {at}")
            continue
        g = np.asarray(arr_g[name])
        if e.dtype != g.dtype or e.shape != g.shape:
            out.append(f"{name}: expected {e.dtype}{e.shape}, got {g.dtype}{g.shape}")
            continue
        bad = np.argwhere(_differ(e, g))
        if len(bad):
            i = tuple(int(x) for x in bad[0])
            out.append(f"{name}{list(i)}: expected {e[i]}, got {g[i]} ({len(bad)} differ)")
    return out


def _differ(e: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Where two arrays differ, bit for bit; floats by their bits (so -0.0 is not 0.0),
    except that every NaN is a NaN (IEEE leaves the payload of a result open)."""
    if e.dtype.kind != "f":
        return e != g
    bits = e.view(f"u{e.itemsize}") != g.view(f"u{g.itemsize}")
    return bits & ~(np.isnan(e) & np.isnan(g))


def _same(a, b) -> bool:
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, np.floating)):
        # float32 results as float32, others (fixed point's float64 values) as float64
        dtype = np.float32 if isinstance(a, np.float32) and isinstance(b, np.float32) \
            else np.float64
        return not _differ(np.array([a], dtype=dtype), np.array([b], dtype=dtype))[0]
    return a == b

