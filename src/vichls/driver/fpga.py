"""The FPGA back end: loop-level IR → schedule → structural IR → Verilog and a report.

``compile_fpga(module)`` clones the module, then runs, in memory:

1. preparation on the loop level: inline calls (transforms/fpga/inline_calls), partitioning
   (transforms/loop/partition_arrays), xDSL's ``lower-affine`` (transforms/fpga/lower_affine_fpga), 0-d
   store-to-load forwarding (transforms/fpga/forward_scalar_stores), value numbering of
   expressions and loads (transforms/fpga/value_numbering), forwarding of array elements with
   identical indices (transforms/fpga/forward_array_stores), loop-invariant code motion
   (transforms/fpga/hoist_loop_invariants, again after transforms/fpga/reassociate_products), scalar replacement (transforms/fpga/scalar_replacement), load
   rotation (transforms/fpga/rotate_loads: arrays a loop only reads are read one iteration
   ahead), reassociation of add chains (transforms/fpga/reassociate), dead-op removal and the
   predication of short ifs (transforms/fpga/predicate_ifs) and the binding of multipliers that
   groups running one after another share (transforms/fpga/bind_multipliers);
2. instruction level: list scheduling with chaining per straight-line segment
   (scheduling/list_schedule; a predicated if's ops are part of it), and modulo scheduling of pipelined loops
   (scheduling/modulo_schedule), timing from vichls.targets.oplib;
3. structural level: one component with cells, datapath, static groups and a control
   tree (conversion/to_structural/build_structural; a pipelined loop is one group whose iterations
   overlap), then control compilation to one FSM with zero-cycle transitions between
   steps and a small controller per pipeline (structural/compile_control);
4. the Verilog printer with the primitives of rtl_templates/ (vichls/backend/verilog/printer.py).

The report (latency, loops, interface, resources, operators) is computed from the same
scheduled IR and the same operator library.

Partitioned arrays (transforms/loop/partition_arrays, run on the loop level before this back end)
need nothing special here: each bank of a parameter is its own function argument named
``<array>_<bank>``, hence its own ap_memory port set and its own scheduler port, and each
bank of a local array its own RAM (or register when 0-d). The design's signature is the
kernel's (banks folded back), and ``FpgaDesign.partitions`` tells the simulator the banks.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ModuleOp

from vichls.targets import oplib
from vichls.driver.component import FpgaDesign, compile_component, prepare
from vichls.driver.dataflow import compile_dataflow
from vichls.dialects import graph
from vichls.limits import deep
from vichls.errors import FpgaError
from vichls.interface.spec import interfaces_of
from vichls.interface.wrapper import wrap
from vichls.signature import signature_of, top_function
from vichls.backend.verilog.printer import emit_verilog

__all__ = ["compile_fpga", "compile_component", "prepare", "FpgaDesign", "FpgaError"]


@deep
def compile_fpga(module: ModuleOp, *, clock_period_ns: float = 10.0, consume: bool = False,
                 keep_structural: bool = True) -> FpgaDesign:
    """Compile the top kernel of ``module`` to Verilog and a report. ``module`` is left
    unchanged unless ``consume`` (the caller no longer needs it: no copy is made);
    ``keep_structural=False`` leaves the design's ``structural`` None (no copy of the
    structural IR before control compilation is kept)."""
    if not math.isfinite(clock_period_ns):
        raise FpgaError(f"clock period {clock_period_ns} ns: a finite number is needed")
    if clock_period_ns <= oplib.REGISTER_RESERVE_NS:
        raise FpgaError(f"clock period {clock_period_ns} ns is too short")
    top = top_function(module)
    interfaces = interfaces_of(top, signature_of(top))
    if graph.DATAFLOW_ATTR in top.attributes:
        design = compile_dataflow(module, clock_period_ns)
    else:
        c = compile_component(module if consume else module.clone(), clock_period_ns,
                              keep_view=keep_structural)
        verilog = emit_verilog(c.compiled)
        design = FpgaDesign(c.signature.name, verilog, c.report, c.view, c.signature,
                            c.partitions)
    return with_interfaces(design, interfaces)


def with_interfaces(design: FpgaDesign, interfaces: dict) -> FpgaDesign:
    """``design`` with the adapters its interface directives ask for around it
    (interface/wrapper.py): the deliverable ``top_verilog`` and the report's ports are the
    wrapper's; ``verilog`` stays the core, which the simulator drives."""
    wrapped = wrap(design.top, design.verilog, design.report["interface"]["ports"],
                   design.signature, interfaces)
    if wrapped is None:
        return design
    iface = design.report["interface"]
    iface["core_ports"] = iface["ports"]
    iface["ports"] = [{"name": n, "direction": d, "width": w} for n, d, w in wrapped.ports]
    iface["protocols"] = wrapped.table
    iface["registers"] = {
        b: {"address_width": m.address_width, "control": m.control,
            "registers": [{"name": r.name, "offset": r.offset, "width": r.width,
                           "kind": r.kind} for r in m.registers]}
        for b, m in wrapped.maps.items()}
    design.top_verilog = wrapped.verilog
    design.register_maps = wrapped.maps
    return design
