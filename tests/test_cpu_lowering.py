"""CPU back end on hand-built loop-level IR (docs/ir.md form), against values computed in Python.

Each test builds a module with xDSL's builders, compiles it with `compile_cpu`, runs it on
numpy arrays and compares with an independent Python model of the same computation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from vichls.cpu.errors import CpuError
from vichls.driver.cpu import compile_cpu
from vichls.signature import KernelArgumentError, KernelSignature, Param, annotate
from vichls.types import ScalarType, bool_, int16, int32, int64, int_, uint8, uint_

# -- building IR ------------------------------------------------------------------------


def kernel_func(name: str, params: list[tuple[str, object]], ret: ScalarType | None = None):
    """An empty kernel function with the signature attributes of docs/ir.md."""
    sig = KernelSignature(name, tuple(Param(n, t) for n, t in params), ret)
    block = Block(arg_types=sig.ir_arg_types())
    f = func.FuncOp(name, (sig.ir_arg_types(), sig.ir_result_types()), Region(block))
    annotate(f, sig)
    return f, block


def design(*funcs: func.FuncOp) -> ModuleOp:
    m = ModuleOp(list(funcs))
    m.attributes["vichls.top"] = StringAttr(funcs[-1].sym_name.data)
    return m


def const(value: int, width: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, IntegerType(width))).result


def index(value: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, IndexType())).result


def scalar_slot(width: int) -> SSAValue:
    return memref.AllocaOp.get(IntegerType(width), shape=[]).memref


def load(m: SSAValue, *indices: SSAValue) -> SSAValue:
    return memref.LoadOp.get(m, list(indices)).res


def store(v: SSAValue, m: SSAValue, *indices: SSAValue) -> None:
    memref.StoreOp.get(v, m, list(indices))


def affine_map(num_dims: int, num_syms: int, *results: AffineExpr) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(num_dims, num_syms, tuple(results)))


d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
s0 = AffineExpr.symbol(0)


def affine_for(lower, upper, body: Callable[[SSAValue], None], lower_ops=(), upper_ops=(), step: int = 1):
    """affine.for; `lower`/`upper` are ints or AffineMapAttrs over `*_ops`."""
    block = Block(arg_types=[IndexType()])
    with ImplicitBuilder(block):
        body(block.args[0])
        affine.YieldOp.get()
    affine.ForOp.from_region(list(lower_ops), list(upper_ops), [], [], lower, upper, Region(block), step)


def scf_for(lower: SSAValue, upper: SSAValue, step: SSAValue, body: Callable[[SSAValue], None]):
    block = Block(arg_types=[lower.type])
    with ImplicitBuilder(block):
        body(block.args[0])
        scf.YieldOp()
    scf.ForOp(lower, upper, step, [], block)


def scf_if(cond: SSAValue, then: Callable[[], None], otherwise: Callable[[], None] | None = None):
    then_block = Block()
    with ImplicitBuilder(then_block):
        then()
        scf.YieldOp()
    else_region = None
    if otherwise is not None:
        else_block = Block()
        with ImplicitBuilder(else_block):
            otherwise()
            scf.YieldOp()
        else_region = Region(else_block)
    scf.IfOp(cond, [], Region(then_block), else_region)


def scf_while(condition: Callable[[], SSAValue], body: Callable[[], None]):
    before, after = Block(), Block()
    with ImplicitBuilder(before):
        scf.ConditionOp(condition())
    with ImplicitBuilder(after):
        body()
        scf.YieldOp()
    scf.WhileOp([], [], Region(before), Region(after))


def returning(slot: SSAValue) -> None:
    func.ReturnOp(load(slot))


# -- Python models of the integer ops ----------------------------------------------------


def as_signed(bits: int, width: int) -> int:
    bits &= (1 << width) - 1
    return bits - (1 << width) if bits >> (width - 1) else bits


def as_unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def edge_values(t: ScalarType) -> list[int]:
    w = t.width
    raw = [t.min, t.max, 0, 1, -1, 2, -2, 1 << (w - 1), (1 << (w - 1)) + 1]
    raw += [int(x) for x in np.random.default_rng(w).integers(0, 1 << 62, size=4)]
    return sorted({t.wrap(v) for v in raw})


WIDTHS = [1, 8, 12, 32, 64]

# (name, arith op class, python model on (signed a, signed b, width) -> bits)
BASIC_OPS = [
    ("addi", arith.AddiOp, lambda a, b, w: a + b),
    ("subi", arith.SubiOp, lambda a, b, w: a - b),
    ("muli", arith.MuliOp, lambda a, b, w: a * b),
    ("andi", arith.AndIOp, lambda a, b, w: a & b),
    ("ori", arith.OrIOp, lambda a, b, w: a | b),
    ("xori", arith.XOrIOp, lambda a, b, w: a ^ b),
]
DIV_OPS = [
    ("divsi", arith.DivSIOp, lambda a, b, w: trunc_div(a, b)),
    ("remsi", arith.RemSIOp, lambda a, b, w: a - trunc_div(a, b) * b),
    ("divui", arith.DivUIOp, lambda a, b, w: as_unsigned(a, w) // as_unsigned(b, w)),
    ("remui", arith.RemUIOp, lambda a, b, w: as_unsigned(a, w) % as_unsigned(b, w)),
]
SHIFT_OPS = [
    ("shli", arith.ShLIOp, lambda a, b, w: a << b),
    ("shrsi", arith.ShRSIOp, lambda a, b, w: a >> b),
    ("shrui", arith.ShRUIOp, lambda a, b, w: as_unsigned(a, w) >> b),
]
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def compare_model(pred: str, a: int, b: int, w: int) -> bool:
    if pred.startswith("u"):
        a, b = as_unsigned(a, w), as_unsigned(b, w)
    return {
        "eq": a == b, "ne": a != b,
        "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
        "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
    }[pred]


def binary_ops_kernel(width: int, ops) -> ModuleOp:
    """k(a, b, out): out[i] = op_i(a, b) for each op, all of type int_(width)."""
    t = int_(width)
    f, b = kernel_func("ops", [("a", t), ("b", t), ("out", t[len(ops)])])
    with ImplicitBuilder(b):
        for i, (_, op_class, _) in enumerate(ops):
            store(op_class(b.args[0], b.args[1]).result, b.args[2], index(i))
        func.ReturnOp()
    return design(f)


@pytest.mark.parametrize("width", WIDTHS)
def test_binary_arith_at_width(width):
    t = int_(width)
    m = compile_cpu(binary_ops_kernel(width, BASIC_OPS))
    out = np.zeros(len(BASIC_OPS), dtype=t.dtype)
    for a in edge_values(t):
        for b in edge_values(t):
            m(a, b, out)
            expected = [t.wrap(model(a, b, width)) for _, _, model in BASIC_OPS]
            assert out.tolist() == expected, (a, b)


@pytest.mark.parametrize("width", WIDTHS)
def test_division_and_remainder_at_width(width):
    t = int_(width)
    m = compile_cpu(binary_ops_kernel(width, DIV_OPS))
    out = np.zeros(len(DIV_OPS), dtype=t.dtype)
    for a in edge_values(t):
        for b in edge_values(t):
            if b == 0 or (a == t.min and b == -1):
                continue  # undefined in arith; the front end never emits these
            m(a, b, out)
            expected = [t.wrap(model(a, b, width)) for _, _, model in DIV_OPS]
            assert out.tolist() == expected, (a, b)


@pytest.mark.parametrize("width", WIDTHS)
def test_shifts_at_width(width):
    t = int_(width)
    m = compile_cpu(binary_ops_kernel(width, SHIFT_OPS))
    out = np.zeros(len(SHIFT_OPS), dtype=t.dtype)
    for a in edge_values(t):
        for amount in sorted({0, 1 % width, width // 2 % width, width - 1}):
            m(a, amount, out)
            expected = [t.wrap(model(a, amount, width)) for _, _, model in SHIFT_OPS]
            assert out.tolist() == expected, (a, amount)


@pytest.mark.parametrize("width", WIDTHS)
def test_compare_and_select_at_width(width):
    t = int_(width)
    f, b = kernel_func("cmp", [("a", t), ("b", t), ("flags", bool_[len(PREDICATES)]), ("picked", t[1])])
    with ImplicitBuilder(b):
        for i, pred in enumerate(PREDICATES):
            store(arith.CmpiOp(b.args[0], b.args[1], pred).result, b.args[2], index(i))
        less = arith.CmpiOp(b.args[0], b.args[1], "slt").result
        store(arith.SelectOp(less, b.args[0], b.args[1]).result, b.args[3], index(0))
        func.ReturnOp()
    m = compile_cpu(design(f))
    flags = np.zeros(len(PREDICATES), dtype=np.bool_)
    picked = np.zeros(1, dtype=t.dtype)
    for a in edge_values(t):
        for bb in edge_values(t):
            m(a, bb, flags, picked)
            assert flags.tolist() == [compare_model(p, a, bb, width) for p in PREDICATES], (a, bb)
            assert int(picked[0]) == min(a, bb)


def test_extend_and_truncate():
    f, b = kernel_func("casts", [("a", int_(12)), ("wide", int64[2]), ("narrow", int_(5)[1]), ("flag", bool_[1])])
    with ImplicitBuilder(b):
        store(arith.ExtSIOp(b.args[0], IntegerType(64)).result, b.args[1], index(0))
        store(arith.ExtUIOp(b.args[0], IntegerType(64)).result, b.args[1], index(1))
        store(arith.TruncIOp(b.args[0], IntegerType(5)).result, b.args[2], index(0))
        store(arith.TruncIOp(b.args[0], IntegerType(1)).result, b.args[3], index(0))
        func.ReturnOp()
    m = compile_cpu(design(f))
    wide, narrow, flag = np.zeros(2, np.int64), np.zeros(1, np.int8), np.zeros(1, np.bool_)
    for a in edge_values(int_(12)):
        m(a, wide, narrow, flag)
        assert wide.tolist() == [a, as_unsigned(a, 12)]
        assert narrow[0] == as_signed(a, 5)
        assert bool(flag[0]) == bool(a & 1)


# -- return values and scalar parameters in container types -------------------------------


@pytest.mark.parametrize("t", [int_(12), uint_(3), bool_, int_(1), uint8, int64, uint_(64)])
def test_return_value_is_wrapped_into_its_type(t):
    """ret = a + b in type t; odd widths cross the C boundary in their container type."""
    f, b = kernel_func("add", [("a", t), ("b", t)], t)
    with ImplicitBuilder(b):
        slot = scalar_slot(t.width)
        store(arith.AddiOp(b.args[0], b.args[1]).result, slot)
        returning(slot)
    m = compile_cpu(design(f))
    for a in edge_values(t):
        for bb in edge_values(t)[:5]:
            got = m(a, bb)
            assert isinstance(got, int) and got == t.wrap(a + bb), (a, bb)
    # arguments outside the type wrap as an assignment would
    assert m(t.max + 1, 0) == t.wrap(t.max + 1)


# -- array storage ----------------------------------------------------------------------


@pytest.mark.parametrize("t", [int16, uint8, bool_, int_(12), uint_(3), int_(33)])
def test_array_storage_matches_numpy(t):
    """dst[i] = src[i] + c1 - c2: loads truncate, stores extend as numpy stores the type."""
    n = 8
    c1, c2 = t.wrap(1), t.wrap(2)
    f, b = kernel_func("inc", [("src", t[n]), ("dst", t[n])])
    with ImplicitBuilder(b):

        def body(i):
            v = affine.LoadOp(b.args[0], [i]).result
            v = arith.AddiOp(v, const(c1, t.width)).result
            v = arith.SubiOp(v, const(c2, t.width)).result
            affine.StoreOp(v, b.args[1], [i])

        affine_for(0, n, body)
        func.ReturnOp()
    m = compile_cpu(design(f))
    values = edge_values(t)
    src = np.array([t.wrap(values[i % len(values)]) for i in range(n)], dtype=t.dtype)
    dst = np.zeros(n, dtype=t.dtype)
    m(src, dst)
    assert dst.tolist() == [t.wrap(int(v) + c1 - c2) for v in src.tolist()]


def test_multidimensional_arrays_are_row_major():
    f, b = kernel_func("fill", [("A", int32[3, 4, 5])])
    with ImplicitBuilder(b):

        def level_i(i):
            def level_j(j):
                def level_k(k):
                    # A[i, j, k] = 100*i + 10*j + k, via affine.apply
                    v = affine.ApplyOp([i, j, k], affine_map(3, 0, d0 * 100 + d1 * 10 + AffineExpr.dimension(2))).result
                    affine.StoreOp(arith.IndexCastOp(v, IntegerType(32)).result, b.args[0], [i, j, k])

                affine_for(0, 5, level_k)

            affine_for(0, 4, level_j)

        affine_for(0, 3, level_i)
        func.ReturnOp()
    m = compile_cpu(design(f))
    A = np.zeros((3, 4, 5), np.int32)
    m(A)
    i, j, k = np.indices(A.shape)
    assert (A == 100 * i + 10 * j + k).all()


# -- loops and control flow ------------------------------------------------------------


def test_affine_loops_with_symbols_and_triangular_bounds():
    """total = sum over i in [lo, n) of sum over j in [0, i+1) of A[i, j] (triangle)."""
    n = 9
    f, b = kernel_func("tri", [("A", int32[n, n]), ("lo", int32), ("hi", int32)], int32)
    with ImplicitBuilder(b):
        total = scalar_slot(32)
        store(const(0, 32), total)
        lo = arith.IndexCastOp(b.args[1], IndexType()).result
        hi = arith.IndexCastOp(b.args[2], IndexType()).result

        def row(i):
            def col(j):
                v = affine.LoadOp(b.args[0], [i, j]).result
                store(arith.AddiOp(load(total), v).result, total)

            affine_for(0, affine_map(1, 0, d0 + 1), col, upper_ops=[i])

        affine_for(affine_map(0, 1, s0), affine_map(0, 1, s0), row, lower_ops=[lo], upper_ops=[hi])
        returning(total)
    m = compile_cpu(design(f))
    A = np.random.default_rng(1).integers(-1000, 1000, size=(n, n)).astype(np.int32)
    for lo_v, hi_v in [(0, n), (3, 7), (5, 5), (6, 2)]:
        expected = sum(int(A[i, j]) for i in range(lo_v, hi_v) for j in range(i + 1))
        assert m(A, lo_v, hi_v) == expected


def test_affine_maps_floor_semantics_and_min_bounds():
    """mod / floordiv / ceildiv of negative values, and a two-result (min) upper bound."""
    f, b = kernel_func("maps", [("out", int32[4, 12]), ("cap", int32)])
    with ImplicitBuilder(b):
        cap = arith.IndexCastOp(b.args[1], IndexType()).result

        def body(i):
            exprs = [(d0 - 5) % 4, (d0 - 5) // 3, (d0 - 5).ceil_div(3), d0 * 2 - 7]
            for r, e in enumerate(exprs):
                v = affine.ApplyOp([i], affine_map(1, 0, e)).result
                affine.StoreOp(arith.IndexCastOp(v, IntegerType(32)).result, b.args[0], [index(r), i])

        affine_for(0, affine_map(0, 1, AffineExpr.constant(12), s0), body, upper_ops=[cap])
        func.ReturnOp()
    m = compile_cpu(design(f))
    for cap_v in (12, 7, 0):
        out = np.full((4, 12), 99, np.int32)
        m(out, cap_v)
        for i in range(12):
            expected = [(i - 5) % 4, (i - 5) // 3, -((5 - i) // 3), 2 * i - 7] if i < cap_v else [99] * 4
            assert out[:, i].tolist() == expected, (cap_v, i)


def test_affine_load_with_symbol_operands():
    """B[i] = A[i + s] where s is a symbol of the load's map."""
    f, b = kernel_func("shift", [("A", int32[16]), ("B", int32[8]), ("s", int32)])
    with ImplicitBuilder(b):
        s = arith.IndexCastOp(b.args[2], IndexType()).result

        def body(i):
            v = affine.LoadOp(b.args[0], [i, s], affine_map(1, 1, d0 + s0)).result
            affine.StoreOp(v, b.args[1], [i])

        affine_for(0, 8, body)
        func.ReturnOp()
    m = compile_cpu(design(f))
    A = np.arange(100, 116, dtype=np.int32)
    B = np.zeros(8, np.int32)
    m(A, B, 5)
    assert B.tolist() == list(range(105, 113))


