"""A loop-level module to any target, for the directive API (``Schedule.build``) and the
commands that run what they compile.

``build_module(module, "fpga")`` gives an FpgaDesign (Verilog and report), ``"cpu"`` a
callable running LLVM machine code, ``"sim"`` a callable running the design's Verilog in
the simulator.
"""

from __future__ import annotations


def build_module(module, target: str, *, clock_period_ns: float = 10.0):
    """Compile a loop-level IR module (from a kernel or a .mlir package) for a target."""
    if target == "cpu":
        from vichls.driver.cpu import compile_cpu

        return compile_cpu(module)
    from vichls.driver.fpga import compile_fpga

    design = compile_fpga(module, clock_period_ns=clock_period_ns)
    if target == "fpga":
        return design
    from vichls.flows.sim import sim_callable

    return sim_callable(design.verilog, design.signature, partitions=design.partitions)
