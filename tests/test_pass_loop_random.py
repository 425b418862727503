"""Property test of the loop directives on random programs (tests/progen.py): random valid
sequences of unroll, tile, reorder and flatten keep the CPU build bit-identical to the
Python call. A directive that cannot apply to a program must be refused with a
DirectiveError (and is then left out); anything else is a failure."""

from __future__ import annotations

import random

import numpy as np
import pytest

import progen
import vichls
from vichls.driver.cpu import compile_cpu
from vichls.errors import DirectiveError
from vichls.inputs import copy_args
from vichls.frontend.customize import loop_paths

SEEDS = range(40)


def _candidates(kernel, rng: random.Random) -> list[tuple]:
    paths = [tuple(var for var, _ in path) for path, _, _ in loop_paths(kernel.tree().body)]
    out = []
    for path in paths:
        name = path[-1]
        out += [("unroll", (name,), {"factor": rng.choice([None, 2, 3])}),
                ("tile", (name, rng.choice([2, 3])), {})]
        if len(path) >= 2:
            out += [("flatten", path[-2:], {}), ("reorder", (path[-1], path[-2]), {})]
    rng.shuffle(out)
    return out


def _outcome(fn, args):
    work = copy_args(args)
    ret = fn(*work)
    return ret, [a for a in work if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_directives_keep_cpu_results(seed, tmp_path):
    program = progen.load_program(seed, tmp_path)
    kernel = program.top
    rng = random.Random(seed)
    schedule = vichls.customize(kernel)
    kept = []
    for kind, args, options in _candidates(kernel, rng):
        trial = vichls.customize(kernel)
        try:
            for k, a, o in [*kept, (kind, args, options)]:
                getattr(trial, k)(*a, **o)
            trial.module()
        except DirectiveError:
            continue
        kept.append((kind, args, options))
        schedule = trial
        if len(kept) == 3:
            break
    module = schedule.module()
    module.verify()
    cpu = compile_cpu(module)
    args = progen.make_args(seed)
    expected_ret, expected_arrays = _outcome(kernel, args)
    got_ret, got_arrays = _outcome(cpu, args)
    assert got_ret == expected_ret, kept
    for e, g in zip(expected_arrays, got_arrays):
        np.testing.assert_array_equal(e, g, err_msg=str(kept))
