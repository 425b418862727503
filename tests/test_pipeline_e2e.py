"""End-to-end check of loop pipelining (s.pipeline): Python ≡ CPU ≡ RTL bit for bit for
pipelined kernels (one simulator build for all), the simulated cycles equal the report's
latency, and the II reached is the one the dependences and ports allow."""

from __future__ import annotations


import numpy as np
import pytest

import vichls
from e2e import assert_outcome, corpus_schedules, run_scheduled, schedule_of
from vichls import int8, int16, int32, kernel, uint8, uint16


@kernel
def dot(x: int32[64], y: int32[64]) -> int32:
    acc: int32 = 0
    for i in range(64):
        acc += x[i] * y[i]
    return acc


@kernel
def prefix(a: int32[40], x: int32[40]):
    for i in range(1, 40):
        a[i] = a[i - 1] + x[i]


@kernel
def skip2(a: int16[40]):
    for i in range(2, 40):
        a[i] = a[i - 2] + a[i] * int16(3)


@kernel
def neighbours(x: int32[33], y: int32[32]):
    for i in range(32):
        y[i] = x[i] - x[i + 1]


@kernel
def histogram(idx: uint8[48], h: int16[16]):
    for i in range(48):
        h[idx[i] % 16] += int16(1)


@kernel
def clipped(a: int16[30], b: int16[30], lo: int16, hi: int16) -> int16:
    total: int16 = 0
    for i in vichls.loop(range(30), name="body"):
        v: int16 = a[i] * int16(2) - b[i]
        if v < lo:
            b[i] = lo
        elif v > hi:
            b[i] = hi
            total += int16(1)
        else:
            b[i] = v
    return total


@kernel
def divide(a: int32[12], b: int32[12], q: int32[12]):
    for i in range(12):
        q[i] = a[i] // (b[i] | 1)


@kernel
def divide_mixed(a: int8[20], b: uint16[20], q: int16[20], r: uint16[20]):
    for i in range(20):
        q[i] = int16(a[i]) // int16(b[i] % 7 + 1) - int16(a[i]) % int16(-3)
        if a[i] > 0:
            r[i] = b[i] % uint16(a[i])


@kernel
def rows(A: int16[6, 8], s: int16[6]):
    for i in range(6):
        acc: int16 = 0
        for j in range(8):
            acc += A[i, j]
        s[i] = acc


@kernel
def triangular(A: int32[10, 10], out: int32[10]):
    for i in range(10):
        t: int32 = 0
        for j in range(i + 1):
            t += A[i, j] * int32(j)
        out[i] = t


@kernel
def fir(x: int32[64], c: int32[8], y: int32[64]):
    shift: int32[8] = 0
    for n in range(64):
        for k in range(7, 0, -1):
            shift[k] = shift[k - 1]
        shift[0] = x[n]
        acc: int32 = 0
        for k in range(8):
            acc += shift[k] * c[k]
        y[n] = acc


@kernel
def smooth(x: int16[32], y: int16[31]):
    buf: int16[32] = 0
    for i in range(32):
        buf[i] = x[i] >> 1
    for i in vichls.loop(range(31), name="avg"):
        y[i] = buf[i] + buf[i + 1]


@kernel
def narrow(a: uint8[20], b: uint16[20]) -> uint16:
    s: uint16 = 0
    for i in range(20):
        b[i] = uint16(a[i]) * uint16(a[i]) + s
        s += uint16(a[i] >> 1)
    return s


@kernel
def empty_range(a: int8[8], n: int8):
    for i in range(n):
        a[i % 8] = a[i % 8] + int8(1)


@kernel
def mm(A: int32[8, 8], B: int32[8, 8], C: int32[8, 8]):
    for i in range(8):
        for j in range(8):
            acc: int32 = 0
            for k in range(8):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@kernel
def row_sums(A: int16[6, 8], s: int16[6]):
    for i in range(6):
        s[i] = 0
        for j in range(8):
            s[i] += A[i, j]



# inner trip counts that are not powers of two: flattened with magic-product indices


