"""IR-level tests of the modulo scheduler (scheduling/modulo_schedule) and the dependence
analysis it uses (analysis/dependence)."""

from __future__ import annotations

import pytest
from xdsl.dialects import memref, scf

import vichls
from vichls import int32, kernel
from vichls.driver.fpga import prepare
from vichls.analysis.dependence import ANY, LoopDependences
from vichls.scheduling.modulo_schedule import MEdge, MNode, bounds, modulo_schedule
from vichls.dialects.attributes import DEPTH_ATTR, II_ATTR, PORT_ATTR
from vichls.dialects.attributes import CYCLE_ATTR, READY_ATTR


@kernel
def dot(x: int32[64], y: int32[64]) -> int32:
    acc: int32 = 0
    for i in range(64):
        acc += x[i] * y[i]
    return acc


@kernel
def shifts(a: int32[64], b: int32[64]):
    for i in range(4, 60):
        a[i] = a[i - 3] + b[i + 1]
        b[i] = a[i + 2]


def _pipelined_loop(k, loop_name="i", ii=1):
    module = vichls.customize(k).pipeline(loop_name, ii=ii).module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp) and II_ATTR in op.attributes]
    return loop


def test_affine_distances_are_exact():
    module = vichls.customize(shifts).module()
    from vichls.transforms.fpga.lower_affine_fpga import lower_affine_for_fpga

    lower_affine_for_fpga(module)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    deps = LoopDependences(loop, trip_count=56)
    accesses = [op for op in loop.body.walk() if isinstance(op, (memref.LoadOp, memref.StoreOp))]
    load_a3, load_b1, store_a, load_a2, store_b = accesses
    # a[i - 3] in iteration n reads what a[i] stored in iteration n - 3
    assert deps.distance(store_a, load_a3) == 3
    assert deps.distance(load_a3, store_a) == -3
    # a[i + 2] reads the element a[i] stores two iterations later
    assert deps.distance(load_a2, store_a) == 2
    # b[i + 1] is read one iteration before b[i] writes it
    assert deps.distance(load_b1, store_b) == 1
    assert deps.distance(store_b, store_b) == 0
    far = LoopDependences(loop, trip_count=2)
    assert far.distance(store_a, load_a3) is None  # beyond the trip count


@kernel
def gather(a: int32[16], idx: int32[16], c: int32):
    for i in range(16):
        a[idx[i] & 15] = a[c & 15] + 1


def test_unknown_indices_depend_at_any_distance():
    module = vichls.customize(gather).module()
    from vichls.transforms.fpga.lower_affine_fpga import lower_affine_for_fpga

    lower_affine_for_fpga(module)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    deps = LoopDependences(loop, trip_count=16)
    accesses = [op for op in loop.body.walk()
                if isinstance(op, (memref.LoadOp, memref.StoreOp)) and op.memref.name_hint != "idx"]
    load, store = [op for op in accesses if op.memref is accesses[-1].memref]
    assert deps.distance(load, store) is ANY


def test_schedule_annotations_respect_the_ii():
    loop = _pipelined_loop(shifts)
    ii = loop.attributes[II_ATTR].value.data
    depth = loop.attributes[DEPTH_ATTR].value.data
    ops = [op for op in loop.body.walk() if CYCLE_ATTR in op.attributes]
    assert ops and all(op.attributes[READY_ATTR].value.data < depth for op in ops)
    # no two accesses of one array use one port in one slot modulo II
    slots: dict = {}
    for op in ops:
        if isinstance(op, (memref.LoadOp, memref.StoreOp)):
            key = (op.memref, op.attributes[CYCLE_ATTR].value.data % ii,
                   op.attributes[PORT_ATTR].value.data)
            assert key not in slots, "two accesses of one memory port in one modulo slot"
            slots[key] = op
    # a and b each have three accesses per iteration: two ports each, two slots
    assert ii == 2 and {port for _, _, port in slots} == {0, 1}


