"""CPU back end against the golden reference on kernels written in the kernel language.

Three sources of kernels, each compiled with `compile_cpu(k.module())` and run on the same
inputs as the Python call `k(*args)`; the scalar result and every array must be bit-identical:

- the regression corpus (tests/kernels: every operator at many widths, the typing rules,
  loops, branches, calls, realistic kernels), on its edge-value input makers;
- the PolyBench 8x8 suite (benchmarks/polybench), on deterministic and random inputs;
- random programs from tests/progen.py (fixed seeds, so failures reproduce).

Some corpus cases also go through the IR's text form (print, then `load_mlir`), the way
`vichls compile --target cpu package.mlir` receives them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.polybench import SUITE  # noqa: E402
from kernels import ALL_CASES, copy_args  # noqa: E402
from progen import load_program, make_args  # noqa: E402
from vichls.driver.cpu import compile_cpu  # noqa: E402
from vichls.frontend.mlir_input import load_mlir, print_module  # noqa: E402

SEEDS = range(3)
PROGEN_SEEDS = range(1000, 1024)


def assert_same_as_reference(kernel, compiled, args, context) -> None:
    ref_args, cpu_args = copy_args(args), copy_args(args)
    expected = kernel(*ref_args)
    got = compiled(*cpu_args)
    assert got == expected, f"{context}: returned {got}, reference {expected}"
    for i, (mine, ref) in enumerate(zip(cpu_args, ref_args)):
        if isinstance(ref, np.ndarray):
            assert mine.dtype == ref.dtype
            if ref.dtype == np.float32:  # by their bits (any NaN a NaN): signed zeros differ
                same = (mine.view(np.uint32) == ref.view(np.uint32)) | (np.isnan(mine)
                                                                        & np.isnan(ref))
                assert same.all(), f"{context}: argument {i} differs\n{mine}\n{ref}"
                continue
            assert np.array_equal(mine, ref), f"{context}: argument {i} differs\n{mine}\n{ref}"


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.name for c in ALL_CASES])
def test_corpus_case_matches_reference(case):
    compiled = compile_cpu(case.kernel.module())
    for seed in SEEDS:
        args = case.make_inputs(np.random.default_rng(seed))
        assert_same_as_reference(case.kernel, compiled, args, f"{case.name} seed {seed}")


@pytest.mark.parametrize("name", sorted(SUITE))
def test_polybench_matches_reference(name):
    kernel, make_inputs, _ = SUITE[name]
    compiled = compile_cpu(kernel.module())
    assert_same_as_reference(kernel, compiled, make_inputs(), f"{name} deterministic")
    assert_same_as_reference(kernel, compiled, make_inputs(np.random.default_rng(7)), f"{name} random")


@pytest.mark.parametrize("seed", PROGEN_SEEDS)
def test_random_program_matches_reference(seed, tmp_path):
    top = load_program(seed, tmp_path).top
    compiled = compile_cpu(top.module())
    assert_same_as_reference(top, compiled, make_args(seed), f"progen seed {seed}")


@pytest.mark.parametrize("case", ALL_CASES[::5], ids=[c.name for c in ALL_CASES[::5]])
def test_corpus_case_from_ir_text_matches_reference(case, tmp_path):
    path = tmp_path / f"{case.name}.mlir"
    path.write_text(print_module(case.kernel.module()))
    compiled = compile_cpu(load_mlir(path))
    args = case.make_inputs(np.random.default_rng(11))
    assert_same_as_reference(case.kernel, compiled, args, f"{case.name} from text")


@pytest.mark.parametrize("case", ALL_CASES[2::7], ids=[c.name for c in ALL_CASES[2::7]])
def test_corpus_case_unoptimised_matches_reference(case):
    compiled = compile_cpu(case.kernel.module(), opt_level=0)
    args = case.make_inputs(np.random.default_rng(5))
    assert_same_as_reference(case.kernel, compiled, args, f"{case.name} -O0")
