"""Tests of the list scheduler: chaining under the clock period, memory-port limits,
multi-cycle latencies, memory ordering, parallel issue, on abstract graphs (on IR text:
tests/filecheck/schedule*.mlir)."""

from __future__ import annotations


from vichls.targets import oplib
from vichls.scheduling.list_schedule import Node, schedule_nodes

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
