"""Interface directives (s.interface) and the adapters they put around a design.

The directive's checks and its travel through the .mlir package; the delivered module's
ports as the contract names them (docs/hardware-interface.md, version 2), lint-clean; the
s_axilite register file driven by cocotbext-axi's AxiLiteMaster under random pauses on
every channel, through the generated Python driver, bit-exact against the Python call;
the interrupt; the generated C driver compiled; ap_ctrl_chain, ap_ctrl_none and ap_vld
adapters simulated by a cocotb bench of their own.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import vichls
from cocotb_bench import maxi_bench, simulate
from vichls.cli import main
from vichls.errors import DirectiveError, FpgaError
from vichls.flows.lint import lint_verilog
from vichls.frontend.kernel import load_file
from vichls.interface.drivers import c_driver, camel, hw_header, python_driver
from vichls.interface.maxi import maxi_adapter
from vichls import int32

BENCHES = Path(__file__).resolve().parent / "fixtures" / "axi"

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "interfaces.py"


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return load_file(EXAMPLE)


def _axilite(kernel, names, bundle="control"):
    s = vichls.customize(kernel)
    for name in names:
        s.interface(name, "s_axilite", bundle=bundle)
    return s


# -- the directive ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, options, message", [
    (("c", "s_axilite"), {}, "has no parameter 'c'"),
    (("a", "m_axi"), {}, "does not fit scalar parameter 'a'"),
    (("return", "axis"), {}, "does not fit the block control"),
    (("a", "s_axilite"), {"bundle": "1x"}, "bundle must be a name"),
    (("a", "ap_none"), {"depth": 3}, "ap_none has no option 'depth'"),
])
def test_a_bad_interface_directive_is_refused_at_its_line(kernels, args, options, message):
    s = vichls.customize(kernels["gcd"])
    with pytest.raises(DirectiveError) as e:
        s.interface(*args, **options)
    assert message in str(e.value) and e.value.line is not None


@pytest.mark.parametrize("args, options, message", [
    (("x", "m_axi"), {"max_burst": 300}, "max_burst=300"),
    (("x", "m_axi"), {"data_width": 48}, "data_width=48"),
    (("x", "m_axi"), {"depth": 8}, "depth=8 is smaller"),
    (("x", "m_axi"), {"offset": "far"}, "offset must be one of"),
    (("y", "s_axilite"), {}, "does not fit array parameter 'y'"),
])
def test_m_axi_options_are_checked(kernels, args, options, message):
    s = vichls.customize(kernels["scaled_sum"])
    with pytest.raises(DirectiveError, match=message):
        s.interface(*args, **options)


def test_axis_ports_as_the_contract_names_them(kernels):
    s = vichls.customize(kernels["scale"])
    s.interface("x", "axis")
    s.interface("y", "axis", last=True)
    design = s.build("fpga")
    names = [p["name"] for p in design.report["interface"]["ports"]]
    assert names == ["ap_clk", "ap_rst_n", "ap_start", "ap_done", "ap_idle", "ap_ready",
                     "x_TDATA", "x_TVALID", "x_TREADY", "y_TDATA", "y_TVALID", "y_TREADY",
                     "y_TLAST", "n"]
    assert lint_verilog(design.deliverable, "scale") == []


@pytest.mark.parametrize("pause", [False, True])
def test_axis_streams_frame_by_frame(kernels, tmp_path, pause):
    """A pipelined stream kernel behind axis ports: every call's output is one frame whose
    TLAST is on its last element, under random pauses on both sides; without pauses one
    element a cycle moves through (the figure: cycles from the first input transfer to the
    last output transfer)."""
    k = kernels["scale"]
    s = vichls.customize(k)
    s.interface("x", "axis")
    s.interface("y", "axis", last=True)
    s.pipeline("i")
    design = s.build("fpga")
    rng = np.random.default_rng(11)
    cases = []
    for n in (5, 1, 0, 64, 17):
        x = [int(v) for v in rng.integers(-2**31, 2**31, n)]
        xs, ys = vichls.stream[int32](x), vichls.stream[int32]([])
        k(xs, ys, n)
        cases.append({"n": n, "x": x, "y": [int(v) for v in ys]})
    (tmp_path / "scale.v").write_text(design.deliverable)
    result = tmp_path / "spans.json"
    simulate(tmp_path, [tmp_path / "scale.v"], "scale", "axis_bench", benches=BENCHES,
             env={"AXIS_CASES": json.dumps(cases), "AXIS_PAUSE": "1" if pause else "0",
                  "AXIS_RESULT": str(result)})
    if not pause:
        spans = dict(json.loads(result.read_text()))
        # one element a cycle: the 64-element call spans 64 cycles and the pipeline's fill
        assert spans[64] - 64 <= design.report["loops"][0]["depth"] + 6, spans


@pytest.mark.parametrize("requests, message", [
    # (several arrays a bundle are built: interface/interconnect.py; x's int8 elements go
    # on a 32-bit bus as y's int32 do, but not beside a 64-bit bus)
    ([("y", "m_axi", {"data_width": 64}), ("x", "m_axi", {})],
     "'y', 'm_axi'.*'x' in that bundle is on a 32-bit bus, 'y' on a 64-bit one"),
])
def test_adapters_not_built_yet_are_refused_at_build(kernels, requests, message):
    s = vichls.customize(kernels["scaled_sum"])
    for name, mode, options in requests:
        s.interface(name, mode, **options)
    with pytest.raises(FpgaError, match=message):
        s.build("fpga")


def test_a_control_bundle_without_argument_registers_lints_clean(kernels):
    # (regression) only ap_return in the bundle: no register takes WDATA, whose unused
    # bits and byte-enable mask were lint warnings
    s = vichls.customize(kernels["scaled_sum"])
    s.interface("return", "s_axilite")
    assert lint_verilog(s.build("fpga").deliverable, "scaled_sum") == []


def test_without_interface_directives_the_core_is_the_deliverable(kernels):
    design = vichls.customize(kernels["gcd"]).build("fpga")
    assert design.deliverable == design.verilog and not design.register_maps


# -- s_axilite -------------------------------------------------------------------------------

def test_the_s_axilite_register_map_is_vitis_layout(kernels):
    design = _axilite(kernels["scaled_sum"], ["scale", "n", "return"]).build("fpga")
    (regmap,) = design.register_maps.values()
    assert regmap.control
    assert [(r.name, r.offset, r.width) for r in regmap.registers] == [
        ("ap_return", 0x10, 64), ("scale", 0x1C, 64), ("n", 0x28, 8)]
    names = {p["name"] for p in design.report["interface"]["ports"]}
    assert {"ap_clk", "ap_rst_n", "interrupt", "s_axi_control_AWADDR", "s_axi_control_BRESP",
            "x_address0", "x_q0", "y_d0"} <= names
    assert not names & {"ap_rst", "ap_start", "ap_done", "ap_return", "scale", "n"}
    table = {e["argument"]: e for e in design.report["interface"]["protocols"]}
    assert table["scale"] == {"argument": "scale", "mode": "s_axilite", "bundle": "control",
                              "ports": [], "offset": "0x1c"}
    assert table["x"]["ports"] == ["x_address0", "x_ce0", "x_q0"]  # only read
    assert table["y"]["ports"] == ["y_address0", "y_ce0", "y_we0", "y_d0"]  # only written
    assert lint_verilog(design.deliverable, "scaled_sum") == []


def test_the_package_keeps_the_directives(kernels, tmp_path, capsys):
    s = _axilite(kernels["gcd"], ["a", "b", "return"])
    path = tmp_path / "gcd.mlir"
    from xdsl.printer import Printer
    import io

    text = io.StringIO()
    Printer(stream=text).print_op(s.module())
    path.write_text(text.getvalue())
    assert main(["compile", str(path), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "gcd.v").read_text() == s.build("fpga").deliverable
    for name in ("xgcd_hw.h", "gcd_driver.py", "xgcd.h", "xgcd.c"):
        assert (tmp_path / "out" / name).exists(), name
    bad = text.getvalue().replace('name = "b", mode = "s_axilite"', 'name = "b", mode = "m_axi"')
    (tmp_path / "bad.mlir").write_text(bad)
    capsys.readouterr()
    assert main(["compile", str(tmp_path / "bad.mlir"), "-o", str(tmp_path / "bad")]) == 2
    assert "does not fit scalar parameter 'b'" in capsys.readouterr().err


def test_compile_writes_the_packages_asked_for(kernels, tmp_path, capsys):
    path = EXAMPLE  # its schedule of gcd puts a, b and the control in s_axilite
    out = tmp_path / "out"
    assert main(["compile", str(path), "--top", "gcd", "-o", str(out), "--package", "all"]) == 0
    for name in ("gcd.v", "ip/component.xml", "ip/hdl/gcd.v", "gcd.core", "gcd_hw.tcl",
                 "xgcd_hw.h", "gcd_driver.py"):
        assert (out / name).is_file(), name
    assert (out / "ip" / "hdl" / "gcd.v").read_text() == (out / "gcd.v").read_text()
    with pytest.raises(SystemExit) as e:
        main(["compile", str(path), "--top", "gcd", "-o", str(out), "--package", "vhdl"])
    assert e.value.code == 2 and "unknown package kind 'vhdl'" in capsys.readouterr().err


def test_the_c_driver_compiles_and_the_header_names_every_register(kernels, tmp_path):
    design = _axilite(kernels["scaled_sum"], ["scale", "n", "return"]).build("fpga")
    header = hw_header("scaled_sum", design.register_maps)
    for macro in ("XSCALED_SUM_CONTROL_ADDR_AP_CTRL 0x00", "XSCALED_SUM_CONTROL_ADDR_ISR 0x0c",
                  "XSCALED_SUM_CONTROL_ADDR_AP_RETURN 0x10", "XSCALED_SUM_CONTROL_BITS_AP_RETURN 64",
                  "XSCALED_SUM_CONTROL_ADDR_SCALE_DATA 0x1c", "XSCALED_SUM_CONTROL_BITS_N_DATA 8"):
        assert f"#define {macro}\n" in header, macro
    h, c = c_driver("scaled_sum", design.register_maps)
    (tmp_path / "xscaled_sum_hw.h").write_text(header)
    (tmp_path / "xscaled_sum.h").write_text(h)
    (tmp_path / "xscaled_sum.c").write_text(c)
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.fail("no C compiler (the README's quick start needs one)")
    proc = subprocess.run([gcc, "-Wall", "-Wextra", "-Werror", "-c", "xscaled_sum.c"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "uint64_t XScaledSum_Get_return(uintptr_t base);" in h
    assert "void XScaledSum_Set_scale(uintptr_t base, uint64_t value);" in h


def _bench(tmp_path, design, top, cases, arrays=None):
    (tmp_path / f"{top}.v").write_text(design.deliverable)
    driver = tmp_path / f"{top}_driver.py"
    driver.write_text(python_driver(top, design.signature, design.register_maps))
    simulate(tmp_path, [tmp_path / f"{top}.v"], top, "axilite_bench", benches=BENCHES,
             env={"AXI_CASES": json.dumps(cases), "AXI_DRIVER": str(driver),
                  "AXI_CLASS": f"{camel(top)}Driver", "AXI_ARRAYS": json.dumps(arrays or {})})


def test_gcd_through_s_axilite_and_the_python_driver(kernels, tmp_path):
    k = kernels["gcd"]
    rng = np.random.default_rng(3)
    pairs = [(12, 18), (-7, 21), (1 << 30, 6), (0, 5)] + \
        [tuple(int(v) for v in rng.integers(-10**6, 10**6, 2)) for _ in range(4)]
    cases = [{"args": {"a": a, "b": b}, "expect": int(k(a, b))} for a, b in pairs]
    _bench(tmp_path, _axilite(k, ["a", "b", "return"]).build("fpga"), "gcd", cases)


def test_64_bit_arguments_and_arrays_beside_s_axilite(kernels, tmp_path):
    k = kernels["scaled_sum"]
    rng = np.random.default_rng(5)
    cases = []
    for n, scale in [(16, 3), (5, -(1 << 40) + 7), (0, 9), (11, (1 << 62) - 1)]:
        x = rng.integers(-128, 128, 16).astype(np.int8)
        y = np.zeros(16, np.int32)
        expect = int(k(x, y, scale, n))
        cases.append({"args": {"scale": scale, "n": n},
                      "arrays": {"x": [int(v) & 0xFF for v in x], "y": [0] * 16},
                      "expect": expect,
                      "expect_arrays": {"y": [int(v) & 0xFFFFFFFF for v in y]}})
    design = _axilite(k, ["scale", "n", "return"]).build("fpga")
    _bench(tmp_path, design, "scaled_sum", cases, arrays={"x": [16, 8], "y": [16, 32]})


# -- block control and ap_vld without AXI -----------------------------------------------------

@pytest.mark.parametrize("mode", ["ap_ctrl_chain", "ap_vld"])
def test_chain_and_ap_vld_adapters(kernels, tmp_path, mode):
    s = vichls.customize(kernels["add_held"])
    if mode == "ap_ctrl_chain":
        s.interface("return", "ap_ctrl_chain")
    else:
        s.interface("a", "ap_vld")
    design = s.build("fpga")
    names = [p["name"] for p in design.report["interface"]["ports"]]
    assert "ap_rst" in names and "ap_rst_n" not in names
    assert ("ap_continue" in names) == (mode == "ap_ctrl_chain")
    assert ("a_ap_vld" in names) == (mode == "ap_vld")
    assert lint_verilog(design.deliverable, "add_held") == []
    (tmp_path / "add_held.v").write_text(design.deliverable)
    simulate(tmp_path, [tmp_path / "add_held.v"], "add_held", "control_bench", benches=BENCHES,
             env={"CONTROL_MODE": mode})


def test_ap_ctrl_none_refuses_a_kernel_that_returns(kernels):
    s = vichls.customize(kernels["add_held"])
    s.interface("return", "ap_ctrl_none")
    with pytest.raises(FpgaError, match="returns a value"):
        s.build("fpga")


# -- m_axi -----------------------------------------------------------------------------------

MAXI = '''
from vichls import int16, int32, int64, int_, kernel, uint8


@kernel
def vscale(a: int32[64], b: int32[64], k: int32):
    for i in range(64):
        b[i] = a[i] * k + b[i]


@kernel
def prefixed(a: int32[8], a_b: int32[8]):
    for i in range(8):
        a_b[i] = a[i] + 1


@kernel
def mix(a: int32[600], b: int32[600], h: int32[256], x: int32[64]) -> int32:
    for i in range(600):  # a sequential copy: reads and writes streaming
        b[i] = a[i] + 1
    for j in range(64):  # random writes into b, just written
        b[(x[j] >> 20) & 511] = j
    for m in range(64):  # random read-modify-write of h (gather and scatter)
        t = x[m] & 255
        h[t] = h[t] + b[m]
    for k in range(1, 256):  # in place, each word read right after it is written
        h[k] = h[k] + h[k - 1]
    for p in range(120):  # writes ahead of the reads: words not asked for yet
        h[(p + 40) & 255] = h[p] ^ p
    for q in range(120):  # writes just ahead of the reads: words asked for, not come yet
        h[q + 3] = h[q] - q
    total: int32 = 0
    for n in range(64):  # random reads of words written before
        total += h[(x[n] >> 8) & 255] ^ b[(x[n] >> 12) & 511]
    return total


@kernel
def gather(a: int64[32], idx: int32[16], out: int64[16]) -> int64:
    total: int64 = 0
    for j in range(16):
        v = a[idx[j] & 31]
        out[15 - j] = v
        total += v
    return total


@kernel
def scatter(idx: int32[16], out: int32[64]):
    for j in range(16):
        out[idx[j] & 63] = j * 3 + 1


@kernel
def narrow(a: uint8[203], b: int16[101], c: int16[40]) -> int32:
    for i in range(101):  # sequential: two bytes of a read, an int16 of b written, a step
        b[i] = int16(a[2 * i]) - int16(a[2 * i + 1])
    total: int32 = 0
    for j in range(40):  # random reads, and read-modify-writes of narrow elements
        t = a[(j * 37) % 203]
        c[t % 40] = c[t % 40] + b[t % 101]
        total += int32(c[j])
    return total


@kernel
def odd(a: int_(12)[8], b: int32[8]):
    for i in range(8):
        b[i] = int32(a[i])
'''


@pytest.fixture(scope="module")
def maxi_kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("maxi") / "maxi.py"
    path.write_text(MAXI)
    return load_file(path)


def _maxi(kernel, arrays, scalars, pipeline=None, max_burst=16, data_width=None):
    s = vichls.customize(kernel)
    for k, name in enumerate(arrays):
        width = data_width.get(name, 0) if isinstance(data_width, dict) else data_width or 0
        s.interface(name, "m_axi", bundle=f"gmem{k}", max_burst=max_burst, data_width=width)
    for name in [*scalars, "return"]:
        s.interface(name, "s_axilite")
    if pipeline:
        s.pipeline(pipeline)
    return s


def _maxi_bench(tmp_path, design, top, spec, pause, check=()):
    return maxi_bench(tmp_path, design, top, spec, pause, check)


def test_m_axi_sequential_arrays_in_bursts(maxi_kernels, tmp_path):
    """a and b in memory, read and written in bursts of up to 16 beats (one base address
    puts b across a 4 KiB boundary), without and then under random pauses on every channel
    of both memories (one build); results bit-exact against the Python call."""
    k = maxi_kernels["vscale"]
    design = _maxi(k, ["a", "b"], ["k"], pipeline="i").build("fpga")
    names = {p["name"] for p in design.report["interface"]["ports"]}
    assert {"m_axi_gmem0_ARADDR", "m_axi_gmem0_RLAST", "m_axi_gmem1_AWLEN", "m_axi_gmem1_BID",
            "m_axi_gmem1_WID", "s_axi_control_AWADDR", "interrupt"} <= names
    assert not any(n.startswith(("a_", "b_")) for n in names)
    assert lint_verilog(design.deliverable, "vscale") == []
    rng = np.random.default_rng(9)
    cases = []
    for pause, base_a, base_b, kk in [(False, 0x100, 0x0F80, 3), (False, 0x2000, 0x3040, -7),
                                      (True, 0x100, 0x0F80, 5), (True, 0x2000, 0x3040, -9)]:
        a = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b_out = b.copy()
        k(a, b_out, kk)
        cases.append({"args": {"a": base_a, "b": base_b, "k": kk}, "pause": pause,
                      "arrays": {"a": {"base": base_a, "words": [int(v) for v in a]},
                                 "b": {"base": base_b, "words": [int(v) for v in b]}},
                      "expect": None, "expect_arrays": {"b": [int(v) for v in b_out]}})
    spec = {"bundles": {"a": "gmem0", "b": "gmem1"}, "bytes": {"a": 4, "b": 4},
            "cases": cases}
    counts = _maxi_bench(tmp_path, design, "vscale", spec, pause=False)
    # bursts: 4 calls x 64 words, 16 a burst (b's calls at 0x0F80 split at 0x1000)
    assert counts["gmem0"]["r"] == 256 and counts["gmem0"]["ar"] <= 20, counts
    assert counts["gmem1"]["w"] == 256 and counts["gmem1"]["aw"] <= 24, counts


@pytest.mark.parametrize("width", [0, 256])
def test_m_axi_random_reads_and_a_returned_value(maxi_kernels, tmp_path, width):
    """Random reads of int64 elements, writes of out in descending order (with width=256,
    four int64 a beat: the writes gather into a beat from its top lane down), bit-exact."""
    k = maxi_kernels["gather"]
    design = _maxi(k, ["a", "idx", "out"], [], data_width={"a": width, "out": width}).build("fpga")
    rng = np.random.default_rng(2)
    cases = []
    for base in ((0x40, 0x800) if not width else (0x40, 0x818)):
        a = rng.integers(-2**63, 2**63, 32, dtype=np.int64)
        idx = rng.integers(0, 1000, 16).astype(np.int32)
        out = np.zeros(16, np.int64)
        expect = int(k(a, idx, out))
        cases.append({"args": {"a": base, "idx": base + 0x400, "out": base + 0x600},
                      "arrays": {"a": {"base": base, "words": [int(v) for v in a]},
                                 "idx": {"base": base + 0x400, "words": [int(v) for v in idx]},
                                 "out": {"base": base + 0x600, "words": [0] * 16}},
                      "expect": expect, "expect_arrays": {"out": [int(v) for v in out]}})
    spec = {"bundles": {"a": "gmem0", "idx": "gmem1", "out": "gmem2"},
            "bytes": {"a": 8, "idx": 4, "out": 8}, "cases": [
                {**c, "guard": 32 if width else 0} for c in cases]}
    _maxi_bench(tmp_path, design, "gather", spec, pause=True)


def _mix_spec(k, rng, bases: dict, guard: int | None = None) -> dict:
    """Two calls of the mix kernel on random data at ``bases``, a bundle per array, each
    with a memory latency drawn at random and the Python call's results as the expectation
    (``guard``: bytes checked unchanged either side of each array)."""
    cases = []
    for _ in range(2):
        a = rng.integers(-2**31, 2**31, 600).astype(np.int32)
        b = rng.integers(-2**31, 2**31, 600).astype(np.int32)
        h = rng.integers(-2**20, 2**20, 256).astype(np.int32)
        x = rng.integers(0, 2**31, 64).astype(np.int32)
        b_out, h_out = b.copy(), h.copy()
        expect = int(k(a, b_out, h_out, x))
        words = {"a": a, "b": b, "h": h, "x": x}
        case = {"args": dict(bases), "latency": int(rng.integers(0, 24)),
                "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                           for n, w in words.items()},
                "expect": expect,
                "expect_arrays": {"b": [int(v) for v in b_out], "h": [int(v) for v in h_out]}}
        if guard is not None:
            case["guard"] = guard
        cases.append(case)
    return {"bundles": {"a": "gmem0", "b": "gmem1", "h": "gmem2", "x": "gmem3"},
            "bytes": {"a": 4, "b": 4, "h": 4, "x": 4}, "cases": cases}


@pytest.mark.parametrize("burst", [1, 16, 256])
def test_m_axi_streams_and_random_accesses_see_every_write(maxi_kernels, tmp_path, burst):
    """One array a bundle, random pauses on every channel and a memory latency drawn for
    each call: a pipelined copy (reads and writes streaming, bursts across 4 KiB
    boundaries), random writes into the copy, random read-modify-writes of h, an in-place
    prefix sum (each word read right after the one before it is written), writes ahead of
    the reads (to words the read stream has asked for) and random reads of written words; arrays and the returned value bit-exact against the Python call, with
    bursts of 1, 16 and 256 beats."""
    k = maxi_kernels["mix"]
    design = _maxi(k, ["a", "b", "h", "x"], [], pipeline="i", max_burst=burst).build("fpga")
    assert lint_verilog(design.deliverable, "mix") == []
    spec = _mix_spec(k, np.random.default_rng(burst),
                     {"a": 0x0F00, "b": 0x2E00, "h": 0x3F80, "x": 0x40})
    # every read of b and h is checked as it is answered, too
    counts = _maxi_bench(tmp_path, design, "mix", spec, pause=True, check=("b", "h"))
    for bundle in ("gmem0", "gmem1", "gmem2", "gmem3"):
        c = counts[bundle]
        assert c["ar"] <= c["r"] <= c["ar"] * burst and c["aw"] <= c["w"] <= c["aw"] * burst, c
    # a is read in whole bursts (a stream restarts only at the start of a call)
    assert counts["gmem0"]["ar"] <= 2 * (-(-600 // burst) + 2), counts["gmem0"]


def test_m_axi_random_writes_are_one_beat_bursts_from_the_first(maxi_kernels, tmp_path):
    """Writes to words apart from each other, from the start of a call: each its own burst
    of one beat, no beat with WSTRB 0 (the first write of a call once guessed a whole
    max_burst, 15 beats of padding); under random pauses and memory latency, bit-exact."""
    k = maxi_kernels["scatter"]
    design = _maxi(k, ["idx", "out"], []).build("fpga")
    rng = np.random.default_rng(5)
    cases = []
    for lat in (0, 13):
        # no two writes in a row to consecutive words (a burst would guess more)
        idx = np.array([(j * 37 + 5) % 64 for j in rng.permutation(16)], np.int32)
        assert all(int(idx[j + 1]) != int(idx[j]) + 1 for j in range(15))
        out = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        out_after = out.copy()
        k(idx, out_after)
        cases.append({"args": {"idx": 0x100, "out": 0x2000}, "latency": lat, "pause": True,
                      "arrays": {"idx": {"base": 0x100, "words": [int(v) for v in idx]},
                                 "out": {"base": 0x2000, "words": [int(v) for v in out]}},
                      "expect": None, "expect_arrays": {"out": [int(v) for v in out_after]}})
    spec = {"bundles": {"idx": "gmem0", "out": "gmem1"}, "bytes": {"idx": 4, "out": 4},
            "cases": cases}
    counts = _maxi_bench(tmp_path, design, "scatter", spec, pause=True)
    assert counts["gmem1"]["aw"] == counts["gmem1"]["w"] == 2 * 16, counts["gmem1"]


def test_m_axi_bursts_of_a_length_that_is_not_a_power_of_two(maxi_kernels, tmp_path):
    """max_burst=5: bursts end at multiples of 8 words (5 beats, then the 3 to the boundary),
    from unaligned base addresses (one across a 4 KiB boundary), under random pauses;
    bit-exact against the Python call."""
    k = maxi_kernels["vscale"]
    design = _maxi(k, ["a", "b"], ["k"], pipeline="i", max_burst=5).build("fpga")
    assert lint_verilog(design.deliverable, "vscale") == []
    rng = np.random.default_rng(11)
    cases = []
    for base_a, base_b, kk, lat in [(0x104, 0x0F8C, 3, 0), (0x2014, 0x3040, -7, 9)]:
        a = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b_out = b.copy()
        k(a, b_out, kk)
        cases.append({"args": {"a": base_a, "b": base_b, "k": kk}, "latency": lat,
                      "arrays": {"a": {"base": base_a, "words": [int(v) for v in a]},
                                 "b": {"base": base_b, "words": [int(v) for v in b]}},
                      "expect": None, "expect_arrays": {"b": [int(v) for v in b_out]}})
    spec = {"bundles": {"a": "gmem0", "b": "gmem1"}, "bytes": {"a": 4, "b": 4},
            "cases": cases}
    counts = _maxi_bench(tmp_path, design, "vscale", spec, pause=True, check=("b",))
    # a: 64 words a call in bursts of 5 and 3 (and a shorter first one: 17 and 16 bursts
    # from words 65 and 2053)
    assert counts["gmem0"]["r"] == 128 and counts["gmem0"]["ar"] == 33, counts["gmem0"]
    c = counts["gmem1"]
    assert c["w"] >= 128 and c["aw"] <= c["w"] <= 5 * c["aw"] and c["ar"] <= c["r"] <= 5 * c["ar"], c


@pytest.mark.parametrize("words,width,burst,reads,writes", [
    (1, 32, 1, True, True), (1, 64, 256, False, True), (5, 32, 3, True, False),
    (64, 32, 16, True, True), (65, 64, 100, True, True), (65, 32, 16, True, False),
    (600, 32, 256, False, True), (4096, 32, 16, True, True), (4096, 64, 256, True, True),
    (5000, 32, 7, True, True)])
def test_m_axi_adapter_lints_clean_for_every_shape(words, width, burst, reads, writes):
    # a zero-width constant (an address as wide as the counters), a parameter or a bit
    # left unused: each shape once broke lint in one of these ways
    v = maxi_adapter("t", "x", words, width, burst, reads, writes)
    assert lint_verilog(v, "t_x_m_axi") == []


def test_m_axi_arrays_whose_names_prefix_each_other_keep_their_own_ports(maxi_kernels):
    # a's adapter once took a_b's ports too (named a_...): each port has one owner
    design = _maxi(maxi_kernels["prefixed"], ["a", "a_b"], []).build("fpga")
    assert lint_verilog(design.deliverable, "prefixed") == []
    core = design.report["interface"]["core_ports"]
    assert sum(design.deliverable.count(f".{p['name'][len('a_'):]}(core_{p['name']})")
               for p in core if p["name"].startswith("a_") and not p["name"].startswith("a_b_")) == \
        sum(1 for p in core if p["name"].startswith("a_") and not p["name"].startswith("a_b_"))


# -- m_axi: a bus wider than an element (data_width) -------------------------------------------

def test_m_axi_elements_of_other_widths_are_refused(maxi_kernels):
    s = vichls.customize(maxi_kernels["odd"])
    s.interface("a", "m_axi")
    with pytest.raises(FpgaError, match="elements of 8, 16, 32 or 64 bits"):
        s.build("fpga")


def test_m_axi_wide_bus_packs_four_elements_a_beat(maxi_kernels, tmp_path):
    """data_width=128 with 32-bit elements: a sequential read or write moves four elements a
    beat (a quarter of the beats), the core still one element a cycle; base addresses not
    aligned to a beat (one of them across a 4 KiB boundary) take a partial first and last
    beat whose WSTRB marks only the elements written (the bytes either side of b keep their
    pattern); with and without random pauses and memory latency, bit-exact."""
    k = maxi_kernels["vscale"]
    design = _maxi(k, ["a", "b"], ["k"], pipeline="i", data_width=128).build("fpga")
    assert lint_verilog(design.deliverable, "vscale") == []
    ports = {p["name"]: p["width"] for p in design.report["interface"]["ports"]}
    assert ports["m_axi_gmem0_RDATA"] == ports["m_axi_gmem1_WDATA"] == 128
    assert ports["m_axi_gmem1_WSTRB"] == 16 and ports["m_axi_gmem0_ARADDR"] == 64
    rng = np.random.default_rng(21)
    cases = []
    for pause, lat, base_a, base_b, kk in [(False, 0, 0x100, 0x2000, 3),
                                           (True, 7, 0x104, 0x0FF8, -7),
                                           (True, 19, 0x10C, 0x3004, 5)]:
        a = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        b_out = b.copy()
        k(a, b_out, kk)
        cases.append({"args": {"a": base_a, "b": base_b, "k": kk}, "pause": pause,
                      "latency": lat, "guard": 32,
                      "arrays": {"a": {"base": base_a, "words": [int(v) for v in a]},
                                 "b": {"base": base_b, "words": [int(v) for v in b]}},
                      "expect": None, "expect_arrays": {"b": [int(v) for v in b_out]}})
    spec = {"bundles": {"a": "gmem0", "b": "gmem1"}, "bytes": {"a": 4, "b": 4},
            "cases": cases}
    counts = _maxi_bench(tmp_path, design, "vscale", spec, pause=False, check=("b",))
    # a: 16 beats from an aligned base, 17 from the others (64 words from lane 1 and 3)
    assert counts["gmem0"]["r"] == 16 + 17 + 17, counts["gmem0"]
    assert counts["gmem0"]["ar"] <= 2 + 3 + 3, counts["gmem0"]
    # b read as a (its beats of the call), and written in as many beats, plus a few beats of
    # WSTRB 0 closing guessed bursts
    assert counts["gmem1"]["r"] == 16 + 17 + 17, counts["gmem1"]
    assert 16 + 17 + 17 <= counts["gmem1"]["w"] <= 16 + 17 + 17 + 6, counts["gmem1"]


@pytest.mark.parametrize("burst,width", [(16, 128), (3, 512)])
def test_m_axi_wide_bus_streams_and_random_accesses_see_every_write(maxi_kernels, tmp_path,
                                                                    burst, width):
    """The mix kernel (a sequential copy, random writes into it, random read-modify-writes,
    an in-place prefix sum, writes ahead of the reads, random reads) with 4 and 16 elements
    a beat, from base addresses not aligned to a beat, under random pauses and memory
    latency; every read checked as it is answered, the bytes either side of each array
    unchanged, arrays and the returned value bit-exact."""
    k = maxi_kernels["mix"]
    design = _maxi(k, ["a", "b", "h", "x"], [], pipeline="i", max_burst=burst,
                   data_width=width).build("fpga")
    assert lint_verilog(design.deliverable, "mix") == []
    spec = _mix_spec(k, np.random.default_rng(width + burst),
                     {"a": 0x0F04, "b": 0x2E08, "h": 0x3F8C, "x": 0x44}, guard=64)
    counts = _maxi_bench(tmp_path, design, "mix", spec, pause=True, check=("b", "h"))
    lanes = width // 32
    # a is read in whole beats of lanes elements (a stream restarts only at a call's start)
    assert counts["gmem0"]["r"] == 2 * (-(-(600 + 1) // lanes)), counts["gmem0"]


def test_m_axi_narrow_elements_packed_on_the_bus(maxi_kernels, tmp_path):
    """uint8 and int16 elements on 32-, 64- and 128-bit buses (4, 4 and 8 elements a beat):
    sequential reads of bytes two a step, int16 writes, random reads and read-modify-writes
    of int16 elements; unaligned base addresses, odd element counts (partial last beats),
    random pauses and memory latency; the bytes around each array unchanged, bit-exact."""
    k = maxi_kernels["narrow"]
    design = _maxi(k, ["a", "b", "c"], [], data_width={"b": 64, "c": 128}).build("fpga")
    assert lint_verilog(design.deliverable, "narrow") == []
    ports = {p["name"]: p["width"] for p in design.report["interface"]["ports"]}
    assert (ports["m_axi_gmem0_RDATA"], ports["m_axi_gmem1_WDATA"],
            ports["m_axi_gmem2_WDATA"]) == (32, 64, 128)
    rng = np.random.default_rng(8)
    cases = []
    for lat, bases in [(0, {"a": 0x101, "b": 0x2002, "c": 0x300E}),
                       (11, {"a": 0x200, "b": 0x1FF8, "c": 0x4000})]:
        a = rng.integers(0, 256, 203).astype(np.uint8)
        b = rng.integers(-2**15, 2**15, 101).astype(np.int16)
        c = rng.integers(-2**15, 2**15, 40).astype(np.int16)
        b_out, c_out = b.copy(), c.copy()
        expect = int(k(a, b_out, c_out))
        words = {"a": a, "b": b, "c": c}
        cases.append({"args": dict(bases), "latency": lat, "pause": True, "guard": 32,
                      "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                                 for n, w in words.items()},
                      "expect": expect,
                      "expect_arrays": {"b": [int(v) for v in b_out],
                                        "c": [int(v) for v in c_out]}})
    spec = {"bundles": {"a": "gmem0", "b": "gmem1", "c": "gmem2"},
            "bytes": {"a": 1, "b": 2, "c": 2}, "cases": cases}
    _maxi_bench(tmp_path, design, "narrow", spec, pause=True, check=("b", "c"))


def test_m_axi_wide_bus_random_writes_mark_one_element(maxi_kernels, tmp_path):
    """Random single writes on a 128-bit bus: each a one-beat burst whose WSTRB marks the
    four bytes of its element (the other elements of out, written by no one, keep their
    values), under random pauses and memory latency, bit-exact."""
    k = maxi_kernels["scatter"]
    design = _maxi(k, ["idx", "out"], [], data_width=128).build("fpga")
    rng = np.random.default_rng(6)
    cases = []
    for lat, base in ((0, 0x2000), (13, 0x2004)):
        # no two writes in a row to the same or the next beat
        idx = np.array([(j * 37 + 5) % 64 for j in rng.permutation(16)], np.int32)
        out = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        out_after = out.copy()
        k(idx, out_after)
        cases.append({"args": {"idx": 0x100, "out": base}, "latency": lat, "pause": True,
                      "guard": 16,
                      "arrays": {"idx": {"base": 0x100, "words": [int(v) for v in idx]},
                                 "out": {"base": base, "words": [int(v) for v in out]}},
                      "expect": None, "expect_arrays": {"out": [int(v) for v in out_after]}})
    spec = {"bundles": {"idx": "gmem0", "out": "gmem1"}, "bytes": {"idx": 4, "out": 4},
            "cases": cases}
    counts = _maxi_bench(tmp_path, design, "scatter", spec, pause=True)
    assert counts["gmem1"]["aw"] == counts["gmem1"]["w"] == 2 * 16, counts["gmem1"]


@pytest.mark.parametrize("words,width,burst,reads,writes,bus", [
    (1, 8, 1, True, True, 32), (5, 16, 3, True, False, 64), (64, 32, 16, True, True, 128),
    (600, 32, 256, False, True, 128), (4096, 8, 256, True, True, 512),
    (65, 64, 100, True, True, 256), (3, 32, 16, True, True, 512)])
def test_m_axi_wide_adapter_lints_clean(words, width, burst, reads, writes, bus):
    v = maxi_adapter("t", "x", words, width, burst, reads, writes, data_width=bus)
    assert lint_verilog(v, "t_x_m_axi") == []


def test_m_axi_wide_bus_widths_in_report_packages_and_software(maxi_kernels):
    """data_width=128 with 32-bit elements: the delivered ports, the .rpt (its port table and
    M_AXI table), the IP-XACT component (the AXI4 bus's DATA_WIDTH, the address space's
    width, the ports' vectors), the Platform Designer component and the FuseSoC core carry
    the bus's widths; the register file, x<top>_hw.h and the drivers keep 64-bit base
    addresses (the bus width is no register)."""
    import xml.etree.ElementTree as ET

    from vichls.interface.package import package_files
    from vichls.report_text import text_report

    k = maxi_kernels["vscale"]
    design = _maxi(k, ["a", "b"], ["k"], pipeline="i", data_width={"b": 128}).build("fpga")
    report = design.report
    ports = {p["name"]: p["width"] for p in report["interface"]["ports"]}
    assert (ports["m_axi_gmem0_RDATA"], ports["m_axi_gmem0_WSTRB"]) == (32, 4)
    assert (ports["m_axi_gmem1_WDATA"], ports["m_axi_gmem1_WSTRB"],
            ports["m_axi_gmem1_RDATA"]) == (128, 16, 128)
    text = text_report(report)
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in text.splitlines()
             if line.startswith("|")]
    # (a bundle's ports are named after the bundle, as Vitis's report has them)
    assert ["m_axi_gmem1_WDATA", "out", "128", "m_axi", "gmem1", "pointer"] in cells
    assert ["m_axi_gmem1", "b", "32 -> 128", "64", "16", "0x1c"] in cells  # * M_AXI
    assert ["m_axi_gmem0", "a", "32 -> 32", "64", "16", "0x10"] in cells
    files = package_files("vscale", design.deliverable, report, {"all"})
    spirit = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
    root = ET.fromstring(files["ip/component.xml"])
    params = {}
    for bus in root.iter(f"{spirit}busInterface"):
        name = bus.find(f"{spirit}name").text
        params[name] = {p.find(f"{spirit}name").text: p.find(f"{spirit}value").text
                        for p in bus.iter(f"{spirit}parameter")}
    assert params["m_axi_gmem1"]["DATA_WIDTH"] == "128"
    assert params["m_axi_gmem0"]["DATA_WIDTH"] == "32"
    spaces = {s.find(f"{spirit}name").text: s.find(f"{spirit}width").text
              for s in root.iter(f"{spirit}addressSpace")}
    assert spaces["Data_m_axi_gmem1"] == "128"
    for port in root.iter(f"{spirit}port"):
        if port.find(f"{spirit}name").text == "m_axi_gmem1_WSTRB":
            assert port.find(f".//{spirit}left").text == "15"
            break
    else:
        raise AssertionError("no m_axi_gmem1_WSTRB in component.xml")
    tcl = files["vscale_hw.tcl"]
    assert re.search(r"add_interface_port m_axi_gmem1 m_axi_gmem1_WDATA wdata Output 128\b", tcl)
    assert re.search(r"add_interface_port m_axi_gmem1 m_axi_gmem1_WSTRB wstrb Output 16\b", tcl)
    assert files["vscale.v"] == design.deliverable and "vscale.core" in files
    regs = {r.name: r.width for m in design.register_maps.values() for r in m.registers}
    assert regs["a"] == regs["b"] == 64
    header = hw_header("vscale", design.register_maps)
    assert "#define XVSCALE_CONTROL_BITS_B_DATA 64" in header
    assert "'b': ('control', 28, 64" in python_driver("vscale", design.signature,
                                                      design.register_maps)
