"""analysis/value_ranges.py, transforms/fpga/narrow_compares.py and transforms/fpga/narrow_arithmetic.py: the
ranges of loop-derived values; compares and sums, differences and products cut to the bits
those ranges need, never where a value may wrap or is unknown, nor an unsigned compare of
values that may be negative. The corpus kernel ``ranged_bounds`` runs Python ≡ CPU ≡ RTL
with every other corpus kernel; here its compares, products and loop counters. The narrow
pass on IR text: tests/filecheck/narrow*.mlir."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.parser import Parser

from vichls.driver.fpga import compile_fpga, prepare
from vichls.transforms.fpga.narrow_arithmetic import narrow_arithmetic
from vichls.analysis.value_ranges import ValueRanges, signed_bits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import case_by_name  # noqa: E402

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")

#: merge-sort-like loops: a stage counter, a width 1 << stage, an inner i64 loop up to it
IR = """
builtin.module {
  func.func @f(%n: i32, %m: memref<64xi32>) {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %big = arith.constant 2147483647 : i32
    %s1 = arith.constant 1 : i64
    %z = arith.constant 0 : i64
    scf.for %stage = %c0 to %c6 step %c1 {
      %st = arith.index_cast %stage : index to i32
      %w = arith.shli %one, %st : i32
      %hi = arith.extsi %w : i32 to i64
      scf.for %k = %z to %hi step %s1 : i64 {
        %k1 = arith.addi %k, %s1 : i64
        %t = arith.cmpi slt, %k1, %hi : i64
        %u = arith.cmpi ult, %k1, %hi : i64
        %ki = arith.trunci %k : i64 to i32
        %d = arith.cmpi slt, %ki, %n : i32
        %p = arith.muli %ki, %big : i32
        %q = arith.cmpi slt, %p, %one : i32
        %neg = arith.subi %ki, %c32 : i32
        %r = arith.cmpi ult, %neg, %one : i32
        %s = arith.cmpi sgt, %neg, %ki : i32
        %sh = arith.shrsi %w, %st : i32
        %e = arith.cmpi eq, %sh, %one : i32
        %keep = arith.select %t, %ki, %n : i32
        %x = arith.cmpi sle, %keep, %one : i32
        %area = arith.muli %ki, %w : i32
        %wrapping = arith.addi %p, %one : i32
        "test.use"(%u, %d, %q, %r, %s, %e, %x) : (i1, i1, i1, i1, i1, i1, i1) -> ()
        "test.keep"(%area, %wrapping, %neg) : (i32, i32, i32) -> ()
      }
    }
    func.return
  }
}
"""


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context(allow_unregistered=True)
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef):
        ctx.load_dialect(d)
    return Parser(ctx, text).parse_module()


def named(module) -> dict:
    values = {}
    for op in module.walk():
        values.update({r.name_hint: r for r in op.results if r.name_hint})
        for region in op.regions:
            for block in region.blocks:
                values.update({a.name_hint: a for a in block.args if a.name_hint})
    return values


def compares(module) -> list[tuple[str, str]]:
    return [(str(op.lhs.type), PREDICATES[op.predicate.value.data])
            for op in module.walk() if isinstance(op, arith.CmpiOp)]


def test_signed_bits():
    assert signed_bits(0, 0) == 1 and signed_bits(-1, 0) == 1
    assert signed_bits(0, 1) == 2 and signed_bits(-2, 1) == 2
    assert signed_bits(1, 32) == 7 and signed_bits(-32, 31) == 6 and signed_bits(-33, 0) == 7
    assert signed_bits(-(1 << 31), (1 << 31) - 1) == 32


def test_ranges_follow_loops_shifts_and_arithmetic():
    module = parse(IR)
    values = named(module)
    ranges = ValueRanges()
    got = {name: ranges.of(values[name]) for name in
           ("st", "w", "hi", "k", "k1", "ki", "neg", "sh", "keep")}
    assert got == {"st": (0, 5), "w": (1, 32), "hi": (1, 32), "k": (0, 31), "k1": (1, 32),
                   "ki": (0, 31), "neg": (-32, -1), "sh": (0, 32),
                   "keep": (-(1 << 31), (1 << 31) - 1)}
    # a product that may wrap, and a parameter, have their type's whole range
    assert ranges.of(values["p"]) == (-(1 << 31), (1 << 31) - 1)
    assert ranges.known(values["p"]) is None and ranges.known(values["n"]) is None
    assert ranges.known(values["k"]) == (0, 31)


MASKS = """
builtin.module {
  func.func @f(%n: index, %m: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c20 = arith.constant 20 : index
    %c80 = arith.constant 80 : index
    %cm4 = arith.constant -4 : i32
    scf.for %t = %c0 to %c80 step %c1 {
      %low = arith.andi %t, %c1 : index
      %col = arith.muli %low, %c20 : index
      %any = arith.andi %n, %c7 : index
      %row = arith.divui %t, %c20 : index
      %rem = arith.remui %t, %c7 : index
      %signed = arith.andi %m, %cm4 : i32
      "test.use"(%col, %any, %row, %rem, %signed) : (index, index, index, index, i32) -> ()
    }
    func.return
  }
}
"""


def test_ranges_of_masks_and_unsigned_divisions():
    """``t & 1`` (a flattened loop's inner counter) is 0..1, so ``(t & 1) * 20`` is 0..20;
    a mask bounds any value; ``t / 20`` and ``t % 7`` of a counter in 0..79 are 0..3 and
    0..6; a negative mask says nothing."""
    values = named(parse(MASKS))
    ranges = ValueRanges()
    got = {name: ranges.of(values[name]) for name in ("low", "col", "any", "row", "rem")}
    assert got == {"low": (0, 1), "col": (0, 20), "any": (0, 7), "row": (0, 3), "rem": (0, 6)}
    assert ranges.known(values["signed"]) is None


def test_ranged_corpus_kernel_gets_narrow_compares_and_counters():
    case = case_by_name("ranged_bounds")
    top, _ = prepare(case.kernel.module(), 10.0)
    wide = sorted(kind for kind in compares(top) if kind[0] == "i32")
    # a[k] < a[high - 1], n < i, i * 2**30 < 5 (wraps), d < 4 (unsigned, d may be negative)
    assert wide == [("i32", "slt")] * 3 + [("i32", "ult")], compares(top)
    assert not [kind for kind in compares(top) if kind[0] == "i64"]
    verilog = compile_fpga(case.kernel.module()).verilog
    # block < 32 and k < 2048: the counters of the data-bounded loops are 7 and 13 bits
    assert "vichls_reg #(.WIDTH(7)) block_" in verilog
    assert "vichls_reg #(.WIDTH(13)) k_" in verilog
    # block * 2 * width (at most 1984) and the like are products of at most 13 bits; two
    # stay 32-bit: i * 2**30, which wraps, and out[i] * 3, which reads data
    widths = sorted(int(m) + 1 for m in re.findall(r"wire \[(\d+):0\] \w+ = .* \* ", verilog))
    assert len(widths) > 4 and widths[-2:] == [32, 32] and widths[-3] <= 13, widths


def test_arithmetic_is_narrowed_where_its_result_fits():
    module = parse(IR)
    narrow_arithmetic(module)
    module.verify()
    kept = next(op for op in module.walk() if len(op.operands) == 3 and not op.results
                and not isinstance(op, (scf.ForOp, memref.StoreOp)))
    area, wrapping, neg = (v.owner for v in kept.operands)
    # 0..31 * 1..32: 0..992 fits 11 signed bits; the product is taken there, then extended
    assert isinstance(area, arith.ExtSIOp) and str(area.input.type) == "i11"
    assert isinstance(area.input.owner, arith.MuliOp)
    assert isinstance(wrapping, arith.AddiOp) and str(wrapping.result.type) == "i32"
    # -32..-1 fits 6 bits (26 saved), the i64 k + 1 (1..32) fits 7
    assert isinstance(neg, arith.ExtSIOp) and str(neg.input.type) == "i6"
    k1 = named(module)["k1"]
    assert isinstance(k1.owner, arith.ExtSIOp) and str(k1.owner.input.type) == "i7"
    # a fresh analysis of the narrowed IR stays sound (32 does not fit 6 signed bits, so
    # ki - 32 is only known to be some 6-bit value; the pass itself kept -32..-1)
    ranges = ValueRanges()
    assert ranges.of(area.result) == (0, 992) and ranges.of(neg.result) == (-32, 31)


FIXED = """
builtin.module {
  func.func @f(%x: i16, %y: i16) {
    %b = arith.constant -59 : i16
    %bw = arith.extsi %b : i16 to i37
    %ten = arith.constant 10 : i37
    %bias = arith.shli %bw, %ten : i37
    %down = arith.shrsi %bw, %ten : i37
    %w = arith.constant -181 : i16
    %xw = arith.extsi %x : i16 to i32
    %ww = arith.extsi %w : i16 to i32
    %yu = arith.extui %y : i16 to i32
    %p = arith.muli %xw, %ww : i32
    %q = arith.muli %yu, %ww : i32
    "test.keep"(%bias, %down, %p, %q) : (i37, i37, i32, i32) -> ()
    func.return
  }
}
"""


def test_shifts_of_negative_values_are_ranged():
    """A negative constant shifted left (a fixed-point bias aligned to its accumulator) or
    right arithmetically keeps an exact range, so the sums it enters can be narrowed."""
    values = named(parse(FIXED))
    ranges = ValueRanges()
    assert ranges.of(values["bias"]) == (-59 * 1024, -59 * 1024)
    assert ranges.of(values["down"]) == (-1, -1)  # floor(-59 / 1024)


def test_narrowed_products_keep_their_operands_extended():
    """A product narrowed below the width its operands were extended to (a fixed-point
    product of two 16-bit values in 32 bits, whose result needs fewer) takes them extended
    from their sources, not truncated from the extension: the scheduler and the builder
    then see a 16 x 16-bit product, one DSP block (list_schedule.mul_operand_width)."""
    module = parse(FIXED)
    narrow_arithmetic(module)
    module.verify()
    products = [op for op in module.walk() if isinstance(op, arith.MuliOp)]
    assert len(products) == 2
    for product in products:
        assert product.result.type.width.data < 32
        assert not any(isinstance(v.owner, arith.TruncIOp) for v in product.operands)
    signed, unsigned = products
    assert [type(v.owner) for v in signed.operands] == [arith.ExtSIOp, arith.ExtSIOp]
    assert [str(v.owner.input.type) for v in signed.operands] == ["i16", "i16"]
    assert [type(v.owner) for v in unsigned.operands] == [arith.ExtUIOp, arith.ExtSIOp]
    from vichls.scheduling.list_schedule import mul_operand_width

    assert mul_operand_width(signed) == 16 and mul_operand_width(unsigned) == 17
