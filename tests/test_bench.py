"""`vichls bench`: the lower bound on IR snippets, its validity over the corpus, the fmax
parser, and one end-to-end run on a two-benchmark suite of our own (a correct design and one
whose Python reference lies) with synthesis and fmax: table, CSV and JSON, and the failure
exit status."""

import csv
import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from vichls import int32, kernel
from vichls.bench.bound import cycle_bound
from vichls.bench.fmax import _fmax_of, critical_path
from vichls.cli import main
from vichls.driver.fpga import compile_fpga

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import ALL_CASES  # noqa: E402


# -- the bound on small kernels --------------------------------------------------------------------


@kernel
def sum64(A: int32[64]) -> int32:
    s: int32 = 0
    for i in range(64):
        s += A[i]
    return s


@kernel
def mul_chain(A: int32[16], x: int32) -> int32:
    acc: int32 = 1
    for i in range(16):
        acc = acc * x + A[i]
    return acc


@kernel
def memory_chain(A: int32[16], x: int32):
    for i in range(1, 16):
        A[i] = A[i - 1] * x


@kernel
def divide_all(A: int32[8], B: int32[8], d: int32):
    for i in range(8):
        B[i] = A[i] // d


@kernel
def triangle(A: int32[8], B: int32[8]):
    for i in range(8):
        for j in range(i):
            A[i] += B[j]


@kernel
def square(A: int32[8], B: int32[8]):
    for i in range(8):
        for j in range(8):
            A[i] += B[j]


@kernel
def data_bound(A: int32[8], n: int32) -> int32:
    s: int32 = 0
    for i in range(n):
        s += A[i]
    return s


def test_64_loads_of_one_array_need_64_cycles():
    b = cycle_bound(sum64.module())
    assert b.cycles >= 64 and b.complete
    assert any(n.limit == "port A" for n in b.nests)


def test_recurrence_through_a_multiplier():
    # acc = acc * x + A[i]: the 32-bit multiplier has one cycle of latency, so each iteration
    # waits 2 cycles for the previous one: (16 - 1) * 2 + 1 cycles at least, above 16 loads
    b = cycle_bound(mul_chain.module())
    assert b.cycles >= 31
    assert any(n.limit.startswith("recurrence") for n in b.nests)


def test_recurrence_through_memory_at_distance_one():
    # A[i] = A[i-1] * x: load (1) + multiply (1) + the store-to-load cycle = 3 per iteration
    b = cycle_bound(memory_chain.module())
    assert b.cycles >= (15 - 1) * 3 + 1
    assert any(n.limit.startswith("recurrence") for n in b.nests)


def test_iterative_divider_is_busy_for_its_latency():
    b = cycle_bound(divide_all.module())
    assert b.cycles >= 8 * 33
    assert any("div" in n.limit for n in b.nests)


def test_triangular_loops_are_counted_exactly():
    # 28 (i, j) pairs read B[j]: at least 28 cycles, and fewer than the 64 of the square nest
    tri, full = cycle_bound(triangle.module()), cycle_bound(square.module())
    assert tri.complete and full.complete
    assert 28 <= tri.cycles < full.cycles
    assert full.cycles >= 64


def test_data_dependent_trip_count_gives_a_weaker_but_valid_bound():
    b = cycle_bound(data_bound.module())
    assert not b.complete
    assert b.cycles < 8


@kernel
def row_sums(starts: int32[5], vals: int32[16], out: int32[4]):
    for i in range(4):
        s: int32 = 0
        for j in range(starts[i], starts[i + 1]):
            s += vals[j]
        out[i] = s


@kernel
def chase(links: int32[8]) -> int32:
    seen: int32[8] = 0
    for i in range(8):
        seen[i] = links[i]
    k: int32 = 0
    steps: int32 = 0
    while seen[k] != 0:
        k = seen[k]
        steps += 1
    return steps


