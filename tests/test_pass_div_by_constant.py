"""Division and remainder by a constant without a divider (transforms/fpga/div_by_constant.py).

- the arithmetic: a function ``n -> (n / d, n % d)`` in arith ops is rewritten by the pass
  and evaluated by a small interpreter with the exact wrap semantics of the IR ops, against
  Python's integers: exhaustively at 8 bits (every dividend, every divisor, signed and
  unsigned), on random and edge values at 16, 32 and 64 bits and odd widths;
- the IR: which divisions are replaced, the multiply goes to the pipelined multiplier,
  no type wider than 64 bits, the dividers that stay (64-bit dividends by 3);
- end to end: kernels dividing by 3, 7, -5, 10 and 641 in int8/uint16/int32/uint32/int64,
  one of them pipelined, simulated Python = CPU = RTL in one build.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Region

from e2e import assert_outcome, run_batch, schedule_of, Scheduled
from vichls import int8, int32, int64, kernel, uint16, uint32
from vichls.transforms.fpga.div_by_constant import div_by_constant, magic_number, signed_digits
from vichls.scheduling.list_schedule import op_kind

_DIV = {True: (arith.DivSIOp, arith.RemSIOp), False: (arith.DivUIOp, arith.RemUIOp)}
_DIVISIONS = (*_DIV[True], *_DIV[False])


# -- building and evaluating one division ------------------------------------------------


def division_function(width: int, divisor: int, signed: bool, which: str = "qr") -> ModuleOp:
    """func @f(%n: iW) -> results of (n / d, n % d) (or one of them), d constant."""
    ty = IntegerType(width)
    block = Block(arg_types=[ty])
    d = arith.ConstantOp(IntegerAttr(_signless(divisor, width), ty))
    block.add_op(d)
    results = []
    for kind, cls in zip("qr", _DIV[signed]):
        if kind in which:
            op = cls(block.args[0], d.result)
            block.add_op(op)
            results.append(op.results[0])
    block.add_op(func.ReturnOp(*results))
    f = func.FuncOp("f", ((ty,), (ty,) * len(results)), Region(block))
    return ModuleOp([f])


def floor_function(width: int, divisor: int, which: str = "qr") -> ModuleOp:
    """func @f(%n: iW) -> (n // d, n % d) as the front end emits a signed floor division by
    a constant (to_ir.py ``divmod_const``): truncating ops and a select on the remainder."""
    ty = IntegerType(width)
    block = Block(arg_types=[ty])
    n = block.args[0]

    def add(op):
        block.add_op(op)
        return op.results[0]

    def const(v):
        return add(arith.ConstantOp(IntegerAttr(_signless(v, width), ty)))

    d, zero, one = const(divisor), const(0), const(1)
    q = add(arith.DivSIOp(n, d))
    r = add(arith.RemSIOp(n, d))
    r_nz = add(arith.CmpiOp(r, zero, "ne"))
    wrong_sign = add(arith.CmpiOp(r, zero, "sgt" if divisor < 0 else "slt"))
    adjust = add(arith.AndIOp(r_nz, wrong_sign))
    results = []
    if "q" in which:
        results.append(add(arith.SelectOp(adjust, add(arith.SubiOp(q, one)), q)))
    if "r" in which:
        results.append(add(arith.SelectOp(adjust, add(arith.AddiOp(r, d)), r)))
    block.add_op(func.ReturnOp(*results))
    return ModuleOp([func.FuncOp("f", ((ty,), (ty,) * len(results)), Region(block))])


def check_floor(width: int, divisor: int, dividends: list[int], which: str = "qr") -> bool:
    """Rewrite and evaluate a floor division; True when no division and no select is left."""
    module = floor_function(width, divisor, which)
    div_by_constant(module)
    replaced = not any(isinstance(op, (*_DIV[True], arith.SelectOp)) for op in module.walk())
    n = np.array([x % (1 << width) for x in dividends], dtype=np.uint64)
    got = evaluate(module, n)
    for kind, g in zip(which, got):
        for x, value in zip(n, g):
            sx = _signless(int(x), width)
            want = (sx // divisor if kind == "q" else sx % divisor) % (1 << width)
            assert int(value) == want, (f"i{width} floor {kind} by {divisor}: n={sx} "
                                        f"got {_signless(int(value), width)}")
    return replaced


def _signless(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _mask(width: int) -> np.uint64:
    return np.uint64((1 << width) - 1)


def _signed(a: np.ndarray, width: int) -> np.ndarray:
    """Two's-complement reading of a ``width``-bit pattern (as int64; wraps like C)."""
    if width == 64:
        return a.view(np.int64)
    sign = np.uint64(1 << (width - 1))
    return (a ^ sign).astype(np.int64) - np.int64(1 << (width - 1))


def _width(value) -> int:
    return value.type.width.data


_CMP = {"eq": np.equal, "ne": np.not_equal, "ult": np.less, "ule": np.less_equal,
        "ugt": np.greater, "uge": np.greater_equal, "slt": np.less, "sle": np.less_equal,
        "sgt": np.greater, "sge": np.greater_equal}
_CMP_NAMES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def evaluate(module: ModuleOp, n: np.ndarray) -> list[np.ndarray]:
    """Run @f on every dividend bit pattern in ``n`` (uint64), with arith's semantics:
    every value wraps at its width; divisions truncate (never by 0 or MIN / -1 here)."""
    (f,) = module.ops
    block = f.body.blocks[0]
    env = {block.args[0]: n & _mask(_width(block.args[0]))}
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            return [env[v] for v in op.operands]
        get = [env[v] for v in op.operands]
        w = _width(op.results[0])
        m = _mask(w)
        if isinstance(op, arith.ConstantOp):
            out = np.full_like(n, np.uint64(op.value.value.data & ((1 << w) - 1)))
        elif isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.XOrIOp,
                             arith.AndIOp, arith.OrIOp)):
            fn = {arith.AddiOp: np.add, arith.SubiOp: np.subtract, arith.MuliOp: np.multiply,
                  arith.XOrIOp: np.bitwise_xor, arith.AndIOp: np.bitwise_and,
                  arith.OrIOp: np.bitwise_or}[type(op)]
            out = fn(get[0], get[1]) & m
        elif isinstance(op, (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)):
            assert (get[1] < w).all(), f"{op.name} by {get[1].max()} at width {w}"
            if isinstance(op, arith.ShLIOp):
                out = (get[0] << get[1]) & m
            elif isinstance(op, arith.ShRUIOp):
                out = get[0] >> get[1]
            else:
                out = (_signed(get[0], w) >> get[1].astype(np.int64)).astype(np.uint64) & m
        elif isinstance(op, arith.ExtUIOp):
            out = get[0]
        elif isinstance(op, arith.ExtSIOp):
            out = _signed(get[0], _width(op.operands[0])).astype(np.uint64) & m
        elif isinstance(op, arith.TruncIOp):
            out = get[0] & m
        elif isinstance(op, arith.CmpiOp):
            pred = _CMP_NAMES[op.predicate.value.data]
            a, b = get
            if pred.startswith("s"):
                a, b = _signed(a, _width(op.operands[0])), _signed(b, _width(op.operands[0]))
            out = _CMP[pred](a, b).astype(np.uint64)
        elif isinstance(op, arith.SelectOp):
            out = np.where(get[0] == 1, get[1], get[2])
        elif isinstance(op, (arith.DivSIOp, arith.RemSIOp)):
            qs, rs = expected(w, int(get[1][0]), True, [int(x) for x in get[0]])  # Python ints
            out = np.array(qs if isinstance(op, arith.DivSIOp) else rs, dtype=np.uint64)
        elif isinstance(op, (arith.DivUIOp, arith.RemUIOp)):
            fn = np.floor_divide if isinstance(op, arith.DivUIOp) else np.remainder
            out = fn(get[0], get[1])
        else:
            raise AssertionError(f"the evaluator has no rule for {op.name}")
        for v in op.operands:
            assert _width(v) <= 64
        env[op.results[0]] = out
    raise AssertionError("no return")


