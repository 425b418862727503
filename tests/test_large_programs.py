"""Programs that are legal but large: a long elif chain, an expression of a thousand terms,
a chain of a hundred kernels calling each other, a uint64 index, a local stream left partly
full by a callee called in a loop. Each runs as Python reference, CPU build and simulated
RTL, several calls in a row, and must agree bit for bit (the front end and passes used to
end in RecursionError, or refuse the chain at 64 calls deep). Compile time against size
is measured in benchmarks/compile_scaling.py."""

from __future__ import annotations

import numpy as np
import pytest

from e2e import assert_outcome, run_batch
from vichls.frontend.kernel import kernels_in, load_source


def elif_chain(n: int) -> str:
    lines = ["from vichls import kernel, int32", "", "@kernel",
             "def elif_chain(x: int32) -> int32:", "    r: int32 = 0", "    if x == 0:",
             "        r = 7"]
    for i in range(1, n):
        lines += [f"    elif x == {i}:", f"        r = {i * 3 + 1}"]
    lines += ["    else:", "        r = -1", "    return r", ""]
    return "\n".join(lines)


def wide_sum(n: int) -> str:
    terms = " + ".join(f"a[{i % 8}] * {i % 5 + 1}" for i in range(n))
    return ("from vichls import kernel, int32\n\n@kernel\n"
            f"def wide_sum(a: int32[8]) -> int32:\n    return {terms}\n")


def call_chain(n: int) -> str:
    parts = ["from vichls import kernel, int32\n",
             "@kernel\ndef link0(x: int32) -> int32:\n    return x + 1\n"]
    for i in range(1, n):
        parts.append(f"@kernel\ndef link{i}(x: int32) -> int32:\n"
                     f"    return link{i - 1}(x) * 3 + {i}\n")
    return "\n".join(parts)


UINT64_INDEX = '''
from vichls import kernel, int32, uint64

@kernel
def pick(a: int32[8], k: uint64) -> int32:
    return a[k % 8] + a[(k >> 60) & 7]
'''

SOURCES = {
    "elif_chain": (elif_chain(150), "elif_chain"),
    "wide_sum": (wide_sum(1000), "wide_sum"),
    "call_chain": (call_chain(100), "link99"),
    "uint64_index": (UINT64_INDEX, "pick"),
}


def _kernel(name):
    source, top = SOURCES[name]
    return kernels_in(load_source(source, f"<{name}>"))[top]


def _args(name, rng):
    if name == "elif_chain":
        return [(int(v),) for v in (0, 149, 150, -3, int(rng.integers(0, 150)))]
    if name == "wide_sum":
        return [(rng.integers(-1000, 1000, 8).astype(np.int32),) for _ in range(3)]
    if name == "call_chain":
        return [(int(v),) for v in rng.integers(-2**31, 2**31, 3)]
    return [(rng.integers(-99, 99, 8).astype(np.int32), int(v))
            for v in rng.integers(0, 2**63, 3, dtype=np.uint64)]


@pytest.fixture(scope="module")
def outcomes():
    rng = np.random.default_rng(18)
    return run_batch([(name, _kernel(name), _args(name, rng)) for name in SOURCES])


@pytest.mark.parametrize("name", list(SOURCES))
def test_python_cpu_rtl_agree(outcomes, name):
    assert_outcome(outcomes[name])
