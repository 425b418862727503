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