def test_bound_for_one_call_follows_its_inputs():
    """Trip counts read from the inputs (CSR row starts) and a while loop over an array
    the kernel writes: unknown statically (zero iterations), counted on the call's inputs,
    and still below the simulated cycles of that call."""
    from e2e import run_batch

    starts = np.array([0, 5, 5, 12, 16], np.int32)
    vals = np.arange(16, dtype=np.int32)
    links = np.array([3, 0, 0, 6, 0, 0, 1, 0], np.int32)  # 0 -> 3 -> 6 -> 1 -> 0: 3 steps
    calls = {"row_sums": (row_sums, (starts, vals, np.zeros(4, np.int32))),
             "chase": (chase, (links,))}
    outcomes = run_batch([(name, k, [args]) for name, (k, args) in calls.items()])
    for name, (k, args) in calls.items():
        inputs = {p.name: a for p, a in zip(k.signature.params, args) if p.is_array}
        static, known = cycle_bound(k.module()), cycle_bound(k.module(), inputs=inputs)
        assert not static.complete and known.complete, name
        (cycles,) = outcomes[name].cycles
        assert static.cycles < known.cycles <= cycles, (name, static, known, cycles)
    # 16 values read from one port: at least 16 cycles
    inputs = {"starts": starts, "vals": vals, "out": np.zeros(4, np.int32)}
    assert cycle_bound(row_sums.module(), inputs=inputs).cycles >= 16


def test_bound_never_exceeds_a_static_latency():
    """Where the FSM's latency is static (min == max: the simulated cycles, as the simulation
    tests check), the lower bound must not exceed it; over a third of the corpus."""
    checked = 0
    for case in ALL_CASES[::3]:
        module = case.kernel.module()
        latency = compile_fpga(module).report["latency"]
        if latency["max"] is not None and latency["min"] == latency["max"]:
            assert 0 <= cycle_bound(module).cycles <= latency["min"], case.name
            checked += 1
    assert checked >= 10


# -- fmax parsing ------------------------------------------------------------------------------------


def test_fmax_read_from_the_report_or_the_log():
    report = {"fmax": {"$glbnet$ap_clk$TRELLIS_IO_IN": {"achieved": 123.4, "constraint": 150}}}
    assert _fmax_of(report, "") == pytest.approx(123.4)
    log = ("Info: Max frequency for clock 'ap_clk': 98.25 MHz (FAIL at 150.00 MHz)\n"
           "Warning: Max frequency for clock 'ap_clk': 88.52 MHz (FAIL at 150.00 MHz)\n")
    assert _fmax_of({}, log) == pytest.approx(88.52)  # the last (post-route) figure
    assert _fmax_of({}, "") is None


def test_critical_path_names_the_verilog_signals():
    def step(kind, cell):
        return {"type": kind, "delay": 0.5, "from": {"cell": cell, "port": "Q"},
                "to": {"cell": cell, "port": "D"}}

    path = [step("clk-to-q", "i_15.out_TRELLIS_FF_Q_3"), step("routing", "x"),
            step("logic", "addi_19.out_TRELLIS_FF_Q_2_DI_CCU2C_S1"),
            step("logic", "addi_19.out_TRELLIS_FF_Q_2_DI_CCU2C_S0"),
            step("logic", "$nextpnr_CCU2C_8$CCU2_COMB0"),
            step("logic", "muli_MULT18X18D_P9"), step("setup", "fsm_state_TRELLIS_FF_Q_1")]
    report = {"critical_paths": [
        {"from": "posedge other_clk", "to": "posedge other_clk", "path": [step("logic", "z")]},
        {"from": "posedge ap_clk", "to": "posedge ap_clk", "path": path}]}
    assert critical_path(report) == ["i_15", "addi_19", "muli", "fsm_state"]
    assert critical_path({}) == []


# -- the command, end to end ---------------------------------------------------------------------------

SUITE = '''
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from vichls import int32, kernel


@kernel
def vadd(A: int32[4], B: int32[4], C: int32[4]):
    for i in range(4):
        C[i] = A[i] + B[i]


class LyingReference:
    """The vadd kernel whose Python call gets C[0] wrong: the bench must catch it."""

    def __init__(self, k):
        self.k = k

    def __getattr__(self, name):
        return getattr(self.k, name)

    def __call__(self, A, B, C):
        self.k(A, B, C)
        C[0] += 1


@dataclass(frozen=True)
class Benchmark:
    name: str
    family: str
    size: str
    kernel: object
    make_inputs: Callable
    published: dict = field(default_factory=dict)
    directives: Callable | None = None


def make_inputs(rng=None):
    a = np.arange(4, dtype=np.int32)
    return a, 3 * a - 5, np.zeros(4, dtype=np.int32)


def benchmarks(size="small", names=None):
    suite = [Benchmark("vadd", "test", size, vadd, make_inputs,
                       dict(vivado_cycles=40, calyx_cycles=80, vivado_lut=100, calyx_lut=200)),
             Benchmark("vadd-lying", "test", size, LyingReference(vadd), make_inputs)]
    if names is None:
        return suite
    by_name = {b.name: b for b in suite}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise KeyError(f"unknown benchmarks {unknown}")
    return [by_name[n] for n in names]
'''


