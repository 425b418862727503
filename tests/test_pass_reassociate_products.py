"""Products reassociated so that loop-invariant factors multiply first
(transforms/fpga/reassociate_products.py): on IR text in
tests/filecheck/reassociate_products*.mlir; here the FPGA preparation of syr2k's shape of
product, and end to end Python = CPU = RTL."""

from __future__ import annotations

import numpy as np
import pytest

from e2e import assert_outcome, run_batch
from vichls import int32, kernel
from vichls.inputs import random_args


@kernel
def two_terms(alpha: int32, A: int32[6, 5], B: int32[6, 5], C: int32[6, 6]):
    for i in range(6):
        for k in range(5):
            for j in range(i + 1):
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k]


def test_the_syr2k_product_has_two_multipliers_in_its_inner_loop():
    from vichls.driver.fpga import prepare

    module = two_terms.module()
    prepare(module, 10.0)
    loops = [op for op in module.walk() if op.name == "scf.for"]
    innermost = [op for op in loops[-1].body.block.ops if op.name == "arith.muli"]
    in_k = [op for op in loops[-2].body.block.ops if op.name == "arith.muli"]
    assert len(innermost) == 2 and len(in_k) == 2  # alpha times the rows of i, hoisted


@pytest.fixture(scope="module")
def outcomes():
    calls = [random_args(two_terms.signature, np.random.default_rng(seed)) for seed in (1, 2)]
    return run_batch([("two_terms", two_terms, calls)])


def test_python_equals_cpu_equals_rtl(outcomes):
    assert_outcome(outcomes["two_terms"])
