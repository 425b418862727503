"""vichls dse: the design space, the Pareto frontier, the budget, the written-back schedule,
the Dask path and the command line (with one verification in simulation)."""

from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vichls
from vichls.dse import Point, Space, explore, parse_budget, python_of
from vichls.dse.space import Multiplier
from vichls.dse.evaluate import evaluate
from vichls.dse.pareto import dominates, pareto_front
from vichls.errors import VichlsError
from vichls.frontend.kernel import kernels_in, load_file

NEST = """
from vichls import int32, kernel

N = 8

@kernel
def nest(a: int32, x: int32[N], y: int32[N], z: int32[N, 4]):
    for i in range(N):
        y[i] = a * x[i] + y[i]
    for i in range(N):
        for j in range(4):
            z[i, j] += x[i] * y[j + 1]
"""

TINY = """
from vichls import int32, kernel

@kernel
def tiny(a: int32, x: int32[4], y: int32[4]):
    for i in range(4):
        y[i] = a * x[i] + y[i]
"""


TRIANGLE = """
from vichls import int32, kernel

N = 8

@kernel
def triangle(L: int32[N, N], x: int32[N]):
    for i in range(N):
        for j in range(i + 1):
            x[i] += L[i, j] * x[j]
        for k in range(x[i] & 7):   # bounded by data: not affine
            x[i] += k
"""


def _load(tmp_path, source, name):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return kernels_in(load_file(path))[name], path


@pytest.fixture(scope="module")
def nest(tmp_path_factory):
    return _load(tmp_path_factory.mktemp("dse"), NEST, "nest")[0]


# -- the space ------------------------------------------------------------------------------


def test_space_reads_loops_trip_counts_and_indexed_dimensions(nest):
    space = Space(nest, max_parallel=8)
    assert set(space.loops) == {"i", "i/j"}  # the two top-level i loops share one name
    assert space.loops["i"].trip == 8 and space.loops["i/j"].trip == 4
    assert space.loops["i/j"].innermost and not space.loops["i"].innermost
    assert space.loops["i"].indexes == {("x", 1), ("y", 1), ("z", 1)}
    assert space.loops["i/j"].indexes == {("y", 1), ("z", 2)}  # y[j + 1] counts
    assert space.unroll_factors("i") == [1, 2, 4, 8]
    assert space.tile_sizes("i/j") == [2] and space.tile_sizes("i") == []
    assert Point().with_tile("i/j", 2) in space.neighbours(Point())
    assert space.pipeline_candidates() == ["i", "i/j"]


def test_a_triangular_loop_is_unrolled_by_factors(tmp_path):
    triangle, _ = _load(tmp_path, TRIANGLE, "triangle")
    space = Space(triangle, max_parallel=4)
    assert space.loops["i/j"].trip is None and space.loops["i/j"].affine_bounds
    assert space.unroll_factors("i/j") == [1, 2, 4]
    assert space.unroll_factors("i/k") == [1]  # (its bound is read from x)
    point = Point().with_unroll("i/j", 4).with_pipeline(["i/j"])
    assert space.valid(point)
    result = evaluate(triangle, space.directives(point), parse_budget(None))
    assert result.status == "ok", result.error


TWO_TRIPS = """
from vichls import int32, kernel

@kernel
def two_trips(x: int32[6], y: int32[4]):
    for i in range(6):
        x[i] = x[i] * 3 + 1
    for i in range(4):
        y[i] = y[i] * x[i]
"""


def test_loops_of_one_name_with_different_trip_counts_are_unrolled(tmp_path):
    """As in 2mm and 3mm at MINI sizes: one name, trips 6 and 4, so factors dividing
    either; the other loop keeps its remaining iterations as copies."""
    two_trips, _ = _load(tmp_path, TWO_TRIPS, "two_trips")
    space = Space(two_trips, max_parallel=8)
    assert space.loops["i"].trip is None and space.loops["i"].trips == {4, 6}
    assert space.unroll_factors("i") == [1, 2, 3, 4, 6]
    for factor in (3, 4, 6):
        point = Point().with_unroll("i", factor)
        assert point in space.seeds()
        result = evaluate(two_trips, space.directives(point), parse_budget(None))
        assert result.status == "ok", result.error
    from vichls.dse.verify import verify_points

    checked = verify_points(two_trips, {"by3": space.directives(Point().with_unroll("i", 3))},
                            runs=2)
    assert all(v.ok for v in checked.values()), checked