@pytest.mark.parametrize("iv_width", [32, 64])
def test_scf_for_with_data_dependent_bounds(iv_width):
    """acc = sum of A[i] for i in range(bounds[0], bounds[1], 3), loop variable i32 or i64."""
    f, b = kernel_func("ranged", [("A", int32[20]), ("bounds", int32[2])], int32)
    with ImplicitBuilder(b):
        acc = scalar_slot(32)
        store(const(0, 32), acc)
        lo, hi = load(b.args[1], index(0)), load(b.args[1], index(1))
        if iv_width == 64:
            lo = arith.ExtSIOp(lo, IntegerType(64)).result
            hi = arith.ExtSIOp(hi, IntegerType(64)).result

        def body(i):
            v = load(b.args[0], arith.IndexCastOp(i, IndexType()).result)
            store(arith.AddiOp(load(acc), v).result, acc)

        scf_for(lo, hi, const(3, iv_width), body)
        returning(acc)
    m = compile_cpu(design(f))
    A = np.arange(1, 21, dtype=np.int32) * 7
    for lo_v, hi_v in [(0, 20), (2, 19), (10, 3), (19, 20)]:
        assert m(A, np.array([lo_v, hi_v], np.int32)) == sum(int(A[i]) for i in range(lo_v, hi_v, 3))