def expected(width: int, divisor: int, signed: bool, n: list[int]) -> tuple[list, list]:
    """Truncating quotient and remainder of each dividend pattern, wrapped to ``width``."""
    qs, rs = [], []
    d = _signless(divisor, width) if signed else divisor % (1 << width)
    for pattern in n:
        x = _signless(pattern, width) if signed else pattern
        q = abs(x) // abs(d) * (1 if (x < 0) == (d < 0) else -1)
        qs.append(q % (1 << width))
        rs.append((x - q * d) % (1 << width))
    return qs, rs


def check_division(width: int, divisor: int, signed: bool, dividends: list[int],
                   which: str = "qr") -> bool:
    """Rewrite and evaluate; True when the pass removed the division(s)."""
    module = division_function(width, divisor, signed, which)
    div_by_constant(module)
    replaced = not any(isinstance(op, (*_DIV[True], *_DIV[False])) for op in module.walk())
    n = np.array([x % (1 << width) for x in dividends], dtype=np.uint64)
    got = evaluate(module, n)
    qs, rs = expected(width, divisor, signed, [int(x) for x in n])
    want = [qs if kind == "q" else rs for kind in which]
    for kind, g, e in zip(which, got, want):
        bad = [(int(x), int(a), b) for x, a, b in zip(n, g, e) if int(a) != b]
        assert not bad, (f"i{width} {'signed' if signed else 'unsigned'} {kind} by "
                         f"{divisor}: (n, got, want) {bad[:5]}")
    return replaced