TWO_NESTS = """
from vichls import int32, kernel

@kernel
def two_nests(A: int32[4, 4], E: int32[4, 4], out: int32[4]):
    for i in range(4):
        for j in range(4):
            E[i, j] = A[i, j] * 2
    for r in range(4):
        for k in range(4):
            out[r] += E[r, k]
"""


def test_pipelining_partitions_what_the_unrolled_inner_loops_index(tmp_path):
    """Pipelining r unrolls k: E's dimension 2 would need 4 banks, but the rolled j loop of
    the first nest also indexes it (its accesses would reach any bank), so only with both
    nests pipelined is E partitioned."""
    two_nests, _ = _load(tmp_path, TWO_NESTS, "two_nests")
    space = Space(two_nests, max_parallel=8)
    only_r = Point().with_pipeline(["r"])
    assert space.copies(only_r) == {"r/k": 4}
    assert space.partitions(only_r) == []
    both = Point().with_pipeline(["i", "r"])
    assert space.partitions(both) == [("A", 2, 4, "cyclic"), ("E", 2, 4, "cyclic")]
    # the seeds hold each pipelined point without those partitions too
    only_i = Point().with_pipeline(["i"])
    assert space.partitions(only_i) == [("A", 2, 4, "cyclic")]  # E: k stays rolled
    plain = space.without_implied_partitions(only_i)
    assert space.partitions(plain) == [] and {plain, only_i} <= set(space.seeds())
    # an explicit unroll partitions as before, rolled loops or not
    assert ("E", 2, 2, "cyclic") in space.partitions(Point().with_unroll("r/k", 2))
    result = evaluate(two_nests, space.directives(both), parse_budget(None))
    assert result.status == "ok", result.error


LABELLED = """
import vichls
from vichls import int32, kernel

@kernel
def labelled(A: int32[4, 4], x: int32[4], y: int32[4]):
    for i in vichls.loop(range(4), name="rows"):
        for j in vichls.loop(range(4), name="cols"):
            x[i] += A[i, j]
    for i in vichls.loop(range(4), name="i2"):
        for j in range(4):
            y[i] += A[j, i]
"""

HALF_LABELLED = LABELLED.replace('vichls.loop(range(4), name="rows")', "range(4)").replace(
    'vichls.loop(range(4), name="cols")', "range(4)")


def test_labelled_nests_are_knobs_of_their_own(tmp_path):
    """Two nests over i/j are one knob by variable names; labelled, each is its own (and
    the column-reading one may be interchanged alone). When a variable path would also
    select a labelled loop (the first nest unlabelled), the names stay variable paths."""
    labelled, _ = _load(tmp_path, LABELLED, "labelled")
    space = Space(labelled, max_parallel=4)
    assert space.labels and set(space.loops) == {"rows", "rows/cols", "i2", "i2/j"}
    assert set(space.interchanges) == {"rows", "i2"}
    point = Point(reorder=("i2",)).with_unroll("j/i2", 2).with_pipeline(["j/i2"])
    assert space.valid(point)
    directives = space.directives(point)
    assert directives[0] == ("reorder", ("i2/j", "i2"), {})
    result = evaluate(labelled, directives, parse_budget(None))
    assert result.status == "ok", result.error
    half, _ = _load(tmp_path, HALF_LABELLED, "labelled")
    assert set(Space(half, max_parallel=4).loops) == {"i", "i/j"}


