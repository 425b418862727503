"""Transforms of the loop level: ``loop/`` the directive passes (tile, reorder, unroll,
flatten, pipeline, partition) and their driver; ``graph/`` the dataflow level (tasks and
channels); ``fpga/`` the preparation of a kernel for hardware (fpga-prepare)."""