@kernel
def row_sums5(A: int16[6, 5], s: int16[6]):
    for i in range(6):
        s[i] = 0
        for j in range(5):
            s[i] += A[i, j]


@kernel
def matvec_accumulate(A: int32[6, 5], x: int32[5], w: int32[6]):
    for i in range(6):
        for j in range(5):
            w[i] = w[i] + A[i, j] * x[j]


@kernel
def matvec_scaled(A: int32[6, 5], w: int32[6]):
    for i in range(6):
        for j in range(5):
            w[i] = w[i] * 3 + A[i, j]


@kernel
def gemm_rows(A: int32[4, 5], B: int32[5, 3], C: int32[4, 3], beta: int32):
    for i in range(4):
        for j in range(3):
            C[i, j] *= beta
        for k in range(5):
            for j in range(3):
                C[i, j] += A[i, k] * B[k, j]


@kernel
def atax_rows(A: int32[6, 5], x: int32[5], y: int32[5], tmp: int32[6]):
    for i in range(6):
        tmp[i] = 0
        for j in range(5):
            tmp[i] = tmp[i] + A[i, j] * x[j]
        for j in range(5):
            y[j] = y[j] + A[i, j] * tmp[i]


@kernel
def carried_rows(A: int32[6, 6]):
    for i in range(1, 6):
        for j in range(6):
            A[i, j] = A[i - 1, j] + A[i, j]


CASES = {
    "dot": schedule_of(dot, ("pipeline", "i")),
    "dot_unroll4_partitioned": schedule_of(dot, ("pipeline", "i"), ("unroll", "i", {"factor": 4}),
                                         ("partition", "x", {"factor": 4}),
                                         ("partition", "y", {"factor": 4})),
    "dot_ii3": schedule_of(dot, ("pipeline", "i", {"ii": 3})),
    "prefix": schedule_of(prefix, ("pipeline", "i")),
    "skip2": schedule_of(skip2, ("pipeline", "i")),
    "neighbours": schedule_of(neighbours, ("pipeline", "i")),
    "histogram": schedule_of(histogram, ("pipeline", "i")),
    "clipped": schedule_of(clipped, ("pipeline", "body")),
    "divide": schedule_of(divide, ("pipeline", "i")),
    "divide_ii4": schedule_of(divide, ("pipeline", "i", {"ii": 4})),
    "divide_mixed": schedule_of(divide_mixed, ("pipeline", "i")),
    "rows_inner": schedule_of(rows, ("pipeline", "j")),
    "rows_outer": schedule_of(rows, ("pipeline", "i")),
    "triangular_inner": schedule_of(triangular, ("pipeline", "j")),
    "fir": schedule_of(fir, ("pipeline", "n"), ("partition", "shift", {"kind": "complete"}),
                     ("partition", "c", {"kind": "cyclic", "factor": 8})),
    "narrow": schedule_of(narrow, ("pipeline", "i")),
    "smooth": schedule_of(smooth, ("pipeline", "avg")),
    "mm_flattened": schedule_of(mm, ("pipeline", "k")),
    "mm_flattened_unroll4": schedule_of(mm, ("pipeline", "k"), ("unroll", "k", {"factor": 4}),
                                      ("partition", "A", {"dim": 2, "factor": 4}),
                                      ("partition", "B", {"dim": 1, "factor": 4})),
    "mm_unroll3_remainder": schedule_of(mm, ("pipeline", "k"), ("unroll", "k", {"factor": 3})),
    "row_sums": schedule_of(row_sums, ("pipeline", "j")),
    "empty_range": schedule_of(empty_range, ("pipeline", "i")),
    "row_sums5": schedule_of(row_sums5, ("pipeline", "j")),
    "matvec_accumulate": schedule_of(matvec_accumulate, ("pipeline", "j")),
    "matvec_accumulate_banked": schedule_of(matvec_accumulate, ("pipeline", "j"),
                                            ("partition", "w", {"factor": 2})),
    "matvec_scaled": schedule_of(matvec_scaled, ("pipeline", "j")),
    "carried_rows": schedule_of(carried_rows, ("pipeline", "j")),
    "atax_rows": schedule_of(atax_rows, ("pipeline", "i/j")),
    "gemm_rows": schedule_of(gemm_rows, ("unroll", "i/j"), ("pipeline", "i/k"),
                             ("partition", "C", {"dim": 2, "factor": 3}),
                             ("partition", "B", {"dim": 2, "factor": 3})),
}
CALLS = 3