def test_partitions_follow_the_unroll_factors(nest):
    space = Space(nest, max_parallel=8)
    p = Point().with_unroll("i/j", 4).with_unroll("i", 2)
    # y is indexed by both on one dimension: the larger factor wins; z by both on
    # different dimensions: each is partitioned (they compose into 2 x 4 banks)
    assert space.partitions(p) == [("x", 1, 2, "cyclic"), ("y", 1, 4, "cyclic"),
                                   ("z", 1, 2, "cyclic"), ("z", 2, 4, "cyclic")]
    q = p.with_layout("z", "block", 1).with_layout("x", "none", 0)
    assert space.partitions(q) == [("y", 1, 4, "cyclic"), ("z", 1, 2, "block")]
    kinds = [m for m, _, _ in space.directives(q)]
    assert kinds == ["unroll", "unroll", "partition", "partition"]
    assert space.directives(q)[0] == ("unroll", ("i/j",), {"factor": 4})  # innermost first
    result = evaluate(space.kernel, space.directives(p), parse_budget(None))
    assert result.status == "ok", result.error  # (z's two partitions build)


def test_seeds_and_neighbours_respect_the_parallelism_bound(nest):
    space = Space(nest, max_parallel=8)
    seeds = space.seeds()
    assert Point() in seeds and len(seeds) == len(set(seeds))
    assert Point().with_unroll("i", 2).with_unroll("i/j", 4) in seeds
    for p in seeds:
        u = dict(p.unroll)
        assert u.get("i", 1) * u.get("i/j", 1) <= 8
    assert not space.valid(Point().with_unroll("i", 4).with_unroll("i/j", 4))
    assert not space.valid(Point(pipeline=("i", "i/j")))  # nested pipelines
    assert not space.valid(Point(pipeline=("i/j",)).with_unroll("i/j", 4))  # fully unrolled
    start = Point().with_unroll("i", 2)
    for n in space.neighbours(start):
        changed = [n.unroll != start.unroll, n.tile != start.tile,
                   n.pipeline != start.pipeline, n.layout != start.layout]
        assert sum(changed) == 1 and space.valid(n)
    assert start.with_unroll("i", 4) in space.neighbours(start)
    assert Point() in space.neighbours(start)


GEMM_LIKE = """
from vichls import int32, kernel

@kernel
def gemm_like(C: int32[6, 40], A: int32[6, 30], B: int32[30, 40]):
    for i in range(6):
        for j in range(40):
            C[i, j] *= 3
        for k in range(30):
            for j in range(40):
                C[i, j] += A[i, k] * B[k, j]
"""


def test_pipelines_imply_copies_within_the_slack(tmp_path):
    """Pipelining a loop unrolls its inner loops fully: those copies count against the
    parallelism bound (with PIPELINE_SLACK), so pipelining ``i`` (40 + 30 x 40 copies) is
    no point of the space, while ``i/k`` (40 copies) is, and the first seeds pipeline
    every nest as far out as that allows."""
    from vichls.dse.space import PIPELINE_SLACK

    gemm_like, _ = _load(tmp_path, GEMM_LIKE, "gemm_like")
    space = Space(gemm_like, max_parallel=12)
    assert 40 <= PIPELINE_SLACK * 12 < 30 * 40
    assert not space.valid(Point(pipeline=("i",)))
    assert space.valid(Point(pipeline=("i/k",)))
    assert not space.valid(Point(pipeline=("i/k",)).with_unroll("i", 2))  # 80 copies
    outward = Point(pipeline=("i/j", "i/k"))
    assert space.pipelined_outward(Point()) == outward
    seeds = space.seeds()
    # first the baseline, then the widest uniform unroll of the innermost loops that is
    # valid and within the DSP budget, pipelined (12 copies at most: 10 divides 40), then
    # every nest pipelined as far out as the bound allows
    assert seeds[0] == Point() and seeds[2] == outward
    assert dict(seeds[1].unroll) == {"i/j": 10, "i/k/j": 10} and seeds[1].pipeline
    assert all(space.valid(p) for p in seeds)
    # the innermost loops pipelined, with their unrolls alone (no outer unroll): these
    # flatten into their outer loops, so they are seeds of their own
    innermost = Point(pipeline=("i/j", "i/k/j"))
    assert space.pipelined_innermost(Point()) == innermost and innermost in seeds
    unrolled = Point().with_unroll("i/j", 4).with_unroll("i/k/j", 4)
    assert space.pipelined_innermost(unrolled) in seeds