@pytest.fixture(scope="module")
def tiny_suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("suite") / "benchmarks"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "suite.py").write_text(textwrap.dedent(SUITE))
    return root


def test_bench_run_table_csv_json_and_mismatch(tiny_suite, tmp_path, capsys):
    csv_path, json_path, md_path = tmp_path / "t.csv", tmp_path / "t.json", tmp_path / "t.md"
    status = main(["bench", "--suite-dir", str(tiny_suite), "--jobs", "2", "--quiet",
                   "--csv", str(csv_path), "--json", str(json_path), "--markdown", str(md_path)])
    out = capsys.readouterr()
    assert status == 1, "a wrong result must fail the command"
    assert "MISMATCH" in out.out and "vadd-lying" in out.err

    doc = json.loads(json_path.read_text())
    rows = {r["name"]: r for r in doc["rows"]}
    good, bad = rows["vadd"], rows["vadd-lying"]
    assert bad["status"] == "MISMATCH" and "C[0]" in bad["detail"]
    assert good["status"] == "ok", good["detail"]
    assert good["cycles"] > 0 and 0 < good["bound"] <= good["cycles"]
    assert good["cycles_per_bound"] == pytest.approx(good["cycles"] / good["bound"], abs=0.01)
    assert good["lut"] > 0 and good["ff"] > 0 and good["fmax_mhz"] > 10
    assert good["est_lut"] > 0 and good["est_lut_err_pct"] is not None
    assert good["cycles_vs_vivado"] == pytest.approx(good["cycles"] / 40, abs=0.01)
    assert good["lut_vs_calyx"] == pytest.approx(good["lut"] / 200, abs=0.01)
    assert good["ii"] is None and good["compile_s"] > 0
    assert doc["summary"]["benchmarks"] == 2 and doc["summary"]["ok"] == 1
    assert "vichls bench" in doc["command"] and doc["machine"]

    with open(csv_path, newline="") as fh:
        csv_rows = list(csv.DictReader(fh))
    assert [r["name"] for r in csv_rows] == ["vadd", "vadd-lying"]
    assert int(csv_rows[0]["cycles"]) == good["cycles"] and csv_rows[0]["ii"] == ""
    assert "| vadd |" in md_path.read_text()


def test_bench_user_errors(tiny_suite, tmp_path, capsys):
    assert main(["bench", "--suite-dir", str(tmp_path / "nowhere"), "--quiet"]) == 2
    assert "no benchmark suite" in capsys.readouterr().err
    assert main(["bench", "nosuch", "--suite-dir", str(tiny_suite), "--quiet"]) == 2
    assert "nosuch" in capsys.readouterr().err


def test_bench_device_and_target_mhz_reach_the_schedule(tiny_suite, tmp_path, capsys):
    """--device ecp5 --target-mhz 150 schedules for 150 MHz with the ECP5 table (the run's
    record says so and the command repeats it); a bad device or frequency is a user error."""
    json_path = tmp_path / "e.json"
    status = main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--no-synth",
                   "--no-fmax", "--device", "ecp5", "--target-mhz", "150",
                   "--json", str(json_path)])
    assert status == 0, capsys.readouterr().err
    doc = json.loads(json_path.read_text())
    assert doc["options"]["device"] == "ecp5"
    assert doc["options"]["clock_period_ns"] == pytest.approx(1000 / 150)
    assert doc["options"]["fmax_target_mhz"] == pytest.approx(150)
    assert "--device ecp5" in doc["command"] and "--target-mhz 150" in doc["command"]
    assert doc["rows"][0]["status"] == "ok"
    with pytest.raises(SystemExit):
        main(["bench", "--device", "stratix", "--quiet"])
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, with status 2
        main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--no-synth",
              "--no-fmax", "--target-mhz", "-5"])
    assert refused.value.code == 2
    assert "--target-mhz" in capsys.readouterr().err


