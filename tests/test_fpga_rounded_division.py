"""floordivsi / ceildivsi, which xDSL's lower-affine emits for affine maps with floordiv
and ceildiv: by a power of two (a shift) and by other constants or variables (the
divider with a rounding correction), simulated against Python's rounding."""

from __future__ import annotations

import numpy as np
from ir_text import parse

from vichls.flows.sim import SimDesign, build_simulation, icarus_available
from vichls.driver.fpga import compile_fpga
from vichls.signature import signature_of, top_function
from vichls.types import int32

KERNEL = """
builtin.module attributes {{vichls.top = "{name}"}} {{
  func.func @{name}(%a: i32 {{vichls.name = "a", vichls.type = "int32"}},
                    %b: i32 {{vichls.name = "b", vichls.type = "int32"}}) -> i32
      attributes {{vichls.kernel, vichls.ret_type = "int32"}} {{
    %d = {divisor}
    %q = arith.{op} %a, %d : i32
    func.return %q : i32
  }}
}}"""

VARIANTS = {
    "floor_by_4": ("floordivsi", "arith.constant 4 : i32", lambda a, b: a // 4),
    "ceil_by_8": ("ceildivsi", "arith.constant 8 : i32", lambda a, b: -((-a) // 8)),
    "floor_by_3": ("floordivsi", "arith.constant 3 : i32", lambda a, b: a // 3),
    "ceil_by_var": ("ceildivsi", "arith.addi %b, %b : i32", lambda a, b: -((-a) // (2 * b))),
    "floor_by_var": ("floordivsi", "arith.addi %b, %b : i32", lambda a, b: a // (2 * b)),
}


def test_rounded_divisions_match_python():
    designs = {}
    for name, (op, divisor, _) in VARIANTS.items():
        module = parse(KERNEL.format(name=name, op=op, divisor=divisor))
        designs[name] = compile_fpga(module)
        assert signature_of(top_function(module)).name == name
    sim = "icarus" if icarus_available() else "verilator"
    model = build_simulation([SimDesign(d.verilog, d.signature) for d in designs.values()], sim)
    rng = np.random.default_rng(9)
    pairs = [(-9, 2), (9, -2), (-8, 3), (7, 3), (0, 5), (-1, 1)]
    pairs += [(int(rng.integers(-10**6, 10**6)), int(rng.integers(1, 50)) * int(rng.choice([-1, 1])))
              for _ in range(6)]
    results = model.run_many({name: [(a, b) for a, b in pairs] for name in VARIANTS})
    for name, (_, _, expected) in VARIANTS.items():
        got = [r.ret for r in results[name]]
        want = [int32.wrap(expected(a, b)) for a, b in pairs]
        assert got == want, name