def test_layouts_have_one_spelling(nest):
    space = Space(nest, max_parallel=8)
    inner = Point().with_unroll("i/j", 2)
    # z is only indexed on dim 2 by the unrolled loop: "dim 2" is the automatic choice
    assert space.canonical(inner.with_layout("z", "block", 2)) == \
        inner.with_layout("z", "block", 0)
    assert space.canonical(Point().with_layout("z", "none", 0)) == Point()  # nothing unrolled
    both = inner.with_unroll("i", 4)  # z: dim 1 by 4 (automatic), dim 2 by 2
    assert space.canonical(both.with_layout("z", "cyclic", 2)).layout == (("z", "cyclic", 2),)
    assert space.canonical(both.with_layout("z", "cyclic", 1)) == both


# -- the frontier ----------------------------------------------------------------------------


def test_pareto_front_by_hand():
    pts = [(10, 5), (8, 6), (8, 7), (12, 1), (10, 5), (20, 20)]
    assert pareto_front(pts, lambda p: p) == [(8, 6), (10, 5), (10, 5), (12, 1)]
    assert dominates((1, 2), (1, 3)) and not dominates((1, 3), (1, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 6)] * 3), max_size=25))
def test_pareto_front_matches_brute_force(vectors):
    front = pareto_front(vectors, lambda v: v)
    for v in vectors:
        beaten = any(all(a <= b for a, b in zip(w, v)) and w != v for w in vectors)
        assert (v in front) == (not beaten)


def test_near_misses_are_over_budget_points_faster_than_every_fitting_one(nest):
    """The search steps back from the fastest points just over the budget: ``near_misses``
    picks them, and their smaller neighbours all have fewer copies side by side."""
    from vichls.dse.evaluate import Evaluation
    from vichls.dse.search import near_misses

    def point(latency, status, index):
        return Evaluation([], status, latency, latency, index=index)

    points = [point(100, "ok", 0), point(40, "over budget", 1), point(90, "over budget", 2),
              point(150, "over budget", 3), point(20, "infeasible", 4), point(60, "ok", 5)]
    assert [e.index for e in near_misses(points)] == [1]
    space = Space(nest, max_parallel=8)
    wide = Point().with_pipeline(["i"])
    size = sum(space.copies(wide).values())
    smaller = space.smaller_neighbours(wide)
    assert smaller and all(sum(space.copies(n).values()) < size for n in smaller)


# -- exploring -------------------------------------------------------------------------------


def test_budget_parsing():
    assert parse_budget("dsp=12")["dsp"] == 12 and parse_budget(None)["lut"] == 53200
    with pytest.raises(VichlsError, match="unknown resource"):
        parse_budget("luts=3")
    with pytest.raises(VichlsError, match="whole number"):
        parse_budget("dsp=many")


def test_bad_points_are_recorded_not_raised(nest):
    e = evaluate(nest, [("unroll", ("nowhere",), {"factor": 2})], parse_budget(None))
    assert e.status == "infeasible" and "no loop named 'nowhere'" in e.error
    e = evaluate(nest, [], parse_budget("dsp=0"))
    assert e.status == "over budget" and "dsp" in e.error
    e = evaluate(nest, [("unroll", ("i",), {"factor": 8})], parse_budget(None), time_limit=1e-4)
    assert e.status == "infeasible" and "longer than" in e.error


@pytest.fixture(scope="module")
def tight(nest):
    """An exploration under a DSP budget that rules out most of the parallel points."""
    return explore(nest, budget="dsp=24", max_points=40)


