"""Array partitioning end to end: Python reference ≡ RTL, bit for bit, with the simulator
serving each partitioned parameter's banks (vichls.flows.sim Partition, Vitis bank ports).

One simulator build for the whole module: the fixture compiles every design (each kernel
with and without its partitions) and builds them together. Kernels mix accesses whose
bank is a compile-time constant (unrolled by hand) with data-dependent ones (bank-select
loads, bank-guarded stores), factors that are and are not powers of two and do not divide
the dimension, parameters and local arrays.
"""

from __future__ import annotations

import numpy as np
import pytest

from vichls import int32, kernel, uint8
from vichls.flows.sim import SimDesign, build_simulation
from vichls.driver.fpga import compile_fpga
from vichls.inputs import copy_args
from vichls.transforms.loop.partition_arrays import partition_arrays

from e2e import SIMULATOR, differences


@kernel
def dot_unrolled(x: int32[64], y: int32[64]) -> int32:
    acc: int32 = 0
    for i in range(0, 64, 4):
        acc += x[i] * y[i] + x[i + 1] * y[i + 1] + x[i + 2] * y[i + 2] + x[i + 3] * y[i + 3]
    return acc


@kernel
def gather_scatter(A: int32[4, 7], idx: uint8[8], C: int32[4, 7]):
    for i in range(4):
        for j in range(7):
            C[i, j] = A[i, j] + A[i, idx[j] % 7]
    for k in range(8):
        C[k % 4, idx[k] % 7] += k


@kernel
def histogram(data: uint8[20], h: int32[10]):
    for i in range(20):
        h[data[i] % 10] += 1
    for i in range(0, 10, 2):
        h[i] = h[i] * 2 + h[i + 1]


@kernel
def local_banks(a: int32[12], out: int32[12]) -> int32:
    buf: int32[12] = 3
    grid: int32[3, 4] = 0
    for i in range(12):
        buf[(i * 5) % 12] = a[i] + buf[i]
    for i in range(3):
        for j in range(4):
            grid[i, j] = buf[i * 4 + j] - a[(j * 3 + i) % 12]
    s: int32 = 0
    for i in range(12):
        out[i] = grid[i % 3, (a[i] & 3)] + buf[11 - i]
        s += grid[2 - i % 3, i % 4]
    return s


@kernel
def fir(x: int32[32], coef: int32[8], y: int32[32]):
    taps: int32[8] = 0
    for n in range(32):
        for k in range(7, 0, -1):
            taps[k] = taps[k - 1]
        taps[0] = x[n]
        acc: int32 = 0
        for k in range(8):
            acc += taps[k] * coef[k]
        y[n] = acc


@kernel
def padded_window(x: int32[3, 6, 6], y: int32[3, 6, 6]):
    # a convolution's padded copy of its input: the initialisation fills the border the
    # copy leaves, in banks (cyclic by 3 on every dimension: 27 banks of 1x3x3)
    pad: int32[3, 8, 8] = 5
    for c in range(3):
        for i in range(6):
            for j in range(6):
                pad[c, i + 1, j + 1] = x[c, i, j]
    for c in range(3):
        for i in range(6):
            for j in range(6):
                y[c, i, j] = pad[c, i, j] + pad[c, i + 2, j + 2] - pad[2 - c, i + 1, j]


# name -> (kernel, partition requests (array, kind, dim, factor))
CASES = {
    "dot_cyclic4": (dot_unrolled, [("x", "cyclic", 1, 4), ("y", "cyclic", 1, 4)]),
    "dot_block4_dim0": (dot_unrolled, [("x", "block", 0, 4), ("y", "block", 1, 4)]),
    "gather_dim2_block3": (gather_scatter, [("A", "block", 2, 3), ("C", "cyclic", 2, 3)]),
    "gather_dim1_cyclic2": (gather_scatter, [("A", "cyclic", 1, 2), ("C", "block", 1, 2),
                                             ("idx", "cyclic", 1, 8)]),
    "histogram_block3": (histogram, [("h", "block", 0, 3), ("data", "cyclic", 1, 5)]),
    "histogram_cyclic2": (histogram, [("h", "cyclic", 1, 2)]),
    "local_cyclic": (local_banks, [("buf", "cyclic", 1, 5), ("grid", "block", 2, 2),
                                   ("a", "cyclic", 1, 4)]),
    "local_dim0": (local_banks, [("buf", "block", 0, 4), ("grid", "cyclic", 0, 2)]),
    "local_complete": (local_banks, [("grid", "complete", 1, None),
                                     ("buf", "complete", 0, None)]),
    "fir_complete": (fir, [("taps", "complete", 0, None), ("coef", "cyclic", 1, 8)]),
    "padded_window": (padded_window, [("pad", "cyclic", 1, 3), ("pad", "cyclic", 2, 3),
                                      ("pad", "cyclic", 3, 3)]),
    # every dimension of a 2-d parameter: a grid of 2x2 (3x3) banks
    "gather_params_dim0_cyclic": (gather_scatter, [("A", "cyclic", 0, 2), ("C", "block", 0, 3)]),
}
PLAIN = {"dot_plain": dot_unrolled}


