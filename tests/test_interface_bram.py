"""Arrays behind Vitis's ``bram`` interface (interface/bram.py): the port set as UG1399 names
it (byte addresses, a write enable per byte, the memory's clock and reset), lint-clean,
and simulated against a byte-addressed memory model (tests/fixtures/axi/bram_bench.py):
bit-exact against the Python call for a read-only and a write-only array with sub-word
elements, and for a read-write array a pipelined loop serves through two ports."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import vichls
from cocotb_bench import simulate
from vichls.errors import FpgaError
from vichls.flows.lint import lint_verilog
from vichls.frontend.kernel import load_file
from vichls.interface.bram import bram_ports, word_bytes

BENCHES = Path(__file__).resolve().parent / "fixtures" / "axi"

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "interfaces.py"

KERNELS = '''
from vichls import int32, int64, kernel, int_


@kernel
def accumulate(a: int_(12)[32], b: int64[32], k: int32):
    for i in range(32):
        b[i] = b[i] + a[i] * k
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("bram") / "bram_kernels.py"
    path.write_text(KERNELS)
    return {**load_file(path), "scaled_sum": load_file(EXAMPLE)["scaled_sum"]}


def test_word_bytes_round_elements_to_whole_power_of_two_bytes():
    assert [word_bytes(w) for w in (1, 8, 9, 12, 16, 17, 32, 33, 64)] == [1, 1, 2, 2, 2, 4, 4,
                                                                           8, 8]
    assert bram_ports("A", 12, 1) == [
        ("A_Addr_A", "out", 32), ("A_EN_A", "out", 1), ("A_WEN_A", "out", 2),
        ("A_Din_A", "out", 16), ("A_Dout_A", "in", 16), ("A_Clk_A", "out", 1),
        ("A_Rst_A", "out", 1)]


def _words(values, width):
    return [int(v) & ((1 << (8 * word_bytes(width))) - 1) & ((1 << width) - 1) for v in values]


def _bench(tmp_path, design, top, cases):
    (tmp_path / f"{top}.v").write_text(design.deliverable)
    simulate(tmp_path, [tmp_path / f"{top}.v"], top, "bram_bench", benches=BENCHES,
             env={"BRAM_CASES": json.dumps(cases)})


def test_read_only_and_write_only_arrays_through_bram(kernels, tmp_path):
    k = kernels["scaled_sum"]
    s = vichls.customize(k)
    s.interface("x", "bram")
    s.interface("y", "bram")
    design = s.build("fpga")
    names = [p["name"] for p in design.report["interface"]["ports"]]
    assert [n for n in names if n.startswith("x_")] == [n for n, _, _ in bram_ports("x", 8, 1)]
    assert [n for n in names if n.startswith("y_")] == [n for n, _, _ in bram_ports("y", 32, 1)]
    assert "ap_rst" in names and "ap_start" in names
    assert lint_verilog(design.deliverable, "scaled_sum") == []
    table = {e["argument"]: e for e in design.report["interface"]["protocols"]}
    assert table["x"]["mode"] == "bram" and "x_Addr_A" in table["x"]["ports"]
    rng = np.random.default_rng(5)
    cases = []
    for n in (16, 7, 0):
        x = rng.integers(-128, 128, 16).astype(np.int8)
        y = rng.integers(-2**31, 2**31, 16).astype(np.int32)
        y_out = y.copy()
        ret = int(k(x, y_out, -12345, n))
        cases.append({"scalars": {"scale": -12345 & (2**64 - 1), "n": n},
                      "arrays": {"x": {"bytes": 1, "words": _words(x, 8)},
                                 "y": {"bytes": 4, "words": _words(y, 32)}},
                      "expect": {"x": _words(x, 8), "y": _words(y_out, 32)},
                      "return": ret & (2**64 - 1)})
    _bench(tmp_path, design, "scaled_sum", cases)


def test_a_read_write_array_on_two_bram_ports(kernels, tmp_path):
    k = kernels["accumulate"]
    s = vichls.customize(k)
    s.interface("a", "bram")
    s.interface("b", "bram")
    s.pipeline("i")
    design = s.build("fpga")
    names = [p["name"] for p in design.report["interface"]["ports"]]
    assert "b_Addr_B" in names and "b_Dout_B" in names  # the pipeline reads and writes b
    assert lint_verilog(design.deliverable, "accumulate") == []
    rng = np.random.default_rng(6)
    cases = []
    for kk in (3, -1000):
        a = rng.integers(-2048, 2048, 32).astype(np.int16)
        b = rng.integers(-2**63, 2**63, 32, dtype=np.int64)
        b_out = b.copy()
        k(a, b_out, kk)
        cases.append({"scalars": {"k": kk & 0xFFFFFFFF},
                      "arrays": {"a": {"bytes": 2, "words": _words(a, 12)},
                                 "b": {"bytes": 8, "words": _words(b, 64)}},
                      "expect": {"b": _words(b_out, 64)}, "return": None})
    _bench(tmp_path, design, "accumulate", cases)


def test_a_partitioned_array_is_refused_behind_bram(kernels):
    s = vichls.customize(kernels["accumulate"])
    s.interface("a", "bram")
    s.partition("a", dim=1, factor=2, kind="cyclic")
    with pytest.raises(FpgaError, match="partitioned array"):
        s.build("fpga")