REQUANT = """
from vichls import int8, int32, int64, kernel

@kernel
def requant(x: int8[64], w: int8[64], s: int64, y: int64[2]):
    acc: int32 = 0
    for k in range(64):
        acc += int32(x[k]) * int32(w[k])
    y[0] = int64(acc) * s
    for r in range(2):
        y[r] = y[r] * s
"""


def test_each_nest_is_bounded_by_its_own_multipliers(tmp_path):
    # the 64-bit products (10 DSPs each, outside the MAC loop or in another nest) do not
    # bound the MAC loop's copies (the kernel's 21 DSPs would allow 220 // 21 = 10): its
    # 8-bit products are one DSP each, and the products that do not read k are not copied
    requant, _ = _load(tmp_path, REQUANT, "requant")
    space = Space(requant, dsp_budget=220)
    assert sorted(space.multipliers, key=lambda m: m.dsp) == [
        Multiplier(1, ("k",)), Multiplier(10, ()), Multiplier(10, ("r",))]
    full = Point().with_unroll("k", 64)
    assert space.valid(full) and space.dsp_estimate(full) == 64 + 10 + 10
    assert space.dsp_estimate(Point().with_unroll("r", 2)) == 1 + 10 + 20
    # a budget of 40 DSPs (60 with the slack) stops it between 32 and 64 copies
    small = Space(requant, dsp_budget=40)
    assert small.valid(Point().with_unroll("k", 32))
    assert not small.valid(full)


def test_exploration_respects_the_budget(tight, nest):
    budget = tight.budget
    assert tight.chosen is not None and tight.chosen.feasible
    # the budget rules points out: by their estimate before they are built (i unrolled 8
    # times: 8 copies of a * x[i] and of x[i] * y[j + 1], 3 DSPs each, 48 > 1.5 x 24), or
    # by their resources once built
    assert not Space(nest, dsp_budget=24).valid(Point().with_unroll("i", 8))
    assert Space(nest).valid(Point().with_unroll("i", 8))
    assert all(Space(nest, dsp_budget=24).at(e.point).valid(e.point) for e in tight.points)
    for e in tight.frontier + [tight.chosen]:
        assert all(e.resources[k] <= budget[k] for k in budget)
    best = min(e.latency for e in tight.points if e.feasible)
    assert tight.chosen.latency == best <= tight.baseline.latency
    assert len(tight.points) <= 40
    assert len({e.point for e in tight.points}) == len(tight.points)  # nothing twice
    ok = [e for e in tight.points if e.feasible]
    for e in ok:  # the frontier dominates (or equals) every point within budget
        v = (e.latency, e.resources["lut"], e.resources["dsp"])
        assert any(w == v or dominates(w, v) for w in
                   [(f.latency, f.resources["lut"], f.resources["dsp"]) for f in tight.frontier])


def test_written_back_schedule_reproduces_the_design(tight, nest):
    code = tight.schedule_python
    assert code == python_of(tight.chosen.directives, "nest") and tight.chosen.directives
    namespace = {"nest": nest}
    exec(compile(code, "schedule.py", "exec"), namespace)
    s = namespace["s"]
    assert isinstance(s, vichls.Schedule) and len(s.directives) == len(tight.chosen.directives)
    report = s.build("fpga").report
    assert report["latency"]["max"] == tight.chosen.latency_max
    assert {k: report["resources"][k] for k in tight.chosen.resources} == \
        tight.chosen.resources


def test_pipeline_points_left_out_when_the_back_end_refuses_them(nest, monkeypatch):
    from vichls.errors import DirectiveError
    from vichls.frontend.customize import Schedule

    def refuse_pipeline(self):
        if any(d.kind == "pipeline" for d in self.directives):
            raise DirectiveError("s.pipeline(...): this directive is recognised but not "
                                 "implemented yet in this version of vichls")

    monkeypatch.setattr(Schedule, "check_supported", refuse_pipeline)
    result = explore(nest, max_points=12)
    assert any("pipeline points left out" in n for n in result.notes)
    assert all(not e.point.pipeline and e.status != "infeasible" for e in result.points)
    assert len(result.points) == 12


