"""Scalar replacement of array accumulations (src/vichls/transforms/fpga/scalar_replacement.py):
IR-level checks of what is and is not transformed, and one end-to-end batch (Python ≡ CPU
≡ RTL) on kernels that exercise the transformed and the guarded forms."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, memref, scf
from xdsl.parser import Parser

from e2e import assert_outcome, run_batch
from vichls import int32, kernel
from vichls.transforms.fpga.scalar_replacement import scalar_replacement


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef, affine.Affine):
        ctx.load_dialect(d)
    return Parser(ctx, text).parse_module()


def accesses(scope, memory_name: str):
    """Loads and stores of the function argument or alloca named ``memory_name``."""
    return [op for op in scope.walk()
            if isinstance(op, (memref.LoadOp, memref.StoreOp))
            and op.memref.name_hint == memory_name]


def only_loop(module) -> scf.ForOp:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 1
    return loops[0]


def kernel_ir(body: str, args: str = "", bounds: str = "%c0 to %c8") -> builtin.ModuleOp:
    """``q[i] += A[i, j] * p[j]`` style function: ``body`` is the loop body over %j."""
    return parse(f"""
    builtin.module {{
      func.func @f(%A: memref<8x8xi32>, %p: memref<8xi32>, %q: memref<8xi32>,
                   %i: index{args}) {{
        %c0 = arith.constant 0 : index
        %c8 = arith.constant 8 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        %c3b = arith.constant 3 : index
        scf.for %j = {bounds} step %c1 {{
          {body}
        }}
        func.return
      }}
    }}""")


ACCUMULATE = """
          %a = memref.load %A[%i, %j] : memref<8x8xi32>
          %x = memref.load %p[%j] : memref<8xi32>
          %m = arith.muli %a, %x : i32
          %old = memref.load %q[%i] : memref<8xi32>
          %new = arith.addi %old, %m : i32
          memref.store %new, %q[%i] : memref<8xi32>