def _arguments(k, seed: int, calls: int = 3) -> list[tuple]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(calls):
        args = []
        for p in k.signature.params:
            dtype = np.uint8 if p.scalar.width == 8 else np.int32
            low, high = (0, 256) if dtype == np.uint8 else (-5000, 5000)
            args.append(rng.integers(low, high, p.type.shape).astype(dtype))
        out.append(tuple(args))
    return out


@pytest.fixture(scope="module")
def simulated():
    """{case: (design, [(expected, got, cycles)])} from one simulator build."""
    designs, calls, compiled, expected = [], {}, {}, {}
    everything = {**{n: (k, r) for n, (k, r) in CASES.items()},
                  **{n: (k, []) for n, k in PLAIN.items()}}
    for seed, (name, (k, requests)) in enumerate(everything.items()):
        module = k.module()
        partition_arrays(module, requests)
        design = compile_fpga(module)
        compiled[name] = design
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
        calls[name] = _arguments(k, seed)
        expected[name] = []
        for args in calls[name]:
            work = copy_args(args)
            ret = k(*work)
            expected[name].append((ret, {p.name: a for p, a in zip(k.signature.params, work)
                                         if p.is_array}))
    model = build_simulation(designs, simulator=SIMULATOR)
    results = model.run_many(calls)
    return {name: (compiled[name], [(e, (r.ret, r.arrays), r.cycles)
                                    for e, r in zip(expected[name], results[name])])
            for name in everything}


@pytest.mark.parametrize("name", [*CASES, *PLAIN])
def test_bit_exact(simulated, name):
    _, runs = simulated[name]
    problems = [f"call {i}: {d}" for i, (e, g, _) in enumerate(runs) for d in differences(e, g)]
    assert not problems, "\n".join(problems)


def test_partitioned_dot_is_faster(simulated):
    """Four banks let the four unrolled loads of x (and of y) issue in the same cycle."""
    plain = simulated["dot_plain"][1][0][2]
    cyclic = simulated["dot_cyclic4"][1][0][2]
    assert cyclic * 3 < plain * 2, (cyclic, plain)  # at least 1.5x fewer cycles


def test_bank_ports_and_report(simulated):
    design = simulated["gather_dim2_block3"][0]
    arrays = design.report["interface"]["arrays"]
    assert arrays["A"]["partition"] == {"kind": "block", "factor": 3, "dim": 2}
    assert arrays["A"]["banks"] == 3 and arrays["A"]["words"] == 4 * 3
    assert arrays["idx"]["partition"] is None and "banks" not in arrays["idx"]
    ports = [p["name"] for p in design.report["interface"]["ports"]]
    a_ports = [p for p in ports if p.startswith("A_") and p.endswith("_address0")]
    assert a_ports == ["A_0_address0", "A_1_address0", "A_2_address0"]
    assert "A_address0" not in ports
    assert [p.name for p in design.signature.params] == ["A", "idx", "C"]
    local = simulated["local_complete"][0].report["local_partitions"]
    assert local["buf"] == {"kind": "complete", "factor": 12, "dim": 0, "banks": 12}


def test_partitioned_initialisation_fills_every_bank_at_once(simulated):
    """Regression: the 192-element initialisation of a 27-bank local array stored element by
    element, each store finding its bank by division and guarded once per bank (107 cycles
    an element, 20,544 in all); the banks are filled together: 9 iterations."""
    design = simulated["padded_window"][0]
    fill = [loop for loop in design.report["loops"] if loop["trip_count"] == 1][0]
    assert fill["latency"]["max"] <= 3 * 9
    assert simulated["padded_window"][1][0][2] < 3000  # (was more than 20,000)