def _summary(result):
    return [(e.index, e.point, e.status, e.latency_max, tuple(sorted(e.resources.items())))
            for e in result.points]


def test_dask_local_cluster_gives_the_serial_answer(nest):
    distributed = pytest.importorskip("distributed")
    serial = explore(nest, budget="dsp=24", max_points=14)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        # by address, as `vichls dse --scheduler ADDRESS` does
        remote = explore(nest, budget="dsp=24", max_points=14,
                         scheduler=cluster.scheduler_address)
        with distributed.Client(cluster) as client:  # or with the caller's own client
            again = explore(nest, budget="dsp=24", max_points=6, scheduler=client)
            assert client.status == "running"  # not closed by explore
    assert _summary(remote) == _summary(serial)
    assert remote.chosen.point == serial.chosen.point
    assert _summary(again) == _summary(serial)[:6]


def test_a_spent_deadline_skips_the_point(nest):
    import time

    e = evaluate(nest, [("unroll", ("i",), {"factor": 2})], parse_budget(None),
                 deadline=time.time() - 1)
    assert e.status == "skipped" and "time budget" in e.error and not e.resources
    # a build cut off by the deadline is skipped too, not called infeasible
    e = evaluate(nest, [("unroll", ("i",), {"factor": 8})], parse_budget(None),
                 time_limit=60, deadline=time.time() + 1e-4)
    assert e.status == "skipped" and "ran out while" in e.error


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_time_budget_stops_the_search(nest, jobs):
    full = explore(nest, budget="dsp=24", max_points=40)
    cut = explore(nest, budget="dsp=24", max_points=40, time_budget=1e-3, jobs=jobs)
    # baseline and pipeline probe are always built; nothing after the budget ran out
    assert [e.point for e in cut.points] == [e.point for e in full.points[:2]]
    assert [e.index for e in cut.points] == [0, 1]
    assert all(e.status != "skipped" for e in cut.points)
    assert any("time budget of 0.001 s ran out" in n for n in cut.notes)
    assert cut.chosen is not None and cut.chosen.latency >= full.chosen.latency
    roomy = explore(nest, budget="dsp=24", max_points=40, time_budget=3600)
    assert _summary(roomy) == _summary(full) and not any("time budget" in n
                                                         for n in roomy.notes)


def test_process_pool_gives_the_serial_answer(nest):
    serial = explore(nest, budget="dsp=24", max_points=10)
    pooled = explore(nest, budget="dsp=24", max_points=10, jobs=2)
    assert _summary(pooled) == _summary(serial)


# -- the command line, with a verification in simulation ----------------------------------------


