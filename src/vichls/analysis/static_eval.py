"""The value of an integer or index SSA value computed from constants and loop counters.

What: ``evaluate(value, env)`` folds ``arith`` ops (the integer ones, compares and selects
included) over constants and the values given in ``env`` (usually loop induction
variables at one iteration), with the IR's wrapping semantics at each value's width
(``index`` as 64 bits); None when the value depends on anything else (a load, a block
argument not in ``env``, an op with regions, a division by zero). Loads read the
memories given as ``KnownMemory`` (a kernel's read-only inputs, for one call).

Why: loop bounds that are affine in enclosing counters (triangles) have trip counts that
are only known per iteration of the loops around them. The cycle bound of the benchmark
harness (bench/bound.py) and the latency estimate of the compile report (driver/component.py) both
enumerate those iterations and need the bounds' values at each.

Assumes the loop-level IR after lower-affine (``arith`` on integers and ``index``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue

__all__ = ["KnownMemory", "counter_expression", "evaluate"]


def _width(type_) -> int | None:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def _signed(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _unsigned(v: int, width: int) -> int:
    return v & ((1 << width) - 1)


_CMP = [
    lambda a, b, w: a == b, lambda a, b, w: a != b,
    lambda a, b, w: a < b, lambda a, b, w: a <= b, lambda a, b, w: a > b, lambda a, b, w: a >= b,
    lambda a, b, w: _unsigned(a, w) < _unsigned(b, w), lambda a, b, w: _unsigned(a, w) <= _unsigned(b, w),
    lambda a, b, w: _unsigned(a, w) > _unsigned(b, w), lambda a, b, w: _unsigned(a, w) >= _unsigned(b, w),
]


@dataclass
class KnownMemory:
    """The contents of a memory at one point of a concrete run: ``words`` (Python ints) in
    row-major order of ``shape``."""

    words: list
    shape: tuple[int, ...]

    def _word(self, indices: list[int]) -> int | None:
        if len(indices) != len(self.shape) or not all(
                0 <= x < n for x, n in zip(indices, self.shape)):
            return None  # out of range: undefined in the language, unknown here
        return int(np.ravel_multi_index(tuple(indices), self.shape))

    def read(self, indices: list[int]) -> int | None:
        word = self._word(indices)
        return None if word is None else self.words[word]

    def write(self, indices: list[int], value: int) -> bool:
        """Store ``value``; False when the address is out of range (nothing written)."""
        word = self._word(indices)
        if word is None:
            return False
        self.words[word] = value
        return True


def evaluate(value: SSAValue, env: dict, memory: dict | None = None) -> int | None:
    """The value of an integer or index SSA value from constants and the loop counters in
    ``env`` (as a signed number of its width), and loads of the memories in ``memory``
    (memref value -> ``KnownMemory``), or None when it depends on anything else. Each value
    of the expression is evaluated once (an expression is a graph: a value used twice at
    every level is not walked 2^depth times)."""
    return _evaluate(value, env, memory, {})


def _evaluate(value: SSAValue, env: dict, memory: dict | None, known: dict) -> int | None:
    if value in env:
        return env[value]
    if value in known:
        return known[value]
    owner = value.owner
    if isinstance(owner, BlockArgument) or not isinstance(owner, Operation):
        return None
    width = _width(value.type)
    if width is None:
        return None
    if isinstance(owner, arith.ConstantOp):
        result = _signed(owner.value.value.data, width)
    elif isinstance(owner, memref.LoadOp) and memory and owner.memref in memory:
        indices = [_evaluate(v, env, memory, known) for v in owner.indices]
        word = None if any(x is None for x in indices) else memory[owner.memref].read(indices)
        result = None if word is None else _signed(word, width)
    elif isinstance(owner, affine.ApplyOp):  # (before lower-affine: a flattened loop's guards)
        args = [_evaluate(v, env, memory, known) for v in owner.operands]
        amap = owner.map.data
        result = None if any(a is None for a in args) else \
            amap.eval(args[:amap.num_dims], args[amap.num_dims:])[0]
    elif owner.regions or isinstance(owner, (memref.LoadOp,)) or not owner.operands:
        result = None
    else:
        args = [_evaluate(v, env, memory, known) for v in owner.operands]
        if any(a is None for a in args):
            result = None
        else:
            in_width = _width(owner.operands[0].type) or width
            applied = _apply(owner, args, in_width)
            result = None if applied is None else _signed(applied, width)
    known[value] = result
    return result


def _apply(op: Operation, args: list[int], w: int) -> int | None:
    a = args[0]
    b = args[1] if len(args) > 1 else None
    name = op.name
    if name in ("arith.extsi", "arith.trunci", "arith.index_cast"):
        return a
    if name in ("arith.extui", "arith.index_castui"):
        return _unsigned(a, w)
    if name == "arith.addi":
        return a + b
    if name == "arith.subi":
        return a - b
    if name == "arith.muli":
        return a * b
    if name == "arith.andi":
        return a & b
    if name == "arith.ori":
        return a | b
    if name == "arith.xori":
        return a ^ b
    if name == "arith.select":
        return args[1] if a else args[2]
    if name == "arith.cmpi":
        return int(_CMP[op.predicate.value.data](a, b, w))
    if name in ("arith.minsi", "arith.maxsi"):
        return min(a, b) if name == "arith.minsi" else max(a, b)
    if name == "arith.shli":
        return a << b if 0 <= b < w else None
    if name == "arith.shrsi":
        return a >> b if 0 <= b < w else None
    if name == "arith.shrui":
        return _unsigned(a, w) >> b if 0 <= b < w else None
    if b == 0 and name.startswith(("arith.div", "arith.rem", "arith.floordiv", "arith.ceildiv")):
        return None
    if name == "arith.divsi" or name == "arith.remsi":
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return q if name == "arith.divsi" else a - q * b
    if name == "arith.divui":
        return _unsigned(a, w) // _unsigned(b, w)
    if name == "arith.remui":
        return _unsigned(a, w) % _unsigned(b, w)
    if name == "arith.floordivsi":
        return a // b
    if name == "arith.ceildivsi":
        return -(-a // b)
    return None


def counter_expression(value: SSAValue, seen: set | None = None) -> bool:
    """Whether ``value`` is computed by ``arith`` ops from constants and ``scf.for``
    induction variables only (so ``evaluate`` knows it once those are in its ``env``)."""
    if isinstance(value, BlockArgument):
        return isinstance(value.owner.parent_op(), scf.ForOp) and value.index == 0
    owner = value.owner
    if not isinstance(owner, Operation) or owner.dialect_name() != "arith":
        return False
    seen = set() if seen is None else seen
    if owner in seen:
        return True
    seen.add(owner)
    return all(counter_expression(v, seen) for v in owner.operands)
