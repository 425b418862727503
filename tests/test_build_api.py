"""The directive API's build(): every target gives something that behaves like the kernel."""

import numpy as np
import pytest

import vichls
from vichls.errors import DirectiveError
from vichls.frontend.kernel import load_file
from pathlib import Path

KERNELS = load_file(Path(__file__).parent / "data" / "frontend_kernels.py")


def _args(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-2**31, 2**31, size=8, dtype=np.int64).astype(np.int32)
    y = rng.integers(-2**31, 2**31, size=8, dtype=np.int64).astype(np.int32)
    x[0], y[1] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    return x, y


@pytest.mark.parametrize("target", ["cpu", "sim"])
def test_build_gives_a_callable_that_matches_python(target):
    k = KERNELS["caller"]
    f = vichls.customize(k).build(target=target)
    for seed in range(3):
        x, y = _args(seed)
        assert f(x.copy(), y.copy()) == k(x.copy(), y.copy())
    if target == "sim":
        assert f.last_cycles is not None and f.last_cycles > 16


def test_build_fpga_gives_verilog_and_report():
    design = vichls.customize(KERNELS["gemm"]).build(target="fpga", clock_period_ns=5.0)
    assert "module gemm" in design.verilog
    assert design.report["clock_period_ns"] == 5.0
    assert design.report["latency"]["min"] == design.report["latency"]["max"] > 0


def test_unknown_target_is_an_error():
    with pytest.raises(DirectiveError, match="unknown target"):
        vichls.customize(KERNELS["gemm"]).build(target="gpu")


def test_bad_arguments_are_refused():
    f = vichls.customize(KERNELS["caller"]).build(target="cpu")
    x, y = _args(0)
    with pytest.raises(TypeError, match="dtype"):
        f(x.astype(np.int64), y)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        f(x)


def test_partitioned_array_passed_to_a_callee():
    """Partitioning applies after inlining, so a callee's accesses are split into banks too."""
    k = KERNELS["calls_partitioned"]
    s = vichls.customize(k).unroll("i", factor=4).partition("x", dim=1, factor=4)
    design = s.build(target="fpga")
    assert design.report["interface"]["arrays"]["x"]["banks"] == 4
    f = s.build(target="sim")
    rng = np.random.default_rng(5)
    for _ in range(3):
        x = rng.integers(-2**31, 2**31, size=16, dtype=np.int64).astype(np.int32)
        y = np.zeros(16, dtype=np.int32)
        y_ref = y.copy()
        assert f(x.copy(), y) == k(x.copy(), y_ref)
        assert np.array_equal(y, y_ref)
