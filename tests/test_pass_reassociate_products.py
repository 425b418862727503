"""Products reassociated so that loop-invariant factors multiply first
(transforms/fpga/reassociate_products.py): the IR after the pass and hoisting, and end to end on
syr2k's shape of product, Python = CPU = RTL."""

from __future__ import annotations

import numpy as np
import pytest
from test_pass_prepare import parse

from e2e import assert_outcome, run_batch
from vichls import int32, kernel
from vichls.inputs import random_args
from vichls.transforms.fpga.hoist_loop_invariants import hoist_loop_invariants
from vichls.transforms.fpga.reassociate_products import reassociate_products

PRODUCTS = """
builtin.module {
  func.func @f(%a: memref<8xi32>, %b: memref<8xi32>, %out: memref<8xi32>, %alpha: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c3 = arith.constant 3 : index
    %bk = memref.load %b[%c3] : memref<8xi32>
    scf.for %j = %c0 to %c8 step %c1 {
      %aj = memref.load %a[%j] : memref<8xi32>
      %t = arith.muli %aj, %alpha : i32
      %u = arith.muli %t, %bk : i32
      %v = arith.muli %aj, %aj : i32
      %w = arith.muli %v, %aj : i32
      %x = arith.addi %u, %w : i32
      memref.store %x, %out[%j] : memref<8xi32>
    }
    func.return
  }
}"""


def test_invariant_factors_multiply_first_and_leave_the_loop():
    m = parse(PRODUCTS)
    assert reassociate_products(m)
    hoist_loop_invariants(m)
    loop = next(op for op in m.walk() if op.name == "scf.for")
    inside = [op for op in loop.body.block.ops if op.name == "arith.muli"]
    outside = [op for op in loop.parent_block().ops if op.name == "arith.muli"]
    assert len(outside) == 1  # alpha * b[3], once before the loop
    assert {v.name_hint for v in outside[0].operands} == {"alpha", "bk"}
    assert len(inside) == 3  # aj * (alpha * bk), and aj * aj * aj as it was
    assert not reassociate_products(m)  # nothing left to gain


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