"""


def test_accumulation_moves_to_a_register():
    m = kernel_ir(ACCUMULATE)
    scalar_replacement(m, profitable_only=False)
    m.verify()
    loop = only_loop(m)
    assert accesses(loop, "q") == []
    outside = accesses(m, "q")
    assert [op.name for op in outside] == ["memref.load", "memref.store"]
    load, store = outside
    assert load.parent_block() is loop.parent_block() is store.parent_block()
    block_ops = list(loop.parent_block().ops)
    assert block_ops.index(load) < block_ops.index(loop) < block_ops.index(store)
    assert list(load.indices) == list(store.indices) == [loop.parent_op().args[3]]
    # the loop reads and writes one 0-d register, which starts from q[i] and ends in it
    inner = [op for op in loop.walk() if isinstance(op, (memref.LoadOp, memref.StoreOp))
             and op.memref.type.get_shape() == ()]
    assert [op.name for op in inner] == ["memref.load", "memref.store"]
    register = inner[0].memref
    assert inner[1].memref is register
    assert isinstance(register.owner, memref.AllocaOp)
    assert not [op for op in m.walk() if isinstance(op, scf.IfOp)]  # 8 trips: no guard
    # the untouched arrays keep their accesses in the loop
    assert len(accesses(loop, "A")) == 1 and len(accesses(loop, "p")) == 1


def test_earlier_initialisation_becomes_the_register_start():
    m = parse("""
    builtin.module {
      func.func @f(%q: memref<8xi32>, %i: index, %v: i32) {
        %c0 = arith.constant 0 : index
        %c8 = arith.constant 8 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0 : i32
        memref.store %zero, %q[%i] : memref<8xi32>
        scf.for %j = %c0 to %c8 step %c1 {
          %old = memref.load %q[%i] : memref<8xi32>
          %new = arith.addi %old, %v : i32
          memref.store %new, %q[%i] : memref<8xi32>
        }
        func.return
      }
    }""")
    scalar_replacement(m, profitable_only=False)
    m.verify()
    assert [op.name for op in accesses(m, "q")] == ["memref.store"]  # only the write-back
    start = [op for op in m.walk() if isinstance(op, memref.StoreOp)][0]
    assert start.memref.type.get_shape() == () and start.value.name_hint == "zero"


@pytest.mark.parametrize("body", [
    # the index varies with the loop variable
    """%old = memref.load %q[%j] : memref<8xi32>
       %new = arith.addi %old, %old : i32
       memref.store %new, %q[%j] : memref<8xi32>""",
    # another read of the same array at an index that may be the same element
    ACCUMULATE + """%y = memref.load %q[%k] : memref<8xi32>
       memref.store %y, %p[%j] : memref<8xi32>""",
    # another write of the same array, inside a nested if
    ACCUMULATE + """scf.if %c {
         memref.store %m, %q[%k] : memref<8xi32>
       }""",
    # a call in the loop
    ACCUMULATE + """func.call @g() : () -> ()""",
    # loads only: nothing to keep (and loop-invariant hoisting handles it)
    """%old = memref.load %q[%i] : memref<8xi32>
       memref.store %old, %p[%j] : memref<8xi32>""",
    # an index computed inside the loop
    """%i2 = arith.addi %i, %c1 : index
       %old = memref.load %q[%i2] : memref<8xi32>
       %new = arith.addi %old, %old : i32
       memref.store %new, %q[%i2] : memref<8xi32>""",
    # the element is only accessed under an if: its index may be out of range
    """scf.if %c {
         %old = memref.load %q[%i] : memref<8xi32>
         %new = arith.addi %old, %old : i32
         memref.store %new, %q[%i] : memref<8xi32>
       }""",
], ids=["varying-index", "other-read", "other-write-in-if", "call", "loads-only",
        "index-computed-inside", "only-under-if"])
def test_not_transformed(body):
    m = kernel_ir(body, args=", %k: index, %c: i1")
    if "func.call" in body:
        m.body.block.add_op(func.FuncOp("g", ((), ())))
        m.body.block.last_op.body.block.add_op(func.ReturnOp())
    before = str(m)
    scalar_replacement(m, profitable_only=False)
    assert str(m) == before


def test_same_element_twice_shares_the_register():
    body = ACCUMULATE + """
          %again = memref.load %A[%c3, %c3] : memref<8x8xi32>
          %twice = memref.load %A[%c3b, %c3] : memref<8x8xi32>
          %s = arith.addi %again, %twice : i32
          memref.store %s, %A[%c3, %c3b] : memref<8x8xi32>
    """
    m = kernel_ir(body)
    scalar_replacement(m, profitable_only=False)
    m.verify()
    loop = only_loop(m)
    assert accesses(loop, "q") == []
    # A[i, j] varies with j, so A keeps its accesses (it might be A[3, 3]); equal
    # constants are one element (p below)
    assert len(accesses(loop, "A")) == 4
    m2 = kernel_ir("""
          %a = memref.load %p[%c3] : memref<8xi32>
          %b = memref.load %p[%c3b] : memref<8xi32>
          %s = arith.addi %a, %b : i32
          memref.store %s, %p[%c3] : memref<8xi32>
    """)
    scalar_replacement(m2, profitable_only=False)
    m2.verify()
    assert accesses(only_loop(m2), "p") == []
    assert [op.name for op in accesses(m2, "p")] == ["memref.load", "memref.store"]


def test_default_transforms_only_where_the_body_gets_shorter():
    # other arrays are read in the body: their latency hides the element's, and the read
    # before the loop would cost a cycle
    m = kernel_ir(ACCUMULATE)
    before = str(m)
    scalar_replacement(m)
    assert str(m) == before
    # no other array read: the body loses the element's read latency
    m = kernel_ir("""
          %old = memref.load %q[%i] : memref<8xi32>
          %v = arith.index_cast %j : index to i32
          %new = arith.addi %old, %v : i32
          memref.store %new, %q[%i] : memref<8xi32>""")
    scalar_replacement(m)
    assert accesses(only_loop(m), "q") == []
    # initialised just before the loop: no extra read at all
    m = parse("""
    builtin.module {
      func.func @f(%A: memref<8x8xi32>, %p: memref<8xi32>, %q: memref<8xi32>, %i: index) {
        %c0 = arith.constant 0 : index
        %c8 = arith.constant 8 : index
        %c1 = arith.constant 1 : index
        %z = arith.constant 0 : i32
        memref.store %z, %q[%i] : memref<8xi32>
        scf.for %j = %c0 to %c8 step %c1 {""" + ACCUMULATE + """
        }
        func.return
      }
    }""")
    scalar_replacement(m)
    m.verify()
    assert accesses(only_loop(m), "q") == []
    assert [op.name for op in accesses(m, "q")] == ["memref.store"]  # the write-back


def test_loop_that_may_not_run_is_guarded():
    m = kernel_ir(ACCUMULATE, args=", %n: index", bounds="%c0 to %n")
    scalar_replacement(m, profitable_only=False)
    m.verify()
    loop = only_loop(m)
    assert accesses(loop, "q") == []
    ifs = [op for op in m.walk() if isinstance(op, scf.IfOp)]
    assert len(ifs) == 2
    entry_ops = list(loop.parent_block().ops)
    assert entry_ops.index(ifs[0]) < entry_ops.index(loop) < entry_ops.index(ifs[1])
    condition = ifs[0].cond.owner
    assert isinstance(condition, arith.CmpiOp) and ifs[1].cond is ifs[0].cond
    assert (condition.lhs, condition.rhs) == (loop.lb, loop.ub)
    assert [op.name for op in accesses(ifs[0], "q")] == ["memref.load"]
    assert [op.name for op in accesses(ifs[1], "q")] == ["memref.store"]


def test_while_loop_is_not_transformed():
    m = parse("""
    builtin.module {
      func.func @f(%q: memref<8xi32>, %i: index, %limit: i32) {
        scf.while () : () -> () {
          %v = memref.load %q[%i] : memref<8xi32>
          %go = arith.cmpi slt, %v, %limit : i32
          scf.condition(%go)
        } do {
          %old = memref.load %q[%i] : memref<8xi32>
          %c1 = arith.constant 1 : i32
          %new = arith.addi %old, %c1 : i32
          memref.store %new, %q[%i] : memref<8xi32>
          scf.yield
        }
        func.return
      }
    }""")
    before = str(m)
    scalar_replacement(m, profitable_only=False)
    assert str(m) == before


def test_nest_moves_a_fixed_element_out_level_by_level():
    m = parse("""
    builtin.module {
      func.func @f(%s: memref<4xi32>, %A: memref<8x8xi32>) {
        %c0 = arith.constant 0 : index
        %c8 = arith.constant 8 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        scf.for %i = %c0 to %c8 step %c1 {
          scf.for %j = %c0 to %c8 step %c1 {
            %a = memref.load %A[%i, %j] : memref<8x8xi32>
            %old = memref.load %s[%c2] : memref<4xi32>
            %new = arith.addi %old, %a : i32
            memref.store %new, %s[%c2] : memref<4xi32>
          }
        }
        func.return
      }
    }""")
    scalar_replacement(m, profitable_only=False)
    m.verify()
    outer = next(op for op in m.walk() if isinstance(op, scf.ForOp))
    assert accesses(outer, "s") == []
    assert [op.name for op in accesses(m, "s")] == ["memref.load", "memref.store"]


def test_distinct_constant_elements_each_get_a_register():
    """A row of accumulators at constant indices (gemm's ``C[i][j]`` with ``j`` unrolled)
    moves to one register per element: the constants prove the elements distinct."""
    body = """
          %x = memref.load %p[%j] : memref<8xi32>
          %old1 = memref.load %A[%i, %c1] : memref<8x8xi32>
          %new1 = arith.addi %old1, %x : i32
          memref.store %new1, %A[%i, %c1] : memref<8x8xi32>
          %old3 = memref.load %A[%i, %c3] : memref<8x8xi32>
          %new3 = arith.muli %old3, %x : i32
          memref.store %new3, %A[%i, %c3b] : memref<8x8xi32>
    """
    m = kernel_ir(body)
    scalar_replacement(m, profitable_only=False)
    m.verify()
    loop = only_loop(m)
    assert accesses(loop, "A") == []
    registers = {op.memref for op in loop.walk()
                 if isinstance(op, (memref.LoadOp, memref.StoreOp))
                 and op.memref.type.get_shape() == ()}
    assert len(registers) == 2
    assert [op.name for op in accesses(m, "A")] == ["memref.load", "memref.load",
                                                   "memref.store", "memref.store"]
    # an element whose index is not a constant might be either of them: nothing moves
    m = kernel_ir(body + """
          %any = memref.load %A[%i, %i] : memref<8x8xi32>
          memref.store %any, %p[%c0] : memref<8xi32>
    """)
    scalar_replacement(m, profitable_only=False)
    assert len(accesses(only_loop(m), "A")) == 5


def test_pipelined_loop_always_moves_its_accumulators():
    """In a pipelined loop the element's read-modify-write is a recurrence through the
    memory (II >= 2); in a register it is not, so the default transforms it even though
    the body reads other arrays."""
    m = kernel_ir(ACCUMULATE)
    only_loop(m).attributes["vichls.pipeline"] = builtin.IntegerAttr(1, builtin.i64)
    scalar_replacement(m)
    assert accesses(only_loop(m), "q") == []


TRIANGLE = """
    builtin.module {{
      func.func @f(%B: memref<8xi32>, %A: memref<8xi32>, %i: index) {{
        %c1 = arith.constant 1 : index
        %c8 = arith.constant 8 : index
        %c0 = arith.constant 0 : index
        %i1 = arith.addi %i, %c1 : index
        scf.for %k = {bounds} step %c1 {{
          %old = memref.load %B[%i] : memref<8xi32>
          %b = memref.load %B[%k] : memref<8xi32>
          %a = memref.load %A[%k] : memref<8xi32>
          %m = arith.muli %a, %b : i32
          %new = arith.addi %old, %m : i32
          memref.store %new, %B[%i] : memref<8xi32>
        }}
        func.return
      }}
    }}"""


@pytest.mark.parametrize("bounds,moves", [
    ("%i1 to %c8", True),  # trmm: k from i + 1 never names B[i]
    ("%c0 to %i", True),  # trisolv: k below i
    ("%i to %c8", False),  # k = i on the first iteration
    ("%c0 to %i1", False),  # k = i on the last
])
def test_a_moving_index_that_provably_misses_the_element(bounds, moves):
    m = parse(TRIANGLE.format(bounds=bounds))
    scalar_replacement(m, profitable_only=False)
    m.verify()
    left = accesses(only_loop(m), "B")
    assert len(left) == (1 if moves else 3)  # B[k] is read from memory either way
    if moves:
        assert list(left[0].indices) == [only_loop(m).body.block.args[0]]


# -- end to end: the transformed design computes what Python does -----------------------


@kernel
def sr_matvec(A: int32[6, 5], p: int32[5], q: int32[6]):
    for i in range(6):
        q[i] = 1
        for j in range(5):
            q[i] += A[i, j] * p[j]


@kernel
def sr_maybe_empty(q: int32[6], n: int32, i: int32):
    for j in range(n):
        q[i] = q[i] * 3 + j
    for j in range(n - 2):
        q[i + 1] -= n


@kernel
def sr_nested_fixed(s: int32[3]) -> int32:
    for i in range(4):
        for j in range(4):
            s[1] += i * j
            if (i ^ j) & 1 == 0:
                s[1] -= j
            else:
                s[1] = s[1] ^ (i - j)
    return s[1]


@kernel
def sr_row_accumulators(C: int32[3, 6], A: int32[3, 5], B: int32[5, 6]):
    for i in range(3):
        for k in range(5):
            for j in range(6):
                C[i, j] += A[i, k] * B[k, j]


ROW_ACCUMULATORS = (("pipeline", "i/k"), ("partition", "B", {"dim": 2, "factor": 6}))


@kernel
def sr_triangles(A: int32[6, 6], B: int32[6, 4], x: int32[6], b: int32[6]):
    for i in range(6):  # trmm: B[i][j] accumulates over the rows below i
        for j in range(4):
            for k in range(i + 1, 6):
                B[i, j] += A[k, i] * B[k, j]
    for r in range(6):  # trisolv: x[r] accumulates over the x[c] above it
        x[r] = b[r]
        for c in range(r):
            x[r] -= A[r, c] * x[c]


TRIANGLES = (("pipeline", "i/j/k"), ("pipeline", "r/c"))


def test_python_cpu_rtl_agree():
    from e2e import Scheduled, schedule_of

    rng = np.random.default_rng(7)

    def arr(*shape):
        return rng.integers(-1000, 1000, size=shape, dtype=np.int32)

    items = [
        ("sr_matvec", sr_matvec, [(arr(6, 5), arr(5), arr(6)) for _ in range(2)]),
        ("sr_maybe_empty", sr_maybe_empty,
         [(arr(6), n, i) for n, i in ((0, 2), (1, 0), (5, 4), (2, 5), (3, 1))]),
        ("sr_nested_fixed", sr_nested_fixed, [(arr(3),) for _ in range(2)]),
        ("sr_row_accumulators", Scheduled(schedule_of(sr_row_accumulators, *ROW_ACCUMULATORS)),
         [(arr(3, 6), arr(3, 5), arr(5, 6)) for _ in range(2)]),
        ("sr_triangles", Scheduled(schedule_of(sr_triangles, *TRIANGLES)),
         [(arr(6, 6), arr(6, 4), arr(6), arr(6)) for _ in range(2)]),
    ]
    outcomes = run_batch(items)
    for name, _, _ in items:
        assert_outcome(outcomes[name])
    # triangular loops: the report's latency counts their iterations exactly
    from vichls.driver.fpga import compile_fpga

    report = compile_fpga(schedule_of(sr_triangles, *TRIANGLES).module()).report
    assert all(loop["ii"] == 1 for loop in report["loops"] if loop["pipelined"]), report
    assert report["latency"]["max"] in outcomes["sr_triangles"].cycles, report["latency"]


def test_pipelined_row_of_accumulators_runs_at_one_iteration_per_cycle():
    """The six ``C[i, j]`` of the unrolled ``j`` live in registers across ``k``: C keeps
    one memory, and the pipeline is not bound by its ports or a recurrence through it."""
    from e2e import schedule_of
    from vichls.driver.fpga import compile_fpga

    design = compile_fpga(schedule_of(sr_row_accumulators, *ROW_ACCUMULATORS).module())
    (k,) = [loop for loop in design.report["loops"] if loop["pipelined"]]
    assert k["ii"] == 1, k
