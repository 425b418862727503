"""The passes of ``fpga-prepare`` (passes/pipelines.py): the loop level made ready for
hardware."""
