"""Kernels and helpers of the loop-pass tests (tests/test_pass_loop_*.py): list a module's
loops and accesses, and check that a transformed module still computes what the kernel's
Python call computes (through the CPU back end, on seeded random inputs)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import affine

import vichls
from vichls import int16, int32, kernel
from vichls.inputs import copy_args, random_args


@kernel
def shifted_copy(a: int32[16], b: int32[16]):
    for i in range(2, 12):
        b[i] = a[i + 1] + i


@kernel
def matmul(A: int32[4, 6], B: int32[6, 5], C: int32[4, 5]):
    for i in range(4):
        for k in range(6):
            for j in range(5):
                C[i, j] += A[i, k] * B[k, j]


@kernel
def strided(a: int16[7, 5], b: int16[7, 5]) -> int16:
    s: int16 = 0
    for i in range(1, 7, 2):
        for j in vichls.loop(range(5), name="cols"):
            b[i, j] = a[i, j] * int16(i) + int16(j)
            s += b[i, j]
    return s


@kernel
def shift_left(a: int32[9, 4]):
    for i in range(1, 9):
        for j in range(4):
            a[i - 1, j] = a[i, j]


@kernel
def horner(a: int32[3, 4]) -> int32:
    s: int32 = 0
    for i in range(3):
        for j in range(4):
            s = s * 3 + a[i, j]
    return s


@kernel
def bounded(a: int32[8], n: int32):
    for i in range(n):
        a[i] = i


@kernel
def lower_triangle(a: int32[6, 6]) -> int32:
    s: int32 = 0
    for i in range(6):
        for j in range(i):       # no iterations at i = 0
            s = s * 3 + a[i, j]
            a[j, i] += s
    return s


def affine_loops(module) -> list[affine.ForOp]:
    return [op for op in module.walk() if isinstance(op, affine.ForOp)]


def accesses(module) -> list:
    return [op for op in module.walk() if isinstance(op, (affine.LoadOp, affine.StoreOp))]


def maps_of(ops) -> list[str]:
    return [str(op.map.data) for op in ops]


def assert_cpu_agrees(k, module, calls: int = 4) -> None:
    """The CPU build of ``module`` gives the results of ``k``'s Python call, bit for bit."""
    from vichls.driver.cpu import compile_cpu

    module.verify()
    cpu = compile_cpu(module)
    rng = np.random.default_rng(7)
    for _ in range(calls):
        args = random_args(k.signature, rng)
        expected, got = copy_args(args), copy_args(args)
        assert k(*expected) == cpu(*got)
        for e, g in zip(expected, got):
            if isinstance(e, np.ndarray):
                np.testing.assert_array_equal(e, g)