def test_bench_dse_is_bounded_in_time_and_says_so(tiny_suite, tmp_path, capsys):
    """--directives dse explores each benchmark within --dse-time seconds, in --jobs
    processes; the run's record and the repeated command carry the budget."""
    json_path = tmp_path / "d.json"
    status = main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--no-synth",
                   "--no-fmax", "--directives", "dse", "--dse-time", "30", "--jobs", "2",
                   "--dse-points", "12", "--json", str(json_path)])
    assert status == 0, capsys.readouterr().err
    doc = json.loads(json_path.read_text())
    assert doc["options"]["dse_seconds"] == 30 and "--dse-time 30" in doc["command"]
    assert doc["options"]["dse_points"] == 12 and "--dse-points 12" in doc["command"]
    row = doc["rows"][0]
    assert row["status"] == "ok" and row["directives"] != "none"
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, with status 2
        main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--no-synth",
              "--no-fmax", "--directives", "dse", "--dse-time", "-1"])
    assert refused.value.code == 2
    assert "--dse-time: '-1': a number of zero or more is needed" in capsys.readouterr().err


def test_default_suite_is_found_in_the_checkout():
    from vichls.bench.runner import load_suite

    suite = load_suite(None, "small", None)
    assert suite and all(b.size == "small" for b in suite)
    assert "gemm" in {b.name for b in suite}


def test_manual_directives_are_applied_and_spelled():
    from types import SimpleNamespace

    from vichls.bench.runner import BenchOptions, _module_for

    bench = SimpleNamespace(kernel=square, directives=lambda s: s.unroll("j", factor=2))
    module, spelled = _module_for(bench, "manual", BenchOptions())
    assert spelled == "unroll('j', factor=2)"
    plain, none = _module_for(SimpleNamespace(kernel=square, directives=None), "manual",
                              BenchOptions())
    assert none.startswith("none")
    loads = [op for op in module.walk() if op.name == "affine.load"]
    assert len(loads) > len([op for op in plain.walk() if op.name == "affine.load"])


@kernel
def mirror_sum(A: int32[16], B: int32[16]):
    for i in range(16):
        B[i] = A[i] + A[15 - i]


def test_bound_uses_the_second_port_a_pipelined_loop_gets():
    """Pipelined at II=1, the loop reads A twice per iteration: the modulo scheduler gives A
    its second port, and the bound (32 reads over 2 ports) stays below the latency."""
    import vichls

    s = vichls.customize(mirror_sum)
    s.pipeline("i", ii=1)
    module = s.module()
    report = compile_fpga(module).report
    assert report["interface"]["arrays"]["A"]["ports"] == 2
    bound = cycle_bound(module)
    assert 16 <= bound.cycles <= report["latency"]["min"]


def test_median_run_takes_the_lower_middle_figure():
    from types import SimpleNamespace as Run

    from vichls.bench.synthesis import median_run

    runs = [Run(fmax_mhz=f) for f in (150.0, 120.0, 170.0)]
    assert median_run(runs).fmax_mhz == 150.0
    assert median_run(runs[:2]).fmax_mhz == 120.0  # an even count: the lower middle one
    assert median_run([Run(fmax_mhz=None), Run(fmax_mhz=99.0)]).fmax_mhz is None


def test_bench_fmax_seeds_report_the_median(tiny_suite, tmp_path, capsys):
    """--fmax-seeds 3 places and routes three times: the row keeps every seed's figure and
    reports the median; the run's record and repeated command say so."""
    json_path = tmp_path / "s.json"
    status = main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--no-synth",
                   "--fmax-seeds", "3", "--json", str(json_path)])
    assert status == 0, capsys.readouterr().err
    doc = json.loads(json_path.read_text())
    row = doc["rows"][0]
    assert len(row["fmax_by_seed"]) == 3
    assert row["fmax_mhz"] == sorted(row["fmax_by_seed"])[1]
    assert doc["options"]["fmax_seeds"] == 3 and "--fmax-seeds 3" in doc["command"]
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, with status 2
        main(["bench", "vadd", "--suite-dir", str(tiny_suite), "--quiet", "--fmax-seeds", "0"])
    assert refused.value.code == 2
    assert "--fmax-seeds" in capsys.readouterr().err
