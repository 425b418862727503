"""Tests of the list scheduler: chaining under the clock period, memory-port limits,
multi-cycle latencies, memory ordering, parallel issue; on abstract graphs and on IR."""

from __future__ import annotations

from ir_text import parse

from vichls.targets import oplib
from vichls.scheduling.schedule_function import schedule_module
from vichls.scheduling.list_schedule import Node, schedule_nodes, segment_length, split_block
from vichls.dialects.attributes import CYCLE_ATTR, READY_ATTR

ADD = oplib.cost("add", 32)


def add_node(*preds):
    return Node(ADD.latency, ADD.delay_ns, data_preds=list(preds))


def test_chaining_fills_a_cycle_then_moves_on():
    # a chain of 32-bit adds (1.76 ns each) under a 9 ns budget: 5 fit in a cycle
    nodes = [add_node()] + [add_node(i) for i in range(9)]
    placed = schedule_nodes(nodes, 9.0)
    cycles = [p.cycle for p in placed]
    assert cycles == [0] * 5 + [1] * 5
    assert all(p.finish_ns <= 9.0 for p in placed)


def test_independent_ops_share_a_cycle():
    placed = schedule_nodes([add_node(), add_node(), add_node(0, 1)], 9.0)
    assert [p.cycle for p in placed] == [0, 0, 0]


def test_one_access_per_memory_port_per_cycle():
    read = oplib.cost("mem_read", 32)
    nodes = [
        Node(read.latency, read.delay_ns, read.out_delay_ns, port="A"),
        Node(read.latency, read.delay_ns, read.out_delay_ns, port="A"),
        Node(read.latency, read.delay_ns, read.out_delay_ns, port="B"),
    ]
    placed = schedule_nodes(nodes, 9.0)
    assert sorted(p.cycle for p in placed[:2]) == [0, 1]
    assert placed[2].cycle == 0
    assert placed[0].ready == placed[0].cycle + 1


def test_multicycle_results_arrive_after_their_latency():
    mul = oplib.cost("mul", 32)
    nodes = [Node(mul.latency, mul.delay_ns, mul.out_delay_ns), add_node(0)]
    placed = schedule_nodes(nodes, 9.0)
    assert placed[0].ready == 1 and placed[1].cycle == 1


def test_memory_order_store_after_load():
    read, write = oplib.cost("mem_read", 32), oplib.cost("mem_write", 32)
    nodes = [
        Node(read.latency, read.delay_ns, read.out_delay_ns, port="A"),
        Node(write.latency, write.delay_ns, order_preds=[(0, 1)], port="A"),
    ]
    placed = schedule_nodes(nodes, 9.0)
    assert placed[1].cycle >= placed[0].cycle + 1


BODY = """
builtin.module {
  func.func @f(%A: memref<8xi32>, %B: memref<8xi32>, %C: memref<8xi32>, %k: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %a = memref.load %A[%i] : memref<8xi32>
      %b = memref.load %B[%i] : memref<8xi32>
      %c = memref.load %C[%i] : memref<8xi32>
      %s = arith.addi %a, %b : i32
      %t = arith.addi %s, %k : i32
      %u = arith.addi %t, %c : i32
      memref.store %u, %C[%i] : memref<8xi32>
      scf.yield
    }
    func.return
  }
}"""


def test_ir_schedule_loads_in_parallel_and_chains_adds():
    m = parse(BODY)
    schedule_module(m, 10.0)
    loop = next(op for op in m.walk() if op.name == "scf.for")
    (segment,) = split_block(loop.body.block)
    cycle = {op.results[0].name_hint if op.results else op.name: op.attributes[CYCLE_ATTR].value.data
             for op in segment}
    assert cycle["a"] == cycle["b"] == 0  # different memories: same cycle
    assert cycle["c"] == 0
    assert cycle["s"] == cycle["t"] == cycle["u"] == 1  # chained in one cycle
    assert cycle["memref.store"] == 1  # the store of C after its load, same cycle as the adds
    assert segment_length(segment) == 2
    assert all(op.attributes[READY_ATTR].value.data >= op.attributes[CYCLE_ATTR].value.data for op in segment)


def test_short_clock_period_splits_the_chain():
    m = parse(BODY)
    schedule_module(m, 3.0)  # 2 ns budget: one add per cycle
    loop = next(op for op in m.walk() if op.name == "scf.for")
    (segment,) = split_block(loop.body.block)
    cycle = {op.results[0].name_hint: op.attributes[CYCLE_ATTR].value.data for op in segment if op.results}
    assert cycle["s"] < cycle["t"] < cycle["u"]
