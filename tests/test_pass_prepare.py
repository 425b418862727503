"""Unit tests of the FPGA back end's loop-level preparation passes, on small hand-written IR
in the docs/ir.md form (after lower-affine where the pass runs after it)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, memref, scf
from xdsl.parser import Parser

from vichls.transforms.fpga.forward_scalar_stores import forward_scalar_stores
from vichls.transforms.fpga.hoist_loop_invariants import hoist_loop_invariants
from vichls.transforms.fpga.inline_calls import inline_calls
from vichls.transforms.fpga.remove_dead_ops import remove_dead_ops
from vichls.transforms.fpga.rotate_loads import rotate_loads
from vichls.transforms.fpga.value_numbering import value_numbering


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef, affine.Affine):
        ctx.load_dialect(d)
    return Parser(ctx, text).parse_module()


def ops_named(module, name):
    return [op for op in module.walk() if op.name == name]


def test_inline_calls_removes_calls_and_callees():
    m = parse("""
    builtin.module attributes {vichls.top = "top"} {
      func.func @twice(%x: i32) -> i32 {
        %y = arith.addi %x, %x : i32
        func.return %y : i32
      }
      func.func @top(%a: i32) -> i32 {
        %b = func.call @twice(%a) : (i32) -> i32
        %c = func.call @twice(%b) : (i32) -> i32
        func.return %c : i32
      }
    }""")
    inline_calls(m, "top")
    assert not ops_named(m, "func.call")
    assert [f.sym_name.data for f in m.ops] == ["top"]
    adds = ops_named(m, "arith.addi")
    assert len(adds) == 2
    top = next(iter(m.ops))
    # the second add reads the first, and the return reads the second
    assert adds[1].operands[0] is adds[0].results[0]
    assert top.body.block.last_op.operands[0] is adds[1].results[0]


SCALAR = """
builtin.module {
  func.func @f(%a: i32, %c: i1) -> i32 {
    %r = memref.alloca() : memref<i32>
    memref.store %a, %r[] : memref<i32>
    %x = arith.addi %a, %a : i32
    memref.store %x, %r[] : memref<i32>
    %v = memref.load %r[] : memref<i32>
    scf.if %c {
      memref.store %a, %r[] : memref<i32>
      scf.yield
    }
    %w = memref.load %r[] : memref<i32>
    %s = arith.addi %v, %w : i32
    func.return %s : i32
  }
}"""


def test_forward_scalar_stores_within_a_block_only():
    m = parse(SCALAR)
    forward_scalar_stores(m)
    loads = ops_named(m, "memref.load")
    # %v is forwarded from the store of %x; %w follows an scf.if that may store: kept
    assert len(loads) == 1
    s = ops_named(m, "arith.addi")[1]
    assert s.operands[0] is ops_named(m, "arith.addi")[0].results[0]
    assert s.operands[1] is loads[0].res
    # the first store is overwritten before any read: removed
    top_stores = [op for op in m.walk() if op.name == "memref.store" and op.parent_op().name == "func.func"]
    assert len(top_stores) == 1


def test_value_numbering_merges_expressions_and_loads():
    m = parse("""
    builtin.module {
      func.func @f(%A: memref<8xi32>, %i: index) -> i32 {
        %a = memref.load %A[%i] : memref<8xi32>
        %b = memref.load %A[%i] : memref<8xi32>
        %x = arith.addi %a, %b : i32
        %y = arith.addi %a, %b : i32
        %t = arith.trunci %x : i32 to i8
        %u = arith.trunci %x : i32 to i16
        memref.store %y, %A[%i] : memref<8xi32>
        %c = memref.load %A[%i] : memref<8xi32>
        %c0 = arith.constant 0 : index
        memref.store %x, %A[%c0] : memref<8xi32>
        %d = memref.load %A[%i] : memref<8xi32>
        %z = arith.addi %c, %d : i32
        func.return %z : i32
      }
    }""")
    value_numbering(m)
    loads = ops_named(m, "memref.load")
    # b merges into a, c is forwarded from the store of y; d follows a store to another
    # index of A (which may alias) and stays
    assert len(loads) == 2
    adds = ops_named(m, "arith.addi")
    assert len(adds) == 2
    assert adds[1].operands[0] is adds[0].results[0]
    # truncations to different types are different expressions
    assert len(ops_named(m, "arith.trunci")) == 2


LOOP = """
builtin.module {
  func.func @f(%A: memref<8x8xi32>, %B: memref<8xi32>, %alpha: i32, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %row = arith.muli %i, %c8 : index
      %k = arith.addi %row, %c1 : index
      %ld = memref.load %A[%i, %c1] : memref<8x8xi32>
      %p = arith.muli %alpha, %ld : i32
      %b = memref.load %B[%j] : memref<8xi32>
      %bb = memref.load %B[%c0] : memref<8xi32>
      %s = arith.addi %p, %b : i32
      %s2 = arith.addi %s, %bb : i32
      memref.store %s2, %B[%j] : memref<8xi32>
      scf.yield
    }
    func.return
  }
}"""


def test_hoist_loop_invariants_moves_pure_ops_and_unstored_loads():
    m = parse(LOOP)
    hoist_loop_invariants(m)
    loop = ops_named(m, "scf.for")[0]
    inside = {op.name for op in loop.body.block.ops}
    outside = [op.name for op in loop.parent_block().ops]
    # A is never stored in the loop: its load and the products move out
    assert outside.count("arith.muli") == 2 and "memref.load" in outside
    # B is stored in the loop: both of its loads stay, even the invariant one
    assert [op.name for op in loop.body.block.ops].count("memref.load") == 2
    assert "arith.addi" in inside  # depends on a load of B


def test_remove_dead_ops_keeps_effects():
    m = parse("""
    builtin.module {
      func.func @f(%A: memref<8xi32>, %i: index) {
        %r = memref.alloca() : memref<i32>
        %a = memref.load %A[%i] : memref<8xi32>
        %x = arith.addi %a, %a : i32
        memref.store %x, %r[] : memref<i32>
        memref.store %a, %A[%i] : memref<8xi32>
        func.return
      }
    }""")
    remove_dead_ops(m)
    names = [op.name for op in m.walk()]
    # the local is only ever written: it goes with its store and the add; the load feeds
    # the store to A and stays
    assert "memref.alloca" not in names and "arith.addi" not in names
    assert names.count("memref.store") == 1 and "memref.load" in names


def test_hoisted_load_of_a_loop_that_may_not_run_reads_in_range():
    m = parse("""
    builtin.module {
      func.func @f(%A: memref<8xi32>, %n: index, %i: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        scf.for %j = %c0 to %n step %c1 {
          %a = memref.load %A[%i] : memref<8xi32>
          memref.store %a, %A[%j] : memref<8xi32>
          scf.yield
        }
        scf.for %j = %c0 to %n step %c1 {
          %a = memref.load %A[%i] : memref<8xi32>
          %r = memref.alloca() : memref<i32>
          memref.store %a, %r[] : memref<i32>
          scf.yield
        }
        func.return
      }
    }""")
    hoist_loop_invariants(m)
    loops = ops_named(m, "scf.for")
    # the first loop stores to A: its load stays; the second's moves out, guarded
    assert [op.name for op in loops[0].body.block.ops].count("memref.load") == 1
    hoisted = [op for op in loops[1].parent_block().ops if op.name == "memref.load"]
    assert len(hoisted) == 1
    select = hoisted[0].indices[0].owner
    assert select.name == "arith.select"
    assert select.operands[0].owner.name == "arith.cmpi"


def test_rotate_loads_reads_one_iteration_ahead():
    m = parse(LOOP.replace("memref.store %s2, %B[%j]", "memref.store %s2, %C[%j]").replace(
        "%alpha: i32", "%alpha: i32, %C: memref<8xi32>"))
    rotate_loads(m)
    loop = ops_named(m, "scf.for")[0]
    body = list(loop.body.block.ops)
    # every array the loop only reads is now read from a 0-d register in the body...
    reads = [op for op in body if op.name == "memref.load" and not op.memref.type.get_shape()]
    assert len(reads) == 3  # A[i, 1], B[j], B[0]
    # ...and refilled at the end of the body, for the next iteration, with index 0 once
    # the loop is over
    refills = [op for op in body if op.name == "memref.load" and op.memref.type.get_shape()]
    assert len(refills) == 3
    stores = [op for op in body if op.name == "memref.store" and not op.memref.type.get_shape()]
    assert len(stores) == 3
    assert all(r.indices[0].owner.name == "arith.select" for r in refills)
    before = [op for op in loop.parent_block().ops if op.name == "memref.load"]
    assert len(before) == 3  # the first iteration's elements


def test_rotate_loads_leaves_arrays_the_loop_writes():
    m = parse(LOOP)
    rotate_loads(m)
    loop = ops_named(m, "scf.for")[0]
    loads = [op for op in loop.body.block.ops if op.name == "memref.load"]
    # B is stored in the loop; A[i, 1] is rotated
    assert sum(1 for op in loads if op.memref.type.get_shape() == (8,)) == 2
