"""The loop-level IR the front end builds: the docs/ir.md subset, affine where the code is
affine, scf elsewhere, source locations on every op, deterministic text, and a lossless
round trip through the .mlir package."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import FileLineColLoc

from vichls.frontend.kernel import load_file
from vichls.frontend.mlir_input import load_mlir, print_module
from vichls.signature import signature_of, top_function

DATA = Path(__file__).parent / "data" / "frontend_kernels.py"
KERNELS = load_file(DATA)

ALLOWED = {
    "builtin.module", "func.func", "func.return", "func.call",
    "affine.for", "affine.load", "affine.store", "affine.yield",
    "scf.for", "scf.while", "scf.if", "scf.yield", "scf.condition",
    "memref.alloca", "memref.load", "memref.store",
    *(f"arith.{n}" for n in ("constant", "addi", "subi", "muli", "divsi", "divui", "remsi",
                             "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "cmpi",
                             "select", "extsi", "extui", "trunci", "index_cast")),
}
NAMES = ["gemm", "triangular", "gather", "search", "divs", "caller"]


def ops(name):
    return list(KERNELS[name].module().walk())


@pytest.mark.parametrize("name", NAMES)
def test_only_the_documented_subset(name):
    m = KERNELS[name].module()
    m.verify()
    assert {op.name for op in m.walk()} <= ALLOWED


@pytest.mark.parametrize("name", NAMES)
def test_every_op_has_a_source_location(name):
    for op in ops(name):
        if op.name == "builtin.module":
            continue
        assert isinstance(op.location, FileLineColLoc), op.name
        assert op.location.filename.data == str(DATA)


def test_affine_where_affine():
    names = {op.name for op in ops("gemm")}
    assert "affine.for" in names and "affine.load" in names and "affine.store" in names
    assert "scf.for" not in names and "memref.load" not in names


def test_triangular_loop_is_affine_with_bound_operands():
    loops = [op for op in ops("triangular") if isinstance(op, (affine.ForOp, scf.ForOp))]
    assert loops and all(isinstance(op, affine.ForOp) for op in loops)
    assert any(op.upperBoundOperands or op.lowerBoundOperands for op in loops)


def test_data_dependent_index_is_memref_load():
    names = [op.name for op in ops("gather")]
    assert "memref.load" in names and "arith.index_cast" in names
    labels = [op.attributes.get("vichls.label") for op in ops("gather") if op.name == "affine.for"]
    assert any(lab is not None and lab.data == "g" for lab in labels)


def test_break_becomes_while():
    names = [op.name for op in ops("search")]
    assert "scf.while" in names and "scf.condition" in names


def test_division_by_constants_needs_no_guards():
    m = KERNELS["divs"].module()
    text = str(m)
    # a // b and a % b share one guarded divsi/remsi pair; // 4 is a shift; % -3 a remsi
    assert text.count("arith.divsi") == 1 and text.count("arith.remsi") == 2


def test_callees_come_first_and_signatures_survive():
    m = KERNELS["caller"].module()
    funcs = [op.sym_name.data for op in m.ops]
    assert funcs == ["helper", "caller"]
    sig = signature_of(top_function(m))
    assert sig == KERNELS["caller"].signature


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_through_text(tmp_path, name):
    text = print_module(KERNELS[name].module())
    p = tmp_path / f"{name}.mlir"
    p.write_text(text)
    again = print_module(load_mlir(p))
    assert again == text


def test_ir_is_deterministic_across_processes():
    code = ("import sys; from vichls.frontend.kernel import load_file; "
            "from vichls.frontend.mlir_input import print_module; "
            f"k = load_file({str(DATA)!r}); "
            f"sys.stdout.write(''.join(print_module(k[n].module()) for n in {NAMES!r}))")
    outs = []
    for seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert outs[0] == outs[1] and "func.func" in outs[0]