def test_scf_while_and_if():
    """Collatz: steps until x == 1 (x > 0), with scf.if/else in the body."""
    f, b = kernel_func("collatz", [("x0", uint_(40))], int32)
    with ImplicitBuilder(b):
        x = scalar_slot(40)
        steps = scalar_slot(32)
        store(b.args[0], x)
        store(const(0, 32), steps)

        def cond():
            return arith.CmpiOp(load(x), const(1, 40), "ne").result

        def body():
            v = load(x)
            odd = arith.CmpiOp(arith.AndIOp(v, const(1, 40)).result, const(0, 40), "ne").result
            scf_if(
                odd,
                lambda: store(arith.AddiOp(arith.MuliOp(v, const(3, 40)).result, const(1, 40)).result, x),
                lambda: store(arith.ShRUIOp(v, const(1, 40)).result, x),
            )
            store(arith.AddiOp(load(steps), const(1, 32)).result, steps)

        scf_while(cond, body)
        returning(steps)
    m = compile_cpu(design(f))

    def collatz(x):
        n = 0
        while x != 1:
            x = 3 * x + 1 if x & 1 else x >> 1
            n += 1
        return n

    for x in [1, 2, 3, 7, 27, 97, 871, 77031]:
        assert m(x) == collatz(x)


def test_scf_if_without_else_and_nested_in_loop():
    """B[i] = A[i] if A[i] > t else unchanged; counts how many were taken."""
    f, b = kernel_func("clip", [("A", int_(12)[10]), ("B", int_(12)[10]), ("t", int_(12))], uint_(4))
    with ImplicitBuilder(b):
        taken = scalar_slot(4)
        store(const(0, 4), taken)

        def body(i):
            v = affine.LoadOp(b.args[0], [i]).result

            def then():
                affine.StoreOp(v, b.args[1], [i])
                store(arith.AddiOp(load(taken), const(1, 4)).result, taken)

            scf_if(arith.CmpiOp(v, b.args[2], "sgt").result, then)

        affine_for(0, 10, body)
        returning(taken)
    m = compile_cpu(design(f))
    A = np.array([-2048, -5, 0, 3, 2047, 100, -100, 7, 8, 9], np.int16)
    B = np.full(10, 11, np.int16)
    assert m(A, B, 5) == sum(1 for v in A if v > 5) % 16
    assert B.tolist() == [int(v) if v > 5 else 11 for v in A]


