"""Tool flows around the generated Verilog: simulation (cocotb + Verilator, optionally
Icarus), lint (Verilator) and synthesis checks (Yosys).

- ``vichls.flows.sim``: ``SimDesign``, ``build_simulation``, ``SimModel.run``/``run_many``,
  ``sim_callable``; one simulator build and one simulator process for many designs.
- ``vichls.flows.lint``: ``lint_verilog(verilog, top) -> list[str]``.
- ``vichls.flows.synth``: ``synth_check(verilog, top) -> SynthReport`` and
  ``synth_xilinx_resources(verilog, top) -> dict``.
- ``vichls.flows.tools``: where the tools come from (``ToolError`` when one is missing).

The submodules are not imported here: cocotb and the tools are only needed by the flows
that use them.
"""
