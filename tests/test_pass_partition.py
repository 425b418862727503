"""The array partitioning pass on the loop level (vichls.transforms.loop.partition_arrays).

Structure: bank arguments / allocas with their names, shapes and order; accesses with a
constant bank go straight to it (no bank select), data-dependent ones select (loads) or
are guarded per bank (stores); the recorded partitions and the folded-back signature;
refusals. Semantics without a simulator: the partitioned IR compiled for the CPU, called
on the arrays split into banks as the bank-port contract says (sim_harness.banks_of),
must give what the Python kernel gives.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import affine, arith, memref, scf

from vichls import int32, kernel, uint8
from vichls.driver.cpu import compile_cpu
from vichls.flows.sim_harness import Partition, banks_of
from vichls.driver.fpga import compile_fpga
from vichls.transforms.loop.partition_arrays import (
    PartitionError,
    original_signature,
    partition_arrays,
    partitions_of,
)
from vichls.signature import signature_of, top_function


@kernel
def dot(x: int32[64], y: int32[64]) -> int32:
    acc: int32 = 0
    for i in range(0, 64, 4):
        acc += x[i] * y[i] + x[i + 1] * y[i + 1] + x[i + 2] * y[i + 2] + x[i + 3] * y[i + 3]
    return acc


@kernel
def scatter(data: uint8[20], h: int32[10], M: int32[5, 7]):
    for i in range(20):
        h[data[i] % 10] += M[data[i] % 5, i % 7]
    for i in range(5):
        for j in range(7):
            M[i, j] = M[i, j] * 3 + h[(i + j) % 10]


@kernel
def shift_register(x: int32[16], y: int32[16]):
    taps: int32[4] = 0
    for n in range(16):
        for k in range(3, 0, -1):
            taps[k] = taps[k - 1]
        taps[0] = x[n]
        y[n] = taps[0] + 2 * taps[1] + 3 * taps[2] + taps[x[n] & 3]


@kernel
def callee(a: int32[8]):
    a[0] = 1


@kernel
def caller(a: int32[8]):
    callee(a)


def partitioned(k, requests):
    module = k.module()
    partition_arrays(module, requests)
    module.verify()
    return module, top_function(module)


def ops(f, kind):
    return [op for op in f.walk() if isinstance(op, kind)]


def run_banked(k, module, args):
    """Call the CPU build of a partitioned module with each array split into banks."""
    top = top_function(module)
    records = partitions_of(top)
    sig = original_signature(top)
    banked_args, banks_by_param = [], {}
    for p, a in zip(sig.params, args):
        r = records.get(p.name)
        if r is None or r["local"]:
            banked_args.append(a)
            continue
        dim = 1 if r["dim"] == 0 else r["dim"]
        assert r["dim"] != 0 or len(r["shape"]) == 1
        banks = banks_of(p, Partition(r["kind"], r["factor"], dim), False)
        arrays = []
        for bank in banks:
            words = np.zeros(bank.words, dtype=a.dtype)
            valid = bank.index >= 0
            words[valid] = a.reshape(-1)[bank.index[valid]]
            arrays.append(words)
        banks_by_param[p.name] = (banks, arrays)
        banked_args += [w.reshape(bp.type.shape) for w, bp in
                        zip(arrays, signature_of(top).params[len(banked_args):])]
    ret = compile_cpu(module)(*banked_args)
    for p, a in zip(sig.params, args):
        if p.name in banks_by_param:
            flat = a.reshape(-1)
            for bank, words in zip(*banks_by_param[p.name]):
                valid = bank.index >= 0
                flat[bank.index[valid]] = words.reshape(-1)[valid]
    return ret


def test_cyclic_unrolled_accesses_go_to_constant_banks():
    module, f = partitioned(dot, [("x", "cyclic", 1, 4), ("y", "cyclic", 1, 4)])
    names = [d.data["vichls.name"].data for d in f.arg_attrs.data]
    assert names == [f"x_{b}" for b in range(4)] + [f"y_{b}" for b in range(4)]
    assert all(t.get_shape() == (16,) for t in f.function_type.inputs.data)
    array_loads = [op for op in f.walk() if isinstance(op, (affine.LoadOp, memref.LoadOp))
                   and op.memref.type.get_shape()]
    assert len(array_loads) == 8
    assert all(isinstance(op, affine.LoadOp) for op in array_loads)
    assert not ops(f, arith.SelectOp)
    # each of the 4 bank arguments of x is read exactly once per iteration
    assert sorted(op.memref.index for op in array_loads) == list(range(8))
    assert original_signature(f) == dot.signature
    assert partitions_of(f)["x"] == {"kind": "cyclic", "factor": 4, "dim": 1, "banks": 4,
                                     "shape": (64,), "local": False,
                                     "splits": (("cyclic", 4, 1),)}


def test_block_with_dynamic_indices_selects_and_guards():
    module, f = partitioned(scatter, [("h", "block", 1, 3), ("M", "cyclic", 2, 3)])
    by_name = {d.data["vichls.name"].data: t for d, t in
               zip(f.arg_attrs.data, f.function_type.inputs.data)}
    assert list(by_name) == ["data", "h_0", "h_1", "h_2", "M_0", "M_1", "M_2"]
    assert by_name["h_2"].get_shape() == (4,) and by_name["M_0"].get_shape() == (5, 3)
    guarded = [op for op in ops(f, scf.IfOp)
               if any(isinstance(o, memref.StoreOp) for o in op.true_region.walk())]
    # one guard per bank for the data-dependent store into h, and for M[i, j] (j runs
    # over every bank of M's dimension 2 in one loop)
    assert len(guarded) == 6
    assert ops(f, arith.SelectOp)
    assert original_signature(f) == scatter.signature


@pytest.mark.parametrize("requests", [
    [("h", "block", 1, 3), ("M", "cyclic", 2, 3)],
    [("h", "cyclic", 0, 4), ("M", "block", 1, 2), ("data", "block", 1, 7)],
    [("M", "block", 2, 7), ("h", "cyclic", 1, 10)],
])
def test_scatter_semantics_on_cpu(requests):
    module, _ = partitioned(scatter, requests)
    rng = np.random.default_rng(len(requests))
    for _ in range(3):
        args = (rng.integers(0, 256, 20).astype(np.uint8),
                rng.integers(-99, 99, 10).astype(np.int32),
                rng.integers(-99, 99, (5, 7)).astype(np.int32))
        expected = tuple(a.copy() for a in args)
        scatter(*expected)
        got = tuple(a.copy() for a in args)
        run_banked(scatter, module, got)
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(e, g)


def test_dot_semantics_on_cpu():
    module, _ = partitioned(dot, [("x", "block", 0, 3), ("y", "cyclic", 1, 5)])
    rng = np.random.default_rng(7)
    x, y = (rng.integers(-1000, 1000, 64).astype(np.int32) for _ in range(2))
    assert run_banked(dot, module, (x, y)) == dot(x.copy(), y.copy())


def test_complete_partition_of_a_local_gives_registers():
    module, f = partitioned(shift_register, [("taps", "complete", 0, None)])
    allocas = [op for op in ops(f, memref.AllocaOp) if "vichls.bank_of" in op.attributes]
    assert [op.attributes["vichls.name"].data for op in allocas] == [f"taps_{b}" for b in range(4)]
    assert all(op.memref.type.get_shape() == () for op in allocas)
    rng = np.random.default_rng(3)
    x = rng.integers(-50, 50, 16).astype(np.int32)
    y, y_ref = np.zeros(16, np.int32), np.zeros(16, np.int32)
    shift_register(x.copy(), y_ref)
    run_banked(shift_register, module, (x.copy(), y))
    np.testing.assert_array_equal(y, y_ref)
    design = compile_fpga(module)
    rams = [op for op in design.structural.walk()
            if getattr(op, "primitive", None) is not None and op.primitive.data == "vichls_ram"]
    assert not rams
    assert design.report["local_partitions"]["taps"]["banks"] == 4


def test_local_cyclic_keeps_one_ram_per_bank():
    module, f = partitioned(shift_register, [("taps", "cyclic", 1, 2)])
    design = compile_fpga(module)
    rams = [op for op in design.structural.walk()
            if getattr(op, "primitive", None) is not None and op.primitive.data == "vichls_ram"]
    assert len(rams) == 2
    assert all(op.params.data["WORDS"].value.data == 2 for op in rams)


@pytest.mark.parametrize("request_, message", [
    (("z", "cyclic", 1, 2), "no array named 'z'"),
    (("x", "complete", 1, None), "complete partitioning applies to local arrays"),
    (("x", "cyclic", 1, 65), "larger than dimension 1"),
    (("x", "cyclic", 2, 2), "dim must be"),
    (("x", "diagonal", 1, 2), "kind must be"),
    (("x", "block", 1, 0), "factor must be a positive integer"),
])
def test_refusals(request_, message):
    with pytest.raises(PartitionError, match=message):
        partition_arrays(dot.module(), [request_])


def test_array_passed_to_a_call_is_refused():
    with pytest.raises(PartitionError, match="func.call"):
        partition_arrays(caller.module(), [("a", "cyclic", 1, 2)])


def test_twice_is_refused():
    module = dot.module()
    partition_arrays(module, [("x", "cyclic", 1, 2)])
    with pytest.raises(PartitionError):
        partition_arrays(module, [("x", "cyclic", 1, 2)])


def test_every_dimension_of_a_2d_parameter():
    """dim=0 on M[5, 7], cyclic 2: banks (b0, b1) numbered row-major, M_<2*b0+b1>, each
    M[b0::2, b1::2] padded to 3x4."""
    module, f = partitioned(scatter, [("M", "cyclic", 0, 2)])
    names = [d.data["vichls.name"].data for d in f.arg_attrs.data]
    assert names == ["data", "h", "M_0", "M_1", "M_2", "M_3"]
    assert all(t.get_shape() == (3, 4) for t in f.function_type.inputs.data[2:])
    assert partitions_of(f)["M"]["banks"] == 4
    rng = np.random.default_rng(11)
    data = rng.integers(0, 256, 20).astype(np.uint8)
    h = rng.integers(-99, 99, 10).astype(np.int32)
    M = rng.integers(-99, 99, (5, 7)).astype(np.int32)
    banks = []
    for b0 in range(2):
        for b1 in range(2):
            bank = np.zeros((3, 4), np.int32)
            part = M[b0::2, b1::2]
            bank[: part.shape[0], : part.shape[1]] = part
            banks.append(bank)
    h_got = h.copy()
    compile_cpu(module)(data.copy(), h_got, *banks)
    h_ref, M_ref = h.copy(), M.copy()
    scatter(data.copy(), h_ref, M_ref)
    np.testing.assert_array_equal(h_got, h_ref)
    for k, bank in enumerate(banks):
        b0, b1 = divmod(k, 2)
        part = M_ref[b0::2, b1::2]
        np.testing.assert_array_equal(bank[: part.shape[0], : part.shape[1]], part)