# -- calls -------------------------------------------------------------------------------


def test_func_call_with_arrays_scalars_and_result():
    """top: for i: out[i] = axpy_one(x, i, a) where the callee reads x[i] and returns a*x[i] + 1."""
    callee, cb = kernel_func("axpy_one", [("x", int_(12)[6]), ("i", int32), ("a", int_(12))], int_(12))
    with ImplicitBuilder(cb):
        r = scalar_slot(12)
        v = load(cb.args[0], arith.IndexCastOp(cb.args[1], IndexType()).result)
        store(arith.AddiOp(arith.MuliOp(cb.args[2], v).result, const(1, 12)).result, r)
        returning(r)
    top, tb = kernel_func("top", [("x", int_(12)[6]), ("out", int_(12)[6]), ("a", int_(12))])
    with ImplicitBuilder(tb):

        def body(i):
            i32 = arith.IndexCastOp(i, IntegerType(32)).result
            value = func.CallOp("axpy_one", [tb.args[0], i32, tb.args[2]], [IntegerType(12)]).res[0]
            affine.StoreOp(value, tb.args[1], [i])

        affine_for(0, 6, body)
        func.ReturnOp()
    m = compile_cpu(design(callee, top))
    x = np.array([-2048, -1, 0, 1, 1000, 2047], np.int16)
    out = np.zeros(6, np.int16)
    m(x, out, -3)
    assert out.tolist() == [int_(12).wrap(-3 * int(v) + 1) for v in x]


