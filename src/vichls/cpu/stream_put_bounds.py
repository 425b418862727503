"""Annotate every stream with a static upper bound on the elements put to it in one call.

What: for each `func.func`, every stream value (a `!stream.stream` argument or the result of
a `stream.create`) gets the number of `stream.put` ops that can reach it in one call of the
function: each put counts the product of the trip counts of the loops around it (both
branches of an `scf.if` count), and a `func.call` that passes the stream counts the callee's
bound for that argument times the loops around the call. Unknown when a loop on the way has
no constant trip count (`scf.while`, bounds that are not constants) or the stream has a use
this pass does not know. The results are attributes:

- `vichls.put_bound = N : i64` on each `stream.create` (-1: unknown);
- `vichls.stream_put_bounds = [N0, N1, ...]` on each function, one i64 per argument
  (-1: unknown; 0 for arguments that are not streams).

Why: the CPU gives each stream a ring buffer (vichls.cpu.lower_streams); a buffer holding
every element ever put can never overflow, so where this bound exists it is the capacity,
and elsewhere a default one (checked at run time) is used. The bound is needed before
`lower_affine` erases the loops' constant trip counts, the lowering after `scf_to_cf`.

Assumes: the loop-level IR of docs/ir.md (kernels do not recurse); runs before
`lower_affine`. It only adds attributes.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from vichls.dialects.attributes import ARG_PUT_BOUNDS_ATTR, PUT_BOUND_ATTR
from vichls.dialects import stream as ir_stream

UNKNOWN = -1


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _trip_count(loop: Operation) -> int | None:
    """Iterations of a loop per entry, when its bounds are constants."""
    if isinstance(loop, affine.ForOp):
        lb_map, ub_map = loop.lowerBoundMap.data, loop.upperBoundMap.data
        if loop.lowerBoundOperands or loop.upperBoundOperands:
            return None
        lbs, ubs = lb_map.eval([], []), ub_map.eval([], [])
        lb, ub, step = max(lbs), min(ubs), loop.step.value.data
    elif isinstance(loop, scf.ForOp):
        lb, ub, step = _constant(loop.lb), _constant(loop.ub), _constant(loop.step)
        if lb is None or ub is None or step is None or step <= 0:
            return None
    else:
        return None
    return max(0, -(-(ub - lb) // step))


def _repetitions(op: Operation) -> int | None:
    """How many times ``op`` can run per call of its function (None: no static bound)."""
    times = 1
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, (affine.ForOp, scf.ForOp, scf.WhileOp)):
            trips = _trip_count(parent)
            if trips is None:
                return None
            times *= trips
        parent = parent.parent_op()
    return times


class AnnotateStreamPutBounds(ModulePass):
    """Static bounds on the puts to every stream, as attributes (see the module docstring)."""

    name = "vichls-cpu-stream-put-bounds"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        functions = {f.sym_name.data: f for f in op.ops if isinstance(f, func.FuncOp)}
        arg_bounds: dict[str, list[int | None]] = {}

        def bounds_of(name: str) -> list[int | None]:
            if name not in arg_bounds:
                f = functions[name]
                arg_bounds[name] = [
                    self._bound(a, bounds_of) if isinstance(a.type, ir_stream.StreamType) else 0
                    for a in f.body.blocks[0].args
                ]
            return arg_bounds[name]

        i64 = IntegerType(64)
        for name, f in functions.items():
            if not f.body.blocks:
                continue
            per_arg = bounds_of(name)
            f.attributes[ARG_PUT_BOUNDS_ATTR] = ArrayAttr(
                [IntegerAttr(UNKNOWN if b is None else b, i64) for b in per_arg])
            for create in f.walk():
                if isinstance(create, ir_stream.CreateOp):
                    b = self._bound(create.result, bounds_of)
                    create.attributes[PUT_BOUND_ATTR] = IntegerAttr(UNKNOWN if b is None else b, i64)

    @staticmethod
    def _bound(stream: SSAValue, bounds_of) -> int | None:
        total = 0
        for use in stream.uses:
            user = use.operation
            if isinstance(user, ir_stream.GetOp):
                continue
            if isinstance(user, ir_stream.PutOp):
                each = 1
            elif isinstance(user, func.CallOp):
                each = bounds_of(user.callee.root_reference.data)[use.index]
            else:
                return None
            times = _repetitions(user)
            if each is None or times is None:
                return None
            total += each * times
        return total
