"""If-conversion of register updates (transforms/fpga/if_convert_scalars.py) and the store
forwarding into branches that uses it (transforms/fpga/forward_scalar_stores.py).

- the IR: which ifs become selects (pipelined bodies; a ``while`` condition, with its
  array loads speculated only where every address is in range; elsewhere only when the
  code after the if reads the register back: tests/filecheck/if_convert_scalars*.mlir),
  and which stay;
- end to end: short-circuit ``while`` conditions and conditional updates read back, the
  KMP shape with pow2 and other pattern lengths, elements read again after the loop,
  simulate Python = CPU = RTL, and the
  matcher's loop takes fewer cycles per character than before the conversion (with
  transforms/fpga/forward_while_exit_loads, which these kernels exercise end to end too).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from ir_text import ops_named, parse

from e2e import assert_outcome, run_batch
from vichls import int32, kernel
from vichls.frontend.kernel import load_source
from vichls.transforms.fpga.forward_scalar_stores import forward_scalar_stores
from vichls.transforms.fpga.if_convert_scalars import if_convert_scalars

def _condition_loop(params: str, branches: list[str]) -> str:
    """A ``while`` loop counting k down, whose condition is ``k > 0 and b`` for each
    branch ``b`` (the front end's shape: a flag register written under ``if k > 0``),
    with ``%v`` = k and ``%i`` = k as an index inside each branch."""
    flags = [f"%flag{n}" for n in range(len(branches))]
    condition = []
    for flag, branch in zip(flags, branches):
        condition += [f"memref.store %pos, {flag}[] : memref<i1>", "scf.if %pos {",
                      "  %i = arith.index_cast %v : i32 to index", *branch.strip().splitlines(),
                      f"  memref.store %ne, {flag}[] : memref<i1>", "}"]
    condition += [f"%f{n} = memref.load {flag}[] : memref<i1>" for n, flag in enumerate(flags)]
    test = "%f0"
    for n in range(1, len(flags)):
        condition.append(f"%both{n} = arith.andi {test}, %f{n} : i1")
        test = f"%both{n}"
    return "\n".join([
        "builtin.module {", f"func.func @f({params}) {{",
        "%k = memref.alloca() : memref<i32>",
        *(f"{flag} = memref.alloca() : memref<i1>" for flag in flags),
        "%c0 = arith.constant 0 : i32",
        "scf.while () : () -> () {",
        "%v = memref.load %k[] : memref<i32>", "%pos = arith.cmpi sgt, %v, %c0 : i32",
        *condition, f"scf.condition({test})",
        "} do {",
        "%v = memref.load %k[] : memref<i32>", "%c1 = arith.constant 1 : i32",
        "%w = arith.subi %v, %c1 : i32", "memref.store %w, %k[] : memref<i32>", "scf.yield",
        "}", "func.return", "}", "}"])


WHILE_CONDITION = _condition_loop("%p: memref<4xi8>, %q: memref<5xi8>, %t: i8", [
    """%x = memref.load %p[%i] : memref<4xi8>
       %ne = arith.cmpi ne, %x, %t : i8""",
    """%y = memref.load %q[%i] : memref<5xi8>
       %ne = arith.cmpi ne, %y, %t : i8"""])


def test_while_condition_speculates_loads_of_pow2_memories_only():
    m = parse(WHILE_CONDITION)
    if_convert_scalars(m)
    ifs = ops_named(m, "scf.if")
    # p has 4 words: any 2-bit address is one of them, so its load runs unconditionally;
    # q has 5: an index past the end would leave the memory, so that if stays
    assert len(ifs) == 1
    assert ifs[0].true_region.block.first_op.name == "arith.index_cast"
    assert any(op.name == "memref.load" and op.memref.type.get_shape() == (5,)
               for op in ifs[0].walk())
    (select,) = ops_named(m, "arith.select")
    assert select.cond is ifs[0].cond  # both ifs test k > 0
    forward_scalar_stores(m)
    (while_op,) = ops_named(m, "scf.while")
    # the condition reads the select, not the flag register written a cycle before
    flag_loads = [op for op in while_op.before_region.walk()
                  if op.name == "memref.load" and op.memref.type.get_shape() == ()
                  and op.res.type.width.data == 1]
    assert len(flag_loads) == 1  # flag2's, after the if that still may store it
    both = while_op.before_region.block.last_op.condition.owner
    assert both.operands[0] is select.result


def test_one_word_memories_and_dividers_stay_guarded_in_a_condition():
    m = parse(_condition_loop("%one: memref<1xi8>, %p: memref<4xi32>, %t: i8, %d: i32", [
        """%x = memref.load %one[%i] : memref<1xi8>
           %ne = arith.cmpi ne, %x, %t : i8""",
        """%y = memref.load %p[%i] : memref<4xi32>
           %q = arith.divsi %y, %d : i32
           %ne = arith.cmpi ne, %q, %v : i32"""]))
    if_convert_scalars(m)
    # a 1-word memory still has a 1-bit address (index 1 would leave it); a divider
    # would run on every test of the condition
    assert len(ops_named(m, "scf.if")) == 2
    assert not ops_named(m, "arith.select")


def test_forwarding_into_branches_keeps_what_they_may_change():
    m = parse("""
    builtin.module {
      func.func @f(%a: i32, %c: i1) -> i32 {
        %r = memref.alloca() : memref<i32>
        %t = memref.alloca() : memref<i32>
        memref.store %a, %r[] : memref<i32>
        memref.store %a, %t[] : memref<i32>
        scf.if %c {
          %v = memref.load %r[] : memref<i32>
          %w = arith.addi %v, %v : i32
          memref.store %w, %t[] : memref<i32>
        }
        %x = memref.load %r[] : memref<i32>
        %y = memref.load %t[] : memref<i32>
        %s = arith.addi %x, %y : i32
        func.return %s : i32
      }
    }""")
    forward_scalar_stores(m)
    # r is read in the branch and after it: both from %a; t may be stored in the branch,
    # so it is read back after it, and its store before the if is not dead
    (load,) = ops_named(m, "memref.load")
    assert load.memref.name_hint == "t"
    add_inside, add_after = ops_named(m, "arith.addi")
    assert add_inside.operands[0] is m.body.block.first_op.args[0]
    assert add_after.operands[0] is m.body.block.first_op.args[0]
    assert len(ops_named(m, "memref.store")) == 3


def _kmp(pattern: int, text: int):
    """The suite's KMP kernel (benchmarks/machsuite/kmp.py) at other sizes."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "machsuite" / "kmp.py"
    source, count = re.subn(r"^PATTERN, TEXT = .*$", f"PATTERN, TEXT = {pattern}, {text}",
                            path.read_text(), flags=re.MULTILINE)
    assert count == 1
    return load_source(source, f"{path}[{pattern},{text}]")["kmp"]


kmp4 = _kmp(4, 48)  # pattern[matched] from a 4-word memory: speculated
kmp5 = _kmp(5, 48)  # from 5 words: the read stays under `matched > 0`


@kernel
def first_fit(sizes: int32[8], free: int32[16], take: int32[8]) -> int32:
    """A ``while`` with ``or`` and a negative start, and updates read back under ifs."""
    placed: int32 = 0
    for j in range(8):
        slot: int32 = -1
        while slot < 0 or (slot < 15 and free[slot] < sizes[j]):
            slot += 1
        if free[slot] >= sizes[j]:
            free[slot] -= sizes[j]
            placed += 1
        if placed > 3:
            placed = placed - 1 + (placed & 1)
        take[j] = slot * 100 + placed
    return placed


@kernel
def sorted_runs(a: int32[4, 8], out: int32[8]) -> int32:
    """Reads after a ``while`` of elements its condition read (a 2-d one, speculated past
    the row), before and after a store to them."""
    total: int32 = 0
    for r in range(4):
        c: int32 = 0
        while c < 7 and a[r][c] <= a[r][c + 1]:
            c += 1
        out[c] += a[r][c] * 3
        a[r][c] = total - r
        total += a[r][c] + out[c]
    return total


def _kmp_calls(length: int):
    calls = []
    for seed, letters in ((1, 2), (2, 3), (3, 4)):
        rng = np.random.default_rng(seed)
        text = rng.integers(0, letters, size=48).astype(np.uint8)
        start = int(rng.integers(0, 48 - length))
        calls.append((text[start:start + length].copy(), text, np.zeros(length, np.int32)))
    calls.append((np.zeros(length, np.uint8), np.zeros(48, np.uint8), np.zeros(length, np.int32)))
    return calls


def _fit_calls():
    calls = []
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        calls.append((rng.integers(0, 9, size=8, dtype=np.int32),
                      rng.integers(0, 12, size=16, dtype=np.int32), np.zeros(8, np.int32)))
    return calls


@pytest.fixture(scope="module")
def outcomes():
    rng = np.random.default_rng(7)
    runs = [(np.sort(rng.integers(-50, 50, size=(4, 8)), axis=1).astype(np.int32)
             if k == 0 else rng.integers(-4, 4, size=(4, 8)).astype(np.int32),
             np.zeros(8, np.int32)) for k in range(3)]
    return run_batch([("kmp4", kmp4, _kmp_calls(4)), ("kmp5", kmp5, _kmp_calls(5)),
                      ("first_fit", first_fit, _fit_calls()), ("sorted_runs", sorted_runs, runs)])


@pytest.mark.parametrize("name", ["kmp4", "kmp5", "first_fit", "sorted_runs"])
def test_python_equals_cpu_equals_rtl(outcomes, name):
    assert_outcome(outcomes[name])


def test_the_matcher_tests_its_condition_in_the_cycle_its_loads_return(outcomes):
    # all-zero text and pattern: every character matches and the failure walk never
    # runs, so the call is the failure table plus 48 x (condition + update). The
    # condition is one expression tested in the cycle its loads return (2 cycles, not a
    # flag written and read back: 3); the update compares the elements the condition read
    # (transforms/fpga/forward_while_exit_loads) and reads matched + 1 as a wire (2 cycles, not
    # 4): 4 per character instead of 7 (362 cycles before).
    cycles = outcomes["kmp4"].cycles[3]
    assert cycles <= 48 * 4 + 30, cycles
