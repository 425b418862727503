"""If-conversion of register updates (transforms/fpga/if_convert_scalars.py) and the store
forwarding into branches that uses it (transforms/fpga/forward_scalar_stores.py).

- the IR (tests/filecheck/if_convert_scalars*.mlir, forward_scalar_stores*.mlir): which
  ifs become selects (pipelined bodies; a ``while`` condition, with its array loads
  speculated only where every address is in range; elsewhere only when the code after the
  if reads the register back), which stay, and what forwarding keeps;
- end to end: short-circuit ``while`` conditions and conditional updates read back, the
  KMP shape with pow2 and other pattern lengths, elements read again after the loop,
  simulate Python = CPU = RTL, and the
  matcher's loop takes fewer cycles per character than before the conversion (with
  transforms/fpga/forward_while_exit_loads, which these kernels exercise end to end too).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from e2e import assert_outcome, run_batch
from vichls import int32, kernel
from vichls.frontend.kernel import load_source


def _kmp(pattern: int, text: int):
    """The suite's KMP kernel (benchmarks/machsuite/kmp.py) at other sizes."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "machsuite" / "kmp.py"
    source, count = re.subn(r"^PATTERN, TEXT = .*$", f"PATTERN, TEXT = {pattern}, {text}",
                            path.read_text(), flags=re.MULTILINE)
    assert count == 1
    return load_source(source, f"{path}[{pattern},{text}]")["kmp"]


kmp4 = _kmp(4, 48)  # pattern[matched] from a 4-word memory: speculated
kmp5 = _kmp(5, 48)  # from 5 words: the read stays under `matched > 0`


@kernel
def first_fit(sizes: int32[8], free: int32[16], take: int32[8]) -> int32:
    """A ``while`` with ``or`` and a negative start, and updates read back under ifs."""
    placed: int32 = 0
    for j in range(8):
        slot: int32 = -1
        while slot < 0 or (slot < 15 and free[slot] < sizes[j]):
            slot += 1
        if free[slot] >= sizes[j]:
            free[slot] -= sizes[j]
            placed += 1
        if placed > 3:
            placed = placed - 1 + (placed & 1)
        take[j] = slot * 100 + placed
    return placed


@kernel
def sorted_runs(a: int32[4, 8], out: int32[8]) -> int32:
    """Reads after a ``while`` of elements its condition read (a 2-d one, speculated past
    the row), before and after a store to them."""
    total: int32 = 0
    for r in range(4):
        c: int32 = 0
        while c < 7 and a[r][c] <= a[r][c + 1]:
            c += 1
        out[c] += a[r][c] * 3
        a[r][c] = total - r
        total += a[r][c] + out[c]
    return total


def _kmp_calls(length: int):
    calls = []
    for seed, letters in ((1, 2), (2, 3), (3, 4)):
        rng = np.random.default_rng(seed)
        text = rng.integers(0, letters, size=48).astype(np.uint8)
        start = int(rng.integers(0, 48 - length))
        calls.append((text[start:start + length].copy(), text, np.zeros(length, np.int32)))
    calls.append((np.zeros(length, np.uint8), np.zeros(48, np.uint8), np.zeros(length, np.int32)))
    return calls


def _fit_calls():
    calls = []
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        calls.append((rng.integers(0, 9, size=8, dtype=np.int32),
                      rng.integers(0, 12, size=16, dtype=np.int32), np.zeros(8, np.int32)))
    return calls


@pytest.fixture(scope="module")
def outcomes():
    rng = np.random.default_rng(7)
    runs = [(np.sort(rng.integers(-50, 50, size=(4, 8)), axis=1).astype(np.int32)
             if k == 0 else rng.integers(-4, 4, size=(4, 8)).astype(np.int32),
             np.zeros(8, np.int32)) for k in range(3)]
    return run_batch([("kmp4", kmp4, _kmp_calls(4)), ("kmp5", kmp5, _kmp_calls(5)),
                      ("first_fit", first_fit, _fit_calls()), ("sorted_runs", sorted_runs, runs)])


@pytest.mark.parametrize("name", ["kmp4", "kmp5", "first_fit", "sorted_runs"])
def test_python_equals_cpu_equals_rtl(outcomes, name):
    assert_outcome(outcomes[name])


def test_the_matcher_tests_its_condition_in_the_cycle_its_loads_return(outcomes):
    # all-zero text and pattern: every character matches and the failure walk never
    # runs, so the call is the failure table plus 48 x (condition + update). The
    # condition is one expression tested in the cycle its loads return (2 cycles, not a
    # flag written and read back: 3); the update compares the elements the condition read
    # (transforms/fpga/forward_while_exit_loads) and reads matched + 1 as a wire (2 cycles, not
    # 4): 4 per character instead of 7 (362 cycles before).
    cycles = outcomes["kmp4"].cycles[3]
    assert cycles <= 48 * 4 + 30, cycles
