"""Which values are a floor division or remainder by a constant, as div-by-constant or
step-divided-ivs made them.

What: ``floor_division_of(v)`` is ("quotient" | "remainder", n, d) when ``v`` is ``n // d``
or ``n % d`` of a non-negative ``n`` rewritten by transforms/fpga/div_by_constant.py, which
marks its ops with the attributes below, or read from a register that
transforms/fpga/step_divided_ivs.py steps (``vichls.stepped``: ``n`` is the loop's
induction variable or the value of another such register); else None.
Why: the dependence analysis (analysis/dependence.py) reasons about an index ``i // d`` or
``i % d`` as the division it is, not as the multiply-and-shift it became.
Assumes the marks are those div-by-constant wrote; other passes keep them on the ops.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from vichls.dialects.attributes import (DIVIDEND_ATTR, FLOOR_QUOTIENT_ATTR,
                                        FLOOR_REMAINDER_ATTR, STEPPED_ATTR)

#: On the op giving ``n // d`` of a non-negative ``n``: [d, id]; on the op giving ``n % d``:
#: the same under FLOOR_REMAINDER_ATTR; on the op of the rewrite that reads ``n``: id.


def floor_division_of(value: SSAValue) -> tuple[str, SSAValue, int] | None:
    """("quotient" | "remainder", n, d) when ``value`` is ``n // d`` or ``n % d`` of a
    non-negative ``n`` as this pass rewrote it, else None: the ops between ``value`` and
    the tagged reader of ``n`` are walked back to find ``n``."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if STEPPED_ATTR in owner.attributes:
        return _stepped(owner)
    for kind, name in (("quotient", FLOOR_QUOTIENT_ATTR), ("remainder", FLOOR_REMAINDER_ATTR)):
        mark = owner.attributes.get(name)
        if isinstance(mark, ArrayAttr):
            d, tag = (a.value.data for a in mark.data)
            break
    else:
        return None
    dividends, seen, work = set(), set(), [owner]
    while work:
        op = work.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        reader = op.attributes.get(DIVIDEND_ATTR)
        if isinstance(reader, IntegerAttr) and reader.value.data == tag:
            dividends.add(op.operands[0])
            continue
        work += [v.owner for v in op.operands
                 if isinstance(v.owner, Operation) and op.parent_block() is not None]
        if len(seen) > 64:  # a rewrite is a few tens of ops
            return None
    return (kind, dividends.pop(), d) if len(dividends) == 1 else None


def stepped_of(op: Operation) -> tuple[int, int, int, int, int] | None:
    """(kind (0 quotient, 1 remainder), d, id, parent id, largest value) of a value that
    step-divided-ivs reads from its register, else None."""
    mark = op.attributes.get(STEPPED_ATTR)
    if not isinstance(mark, ArrayAttr):
        return None
    return tuple(a.value.data for a in mark.data)


def _stepped(op: Operation) -> tuple[str, SSAValue, int] | None:
    kind, d, _, parent, _ = stepped_of(op)
    block = op.parent_block()
    if block is None:
        return None
    if parent < 0:  # the loop's induction variable
        if not block.args:
            return None
        n = block.args[0]
    else:
        n = next((o.results[0] for o in block.ops
                  if (s := stepped_of(o)) is not None and s[2] == parent), None)
        if n is None:
            return None
    return ("quotient" if kind == 0 else "remainder"), n, d
