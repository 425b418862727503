"""Consecutive pipelined loops fused into one pipeline (transforms/fpga/fuse_pipelines.py):
simulated bit for bit against the Python call (and the CPU build) on kernels where the
second loop must run behind the first by 0, 1 and 4 iterations, with trip counts that
differ, a chain of three loops, flattened nests (a row behind; rows of two lengths), and
pairs that must stay apart; the report says which
loops were fused, and the fused designs' latency is the simulated one."""

from __future__ import annotations

import numpy as np
import pytest

import vichls
from e2e import Scheduled, assert_outcome, run_batch
from vichls.frontend.kernel import load_file

KERNELS = '''
from vichls import int32, kernel


@kernel
def sweeps(a: int32[30], b: int32[30]):
    for t in range(3):
        for i in range(1, 29):
            b[i] = (a[i - 1] + a[i] + a[i + 1]) // 3
        for i in range(1, 29):
            a[i] = (b[i - 1] + b[i] + b[i + 1]) // 3


@kernel
def behind(x: int32[16], y: int32[16]):
    t: int32[16] = 0
    for i in range(12):
        t[i] = x[i] * 3 + 1
    for j in range(1, 9):
        y[j] = t[j + 3] * 2 - x[j]


@kernel
def chain(x: int32[20], y: int32[20]):
    u: int32[20] = 0
    v: int32[20] = 0
    for i in range(20):
        u[i] = x[i] + i
    for j in range(20):
        v[j] = u[j] * u[j]
    for k in range(19):
        y[k] = v[k + 1] * 2


@kernel
def sweeps2d(a: int32[8, 7], b: int32[8, 7]):
    for t in range(2):
        for i in range(1, 7):
            for j in range(1, 6):
                b[i][j] = (a[i][j] + a[i - 1][j] + a[i][j + 1]) // 3
        for i in range(1, 7):
            for j in range(1, 6):
                a[i][j] = (b[i][j] + b[i + 1][j] + b[i][j - 1] + b[i - 1][j + 1]) // 4


@kernel
def rows(x: int32[6, 8], y: int32[6, 8], z: int32[6, 8]):
    for i in range(6):
        for j in range(8):
            y[i][j] = x[i][j] * 3 - j
    for i in range(5):
        for j in range(7):
            z[i][j] = y[i + 1][j] + x[i][j + 1]


@kernel
def apart(x: int32[16], idx: int32[16], y: int32[16]):
    for i in range(16):
        y[i] = x[i] * 5
    for j in range(16):
        y[idx[j] & 15] += j
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuse") / "fuse_kernels.py"
    path.write_text(KERNELS)
    return load_file(path)


#: the loops pipelined (default: every i, j and k loop); a pipelined j flattens its nest
LOOPS = {"sweeps2d": ("j",), "rows": ("j",)}


def _pipelined(kernel):
    s = vichls.customize(kernel)
    for name in LOOPS.get(kernel.name, ("i", "j", "k")):
        try:
            s.pipeline(name)
        except vichls.errors.DirectiveError:
            pass
    return s


EXPECTED = {  # the report's pipelined loops: the fused ones say what they were fused from
    "sweeps": [["i, i (+1)"]],
    "behind": [["i, j (+4)"]],
    "chain": [["i, j (+0), k (+1)"]],
    "apart": [[None], [None]],
    # flattened nests: b[i + 1][j] read a row (5 iterations) after it is written
    "sweeps2d": [["i_j, i_j (+5)"]],
    # rows of 8, then of 7: y[i + 1][j] is written up to 12 iterations later; the shift
    # is rounded up to a whole row of the second nest
    "rows": [["i_j, i_j (+14)"]],
}


@pytest.fixture(scope="module")
def outcomes(kernels):
    rng = np.random.default_rng(4)
    items = []
    for name in EXPECTED:
        k = kernels[name]
        sig = k.signature
        arg_sets = []
        for _ in range(2):
            args = []
            for p in sig.params:
                if p.name == "idx":
                    args.append(rng.integers(0, 1 << 20, p.type.size).astype(np.int32))
                else:
                    args.append(rng.integers(-5000, 5000, p.type.shape).astype(np.int32))
            arg_sets.append(tuple(args))
        items.append((name, Scheduled(_pipelined(k)), arg_sets))
    return run_batch(items)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_fused_pipelines_are_bit_exact_and_reported(kernels, outcomes, name):
    out = outcomes[name]
    assert_outcome(out)
    design = _pipelined(kernels[name]).build("fpga")
    pipelined = [loop for loop in design.report["loops"] if loop.get("pipelined")]
    assert [[loop.get("fused")] for loop in pipelined] == EXPECTED[name]
    latency = design.report["latency"]
    if latency["min"] == latency["max"]:
        assert set(out.cycles) == {latency["min"]}, (out.cycles, latency)
