"""The structural dialect's verifiers (vichls/dialects/structural.py): each op where it may
stand, and every group a control op names present, checked on the IR of a summing loop."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import builtin, comb, hw
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from vichls.dialects.structural import Structural

# the structural IR of a summing loop, as to-structural makes it
SOURCE = (Path(__file__).parent / "filecheck" / "control_to_fsm.mlir").read_text()


def _verify(text: str) -> None:
    ctx = Context()
    for dialect in (builtin.Builtin, comb.Comb, hw.HW, Structural):
        ctx.load_dialect(dialect)
    Parser(ctx, text).parse_module().verify()


def test_the_ir_of_to_structural_verifies():
    _verify(SOURCE)


@pytest.mark.parametrize("edit, why", [
    (('structural.enable "grp_3"', 'structural.enable "grp_9"'), "names the group 'grp_9'"),
    (('structural.group_cycle "grp_3" 0', 'structural.group_cycle "grp_7" 0'),
     "names the group 'grp_7'"),
    (('structural.port "A_d0" "out"', 'structural.port "A_ce0" "out"'), "port A_ce0 twice"),
    (('    structural.control {\n      structural.enable "grp_2"\n',
      '    structural.enable "grp_2"\n    structural.control {\n'),
     "must be inside a structural.control"),
    (('    structural.assign %ap_return = %r_13_next : i32\n',
      '    structural.control {\n      structural.enable "grp_2"\n    }\n'
      '    structural.assign %ap_return = %r_13_next : i32\n'),
     "more than one control"),
])
def test_a_misplaced_or_dangling_op_is_refused(edit, why):
    old, new = edit
    assert old in SOURCE
    with pytest.raises(VerifyException, match=re.escape(why)):
        _verify(SOURCE.replace(old, new, 1))


def test_a_port_outside_a_component_is_refused():
    text = 'builtin.module {\n  %p = structural.port "x" "in" : i1\n}\n'
    with pytest.raises(VerifyException, match="structural.component"):
        _verify(text)
