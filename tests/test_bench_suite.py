"""The benchmark suite (benchmarks/suite.py) at both sizes: registry, references, back ends.

- the registry: stable order, both sizes built from one source per kernel, published
  figures at the small size only;
- every benchmark at both sizes runs its Python reference on deterministic and random
  inputs of the signature's shapes and types; the kernels added with the suite (and the
  non-square PolyBench kernels at MINI size) are checked against independent numpy or
  plain-Python statements of what they compute;
- every small benchmark compiles for the FPGA (lint clean, under 3 s) and the CPU;
- Python ≡ CPU ≡ RTL bit for bit for the whole suite at both sizes, in ONE simulator build
  (two argument sets per small kernel, the deterministic one per MINI kernel); the small
  designs' simulated cycles agree with their latency report, and the kernels with a
  published Vivado HLS figure take at most that many cycles (this replaces the former
  tests/test_fpga_polybench.py, which checked seven of them on its own copies);
- every benchmark has a hand-written directive set (its file's ``directives``) that applies
  at both sizes; at the small size the designs it gives join the same simulator build and
  must be bit-exact too, with cycles that agree with their latency report;
- the pipelining regressions of tests/regressions/pipeline_*.py that name the II they
  should reach (``EXPECTED_II``) reach it, or are strict xfails naming the bug (``II_BUG``).
"""

from __future__ import annotations

import ast
import functools
import time
from pathlib import Path

import numpy as np
import pytest
from e2e import assert_outcome, run_batch

from benchmarks.manual_directives import schedule_of
from benchmarks.suite import PUBLISHED_SMALL, SIZES, benchmarks, kernel_file
from vichls.driver.cpu import compile_cpu
from vichls.flows.lint import lint_verilog
from vichls.driver.fpga import compile_fpga
from vichls.inputs import copy_args

SMALL = benchmarks("small")
MINI = benchmarks("mini")
ALL = SMALL + MINI


def _id(b) -> str:
    return f"{b.size}/{b.name}"


def _run(b, rng=None):
    args = b.make_inputs(rng)
    out = copy_args(args)
    ret = b.kernel(*out)
    return args, out, ret


# -- the registry ------------------------------------------------------------------------------


def test_both_sizes_list_the_same_benchmarks_in_a_stable_order():
    names = [b.name for b in SMALL]
    assert names == [b.name for b in MINI] == [b.name for b in benchmarks("small")]
    assert len(set(names)) == len(names) == 27
    for required in ("gemm", "2mm", "3mm", "atax", "bicg", "gesummv", "mvt", "syrk", "syr2k",
                     "trmm", "doitgen", "gemver", "trisolv", "jacobi-1d", "jacobi-2d",
                     "seidel-2d", "fdtd-2d", "heat-3d", "floyd-warshall", "nussinov",
                     "stencil2d", "spmv-crs", "spmv-ellpack", "kmp", "sort-merge", "viterbi"):
        assert required in names
    families = [b.family for b in SMALL]
    assert families == sorted(families, key=("polybench", "machsuite").index)
    assert {b.size for b in SMALL} == {"small"} and {b.size for b in MINI} == {"mini"}


def test_names_filter_and_unknown_names_and_sizes():
    assert [b.name for b in benchmarks("mini", ["kmp", "gemm"])] == ["kmp", "gemm"]
    with pytest.raises(KeyError, match="nope.*known: gemm"):
        benchmarks("small", ["gemm", "nope"])
    with pytest.raises(KeyError, match="unknown size 'large'"):
        benchmarks("large")
    assert SIZES == ("small", "mini")


def test_published_figures_only_at_the_small_size():
    for b in SMALL:
        assert b.published == PUBLISHED_SMALL.get(b.name, {})
    assert all(b.published == {} for b in MINI)
    assert sum(1 for b in SMALL if b.published) == 11


