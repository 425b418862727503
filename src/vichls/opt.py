"""``vichls-opt``: run vichls passes on IR text and print the IR, as ``xdsl-opt`` and
``mlir-opt`` do.

    vichls-opt -p fpga-prepare,fpga-schedule gemm.mlir
    vichls-opt -p 'value-numbering,schedule{clock_period_ns=5.0 device=ecp5}' in.mlir
    vichls-opt -p fpga-prepare --print-between-passes gemm.mlir
    vichls-opt -p 'fpga{clock_period_ns=5.0}' -t verilog gemm.mlir   # the design's Verilog

It is xDSL's ``xDSLOptMain`` with xDSL's dialects and passes plus ours: the dialects of
vichls/dialects/ (stream, graph, structural) and every pass and pipeline of
``vichls.passes.get_all_passes()``, and the target ``verilog`` (``-t verilog``: the
Verilog of the module's structural components). Input is read as vichls reads a package: affine
access maps over symbols (how xDSL's parser reads ``affine.load %A[%i]``) become maps
over dimensions, which the lowering expects (vichls/frontend/mlir_input.py). After every
pass, as xDSL verifies the ops, the ``vichls.*`` attributes are checked against their
declarations (vichls/dialects/attributes.py). Errors of
ours (a pass refusing its input) print as ``file:line:col: error: ...`` with exit 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.parser import Parser
from xdsl.targets.mlir import MLIRTarget
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from vichls.dialects.attributes import VichlsAttributeError, verify_attributes
from vichls.dialects.graph import Graph
from vichls.dialects.stream import Stream
from vichls.dialects.structural import Structural
from vichls.errors import VichlsError, location_of
from vichls.frontend.mlir_input import PackagePrinter
from vichls.limits import deep
from vichls.passes import get_all_passes


@dataclass(frozen=True)
class PackageTextTarget(MLIRTarget):
    """xDSL's MLIR text with vichls's printer (frontend/mlir_input.PackagePrinter): what
    it prints parses back with every attribute (a scheduled arith.cmpi keeps its cycle)."""

    def emit(self, ctx, module, output) -> None:
        printer = PackagePrinter(stream=output, print_generic_format=self.print_generic_format,
                                 print_properties_as_attributes=self.print_properties_as_attributes,
                                 print_debuginfo=self.print_debuginfo)
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


class VichlsOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="vichls modular optimizer driver: runs vichls and xDSL "
                                     "passes on IR text", args=args)

    def register_all_dialects(self):
        super().register_all_dialects()
        for dialect in (Stream, Graph, Structural):
            self.ctx.register_dialect(dialect.name, lambda d=dialect: d)

    def register_all_passes(self):
        super().register_all_passes()
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def setup_pipeline(self):
        """xDSL's pipeline, which verifies the ops after every pass; plus, unless
        --disable-verify, the vichls attributes (dialects/attributes.py)."""
        try:
            super().setup_pipeline()
        except ValueError as e:  # an unknown pass, a missing or mistyped option
            raise VichlsError(f"-p {self.args.passes}: {e}") from None
        if self.args.disable_verify:
            return
        verify_ops = self.pipeline.callback

        def verify(previous, module, next_):
            if verify_ops is not None:
                verify_ops(previous, module, next_)
            try:
                verify_attributes(module)
            except VichlsAttributeError as e:
                raise VichlsError(str(e), *location_of(e.op)) from None

        self.pipeline = PassPipeline(self.pipeline.passes, verify)

    def register_all_targets(self):
        super().register_all_targets()

        def verilog():
            from vichls.backend.verilog.printer import VerilogTarget

            return VerilogTarget

        self.available_targets["verilog"] = verilog
        self.available_targets["mlir"] = lambda: PackageTextTarget

    def register_all_frontends(self):
        super().register_all_frontends()

        def parse_mlir(io):
            from vichls.frontend.mlir_input import normalize_affine_access_maps

            module = Parser(self.ctx, io.read(), self.get_input_name()).parse_module(
                not self.args.no_implicit_module)
            normalize_affine_access_maps(module)
            return module

        self.available_frontends["mlir"] = parse_mlir


@deep
def _run(args: Sequence[str] | None) -> int:
    VichlsOptMain(args=args).run()
    return 0


def main(args: Sequence[str] | None = None) -> int:
    try:
        return _run(args)
    except VichlsError as e:
        print(str(e), file=sys.stderr)
        return 2
    except DiagnosticException as e:  # the IR does not verify: xDSL shows the op in the IR
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # the input or output file
        place = f"{e.filename}: " if e.filename else ""
        print(f"vichls-opt: error: {place}{e.strerror or e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