def test_resource_bound_and_slots():
    nodes = [MNode(1, 0.3, port="m") for _ in range(3)] + [MNode(0, 1.0)]
    edges = [MEdge(0, 3, 1, data=True), MEdge(1, 3, 1, data=True)]
    b = bounds(nodes, edges, {"m": 1}, {"m": "mem"})
    assert b.res_mii == 3 and "memory 'mem' has 1 port and 3 accesses" in b.res_reasons[0]
    result = modulo_schedule(nodes, edges, ii=3, budget_ns=9.0, capacity={"m": 1})
    assert sorted(t % 3 for t in result.times[:3]) == [0, 1, 2]
    dual = modulo_schedule(nodes, edges, ii=2, budget_ns=9.0, capacity={"m": 2})
    assert dual.ii == 2


def test_recurrence_bound():
    # load (1 cycle), add, store; the store feeds the next iteration's load
    nodes = [MNode(1, 0.3, port="m"), MNode(0, 1.0), MNode(0, 0.3, port="m")]
    edges = [MEdge(0, 1, 1, data=True), MEdge(1, 2, 0, data=True),
             MEdge(2, 0, 1, distance=1, why="'m' store then load")]
    b = bounds(nodes, edges, {"m": 1}, {})
    assert b.rec_mii == 2 and "'m' store then load" in b.rec_reason
    far = [*edges[:2], MEdge(2, 0, 1, distance=2)]
    assert bounds(nodes, far, {"m": 1}, {}).rec_mii == 1
    result = modulo_schedule(nodes, edges, ii=2, budget_ns=9.0, capacity={"m": 1})
    t = result.times
    assert t[0] + 2 >= t[2] + 1 and t[1] >= t[0] + 1


def test_chaining_limits_the_ii():
    # a loop-carried chain of eight 2-ns adders cannot close in one 9-ns cycle
    nodes = [MNode(0, 2.0) for _ in range(8)]
    edges = [MEdge(k, k + 1, 0, data=True) for k in range(7)] + [MEdge(7, 0, 1, distance=1)]
    result = modulo_schedule(nodes, edges, ii=1, budget_ns=9.0)
    assert result.ii == 2


@pytest.mark.parametrize("ii", [1, 2, 4])
def test_requested_ii_is_a_floor(ii):
    loop = _pipelined_loop(dot, ii=ii)
    assert loop.attributes[II_ATTR].value.data == ii


@kernel
def banked_accumulate(y: int32[42], x: int32[42], c: int32):
    for j in range(42):
        y[j] = y[j] + x[j] * c


def test_addresses_of_banked_unrolled_accesses_stay_affine():
    """An unrolled copy's address in a cyclic bank is ``(j + c) // 21``, which
    div_by_constant turns into a magic product; the dependence analysis must still see that
    ``y[j]`` is a different element in every iteration (otherwise a read-modify-write of one
    bank looks like a recurrence of distance 1, and the II doubles)."""
    module = (vichls.customize(banked_accumulate).unroll("j", factor=21).pipeline("j", ii=1)
              .partition("y", factor=21).partition("x", factor=21).module())
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp) and II_ATTR in op.attributes]
    assert loop.attributes[II_ATTR].value.data == 1
    magic = [op for op in loop.body.walk() if "vichls.floor_quotient" in op.attributes]
    assert magic, "the addresses are expected as magic products here"
    deps = LoopDependences(loop, trip_count=2)
    by_bank: dict = {}
    for op in loop.body.walk():
        if isinstance(op, (memref.LoadOp, memref.StoreOp)):
            by_bank.setdefault(op.memref, []).append(op)
    pairs = [ops for ops in by_bank.values() if len(ops) == 2]
    assert len(pairs) == 21
    for load, store in pairs:
        assert deps.distance(load, store) == 0


@kernel
def row_accumulate(A: int32[6, 5], w: int32[6]):
    for i in range(6):
        for j in range(5):
            w[i] = w[i] + A[i, j]


@kernel
def row_scale(A: int32[6, 5], w: int32[6]):
    for i in range(6):
        for j in range(5):
            w[i] = w[i] * 3 + A[i, j]


@kernel
def total_accumulate(A: int32[6, 5], w: int32[6]):
    for i in range(6):
        for j in range(5):
            w[0] = w[0] + A[i, j]


def _w_accesses(k):
    loop = _pipelined_loop(k, "j")
    accesses = [op for op in loop.body.walk() if isinstance(op, (memref.LoadOp, memref.StoreOp))
                and op.memref.type.get_shape() == (6,)]
    return loop, LoopDependences(loop, trip_count=30), accesses


