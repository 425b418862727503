"""The vichls dialect's attributes (vichls/dialects/attributes.py): declared once, spelled
nowhere else, and kept valid by every pass of the FPGA and CPU flows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kernels import ALL_CASES
from kernels.dataflow import DATAFLOW_SCHEDULES
from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.utils.exceptions import VerifyException

import vichls.passes.pipelines as pipelines
from vichls.dialects.attributes import ATTRIBUTES, verify_attributes
from vichls.driver.cpu import compile_cpu
from vichls.driver.fpga import compile_fpga

SRC = Path(__file__).resolve().parent.parent / "src" / "vichls"


def test_no_attribute_is_spelled_outside_its_declaration():
    spelled = []
    for path in SRC.rglob("*.py"):
        if path.name == "attributes.py" and path.parent.name == "dialects":
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            for name in re.findall(r"[\"'](vichls\.[a-z_]+)[\"']", line):
                # (package names, and the IP vendor's domain in the vendor packages)
                if not re.match(r"vichls\.(frontend|transforms|analysis|scheduling|passes|cpu|"
                                r"conversion|structural|driver|backend|targets|dialects|flows|"
                                r"dse|fuzz|bench|interface|org)$", name):
                    spelled.append(f"{path.relative_to(SRC)}:{k}: {name}")
    assert not spelled, spelled


def _verifying(monkeypatch) -> list[str]:
    """Verify the attributes before and after every pass the drivers run; returns the
    names of the passes seen."""
    seen = []
    run = pipelines.run_passes

    def checked(passes, module):
        verify_attributes(module)
        for p in passes:
            run([p], module)
            verify_attributes(module)
            seen.append(p.name)

    monkeypatch.setattr(pipelines, "run_passes", checked)
    return seen


@pytest.mark.parametrize("case", ALL_CASES[::3], ids=lambda c: c.name)
def test_every_pass_keeps_the_attributes_valid(case, monkeypatch):
    seen = _verifying(monkeypatch)
    compile_fpga(case.kernel.module())
    compile_cpu(case.kernel.module())
    assert {"schedule", "control-to-fsm", "vichls-cpu-func-to-llvm"} <= set(seen)


def test_every_pass_keeps_the_attributes_of_a_dataflow_design_valid(monkeypatch):
    _verifying(monkeypatch)
    for make in DATAFLOW_SCHEDULES.values():
        compile_fpga(make().module())


def _module_with(attribute: str, value, on_loop: bool = False):
    module = ALL_CASES[0].kernel.module()
    op = next(op for op in module.walk()
              if (op.name == "affine.for") == on_loop and op.name.startswith(("arith", "affine")))
    op.attributes[attribute] = value
    return module


@pytest.mark.parametrize("attribute, value, on_loop, why", [
    ("vichls.bogus", UnitAttr(), False, "is not an attribute of the vichls dialect"),
    ("vichls.cycle", StringAttr("3"), False, "should be of base attribute integer"),
    ("vichls.ii", IntegerAttr(2, i64), False, "cannot be on an op (only on loop)"),
])
def test_a_bad_attribute_is_refused(attribute, value, on_loop, why):
    with pytest.raises(VerifyException, match=re.escape(why)):
        verify_attributes(_module_with(attribute, value, on_loop))


def test_a_good_one_passes_and_every_declaration_is_documented():
    verify_attributes(_module_with("vichls.ii", IntegerAttr(2, i64), on_loop=True))
    assert all(decl.doc and decl.carriers for decl in ATTRIBUTES.values())
