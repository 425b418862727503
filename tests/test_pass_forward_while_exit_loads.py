"""Array elements the condition of a ``while`` read, reused after the loop
(transforms/fpga/forward_while_exit_loads.py): which loads after the loop become register reads,
and which must stay. End to end, the KMP kernels of test_pass_if_convert_scalars.py run
through this pass (Python = CPU = RTL, and the cycles per character there)."""

from __future__ import annotations

from test_pass_prepare import ops_named, parse

from vichls.transforms.fpga.forward_while_exit_loads import forward_while_exit_loads

LOOP = """
builtin.module {
  func.func @f(%p: memref<4xi8>, %t: memref<8xi8>, %i: index, %q: memref<4xi8>) -> i8 {
    %k = memref.alloca() : memref<i32>
    %c1 = arith.constant 1 : i32
    scf.while () : () -> () {
      %v = memref.load %k[] : memref<i32>
      %a = arith.index_cast %v : i32 to index
      %x = memref.load %p[%a] : memref<4xi8>
      %y = memref.load %t[%i] : memref<8xi8>
      %z = memref.load %q[%a] : memref<4xi8>
      memref.store %y, %q[%a] : memref<4xi8>
      %ne = arith.cmpi ne, %x, %y : i8
      scf.condition(%ne)
    } do {
      %v = memref.load %k[] : memref<i32>
      %w = arith.subi %v, %c1 : i32
      memref.store %w, %k[] : memref<i32>
      scf.yield
    }
    %v = memref.load %k[] : memref<i32>
    %a = arith.index_cast %v : i32 to index
    %x = memref.load %p[%a] : memref<4xi8>
    %y = memref.load %t[%i] : memref<8xi8>
    %z = memref.load %q[%a] : memref<4xi8>
    %b = arith.addi %a, %a : index
    %u = memref.load %p[%b] : memref<4xi8>
    %w = arith.addi %v, %c1 : i32
    memref.store %w, %k[] : memref<i32>
    %v2 = memref.load %k[] : memref<i32>
    %a2 = arith.index_cast %v2 : i32 to index
    %x2 = memref.load %p[%a2] : memref<4xi8>
    memref.store %x, %t[%i] : memref<8xi8>
    %y2 = memref.load %t[%i] : memref<8xi8>
    %s1 = arith.addi %x, %y : i8
    %s2 = arith.addi %z, %u : i8
    %s3 = arith.addi %x2, %y2 : i8
    %s4 = arith.addi %s1, %s2 : i8
    %s5 = arith.addi %s3, %s4 : i8
    func.return %s5 : i8
  }
}"""


def test_loads_after_the_loop_read_what_the_condition_read():
    m = parse(LOOP)
    forward_while_exit_loads(m)
    (loop,) = ops_named(m, "scf.while")
    registers = [op.memref.name_hint for op in ops_named(m, "memref.alloca")]
    assert sorted(registers) == ["k", "p_at_exit", "t_at_exit"]
    # the condition writes each exit register with its own load's value
    exit_stores = [op for op in loop.before_region.walk()
                   if op.name == "memref.store" and op.memref.name_hint.endswith("_at_exit")]
    assert [op.value.owner.memref.name_hint for op in exit_stores] == ["p", "t"]
    after = [op for op in m.body.block.first_op.body.block.ops if op.name == "memref.load"]
    kept = [op.memref.name_hint for op in after if op.memref.type.get_shape()]
    # forwarded: p[k] and t[i]. Kept: q[k] (the condition writes q), p[2k] (another
    # index), p[k] after k changed, t[i] after t changed
    assert kept == ["q", "p", "p", "t"]
    read_back = [op.memref.name_hint for op in after if not op.memref.type.get_shape()]
    assert read_back == ["k", "p_at_exit", "t_at_exit", "k"]


def test_a_condition_index_from_inside_the_loop_is_not_forwarded():
    m = parse("""
    builtin.module {
      func.func @f(%p: memref<4xi8>, %n: index) -> i8 {
        %c0 = arith.constant 0 : index
        %r = scf.while (%j = %c0) : (index) -> index {
          %x = memref.load %p[%j] : memref<4xi8>
          %c0_i8 = arith.constant 0 : i8
          %go = arith.cmpi ne, %x, %c0_i8 : i8
          scf.condition(%go) %j : index
        } do {
        ^bb0(%j2: index):
          %c1 = arith.constant 1 : index
          %n2 = arith.addi %j2, %c1 : index
          scf.yield %n2 : index
        }
        %y = memref.load %p[%r] : memref<4xi8>
        func.return %y : i8
      }
    }""")
    forward_while_exit_loads(m)
    # %j is the loop's own block argument: not a value the code after the loop can name
    assert len(ops_named(m, "memref.alloca")) == 0
