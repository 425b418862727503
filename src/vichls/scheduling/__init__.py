"""The instruction level: list scheduling with chaining under the clock period, modulo
scheduling of pipelined loops, over the operator library (vichls.targets.oplib)."""
