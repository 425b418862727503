"""analysis/static_eval.py: the value of an expression of constants and loop counters, as
the latency report and the cycle bound evaluate loop bounds at every iteration."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i64

import vichls.analysis.static_eval as static_eval
from vichls.analysis.static_eval import evaluate


def _doubling_chain(depth: int):
    """x0 = 1; x(k+1) = x(k) + x(k): each value used twice by the next."""
    value = arith.ConstantOp(IntegerAttr(1, i64)).result
    for _ in range(depth):
        value = arith.AddiOp(value, value).result
    return value


def test_a_shared_value_is_evaluated_once(monkeypatch):
    """A bound of the fuzzer's (a bank index of a partitioned array, selects over selects)
    was a graph whose values are each used twice: walked as a tree it took 2^depth steps
    and a compile never ended."""
    applied = []
    apply = static_eval._apply
    monkeypatch.setattr(static_eval, "_apply",
                        lambda op, args, w: applied.append(op) or apply(op, args, w))
    assert evaluate(_doubling_chain(18), {}) == 1 << 18
    assert len(applied) == 18  # walked as a tree: 2^18 - 1
    assert evaluate(_doubling_chain(64), {}) == 0  # wraps at 64 bits, as the IR does


def test_values_outside_the_environment_are_unknown():
    block_free = arith.AddiOp(_doubling_chain(2), _doubling_chain(1))
    assert evaluate(block_free.result, {}) == 6


def test_affine_apply_of_loop_counters():
    """A flattened nest's guard, ``t mod 6 == 5``, is an affine.apply before lower-affine:
    evaluated at each iteration (the stream count of a guarded put reads it)."""
    from xdsl.dialects import affine
    from xdsl.dialects.builtin import AffineMapAttr, IndexType
    from xdsl.ir import Block
    from xdsl.ir.affine import AffineMap

    t = Block(arg_types=[IndexType()]).args[0]
    m = AffineMap.from_callable(lambda d0: (d0 % 6,))
    apply = affine.ApplyOp([t], AffineMapAttr(m))
    five = arith.ConstantOp.from_int_and_width(5, IndexType())
    cond = arith.CmpiOp(apply.result, five.result, "eq")
    assert [evaluate(cond.result, {t: k}) != 0 for k in range(12)].count(True) == 2  # (i1: -1)
    assert evaluate(apply.result, {t: 17}) == 5
