"""remove-dead-inits (analysis/array_writes.unrolled_in_order): a local array's
initialisation is dropped when the next statement writing it is an in-order loop unrolled
by a factor (its stores at i, i + 1, ... in a loop stepping by their count); kept when the
stores leave a gap."""

from __future__ import annotations

import vichls
from vichls import int32, kernel


@kernel
def doubled(x: int32[8], y: int32[8]):
    t: int32[8] = 0
    for i in range(8):
        t[i] = x[i] * 2
    for i in range(8):
        y[i] = t[i] + 1


@kernel
def gap(x: int32[8], y: int32[8]):
    t: int32[8] = 0
    for i in range(4):
        t[2 * i] = x[i]
    for i in range(8):
        y[i] = t[i]


def _loops(k, loop_directives):
    s = vichls.customize(k)
    for factor in loop_directives:
        s.unroll("i", factor)
    return [loop["trip_count"] for loop in s.build("fpga").report["loops"]]


def test_the_init_before_an_unrolled_writer_is_dropped():
    # the unroll applies to both loops named i: 8 / 4 = 2 iterations each, no init loop
    assert _loops(doubled, [4]) == [2, 2]


def test_an_init_that_a_gap_leaves_live_is_kept():
    import numpy as np

    assert 8 in _loops(gap, [2])
    cpu = vichls.customize(gap).unroll("i", 2).build("cpu")
    y = np.zeros(8, np.int32)
    cpu(np.arange(1, 9, dtype=np.int32), y)
    assert list(y) == [1, 0, 2, 0, 3, 0, 4, 0]


@kernel
def produce(x: int32[4, 5], y: int32[4, 5]):
    for i in range(4):
        for j in range(5):
            y[i, j] = x[i, j] * 3


@kernel
def produce_skipping(x: int32[4, 5], y: int32[4, 5]):
    for i in range(4):
        for j in range(4):
            y[i, j] = x[i, j] * 3


@kernel
def consume(x: int32[4, 5], out: int32[4, 5]):
    t: int32[4, 5] = 7
    produce(x, t)
    for i in range(4):
        for j in range(5):
            out[i, j] = t[i, j] + 1


@kernel
def consume_skipping(x: int32[4, 5], out: int32[4, 5]):
    t: int32[4, 5] = 7
    produce_skipping(x, t)
    for i in range(4):
        for j in range(5):
            out[i, j] = t[i, j] + 1


def test_the_init_before_a_flattened_writer_is_dropped():
    # regression: once the producer's nest is flattened by its pipeline (its indices
    # t // 5 and t % 5), its in-order writes went unrecognised and every activation array
    # between two ONNX layers kept its fill loop (a cycle per element per call)
    import numpy as np

    for top, producer, dropped in ((consume, produce, True),
                                   (consume_skipping, produce_skipping, False)):
        s = vichls.customize(top)
        s.compose(vichls.customize(producer).pipeline("j"))
        design = s.build("fpga")
        fills = [loop for loop in design.report["loops"] if loop["name"] == "loop"]  # unnamed
        assert (not fills) == dropped, design.report["loops"]
        x = np.arange(20, dtype=np.int32).reshape(4, 5)
        out = np.zeros((4, 5), np.int32)
        s.build("cpu")(x, out)
        expected = x * 3 + 1
        if not dropped:
            expected[:, 4] = 8
        assert np.array_equal(out, expected)