def test_mini_sizes_are_polybench_mini_and_differ_from_small():
    dims = {b.name: b.dims for b in MINI}
    assert dims["gemm"] == {"NI": 20, "NJ": 25, "NK": 30}
    assert dims["2mm"] == {"NI": 16, "NJ": 18, "NK": 22, "NL": 24}
    assert dims["atax"] == {"M": 38, "N": 42}
    assert dims["doitgen"] == {"NR": 10, "NQ": 8, "NP": 12}
    assert dims["heat-3d"] == {"TSTEPS": 20, "N": 10}
    assert dims["floyd-warshall"] == dims["nussinov"] == {"N": 60}
    for small, mini in zip(SMALL, MINI):
        assert small.dims != mini.dims, small.name
        small_shapes = [p.type.shape for p in small.kernel.signature.params if p.is_array]
        mini_shapes = [p.type.shape for p in mini.kernel.signature.params if p.is_array]
        assert small_shapes != mini_shapes, small.name
    for b in SMALL:
        if b.family == "polybench" and b.name not in ("jacobi-1d", "jacobi-2d", "seidel-2d",
                                                      "fdtd-2d", "heat-3d"):
            assert set(b.dims.values()) == {8}, b.name


def test_building_the_mini_size_leaves_the_small_file_alone():
    import benchmarks.polybench.gemm as on_disk

    mini = kernel_file("benchmarks.polybench.gemm", "mini")
    assert (mini["NI"], mini["NJ"], mini["NK"]) == (20, 25, 30)
    assert (on_disk.NI, on_disk.NJ, on_disk.NK) == (8, 8, 8)
    assert kernel_file("benchmarks.polybench.gemm", "small") is vars(on_disk)
    params = on_disk.kernel_gemm.signature.params
    assert [p.type.shape for p in params if p.is_array] == [(8, 8), (8, 8), (8, 8)]


def test_the_source_at_a_size_rebuilds_the_same_kernel(tmp_path):
    from vichls.frontend.kernel import kernels_in, load_file, load_source

    for b in benchmarks("mini", ["gemm", "spmv-crs"]):
        assert b.path.endswith(".py") and 'SIZE = "mini"' in b.source
        again = kernels_in(load_source(b.source, f"{b.path}[{b.size}]"))[b.kernel.name]
        assert again.signature == b.kernel.signature
        file = tmp_path / f"{b.kernel.name}.py"
        file.write_text(b.source)
        namespace = load_file(file)
        assert kernels_in(namespace)[b.kernel.name].signature == b.kernel.signature
        if "make_inputs" in namespace:  # the file's own inputs come at the file's size
            shapes = [a.shape for a in namespace["make_inputs"]()]
            assert shapes == [p.type.shape for p in b.kernel.signature.params]


# -- the Python references ---------------------------------------------------------------------


@pytest.mark.parametrize("b", ALL, ids=_id)
def test_reference_runs_on_deterministic_and_random_inputs(b):
    for rng in (None, np.random.default_rng(3)):
        args, out, ret = _run(b, rng)
        params = b.kernel.signature.params
        assert len(args) == len(params)
        for p, a in zip(params, args):
            if p.is_array:
                assert a.shape == p.type.shape and a.dtype == p.type.element.dtype, p.name
        changed = any(not np.array_equal(x, y) for x, y in zip(args, out)
                      if isinstance(x, np.ndarray))
        assert changed or ret is not None, f"{b.name} computed nothing"
    again = b.make_inputs()
    first = b.make_inputs()
    for x, y in zip(first, again):
        assert np.array_equal(x, y), "deterministic inputs differ between calls"


def _wrap32(values):
    values = np.asarray(values, dtype=object)
    return np.asarray((values + 2**31) % 2**32 - 2**31, dtype=np.int64)