# the innermost pipelinable loop of every corpus kernel
CORPUS = corpus_schedules(lambda s, loop: s.pipeline(loop), innermost_first=True)


@pytest.fixture(scope="module")
def outcomes():
    def args_of(name, arg_sets):
        if name == "empty_range":  # no iteration, one, several
            return [(a, np.int8(n)) for (a, _), n in zip(arg_sets, (0, 1, 8))]
        return arg_sets

    return run_scheduled(CASES, CORPUS, CALLS, args_of)


@pytest.fixture(scope="module")
def reports():
    return {name: s.build("fpga").report for name, s in CASES.items()}


def _pipelined(report):
    return [loop for loop in report["loops"] if loop["pipelined"]]


@pytest.mark.parametrize("name", list(CASES) + list(CORPUS))
def test_python_cpu_rtl_agree(outcomes, name):
    assert_outcome(outcomes[name])


def test_corpus_has_pipelined_kernels():
    assert len(CORPUS) >= 30, sorted(CORPUS)


@pytest.mark.parametrize("name", [n for n in CASES if n not in ("empty_range", "triangular_inner")])
def test_simulated_cycles_match_the_report(outcomes, reports, name):
    latency = reports[name]["latency"]
    assert latency["min"] == latency["max"], latency
    assert outcomes[name].cycles and set(outcomes[name].cycles) == {latency["max"]}


@pytest.mark.parametrize("name, ii, reason", [
    ("dot", 1, None),
    ("dot_unroll4_partitioned", 1, None),
    ("dot_ii3", 3, None),
    ("prefix", 2, "recurrence"),          # a[i] needs a[i-1], stored one cycle after its read
    ("skip2", 2, "memory 'a' has 2 ports and 3 accesses"),  # distance 2: no recurrence limit
    ("neighbours", 1, None),              # x gets its second port
    ("histogram", 2, "'h'"),              # data-dependent index: assumed to depend
    ("divide", 1, None),                  # a fully pipelined divider
    ("divide_ii4", 4, None),
    ("divide_mixed", 1, None),
    ("rows_inner", 1, None),
    ("triangular_inner", 1, None),
    ("fir", 1, None),
    ("narrow", 1, None),
    ("smooth", 1, None),
    ("mm_flattened", 1, None),
    ("mm_flattened_unroll4", 1, None),
    ("row_sums", 1, None),
    ("row_sums5", 1, None),
    ("matvec_accumulate", 1, None),
    ("matvec_accumulate_banked", 1, None),
    ("matvec_scaled", 1, None),
    ("gemm_rows", 1, None),
])
def test_ii_and_its_reason(reports, name, ii, reason):
    (loop,) = _pipelined(reports[name])
    assert loop["ii"] == ii, loop
    if reason is None:
        assert "ii_reason" not in loop or loop["ii"] == loop["requested_ii"], loop
    else:
        assert reason in loop["ii_reason"], loop
        assert any(reason in w for w in reports[name]["warnings"]), reports[name]["warnings"]


def test_pipelined_dot_runs_one_element_per_cycle(outcomes):
    (cycles,) = set(outcomes["dot"].cycles)
    assert cycles <= 64 + 6, cycles
    (unrolled,) = set(outcomes["dot_unroll4_partitioned"].cycles)
    assert unrolled <= 64 // 4 + 6, unrolled


def test_pipelining_an_outer_loop_unrolls_the_inner_one(reports):
    loops = reports["rows_outer"]["loops"]
    assert [loop["name"] for loop in loops if loop["pipelined"]] == ["i"], loops
    assert len(loops) == 1, loops


