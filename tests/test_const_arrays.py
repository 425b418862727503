"""Constant arrays (``vichls.const``): tables a kernel reads, ROMs in hardware.

The Python call reads the table's values (converted to its element type as an assignment
would); the CPU build reads an LLVM constant and the RTL a ROM module, bit for bit the same,
with and without partitioning (cyclic, block, complete: then the reads at known indices are
constants); a callee may read a table too (inlined, its reads are the top's, one ROM); the
``.mlir`` package carries the values and compiles to the same Verilog; a big table is block
RAM in Yosys, not logic.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vichls
from e2e import Scheduled, assert_outcome, run_batch
from vichls.frontend.kernel import load_file
from vichls.types import ConstArray, fixed, int8, int_, uint64

SOURCE = '''
import numpy as np
import vichls
from vichls import kernel, int32, int8, int16, uint8, uint64, bool_, int_, fixed

W = vichls.const(np.arange(-8, 8).reshape(4, 4), int8)
TAPS = vichls.const([0.5, -1.3, 3.96875, 7.9], fixed(8, 3, quant="rnd", overflow="sat"))
BIG = vichls.const([0, 1, 2**63, 2**64 - 1, 12345678901234567890], uint64)
ODD = vichls.const([-2048, -1, 0, 2047, 5, -7], int_(12))
FLAGS = vichls.const([True, False, True, True], bool_)
LUT = vichls.const(np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.uint8), uint8)


@kernel
def mix(x: int32[4], y: int32[4], f: fixed(16, 6)[4], b: uint64[5], o: int16[6]) -> int32:
    for i in range(4):
        acc: int32 = 0
        for j in range(4):
            acc += W[i, j] * x[j]
        y[i] = acc
        f[i] = TAPS[i] * TAPS[3 - i]
    for k in range(5):
        b[k] = BIG[k] ^ b[k]
    for k in range(6):
        o[k] = ODD[k] * 3
    n: int32 = 0
    for k in range(4):
        if FLAGS[k]:
            n += 1
    return n + W[x[0] & 3, 3]


@kernel
def helper(v: int32) -> int32:
    return LUT[v & 7] + LUT[(v + 1) & 7]


@kernel
def calls(a: int32[8]) -> int32:
    s: int32 = 0
    for i in range(8):
        s += helper(a[i]) * LUT[i]
    return s
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("consts")) / "tables.py"
    path.write_text(SOURCE)
    return load_file(path)


def _mix_args(seed: int):
    rng = np.random.default_rng(seed)
    return (rng.integers(-100, 100, 4, dtype=np.int32), np.zeros(4, dtype=np.int32),
            np.zeros(4), rng.integers(0, 2**63, 5, dtype=np.uint64),
            np.zeros(6, dtype=np.int16))


def test_tables_hold_their_values_converted_to_their_type(kernels):
    assert kernels["TAPS"].values.tolist() == [0.5, -1.3125, 3.96875, 3.96875]  # rnd, sat
    assert kernels["BIG"].raw.tolist()[2:4] == [2**63, 2**64 - 1]
    assert kernels["ODD"].raw.dtype == np.int16 and not kernels["ODD"].raw.flags.writeable
    x, y, f, b, o = _mix_args(1)
    b0 = b.copy()
    n = kernels["mix"](x, y, f, b, o)
    w = np.arange(-8, 8).reshape(4, 4)
    assert y.tolist() == (w @ x.astype(np.int64)).tolist()
    assert f.tolist() == [0.5 * 3.96875, -1.3125 * 3.96875, 3.96875 * -1.3125, 3.96875 * 0.5]
    assert (b == (kernels["BIG"].raw ^ b0)).all()
    assert o.tolist() == [-2048, -3, 0, 2045, 15, -21]  # int_(12) products wrap
    assert n == 3 + w[x[0] & 3, 3]


def _schedules(kernels):
    calls = kernels["calls"]
    out = {"calls": vichls.customize(calls)}
    for kind, factor in (("cyclic", 2), ("block", 4), ("complete", None)):
        s = vichls.customize(calls)
        if kind == "complete":
            s.unroll("i", factor=8)
        s.partition("LUT", dim=1, factor=factor, kind=kind)
        out[f"calls_{kind}"] = s
    return out


def test_cpu_and_rtl_read_what_python_reads(kernels):
    items = [("mix", kernels["mix"], [_mix_args(k) for k in range(3)])]
    for name, s in _schedules(kernels).items():
        a = [np.random.default_rng(k).integers(-2**31, 2**31, 8, dtype=np.int32)
             for k in range(3)]
        items.append((name, Scheduled(s), [(x,) for x in a]))
    for out in run_batch(items).values():
        assert_outcome(out)


def test_one_rom_per_table_and_none_when_partitioned_completely(kernels):
    schedules = _schedules(kernels)
    roms = {name: [ln for ln in s.build(target="fpga").verilog.splitlines()
                   if ln.startswith("module calls_rom_")] for name, s in schedules.items()}
    assert len(roms["calls"]) == 1  # the callee's reads (inlined 1x) and the top's: one ROM
    assert len(roms["calls_cyclic"]) == 2 and len(roms["calls_block"]) == 4
    assert roms["calls_complete"] == []  # every read at a known index: constants


def test_the_package_carries_the_values(kernels, tmp_path):
    from vichls.cli import main

    assert main(["compile", str(Path(kernels["mix"].fn.__code__.co_filename)), "--top", "mix",
                 "-o", str(tmp_path / "a")]) == 0
    assert main(["compile", str(tmp_path / "a" / "mix.mlir"), "-o", str(tmp_path / "b")]) == 0
    assert (tmp_path / "a" / "mix.v").read_bytes() == (tmp_path / "b" / "mix.v").read_bytes()
    text = (tmp_path / "a" / "mix.mlir").read_text()
    assert "dense<[[-8, -7, -6, -5]" in text and 'vichls.type = "uint64"' in text


def test_a_big_table_is_block_ram(tmp_path):
    from vichls.flows.synth import synth_xilinx_resources

    path = tmp_path / "big.py"
    path.write_text(
        "import numpy as np\nimport vichls\nfrom vichls import kernel, int16, int32\n\n"
        "TABLE = vichls.const((np.arange(4096) * 7919) % 65536 - 32768, int16)\n\n\n"
        "@kernel\ndef lookup(idx: int32[64], out: int16[64]):\n    for i in range(64):\n"
        "        out[i] = TABLE[idx[i] & 4095]\n")
    k = load_file(path)["lookup"]
    verilog = vichls.customize(k).build(target="fpga").verilog
    res = synth_xilinx_resources(verilog, "lookup")
    assert res["bram"] >= 2 and res["lut"] < 200, res  # 64 Kb of table: BRAM, not LUTs


@pytest.mark.parametrize("values, element, message", [
    ([1.5, 2.0], int8, "int8 holds integers; the values have fractions"),
    ([[1, 2], [3]], int8, "the values are not an array"),
    (["a", "b"], int8, "the values must be numbers"),
    (7, int8, "must be an array"),
    ([1, 2], 3, "T must be a scalar type"),
    (np.zeros((2, 2, 2, 2, 2)), int8, "arrays have 1 to 4 dimensions"),
])
def test_bad_tables_are_refused_when_made(values, element, message):
    with pytest.raises((ValueError, TypeError), match=message):
        ConstArray(values, element)


def test_values_convert_as_assignment_does():
    assert vichls.const([300, -1], int8).raw.tolist() == [44, -1]  # wrapped
    assert vichls.const([2**64 + 5], uint64).raw.tolist() == [5]
    t = fixed(6, 2, quant="rnd_conv", overflow="sat_sym")
    assert vichls.const([0.09375, -9.0, 100.0], t).values.tolist() == [0.125, -1.9375, 1.9375]
    assert vichls.const([1, 2], int_(3)).type.shape == (2,)


def test_an_error_in_a_dataflow_task_names_the_task_and_its_place(kernels, monkeypatch):
    """Regression: re-raising a task's FpgaError with the task's name was itself a
    TypeError (the fuzzer found it when task modules lost their constant arrays)."""
    from xdsl.dialects.builtin import FileLineColLoc

    import vichls.driver.dataflow as dataflow
    from vichls.errors import FpgaError

    def failing(module, *args, **kwargs):
        op = next(o for o in module.walk() if isinstance(o.location, FileLineColLoc))
        raise FpgaError.at(op, "no hardware for this")

    monkeypatch.setattr(dataflow, "compile_component", failing)
    s = vichls.customize(kernels["mix"]).dataflow()
    with pytest.raises(FpgaError, match=r"no hardware for this \(in dataflow task") as info:
        s.build(target="fpga")
    assert info.value.line is not None and info.value.filename.endswith("tables.py")