def test_guards_of_a_flattened_nest_separate_its_rows():
    """Flattened (5 iterations per row), ``w[i] += A[i][j]`` reads and writes ``w[i]`` only
    in a row's last iteration: one row's accesses meet only each other, in one iteration;
    ``w[0]`` is met by every row, but only a multiple of 5 iterations apart.
    ``w[i] = w[i] * 3 + ...`` loads ``w[i]`` in every iteration (its first value) and
    stores it in the last: they meet only within one row, the store after the load."""
    from vichls.analysis.dependence import Every

    loop, deps, (load, store) = _w_accesses(row_accumulate)
    assert isinstance(load.parent_op(), scf.IfOp) and store.parent_op() is load.parent_op()
    assert deps.distance(load, store) == 0
    assert loop.attributes[II_ATTR].value.data == 1
    loop, deps, (load, store) = _w_accesses(total_accumulate)
    assert deps.distance(load, store) == Every(5)
    assert loop.attributes[II_ATTR].value.data == 1
    loop, deps, (load, store) = _w_accesses(row_scale)
    assert load.parent_op() is loop and isinstance(store.parent_op(), scf.IfOp)
    assert deps.distance(load, store) == 0
    assert loop.attributes[II_ATTR].value.data == 1


@kernel
def flat_rows(A: int32[8, 6], B: int32[8, 6], C: int32[8, 6]):
    for i in range(1, 8):
        for j in range(1, 6):
            A[i][j] = A[i][j] - (B[i][j] - B[i - 1][j])
            C[i][j] = C[i - 1][j] + C[i][j - 1]


def test_flattened_nest_distances_are_exact():
    """Flattened (5 iterations per row), ``A[i][j]`` read and written is one element in one
    iteration (it was taken for a recurrence of every distance: fdtd-2d's sweeps sat at
    II=2); ``C[i - 1][j]`` reads what ``C[i][j]`` stored a row, 5 iterations, earlier and
    ``C[i][j - 1]`` what it stored in the previous iteration; the two reads of ``C`` meet
    4 iterations apart (``C[i][j - 1]`` is ``C[i - 1][j]`` of 4 iterations later)."""
    from vichls.analysis.memory_names import display_name

    module = vichls.customize(flat_rows).flatten("i", "j").pipeline("i").module()
    prepare(module, 10.0)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp) and II_ATTR in op.attributes]
    deps = LoopDependences(loop, trip_count=35)
    by: dict = {}
    for op in loop.body.walk():
        if isinstance(op, (memref.LoadOp, memref.StoreOp)):
            by.setdefault(display_name(op.memref), []).append(op)
    a_load, a_store = by["A"]
    assert deps.distance(a_load, a_store) == 0
    up, left, store = by["C"]
    assert isinstance(store, memref.StoreOp)
    assert deps.distance(store, up) == 5
    assert deps.distance(store, left) == 1
    assert deps.distance(left, up) == 4
    b_row, b_above = by["B"]
    assert deps.distance(b_row, b_above) == 5
    # C[i][j - 1] is a true recurrence of distance 1; A's read and write are not one
    reason = loop.attributes["vichls.ii_reason"].data
    assert "array 'C'" in reason and "array 'A'" not in reason, reason


def test_resource_reasons_name_the_worst_memories_and_count_the_rest():
    # twelve banks of a partitioned array, bank 'w_3' the busiest: the reason names the
    # few that need the largest II and counts the others in one line
    nodes = [MNode(1, 0.3, port=f"b{k}") for k in range(12) for _ in range(3)]
    nodes += [MNode(1, 0.3, port="b3") for _ in range(3)]
    names = {f"b{k}": f"w_{k}" for k in range(12)}
    b = bounds(nodes, [], {f"b{k}": 1 for k in range(12)}, names)
    assert b.res_mii == 6
    assert b.res_reasons[0] == "memory 'w_3' has 1 port and 6 accesses per iteration (II >= 6)"
    assert b.res_reasons[1].startswith("memory 'w_0' has 1 port and 3 accesses")
    assert b.res_reasons[3].startswith("memory 'w_2' ")
    assert len(b.res_reasons) == 5
    assert b.res_reasons[4] == ("8 more memories with more accesses per iteration than ports "
                                "('w_4', 'w_5', 'w_6', ...; II >= 3)")