def test_second_port_only_where_it_lowers_the_ii(reports):
    arrays = reports["neighbours"]["interface"]["arrays"]
    assert arrays["x"]["ports"] == 2 and arrays["y"]["ports"] == 1, arrays
    assert reports["smooth"].get("dual_port_local_arrays") == ["buf"], reports["smooth"]
    assert reports["prefix"]["interface"]["arrays"]["a"]["ports"] == 1  # the recurrence rules
    assert all(a["ports"] == 1 for a in reports["dot"]["interface"]["arrays"].values())


def test_dual_port_verilog_names_the_second_port():
    design = CASES["neighbours"].build("fpga")
    assert "x_address1" in design.verilog and "y_address1" not in design.verilog
    design = CASES["smooth"].build("fpga")
    assert "vichls_ram_dp" in design.verilog


def test_flattened_pipeline_runs_the_whole_nest_at_one_iteration_per_cycle(outcomes, reports):
    (loop,) = _pipelined(reports["mm_flattened"])
    assert loop["trip_count"] == 8 ** 3, loop
    (cycles,) = set(outcomes["mm_flattened"].cycles)
    assert cycles <= 8 ** 3 + loop["depth"] + 2, cycles
    (unrolled,) = set(outcomes["mm_flattened_unroll4"].cycles)
    assert unrolled * 3.5 <= cycles, (unrolled, cycles)


def test_nests_of_other_trip_counts_flatten_where_no_dependence_crosses_rows(outcomes, reports):
    """An inner loop of 5 iterations flattens into its outer loop (a 30-iteration pipeline)
    when every written array has one index: s[i] and w[i] live in a register per row, and
    the whole nest runs at about one iteration per cycle. ``A[i - 1][j]`` read after
    ``A[i][j]`` written keeps the inner pipeline per row instead: flattened, that dependence
    of distance 6 would hold the II up."""
    for name in ("row_sums5", "matvec_accumulate", "matvec_accumulate_banked", "matvec_scaled"):
        (loop,) = _pipelined(reports[name])
        assert loop["trip_count"] == 30, (name, loop)
        (cycles,) = set(outcomes[name].cycles)
        assert cycles <= 30 + loop["depth"] + 3, (name, cycles, loop)
    (loop,) = _pipelined(reports["carried_rows"])
    assert loop["trip_count"] == 6, loop
    # C[i][0], C[i][1], C[i][2]: three elements of a row, three registers
    (loop,) = _pipelined(reports["gemm_rows"])
    assert loop["trip_count"] == 4 * 5, loop
    # two inner loops: the rows split in two nests (transforms/loop/loop_distribute), each flat
    loops = _pipelined(reports["atax_rows"])
    assert [loop["trip_count"] for loop in loops] == [30, 30], loops
    assert all(loop["ii"] == 1 for loop in loops), loops
    (cycles,) = set(outcomes["atax_rows"].cycles)
    assert cycles <= 2 * 30 + sum(loop["depth"] for loop in loops) + 6, (cycles, loops)


def test_a_divider_is_pipelined_only_where_the_ii_needs_it():
    assert "vichls_div_pipe" in CASES["divide"].build("fpga").verilog
    assert "vichls_div_pipe" in CASES["divide_ii4"].build("fpga").verilog  # 33 > 4
    relaxed = schedule_of(divide, ("pipeline", "i", {"ii": 40})).build("fpga").verilog
    assert "vichls_div_pipe" not in relaxed and "vichls_div " in relaxed


@pytest.mark.parametrize("name", ["divide_mixed", "smooth", "fir", "mm_flattened_unroll4",
                                  "neighbours", "clipped"])
def test_pipelined_designs_lint_clean_and_synthesize(name):
    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check

    design = CASES[name].build("fpga")
    assert lint_verilog(design.verilog, design.top) == []
    report = synth_check(design.verilog, design.top)
    assert report.ok and report.latches == 0 and report.comb_loops == 0, report.problems
