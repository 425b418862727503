"""The loop-level package (``vichls compile --emit loop``) is the whole design: every design
of the regression corpus (with and without directives), the stream and dataflow designs,
the examples and the README's own, printed as MLIR text and read back with the package
loader, compiles to byte-identical Verilog and the same report."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import vichls
from kernels import ALL_CASES
from kernels import streams as ks
from kernels.dataflow import DATAFLOW_SCHEDULES
from vichls.frontend.kernel import kernels_in, load_file
from vichls.frontend.mlir_input import load_mlir, print_module
from vichls.driver.fpga import compile_fpga

ROOT = Path(__file__).resolve().parent.parent

TWICE = '''
from vichls import kernel, stream, int32

@kernel
def scale(x: stream[int32], y: stream[int32, 4], n: int32):
    for i in range(n):
        y.put(x.get() * 3)

@kernel
def twice(x: stream[int32], y: stream[int32], n: int32):
    mid = stream[int32, 8]()
    scale(x, mid, n)
    scale(mid, y, n)
'''


def _designs() -> dict:
    designs = {}
    for case in ALL_CASES:
        designs[case.name] = case.kernel.module
    # with directives: tile, unroll and partition of the first loops that take them
    for case in ALL_CASES:
        for loop in [p[-1][0] for p, _, _ in vichls.frontend.customize.loop_paths(case.kernel.tree().body)]:
            s = vichls.customize(case.kernel).tile(loop, 2)
            try:
                s.module()
            except vichls.errors.DirectiveError:
                continue
            designs[f"{case.name}_tile_{loop}"] = s.module
            break
    concurrent = {ks.chain3.name, ks.producer_consumer.name, ks.emit_take.name}
    for k, _, _ in ks.STREAM_CASES:
        designs[f"streams_{k.name}"] = (vichls.customize(k).dataflow().module
                                        if k.name in concurrent else k.module)
    for name, make in DATAFLOW_SCHEDULES.items():
        designs[f"dataflow_{name}"] = make().module
    for path in sorted((ROOT / "examples").glob("*.py")):
        namespace = load_file(path)
        schedules = [v for v in namespace.values() if isinstance(v, vichls.frontend.customize.Schedule)]
        for k in kernels_in(namespace).values():
            mine = [s for s in schedules if s.kernel is k]
            designs[f"example_{path.stem}_{k.name}"] = mine[0].module if mine else k.module
    return designs


def _readme_designs(tmp: Path) -> dict:
    path = tmp / "twice.py"
    path.write_text(TWICE)
    return {f"readme_{n}": k.module for n, k in kernels_in(load_file(path)).items()}


DESIGNS = _designs()


def _round_trip(module_of, tmp_path):
    module = module_of()
    direct = compile_fpga(module)
    path = tmp_path / "design.mlir"
    path.write_text(print_module(module))
    loaded = load_mlir(path)
    again = compile_fpga(loaded)
    assert again.verilog == direct.verilog
    assert again.report == direct.report
    assert print_module(loaded) == print_module(module)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_package_compiles_to_the_same_design(name, tmp_path):
    _round_trip(DESIGNS[name], tmp_path)


def test_the_readme_stream_example_round_trips(tmp_path):
    for module_of in _readme_designs(tmp_path).values():
        _round_trip(module_of, tmp_path)


def test_the_corpus_is_covered():
    assert len(DESIGNS) > len(ALL_CASES) + 10
    assert sys.getrecursionlimit() >= 1000


def test_every_attribute_a_package_carries_is_the_one_docs_ir_md_names():
    """The package is a contract (docs/ir.md): an attribute renamed in the code (as
    `vichls.dataflow` once was, by a file move) would make older packages compile as
    something else without a word."""
    documented = set(re.findall(r"vichls\.[a-z_]+", (ROOT / "docs" / "ir.md").read_text()))
    used = {name for module_of in DESIGNS.values()
            for name in re.findall(r"\b(vichls\.[a-z_]+) =|\{(vichls\.[a-z_]+)[,}]",
                                   print_module(module_of())) for name in name if name}
    assert "vichls.dataflow" in used
    assert used <= documented, sorted(used - documented)