def _fdtd_2d(ex, ey, hz, fict):
    ex, ey, hz = (np.array(a, dtype=np.int64) for a in (ex, ey, hz))
    for t in range(len(fict)):
        ey[0, :] = fict[t]
        ey[1:, :] = _wrap32(ey[1:, :] - (hz[1:, :] - hz[:-1, :]) // 2)
        ex[:, 1:] = _wrap32(ex[:, 1:] - (hz[:, 1:] - hz[:, :-1]) // 2)
        hz[:-1, :-1] = _wrap32(hz[:-1, :-1] - 7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1]
                                                     - ey[:-1, :-1]) // 10)
    return [ex, ey, hz, fict]


def _heat_3d(A, B, steps):
    A, B = np.array(A, dtype=np.int64), np.array(B, dtype=np.int64)

    def sweep(src, dst):
        c = src[1:-1, 1:-1, 1:-1]
        laplace = (src[2:, 1:-1, 1:-1] + src[:-2, 1:-1, 1:-1] + src[1:-1, 2:, 1:-1]
                   + src[1:-1, :-2, 1:-1] + src[1:-1, 1:-1, 2:] + src[1:-1, 1:-1, :-2] - 6 * c)
        dst[1:-1, 1:-1, 1:-1] = laplace // 8 + c

    for _ in range(steps):
        sweep(A, B)
        sweep(B, A)
    return [A, B]


def _floyd_warshall(paths):
    p = np.array(paths, dtype=np.int64)
    for k in range(len(p)):
        p = np.minimum(p, p[:, k:k + 1] + p[k:k + 1, :])
    return [p]


def _nussinov(seq, table):
    """Nussinov's recurrence top-down (memoised), from a zero table."""
    assert not table.any()
    n = len(seq)

    @functools.cache
    def best(i, j):
        if j <= i:
            return 0
        pair = int(seq[i]) + int(seq[j]) == 3 and i < j - 1
        options = [best(i, j - 1), best(i + 1, j), best(i + 1, j - 1) + pair]
        options += [best(i, k) + best(k + 1, j) for k in range(i + 1, j)]
        return max(options)

    return [seq, [[best(i, j) if j > i else 0 for j in range(n)] for i in range(n)]]


def _stencil2d(orig, sol, filt):
    rows, cols = orig.shape
    out = np.array(sol, dtype=np.int64)
    out[:rows - 2, :cols - 2] = sum(
        int(filt[a, b]) * orig[a:rows - 2 + a, b:cols - 2 + b].astype(np.int64)
        for a in range(3) for b in range(3))
    return [orig, out, filt]


def _spmv_crs(val, cols, row_starts, vec, out):
    n = len(vec)
    dense = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(row_starts[i], row_starts[i + 1]):
            dense[i, cols[j]] = val[j]
    return [val, cols, row_starts, vec, dense @ vec.astype(np.int64)]


def _spmv_ellpack(nzval, cols, vec, out):
    n = len(vec)
    dense = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for v, c in zip(nzval[i], cols[i]):
            dense[i, c] += v
    return [nzval, cols, vec, out + dense @ vec.astype(np.int64)]


def _kmp_model(pattern, text):
    p, t = bytes(pattern), bytes(text)
    count = sum(t[i:i + len(p)] == p for i in range(len(t) - len(p) + 1))
    border = [max(k for k in range(q + 1) if p[:k] == p[q + 1 - k:q + 1] and k <= q)
              for q in range(len(p))]
    return count, border


def _viterbi_cost(obs, init, transition, emission, path):
    cost = init[path[0]] + emission[path[0], obs[0]]
    for t in range(1, len(obs)):
        cost += transition[path[t - 1], path[t]] + emission[path[t], obs[t]]
    return int(cost)


def _viterbi_best_cost(obs, init, transition, emission):
    best = init.astype(np.int64) + emission[:, obs[0]]
    for t in range(1, len(obs)):
        best = (best[:, None] + transition).min(axis=0) + emission[:, obs[t]]
    return int(best.min())


def _gemm(alpha, beta, C, A, B):
    return [alpha, beta, beta * C.astype(np.int64) + alpha * A.astype(np.int64) @ B, A, B]


def _atax(A, x, y, tmp):
    tmp = A.astype(np.int64) @ x
    return [A, x, A.T.astype(np.int64) @ tmp, tmp]


def _bicg(A, s, q, p, r):
    return [A, r.astype(np.int64) @ A, A.astype(np.int64) @ p, p, r]


# benchmark → model(args, dims): the arguments after the call, in parameter order
MODELS = {
    "fdtd-2d": lambda args, dims: _fdtd_2d(*args),
    "heat-3d": lambda args, dims: _heat_3d(*args, steps=dims["TSTEPS"]),
    "floyd-warshall": lambda args, dims: _floyd_warshall(*args),
    "nussinov": lambda args, dims: _nussinov(*args),
    "stencil2d": lambda args, dims: _stencil2d(*args),
    "spmv-crs": lambda args, dims: _spmv_crs(*args),
    "spmv-ellpack": lambda args, dims: _spmv_ellpack(*args),
    # non-square at MINI size: the shapes of each array matter
    "gemm": lambda args, dims: _gemm(*args),
    "atax": lambda args, dims: _atax(*args),
    "bicg": lambda args, dims: _bicg(*args),
}


@pytest.mark.parametrize("b", [b for b in ALL if b.name in MODELS or b.name in (
    "kmp", "sort-merge", "sort-radix", "viterbi")], ids=_id)
@pytest.mark.parametrize("seed", [None, 1])
def test_reference_agrees_with_an_independent_model(b, seed):
    args, out, ret = _run(b, None if seed is None else np.random.default_rng(seed))
    if b.name in MODELS:
        expected = MODELS[b.name](args, b.dims)
        assert len(expected) == len(out)
        for got, want in zip(out, expected):
            assert np.array_equal(np.asarray(got, dtype=np.int64), _wrap32(want)), b.name
    elif b.name == "kmp":
        count, border = _kmp_model(*args[:2])
        assert ret == count and count >= 1
        assert list(out[2]) == border
    elif b.name.startswith("sort"):
        assert np.array_equal(out[0], np.sort(args[0]))
    else:  # viterbi: the path is valid and as cheap as the best one
        obs, init, transition, emission, _ = args
        path = out[4]
        assert ((0 <= path) & (path < len(init))).all()
        assert (_viterbi_cost(obs, init, transition, emission, path)
                == _viterbi_best_cost(obs, init, transition, emission))


# -- the back ends -------------------------------------------------------------------------------


@pytest.mark.parametrize("b", SMALL, ids=_id)
def test_small_compiles_for_fpga_lint_clean_and_for_cpu(b):
    start = time.perf_counter()
    design = compile_fpga(b.kernel.module())
    assert time.perf_counter() - start < 3.0
    assert lint_verilog(design.verilog, b.kernel.signature.name) == []
    cpu = compile_cpu(b.kernel.module())
    args = b.make_inputs()
    work, ref = copy_args(args), copy_args(args)
    assert cpu(*work) == b.kernel(*ref)
    for got, want in zip(work, ref):
        assert np.array_equal(got, want)


class _Manual:
    """A benchmark's kernel under its manual directive set, as run_batch uses a kernel: the
    same signature and Python meaning, the scheduled loop-level IR."""

    def __init__(self, b):
        self.benchmark = b
        self.signature = b.kernel.signature

    def __call__(self, *args):
        return self.benchmark.kernel(*args)

    def module(self):
        return schedule_of(self.benchmark, "manual").module()


def _manual_id(b) -> str:
    return f"{b.size}/{b.name}/manual"


@pytest.fixture(scope="module")
def outcomes():
    """Every benchmark of both sizes, and the small ones under their manual directives,
    through Python, CPU and RTL in one simulator build."""
    items = [(_id(b), b.kernel, [b.make_inputs(), b.make_inputs(np.random.default_rng(5))])
             for b in SMALL]
    items += [(_id(b), b.kernel, [b.make_inputs()]) for b in MINI]
    items += [(_manual_id(b), _Manual(b), [b.make_inputs(), b.make_inputs(
        np.random.default_rng(7))]) for b in SMALL]
    return run_batch(items, max_cycles=5_000_000)


@pytest.mark.parametrize("b", ALL, ids=_id)
def test_bit_exact_python_cpu_rtl(outcomes, b):
    out = outcomes[_id(b)]
    assert_outcome(out)
    assert len(out.rtl) == (2 if b.size == "small" else 1)


@pytest.mark.parametrize("b", SMALL, ids=_id)
def test_small_cycles_agree_with_the_latency_report(outcomes, b):
    latency = compile_fpga(b.kernel.module()).report["latency"]
    for cycles in outcomes[_id(b)].cycles:
        assert latency["min"] <= cycles
        assert latency["max"] is None or cycles <= latency["max"]
        if latency["min"] == latency["max"]:  # a fixed latency must be exact
            assert cycles == latency["min"]


@pytest.mark.parametrize("b", [b for b in SMALL if "vivado_cycles" in b.published], ids=_id)
def test_small_cycles_at_most_vivado_hls(outcomes, b):
    out = outcomes[_id(b)]
    assert out.cycles and max(out.cycles) <= b.published["vivado_cycles"]



# -- the manual directive sets -----------------------------------------------------------------


@pytest.mark.parametrize("b", ALL, ids=_id)
def test_every_benchmark_has_a_directive_set_that_applies(b):
    assert b.directives is not None, f"{b.path} defines no directives(s)"
    s = schedule_of(b, "manual")
    module = s.module()  # a directive that cannot apply raises here
    if b.name != "kmp":  # kmp's loops all hold a while loop: nothing can be pipelined
        assert any(d.kind == "pipeline" for d in s.directives), b.name
        assert "vichls.pipeline" in str(module), f"{b.name}: no loop is marked for pipelining"


@pytest.mark.parametrize("b", SMALL, ids=_id)
def test_small_manual_bit_exact_python_cpu_rtl(outcomes, b):
    out = outcomes[_manual_id(b)]
    assert_outcome(out)
    assert len(out.rtl) == 2


@pytest.mark.parametrize("b", SMALL, ids=_id)
def test_small_manual_cycles_agree_with_the_latency_report(outcomes, b):
    report = compile_fpga(schedule_of(b, "manual").module()).report
    latency = report["latency"]
    if b.name != "kmp":
        assert any(loop.get("pipelined") for loop in report["loops"]), b.name
    for cycles in outcomes[_manual_id(b)].cycles:
        assert latency["min"] <= cycles
        assert latency["max"] is None or cycles <= latency["max"]
        if latency["min"] == latency["max"]:
            assert cycles == latency["min"]


PIPELINE_REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("pipeline_*.py"))


def _module_constant(path: Path, name: str):
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                name]:
            return ast.literal_eval(node.value)
    return None


def _ii_param(path: Path):
    bug = _module_constant(path, "II_BUG")
    marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_ii_param(p) for p in PIPELINE_REGRESSIONS
                                  if _module_constant(p, "EXPECTED_II") is not None])
def test_pipeline_regression_reaches_its_ii(path):
    """A suspicious II found while writing the directive sets, shrunk to a reproducer (the
    results are right: tests/test_regressions.py replays it for that); every pipelined loop
    of its design must reach at most EXPECTED_II."""
    from vichls.frontend.kernel import load_file
    from vichls.fuzz.run import _schedule_of

    expected = _module_constant(path, "EXPECTED_II")
    namespace = load_file(str(path))
    report = compile_fpga(_schedule_of(namespace, namespace["top"]).module()).report
    reached = [(loop["name"], loop["ii"]) for loop in report["loops"] if loop.get("pipelined")]
    assert reached, "no loop is pipelined"
    assert all(ii <= expected for _, ii in reached), f"II above {expected}: {reached}"