# -- the arithmetic ----------------------------------------------------------------------


@pytest.mark.parametrize("signed", [True, False])
def test_every_8bit_dividend_and_divisor(signed):
    every = list(range(256))
    replaced = 0
    for d in range(1, 256) if not signed else range(-128, 128):
        if d == 0:
            continue
        dividends = [x for x in every if not (signed and d == -1 and x == 128)]  # MIN / -1
        replaced += check_division(8, d, signed, dividends)
        check_division(8, d, signed, dividends, "q")
        check_division(8, d, signed, dividends, "r")
    assert replaced >= 250  # the rule keeps nothing at 8 bits but a few corner cases


def test_every_8bit_floor_division():
    every = list(range(256))
    replaced = 0
    for d in range(-128, 128):
        if d in (0, -1, 1) or (d > 0 and d & (d - 1) == 0):
            continue  # the front end emits no division for these
        replaced += check_floor(8, d, every)
        replaced += check_floor(8, d, every, "q")
        replaced += check_floor(8, d, every, "r")
    assert replaced == 3 * (256 - 9)  # all but 0, 1, -1 and the powers of two 2..64


def _dividends(width: int, d: int, rng: random.Random, count: int) -> list[int]:
    top = 1 << width
    edges = [0, 1, 2, top - 1, top - 2, top >> 1, (top >> 1) - 1, (top >> 1) + 1]
    ad = abs(d)
    for k in (1, 2, 3, (top >> 1) // max(ad, 1), top // max(ad, 1)):
        edges += [k * ad - 1, k * ad, k * ad + 1, -k * ad - 1, -k * ad, -k * ad + 1]
    return [x % top for x in edges] + [rng.randrange(top) for _ in range(count)]


def _divisors(width: int, rng: random.Random) -> list[int]:
    top = 1 << width
    fixed = [3, 5, 6, 7, 9, 10, 11, 12, 25, 100, 641, 1000, 3 << 10, (top >> 1) - 1,
             (top >> 1) + 1, (top >> 2) + 1, (top >> 2) - 1, top - 3, top // 3, top // 7]
    rand = [rng.randrange(2, top) for _ in range(12)] + [rng.randrange(2, 1 << 12) for _ in range(12)]
    return sorted({d % top for d in fixed + rand} - {0, 1})


@pytest.mark.parametrize("width", [16, 32, 64, 12, 31, 33, 48])
def test_random_dividends_and_divisors(width):
    rng = random.Random(width)
    replaced = 0
    for d in _divisors(width, rng):
        dividends = _dividends(width, d, rng, 300)
        replaced += check_division(width, d, False, dividends)
        sd = _signless(d, width)
        signed_dividends = [x for x in dividends if not (sd == -1 and x == 1 << (width - 1))]
        replaced += check_division(width, sd, True, signed_dividends)
        replaced += check_division(width, -sd, True, signed_dividends) if sd != -(1 << (width - 1)) else 0
    if width <= 32:
        assert replaced >= 3 * len(_divisors(width, random.Random(width))) - 2


@pytest.mark.parametrize("width", [16, 32, 64, 12, 33])
def test_random_floor_divisions(width):
    rng = random.Random(width + 1000)
    for d in _divisors(width, rng):
        sd = _signless(d, width)
        for divisor in {sd, -sd} - {0, 1, -1, -(1 << (width - 1))}:
            if divisor > 0 and divisor & (divisor - 1) == 0:
                continue
            replaced = check_floor(width, divisor, _dividends(width, divisor, rng, 200))
            assert replaced or width > 32


def test_magic_number_is_exact_and_smallest():
    for nmax in (1, 2, 7, 100, 255, 1000):
        for d in range(1, 40):
            s, m = magic_number(d, nmax)
            assert all((n * m) >> s == n // d for n in range(nmax + 1)), (d, nmax)
            if s > 0:  # one bit less fails somewhere
                m1 = -(-(1 << (s - 1)) // d)
                assert any((n * m1) >> (s - 1) != n // d for n in range(nmax + 1)), (d, nmax)


def test_signed_digits():
    for v in list(range(-300, 300)) + [641, 2**40 - 1]:
        digits = signed_digits(v)
        assert sum(sign << shift for sign, shift in digits) == v
        shifts = [shift for _, shift in digits]
        assert all(b - a >= 2 for a, b in zip(shifts, shifts[1:])), v  # non-adjacent
    assert len(signed_digits(7)) == 2 and len(signed_digits(641)) == 3


# -- the IR ------------------------------------------------------------------------------


def _ops(module, cls):
    return [op for op in module.walk() if isinstance(op, cls)]


def test_uint32_by_7_multiplies_16bit_limbs_one_dsp_block_each():
    module = division_function(32, 7, False)
    div_by_constant(module)
    assert not _ops(module, (arith.DivUIOp, arith.RemUIOp))
    muls = _ops(module, arith.MuliOp)  # the remainder's 7 * q is (q << 3) - q
    assert len(muls) == 4  # 32-bit dividend x the 32 low bits of the 33-bit magic number
    for mul in muls:
        assert op_kind(mul) == "mul" and mul.results[0].type == IntegerType(32)
        for operand in mul.operands:  # zero-extended 16-bit limbs
            assert isinstance(operand.owner, arith.ExtUIOp) and _width(operand.owner.operands[0]) <= 16
    assert all(_width(r) <= 64 for op in module.walk() for r in op.results
               if isinstance(r.type, IntegerType))


def test_int32_quotient_and_remainder_share_the_multiplies():
    both, quotient = division_function(32, -5, True), division_function(32, -5, True, "q")
    div_by_constant(both)
    div_by_constant(quotient)
    assert not _ops(both, (arith.DivSIOp, arith.RemSIOp))
    assert len(_ops(both, arith.MuliOp)) == len(_ops(quotient, arith.MuliOp)) > 0


def test_divisor_of_many_digits_multiplies_for_the_remainder():
    module = division_function(16, 0x5B6D, False, "r")
    div_by_constant(module)
    muls = _ops(module, arith.MuliOp)
    assert len(muls) == 2 and all(op_kind(m) == "mul" for m in muls)


@pytest.mark.parametrize("width,signed", [(64, True), (64, False), (40, True)])
def test_wide_dividends_keep_the_divider(width, signed):
    module = division_function(width, 3, signed)
    div_by_constant(module)
    assert len(_ops(module, _DIV[signed])) == 2
    assert not _ops(module, arith.MuliOp)


def test_wide_dividends_by_large_divisors_compare():
    module = division_function(64, (1 << 63) + 12345, False, "q")
    div_by_constant(module)
    assert not _ops(module, arith.DivUIOp) and _ops(module, arith.CmpiOp)


def test_variable_divisor_is_left_alone():
    ty = IntegerType(32)
    block = Block(arg_types=[ty, ty])
    op = arith.DivSIOp(block.args[0], block.args[1])
    block.add_ops([op, func.ReturnOp(op.results[0])])
    module = ModuleOp([func.FuncOp("f", ((ty, ty), (ty,)), Region(block))])
    div_by_constant(module)
    assert _ops(module, arith.DivSIOp)


@kernel
def stencil3(A: int32[10], B: int32[10]):
    for i in range(1, 9):
        B[i] = (A[i - 1] + A[i] + A[i + 1]) // 3


def test_kernel_ir_after_preparation_has_no_divider():
    from vichls.driver.fpga import compile_fpga, prepare

    module = stencil3.module()
    assert _ops(module, arith.DivSIOp)  # the front end's division...
    prepare(module, 10.0)
    assert not _ops(module, (arith.DivSIOp, arith.RemSIOp))  # ... gone in preparation,
    assert not [op for op in _ops(module, arith.SelectOp)  # with the floor adjustment
                if isinstance(op.results[0].type, IntegerType)]
    assert "vichls_div" not in compile_fpga(stencil3.module()).verilog


# -- end to end --------------------------------------------------------------------------


@kernel
def divide_int8(a: int8[16], q: int8[16], r: int8[16]):
    for i in range(16):
        q[i] = a[i] // 3 + a[i] // -5
        r[i] = a[i] % 7 - a[i] % 10


@kernel
def divide_uint16(a: uint16[16], q: uint16[16], r: uint16[16]):
    for i in range(16):
        q[i] = a[i] // 641 + a[i] // 7
        r[i] = a[i] % 10 + a[i] % 3


@kernel
def divide_int32(a: int32[16], q: int32[16], r: int32[16]) -> int32:
    total: int32 = 0
    for i in range(16):
        q[i] = a[i] // -5 + a[i] // 641
        r[i] = a[i] % 3
        total += a[i] // 7 - a[i] % 10
    return total


@kernel
def divide_uint32(a: uint32[16], q: uint32[16], r: uint32[16]):
    for i in range(16):
        q[i] = a[i] // 7 + a[i] // 10
        r[i] = a[i] % 641 + a[i] % 3


@kernel
def divide_int64(a: int64[8], q: int64[8], r: int64[8]):
    for i in range(8):
        q[i] = a[i] // 3 + a[i] // -5
        r[i] = a[i] % 641


@kernel
def stencil_pipelined(a: int32[18], b: int32[16], c: uint16[16]):
    for i in range(16):
        b[i] = (a[i] + a[i + 1]) // 3 - a[i + 1] % -5
        c[i] = uint16(a[i]) // 10


@kernel
def rolled_over_banks(a: int32[20], b: int32[20]):
    for i in range(20):  # rolled: the bank is i % 5 and the offset i // 5, on index
        b[i] = a[i] * 3 + i // 3 - i % 7  # non-negative dividends: unsigned, narrow


ROLLED_OVER_BANKS = (("partition", "a", {"dim": 1, "factor": 5}),
                     ("partition", "b", {"dim": 1, "factor": 5}))


def test_ranged_and_index_dividends_need_no_divider():
    """The dividends are loop counters (0..19): their divisions by constants, the bank
    arithmetic of the partitioned arrays on ``index`` included, become narrow products
    and shifts, with no floor adjustment left."""
    from vichls.driver.fpga import compile_fpga, prepare

    module = schedule_of(rolled_over_banks, *ROLLED_OVER_BANKS).module()
    prepare(module, 10.0)
    assert not _ops(module, _DIVISIONS)
    # the selects left pick a bank's read or guard a prefetch: no floor adjustment
    assert not [op for op in _ops(module, arith.SelectOp) if isinstance(op.cond.owner, arith.AndIOp)]
    design = compile_fpga(schedule_of(rolled_over_banks, *ROLLED_OVER_BANKS).module())
    assert "vichls_div" not in design.verilog


def _arrays(rng: np.random.Generator, dtype, shapes: list[int]) -> list[np.ndarray]:
    info = np.iinfo(dtype)
    out = []
    for n in shapes:
        a = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        a[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
        out.append(a)
    return out


def _calls(dtype, shape: int, seeds=(1, 2)):
    calls = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        (a,) = _arrays(rng, dtype, [shape])
        zeros = np.zeros(16, dtype=dtype)
        calls.append((a, zeros.copy(), zeros.copy()))
    return calls


def _int64_calls():
    calls = []
    for seed in (1, 2):
        (a,) = _arrays(np.random.default_rng(seed), np.int64, [8])
        calls.append((a, np.zeros(8, np.int64), np.zeros(8, np.int64)))
    return calls


def _pipelined_calls():
    calls = []
    for seed in (1, 2):
        (a,) = _arrays(np.random.default_rng(seed), np.int32, [18])
        a[4:8] //= 4  # sums that do not all wrap
        calls.append((a, np.zeros(16, np.int32), np.zeros(16, np.uint16)))
    return calls


@pytest.fixture(scope="module")
def outcomes():
    pipelined = Scheduled(schedule_of(stencil_pipelined, ("pipeline", "i")))
    return run_batch([
        ("int8", divide_int8, _calls(np.int8, 16)),
        ("uint16", divide_uint16, _calls(np.uint16, 16)),
        ("int32", divide_int32, _calls(np.int32, 16)),
        ("uint32", divide_uint32, _calls(np.uint32, 16)),
        ("int64", divide_int64, _int64_calls()),
        ("pipelined", pipelined, _pipelined_calls()),
        ("rolled_over_banks", Scheduled(schedule_of(rolled_over_banks, *ROLLED_OVER_BANKS)),
         [(np.arange(20, dtype=np.int32) * 7919 - 50000, np.zeros(20, np.int32))]),
    ])


@pytest.mark.parametrize("name", ["int8", "uint16", "int32", "uint32", "int64", "pipelined",
                                  "rolled_over_banks"])
def test_python_equals_cpu_equals_rtl(outcomes, name):
    assert_outcome(outcomes[name])


def test_pipelined_division_by_constants_runs_at_one_iteration_per_cycle(outcomes):
    from vichls.driver.fpga import compile_fpga

    design = compile_fpga(schedule_of(stencil_pipelined, ("pipeline", "i")).module())
    assert "vichls_div" not in design.verilog and _products(design.verilog)
    (loop,) = design.report["loops"]
    assert loop["ii"] == 1 and loop["depth"] <= 8, loop  # a pipelined divider: 33 stages
    (cycles,) = set(outcomes["pipelined"].cycles)
    assert cycles <= 16 + loop["depth"] + 2, cycles


@pytest.mark.parametrize("kernel_,unit", [
    # 8- and 16-bit dividends: products of at most 18 bits, each one combinational DSP;
    # 32-bit ones: 16-bit limb products, combinational too, and 32-bit pipelined ones
    (divide_int8, "mul"), (divide_uint16, "mul"), (divide_int32, "mul"), (divide_uint32, "mul"),
    (divide_int64, "vichls_div"),  # the product would be wider than 64 bits
])
def test_the_units_of_the_end_to_end_kernels(kernel_, unit):
    from vichls.driver.fpga import compile_fpga

    verilog = compile_fpga(kernel_.module()).verilog
    assert ("vichls_div" in verilog) == (unit == "vichls_div")
    assert bool(_products(verilog)) == (unit == "mul")


def _products(verilog: str) -> list[str]:
    """The multipliers by a variable of a design: pipelined cells, or products in the
    datapath (16-bit limbs multiply combinationally in one DSP on the xc7)."""
    return re.findall(r"vichls_mul\w* #|\w \* (?:\w+|\d+'d\d+);", verilog)