# -- the driver ----------------------------------------------------------------------------


def _sum_kernel() -> ModuleOp:
    f, b = kernel_func("total", [("A", int32[64])], int64)
    with ImplicitBuilder(b):
        acc = scalar_slot(64)
        store(const(0, 64), acc)

        def body(i):
            v = arith.ExtSIOp(affine.LoadOp(b.args[0], [i]).result, IntegerType(64)).result
            store(arith.AddiOp(load(acc), v).result, acc)

        affine_for(0, 64, body)
        returning(acc)
    return design(f)


def test_compile_does_not_modify_module_and_repeats():
    module = _sum_kernel()
    before = str(module)
    A = np.arange(-32, 32, dtype=np.int32) * 1000
    results = [compile_cpu(module, opt_level=level)(A) for level in (3, 0, 2, 3)]
    assert str(module) == before
    assert results == [int(A.astype(np.int64).sum())] * 4


def test_llvm_ir_and_object_code():
    m = compile_cpu(_sum_kernel())
    assert re.search(r"define .*@total\(ptr", m.llvm_ir)
    assert "<8 x i32>" in m.llvm_ir or "<4 x i32>" in m.llvm_ir or "vector" in m.llvm_ir  # vectorised
    assert m.signature.name == "total"


def test_object_code_links_and_runs():
    """Load the relocatable object into a fresh MCJIT engine and call `total` through C."""
    import ctypes

    import llvmlite.binding as llvm_binding

    obj = compile_cpu(_sum_kernel()).object_code()
    assert obj[:4] == b"\x7fELF"
    machine = llvm_binding.Target.from_default_triple().create_target_machine(jit=True)
    engine = llvm_binding.create_mcjit_compiler(llvm_binding.parse_assembly(""), machine)
    engine.add_object_file(llvm_binding.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    total = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(engine.get_function_address("total"))
    A = np.arange(64, dtype=np.int32) * -70001
    assert total(A.ctypes.data) == int(A.astype(np.int64).sum())


def test_arguments_are_checked():
    m = compile_cpu(_sum_kernel())
    with pytest.raises(KernelArgumentError):
        m(np.zeros(64, np.int64))
    with pytest.raises(KernelArgumentError):
        m(np.zeros(63, np.int32))
    with pytest.raises(KernelArgumentError):
        m()
    with pytest.raises(KernelArgumentError):
        m(np.zeros(128, np.int32)[::2])


def test_unsupported_op_is_named():
    f, b = kernel_func("bad", [("a", int32)], int32)
    with ImplicitBuilder(b):
        v = arith.FloorDivSIOp(b.args[0], const(3, 32)).result
        func.ReturnOp(v)
    with pytest.raises(CpuError, match="arith.floordivsi"):
        compile_cpu(design(f))


def test_bad_opt_level():
    with pytest.raises(ValueError):
        compile_cpu(_sum_kernel(), opt_level=5)


def test_unsupported_op_error_carries_source_location():
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr

    f, b = kernel_func("bad", [("a", int32)], int32)
    with ImplicitBuilder(b):
        op = arith.CeilDivSIOp(b.args[0], const(3, 32))
        op.location = FileLineColLoc(StringAttr("k.py"), IntAttr(7), IntAttr(5))
        func.ReturnOp(op.result)
    with pytest.raises(CpuError) as info:
        compile_cpu(design(f))
    assert str(info.value).startswith("k.py:7:5: error:") and "arith.ceildivsi" in str(info.value)


@pytest.mark.parametrize("n", [16, 200_000])  # on the stack / from the heap
def test_local_arrays(n):
    """buf[i] = A[i % 16] * i; out = sum(buf) as int32, twice (locals start afresh each call)."""
    f, b = kernel_func("local", [("A", int32[16])], int32)
    with ImplicitBuilder(b):
        buf = memref.AllocaOp.get(IntegerType(32), shape=[n]).memref
        acc = scalar_slot(32)
        store(const(0, 32), acc)

        def fill(i):
            v = affine.LoadOp(b.args[0], [i], affine_map(1, 0, d0 % 16)).result
            iv = arith.IndexCastOp(i, IntegerType(32)).result
            affine.StoreOp(arith.MuliOp(v, iv).result, buf, [i])

        def add(i):
            store(arith.AddiOp(load(acc), affine.LoadOp(buf, [i]).result).result, acc)

        affine_for(0, n, fill)
        affine_for(0, n, add)
        returning(acc)
    m = compile_cpu(design(f))
    assert ("@malloc" in m.llvm_ir) == (n * 4 > 64 * 1024)
    A = np.arange(-8, 8, dtype=np.int32) * 12345
    expected = int32.wrap(sum(int(A[i % 16]) * i for i in range(n)))
    assert m(A) == expected and m(A) == expected


def test_aliased_array_arguments_follow_sequential_semantics():
    """dst[i + 1] = src[i] + 1 called with dst and src the same array: a running count."""
    n = 64
    f, b = kernel_func("shift_inc", [("src", int32[n]), ("dst", int32[n])])
    with ImplicitBuilder(b):

        def body(i):
            v = affine.LoadOp(b.args[0], [i]).result
            affine.StoreOp(arith.AddiOp(v, const(1, 32)).result, b.args[1], [i], affine_map(1, 0, d0 + 1))

        affine_for(0, n - 1, body)
        func.ReturnOp()
    m = compile_cpu(design(f))
    a = np.zeros(n, np.int32)
    m(a, a)
    assert a.tolist() == list(range(n))


@pytest.mark.parametrize("width", [32, 64])
def test_scf_for_ends_like_range_near_the_type_maximum(width):
    """count iterations of range(lo, hi, 3) with hi near the maximum: no wrap-around."""
    t = int_(width)
    f, b = kernel_func("count", [("lo", t), ("hi", t)], int32)
    with ImplicitBuilder(b):
        n = scalar_slot(32)
        store(const(0, 32), n)
        scf_for(b.args[0], b.args[1], const(3, width), lambda i: store(arith.AddiOp(load(n), const(1, 32)).result, n))
        returning(n)
    m = compile_cpu(design(f))
    for lo, hi in [(t.max - 7, t.max), (t.max - 2, t.max), (t.max - 1, t.max), (t.min, t.min + 10), (5, -5), (t.max, t.max)]:
        assert m(lo, hi) == len(range(lo, hi, 3)), (lo, hi)


def test_foreign_dialect_op_is_refused_by_name():
    from xdsl.dialects import test

    f, b = kernel_func("foreign", [("a", int32)])
    with ImplicitBuilder(b):
        test.TestOp(operands=[b.args[0]])
        func.ReturnOp()
    with pytest.raises(CpuError, match="test.op"):
        compile_cpu(design(f))


def test_kernel_named_like_a_c_library_function():
    """A callee called `abs` that is not abs: LLVM must not treat it as the C library's."""
    callee, cb = kernel_func("abs", [("x", int32)], int32)
    with ImplicitBuilder(cb):
        r = scalar_slot(32)
        store(arith.AddiOp(cb.args[0], const(1, 32)).result, r)
        returning(r)
    top, tb = kernel_func("labs", [("x", int32)], int32)
    with ImplicitBuilder(tb):
        r = scalar_slot(32)
        store(func.CallOp("abs", [tb.args[0]], [IntegerType(32)]).res[0], r)
        returning(r)
    m = compile_cpu(design(callee, top))
    assert [m(v) for v in (-5, 0, int32.max)] == [-4, 1, int32.min]
