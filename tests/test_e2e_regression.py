"""The end-to-end regression: every kernel of the corpus (tests/kernels, which together use
every construct of the language) runs as Python reference, CPU build and simulated RTL on
inputs that include the edge values of their types, and all three agree bit for bit."""

import zlib

import numpy as np
import pytest

from e2e import assert_outcome, run_batch
from kernels import ALL_CASES

CALLS_PER_KERNEL = 3


@pytest.fixture(scope="session")
def regression():
    items = []
    for case in ALL_CASES:
        rng = np.random.default_rng(zlib.crc32(case.name.encode()))
        items.append((case.name, case.kernel,
                      [case.make_inputs(rng) for _ in range(CALLS_PER_KERNEL)]))
    return run_batch(items)


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.name)
def test_python_cpu_rtl_agree(regression, case):
    assert_outcome(regression[case.name])