def test_cli_end_to_end_with_verification(tmp_path, capsys, monkeypatch):
    from vichls.cli import main
    from vichls.dse import verify

    _, path = _load(tmp_path, TINY, "tiny")
    out = tmp_path / "out"
    argv = ["dse", str(path), "--max-points", "12", "--jobs", "1", "--verify", "1",
            "--budget", "dsp=6", "-o", str(out), "--quiet"]
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    assert "Pareto frontier" in stdout and "s = vichls.customize(tiny)" in stdout
    assert "verified baseline: OK" in stdout and "MISMATCH" not in stdout
    for name in ("pareto.csv", "points.csv", "dse.json", "dse.png", "schedule.py"):
        assert (out / name).stat().st_size > 0
    run = json.loads((out / "dse.json").read_text())
    assert run["budget"]["dsp"] == 6 and run["chosen"] is not None
    chosen = run["points"][run["chosen"]]
    assert chosen["status"] == "ok" and chosen["resources"]["dsp"] <= 6
    checks = run["verification"]
    assert set(checks) == {"baseline", f"point{run['chosen']}"}
    assert all(c["cycles"] and not c["mismatches"] for c in checks.values())
    assert (out / "dse.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # a reference that disagrees with the hardware must fail loudly (same cached build)
    real = verify._reference_runs

    def corrupted(*args, **kwargs):
        runs = real(*args, **kwargs)
        (inputs, (ret, arrays)), *rest = runs
        arrays = {k: v + 1 for k, v in arrays.items()}
        return [(inputs, (ret, arrays)), *rest]

    monkeypatch.setattr(verify, "_reference_runs", corrupted)
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "VERIFICATION FAILED" in captured.err and "MISMATCH" in captured.out


WHILE = """
from vichls import int32, kernel

@kernel
def count(x: int32[4], n: int32) -> int32:
    s: int32 = 0
    k: int32 = 0
    while k < n:
        s += x[k % 4]
        k += 1
    return s

@kernel
def flat(a: int32, b: int32) -> int32:
    return a * b + 1
"""


def test_cli_on_kernels_without_constant_loops(tmp_path, capsys):
    from vichls.cli import main

    _, path = _load(tmp_path, WHILE, "count")
    for name in ("count", "flat"):
        out = tmp_path / name
        assert main(["dse", str(path), "--kernel", name, "--verify", "0", "--jobs", "1",
                     "--quiet", "-o", str(out)]) == 0
        stdout = capsys.readouterr().out
        assert f"s = vichls.customize({name})" in stdout
        run = json.loads((out / "dse.json").read_text())
        assert run["chosen"] == 0 and len(run["points"]) == 1  # nothing to explore


def test_cli_rejects_bad_options(tmp_path, capsys):
    from vichls.cli import main

    _, path = _load(tmp_path, TINY, "tiny")
    assert main(["dse", str(path), "--budget", "dsp=x", "--quiet"]) == 2
    assert "whole number" in capsys.readouterr().err
    assert main(["dse", str(path), "--kernel", "nope", "--quiet"]) == 2
    assert "no kernel named 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, with status 2
        main(["dse", str(path), "--time-budget", "0", "--quiet"])
    assert refused.value.code == 2
    assert "--time-budget: '0': a number above zero is needed" in capsys.readouterr().err


STENCIL_LIKE = """
from vichls import int32, kernel


@kernel
def stencil_like(orig: int32[8, 8], sol: int32[6, 6], f: int32[3, 3]):
    for r in range(6):
        for c in range(6):
            t: int32 = 0
            for k1 in range(3):
                for k2 in range(3):
                    t += f[k1, k2] * orig[r + k1, c + k2]
            sol[r, c] = t
"""


def test_neighbours_of_interchanged_points_keep_to_their_loop_order(tmp_path):
    """Interchanging ``k1``/``k2`` of a point that unrolls ``k1`` fully gives knobs on loops
    that order does not have; such a move is no neighbour (it once raised KeyError in the
    middle of an exploration)."""
    stencil_like, _ = _load(tmp_path, STENCIL_LIKE, "stencil_like")
    space = Space(stencil_like, max_parallel=64)
    points = space.seeds()
    for point in list(points):
        points += space.neighbours(point)
    for point in points:
        space.neighbours(point)
        assert space.valid(point)


WITH_TABLE = """
import numpy as np
import vichls
from vichls import int32, kernel

W = vichls.const(np.arange(32).reshape(4, 8), int32)

@kernel
def with_table(x: int32[8], y: int32[4]):
    for m in range(4):
        acc: int32 = 0
        for k in range(8):
            acc += x[k] * W[m, k]
        y[m] = acc
"""


def test_the_space_partitions_a_constant_table_the_unrolled_loops_index(tmp_path):
    """A constant array (vichls.const) is an array of the space: unrolling k partitions it
    with x (the exploration crashed on its name before)."""
    with_table, _ = _load(tmp_path, WITH_TABLE, "with_table")
    space = Space(with_table, max_parallel=8)
    point = Point().with_unroll("m/k", 4)
    assert space.partitions(point) == [("W", 2, 4, "cyclic"), ("x", 1, 4, "cyclic")]
    assert space.seeds()
    result = evaluate(with_table, space.directives(point), parse_budget(None))
    assert result.status == "ok", result.error
