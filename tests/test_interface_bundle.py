"""Several m_axi arrays in one bundle: one AXI4 master port shared through the bundle's
interconnect (interface/interconnect.py), as Vitis HLS puts every argument of ``gmem`` on
one port.

The delivered module has one ``m_axi_<bundle>_*`` port set a bundle, lint-clean; a bundle of
one array has no interconnect. Simulated with one cocotbext-axi AxiRam behind the bundle
holding every array at its own base address, random pauses on its five channels and a
memory latency drawn a call, the calls made through the generated Python driver: a copy
(one array read, another written), two arrays read and a third written and read back with
sequential and random accesses, three arrays written in the same loop (the W channel
following the order of the write addresses, each burst gathered before its address);
arrays and returned value bit-exact against the Python call.
"""

from __future__ import annotations


import numpy as np
import pytest

import vichls
from cocotb_bench import maxi_bench
from vichls.errors import FpgaError
from vichls.flows.lint import lint_verilog
from vichls.frontend.kernel import load_file
from vichls.interface.interconnect import bundle_mux
from vichls.interface.maxi import maxi_adapter


KERNELS = '''
from vichls import int16, int32, int64, kernel


@kernel
def copy(a: int32[256], b: int32[256]):
    for i in range(256):
        b[i] = a[i]


@kernel
def sum3(a: int32[300], b: int32[300], c: int32[300]) -> int32:
    for i in range(300):  # sequential: two read streams and a write stream
        c[i] = a[i] + b[i]
    for j in range(64):  # random reads of a and b, random writes into c
        c[(a[j] >> 4) & 255] = b[(a[j] >> 12) & 255] ^ j
    total: int32 = 0
    for k in range(64):  # random reads of c, written before
        total += c[(b[k] >> 3) & 255]
    return total


@kernel
def split(a: int32[400], b: int32[400], c: int32[400], d: int32[400]):
    for i in range(400):  # three arrays written in the same loop, one of them backwards
        b[i] = a[i] + 1
        c[399 - i] = a[i] * 3
        d[i] = a[i] - i


@kernel
def mixed(a: int32[200], b: int32[200], c: int32[200], x: int32[64]) -> int32:
    for i in range(200):  # two writers in one loop (c backwards), one reader
        b[i] = a[i] + 1
        c[199 - i] = a[i] ^ i
    for j in range(64):  # random read-modify-writes of b, random reads of c and writes
        t = x[j] & 127
        b[t] = b[t] + c[(x[j] >> 8) & 127]
        c[(x[j] >> 16) & 127] = b[j] - j
    total: int32 = 0
    for k in range(64):  # random reads of both
        total += b[(x[k] >> 4) & 127] ^ c[(x[k] >> 12) & 127]
    return total


@kernel
def widths(a: int32[8], b: int64[8]):
    for i in range(8):
        b[i] = int64(a[i])


@kernel
def widen(a: int16[203], b: int32[150]):
    for i in range(150):  # a read, b written, on one 128-bit bus (8 and 4 elements a beat)
        b[i] = int32(a[i + 53]) * 3 - i
    for j in range(20):  # random writes into b: one-lane beats
        b[(int32(a[j]) & 127) + 11] = j


@kernel
def wide_split(a: int16[203], b: int32[150], c: int32[150]):
    for i in range(150):  # two writers (c backwards) gather their bursts of 4-lane beats
        t = int32(a[i])
        b[i] = t + i
        c[149 - i] = t * 5
    for j in range(20):  # random writes into both
        b[(int32(a[j]) & 127) + 3] = j
        c[(int32(a[j + 20]) & 127) + 7] = -j
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("bundle") / "bundle.py"
    path.write_text(KERNELS)
    return load_file(path)


def _gmem(kernel, arrays, pipeline=None, max_burst=16, data_width=0):
    s = vichls.customize(kernel)
    for name in arrays:  # bundle="gmem", the default
        s.interface(name, "m_axi", max_burst=max_burst, data_width=data_width)
    s.interface("return", "s_axilite")
    if pipeline:
        s.pipeline(pipeline)
    return s


def _bench(tmp_path, design, top, spec, check=()):
    for case in spec["cases"]:  # the arrays of a call apart in the one memory (and guards)
        g = case.get("guard", 0)
        spans = sorted((a["base"] - g, a["base"] + spec["bytes"][n] * len(a["words"]) + g)
                       for n, a in case["arrays"].items())
        assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:])), spans
    return maxi_bench(tmp_path, design, top, spec, pause=True, check=check)


def _ports(design) -> dict[str, int]:
    return {p["name"]: p["width"] for p in design.report["interface"]["ports"]}


def _words(rng, n, lo=-2**31, hi=2**31):
    return rng.integers(lo, hi, n).astype(np.int32)


def test_a_copy_within_one_bundle(kernels, tmp_path):
    """a read and b written through the one port gmem (a and b at different base
    addresses, one across a 4 KiB boundary), under random pauses and memory latency."""
    k = kernels["copy"]
    design = _gmem(k, ["a", "b"], pipeline="i").build("fpga")
    ports = _ports(design)
    assert not any(n.startswith("m_axi_") and not n.startswith("m_axi_gmem_") for n in ports)
    assert ports["m_axi_gmem_ARID"] == ports["m_axi_gmem_AWID"] == 1  # Vitis's width
    assert sum(1 for n in ports if n.startswith("m_axi_gmem_")) == 45
    assert lint_verilog(design.deliverable, "copy") == []
    assert "module copy_gmem_m_axi_mux" in design.deliverable
    table = {e["argument"]: e for e in design.report["interface"]["protocols"]}
    assert table["a"]["bundle"] == table["b"]["bundle"] == "gmem"
    assert table["a"]["offset"] != table["b"]["offset"]  # each its base address register
    rng = np.random.default_rng(1)
    cases = []
    for base_a, base_b, lat in [(0x100, 0x0F40, 0), (0x3000, 0x1800, 17)]:
        a, b = _words(rng, 256), _words(rng, 256)
        b_out = b.copy()
        k(a, b_out)
        cases.append({"args": {"a": base_a, "b": base_b}, "latency": lat,
                      "arrays": {"a": {"base": base_a, "words": [int(v) for v in a]},
                                 "b": {"base": base_b, "words": [int(v) for v in b]}},
                      "expect": None, "expect_arrays": {"b": [int(v) for v in b_out]}})
    spec = {"bundles": {"a": "gmem", "b": "gmem"}, "bytes": {"a": 4, "b": 4},
            "cases": cases}
    counts = _bench(tmp_path, design, "copy", spec)
    assert counts["gmem"]["r"] == 512 and counts["gmem"]["w"] >= 512, counts["gmem"]


def test_two_arrays_read_and_a_third_written_in_gmem(kernels, tmp_path, burst=16):
    """a and b read, c written then read back, all three in gmem: two read streams on one
    AR channel, then random reads and writes; every read of c checked as it is answered;
    bit-exact against the Python call. Three arrays read: every read burst has ID 0 and
    the beats go to the adapters in the order their bursts were accepted."""
    k = kernels["sum3"]
    design = _gmem(k, ["a", "b", "c"], pipeline="i", max_burst=burst).build("fpga")
    assert lint_verilog(design.deliverable, "sum3") == []
    ports = _ports(design)
    assert ports["m_axi_gmem_ARID"] == ports["m_axi_gmem_RID"] == ports["m_axi_gmem_BID"] == 1
    rng = np.random.default_rng(burst)
    cases = []
    for bases, lat in [({"a": 0x40, "b": 0x500, "c": 0x0F00}, 0),
                       ({"a": 0x2F80, "b": 0x1000, "c": 0x5008}, 21)]:
        a, b, c = _words(rng, 300, 0, 2**31), _words(rng, 300, 0, 2**31), _words(rng, 300)
        c_out = c.copy()
        expect = int(k(a, b, c_out))
        words = {"a": a, "b": b, "c": c}
        cases.append({"args": dict(bases), "latency": lat,
                      "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                                 for n, w in words.items()},
                      "expect": expect, "expect_arrays": {"c": [int(v) for v in c_out]}})
    spec = {"bundles": {"a": "gmem", "b": "gmem", "c": "gmem"},
            "bytes": {"a": 4, "b": 4, "c": 4}, "cases": cases}
    counts = _bench(tmp_path, design, "sum3", spec, check=("c",))
    c = counts["gmem"]
    assert c["ar"] <= c["r"] <= c["ar"] * burst and c["aw"] <= c["w"] <= c["aw"] * burst, c


def test_three_arrays_written_in_one_loop_share_the_w_channel(kernels, tmp_path, burst=256):
    """b, c and d written in the same loop, c backwards (one-beat bursts), b and d in
    bursts: the W channel follows the order of the write addresses, the responses come back
    in order on ID 0 (three writers). max_burst=256 is longer than an adapter's write FIFO:
    were a burst's address sent with its first word (as a writer alone in its bundle
    does), the W channel would wait for b's words while c's FIFO fills and holds the core
    (this test hung so); the adapters gather each burst (at most 16 words) first."""
    k = kernels["split"]
    design = _gmem(k, ["a", "b", "c", "d"], pipeline="i", max_burst=burst).build("fpga")
    assert lint_verilog(design.deliverable, "split") == []
    assert design.deliverable.count("gtake;  //") == 3  # b, c, d gather
    rng = np.random.default_rng(7 + burst)
    cases = []
    for bases, lat in [({"a": 0x0, "b": 0x0E00, "c": 0x2000, "d": 0x2800}, 3),
                       ({"a": 0x4100, "b": 0x1F04, "c": 0x3000, "d": 0x5F00}, 19)]:
        words = {n: _words(rng, 400) for n in "abcd"}
        out = {n: words[n].copy() for n in "bcd"}
        k(words["a"], out["b"], out["c"], out["d"])
        cases.append({"args": dict(bases), "latency": lat,
                      "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                                 for n, w in words.items()},
                      "expect": None,
                      "expect_arrays": {n: [int(v) for v in w] for n, w in out.items()}})
    spec = {"bundles": {n: "gmem" for n in "abcd"}, "bytes": {n: 4 for n in "abcd"},
            "cases": cases}
    counts = _bench(tmp_path, design, "split", spec)
    # no beat with WSTRB 0: each burst as long as the words it took
    assert counts["gmem"]["w"] == 2400, counts["gmem"]


def test_four_arrays_read_two_written_at_random_in_gmem(kernels, tmp_path):
    """Four readers (in order on ID 0) and two writers in one bundle, sequential and random
    accesses mixed, every read of b and c checked as it is answered, three calls with
    memory latencies 0, 9 and 23 under random pauses; bit-exact against the Python call.
    (Also run by hand with bursts of 1, 4 without a pipeline, and 256.)"""
    k = kernels["mixed"]
    design = _gmem(k, ["a", "b", "c", "x"], pipeline="i").build("fpga")
    assert lint_verilog(design.deliverable, "mixed") == []
    assert _ports(design)["m_axi_gmem_RID"] == 1
    rng = np.random.default_rng(16)
    cases = []
    for bases, lat in [({"a": 0x0, "b": 0x0F00, "c": 0x2000, "x": 0x3000}, 0),
                       ({"a": 0x4100, "b": 0x1F04, "c": 0x3000, "x": 0x6000}, 9),
                       ({"a": 0x8000, "b": 0x9000, "c": 0xA000, "x": 0xB000}, 23)]:
        a, b, c = _words(rng, 200), _words(rng, 200), _words(rng, 200)
        x = _words(rng, 64, 0, 2**31)
        b_out, c_out = b.copy(), c.copy()
        expect = int(k(a, b_out, c_out, x))
        words = {"a": a, "b": b, "c": c, "x": x}
        cases.append({"args": dict(bases), "latency": lat,
                      "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                                 for n, w in words.items()},
                      "expect": expect, "expect_arrays": {"b": [int(v) for v in b_out],
                                                        "c": [int(v) for v in c_out]}})
    spec = {"bundles": {n: "gmem" for n in "abcx"}, "bytes": {n: 4 for n in "abcx"},
            "cases": cases}
    _bench(tmp_path, design, "mixed", spec, check=("b", "c"))


def test_arrays_on_buses_of_different_widths_in_one_bundle_are_refused(kernels):
    with pytest.raises(FpgaError, match="'a' in that bundle is on a 32-bit bus, 'b' on a 64"):
        _gmem(kernels["widths"], ["a", "b"]).build("fpga")
    # the same data_width: one bus, two int32 a beat of a, one int64 of b
    d = _gmem(kernels["widths"], ["a", "b"], data_width=64).build("fpga")
    assert _ports(d)["m_axi_gmem_WDATA"] == 64 and "module widths_gmem_m_axi_mux" in d.deliverable
    assert lint_verilog(d.deliverable, "widths") == []
    # in bundles of their own they are fine
    s = vichls.customize(kernels["widths"])
    s.interface("a", "m_axi", bundle="gmem0")
    s.interface("b", "m_axi", bundle="gmem1")
    d = s.build("fpga")
    assert "m_axi_mux" not in d.deliverable
    assert lint_verilog(d.deliverable, "widths") == []


@pytest.mark.parametrize("arrays", [
    [("a", True, False), ("b", False, True)],
    [("a", True, False), ("b", True, False)],
    [("a", False, True), ("b", False, True), ("c", False, True)],
    [("a", True, True), ("b", True, True), ("c", True, False), ("d", False, True),
     ("e", True, False)],
    [("x", True, True), ("y", True, True)]])
@pytest.mark.parametrize("width", [32, 64, 128])
def test_the_interconnect_lints_clean_for_every_shape(arrays, width):
    # (and the adapters that gather their bursts, for two writers or more; on a 128-bit bus
    # with 32- and 8-bit elements, beats of 4 and 16 lanes)
    for words, burst, reads in ((1, 1, True), (64, 16, False), (600, 256, True)):
        for element in ((32, 8) if width == 128 else (width,)):
            v = maxi_adapter("t", "x", words, element, burst, reads, True,
                             data_width=width if width == 128 else 0, gather=True)
            assert lint_verilog(v, "t_x_m_axi") == []
    v = bundle_mux("t", "gmem", arrays, width)
    assert lint_verilog(v, "t_gmem_m_axi_mux") == []
    # IDs of one bit, as Vitis has them, however many arrays
    assert all(f"{s};" in v or f"{s}," in v for s in (
        "output wire ARID", "output wire AWID", "output wire WID"))


def test_base_addresses_in_a_bundle_without_the_block_control_lint_clean(kernels):
    # (regression) the s_axilite bundle then holds the base addresses alone: the control
    # registers' address parameters were declared and unused, a lint warning
    s = vichls.customize(kernels["copy"])
    s.interface("a", "m_axi")
    s.interface("b", "m_axi")
    d = s.build("fpga")
    assert "s_axi_control_AWADDR" in _ports(d) and "ap_start" in _ports(d)
    assert lint_verilog(d.deliverable, "copy") == []


def test_packages_have_one_axi4_master_per_bundle(kernels, tmp_path):
    """IP-XACT (read back with ipyxact): one aximm master bus interface for gmem, with its
    address space, and both base addresses in the control bundle's memory map; the
    Platform Designer component: one axi4 master; the header: a base address each."""
    import xml.etree.ElementTree as ET

    from ipyxact import ipyxact

    from vichls.interface.drivers import hw_header
    from vichls.interface.package import package_files

    d = _gmem(kernels["copy"], ["a", "b"]).build("fpga")
    files = package_files("copy", d.deliverable, d.report, {"vivado", "quartus"})
    path = tmp_path / "component.xml"
    path.write_text(files["ip/component.xml"])
    component = ipyxact.Component()
    component.load(str(path))
    buses = [b.name for b in component.busInterfaces.busInterface]
    assert [b for b in buses if b.startswith("m_axi_")] == ["m_axi_gmem"]
    spirit = {"spirit": "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"}
    root = ET.fromstring(files["ip/component.xml"])
    (gmem,) = [b for b in root.findall("spirit:busInterfaces/spirit:busInterface", spirit)
               if b.find("spirit:name", spirit).text == "m_axi_gmem"]
    assert gmem.find("spirit:master", spirit) is not None
    assert len(gmem.findall("spirit:portMaps/spirit:portMap", spirit)) == 45
    spaces = [s.find("spirit:name", spirit).text
              for s in root.findall("spirit:addressSpaces/spirit:addressSpace", spirit)]
    assert spaces == ["Data_m_axi_gmem"]
    (memory_map,) = component.memoryMaps.memoryMap
    registers = {r.name: r.addressOffset for r in memory_map.addressBlock[0].register}
    assert {k: registers[k] for k in ("a_1", "a_2", "b_1", "b_2")} == {
        "a_1": 0x10, "a_2": 0x14, "b_1": 0x1C, "b_2": 0x20}
    tcl = files["copy_hw.tcl"]
    assert [line for line in tcl.splitlines() if line.startswith("add_interface ")
            and " axi4 " in line] == [
        "add_interface m_axi_gmem axi4 start"]
    header = hw_header("copy", d.register_maps)
    assert "#define XCOPY_CONTROL_ADDR_A_DATA 0x10" in header
    assert "#define XCOPY_CONTROL_ADDR_B_DATA 0x1c" in header


def test_a_shared_bundle_beside_one_of_its_own_with_every_offset(kernels):
    """a in gmem with its base address an input (offset="direct"), b in gmem from the
    register map, c alone in gmem1 (no interconnect there): lint-clean, one port set a
    bundle, the direct base address an input of its own."""
    s = vichls.customize(kernels["sum3"])
    s.interface("a", "m_axi", offset="direct")
    s.interface("b", "m_axi")
    s.interface("c", "m_axi", bundle="gmem1", offset="off")
    s.interface("return", "s_axilite")
    d = s.build("fpga")
    assert lint_verilog(d.deliverable, "sum3") == []
    ports = _ports(d)
    assert ports["a"] == 64 and "b" not in ports and "c" not in ports
    assert {n.split("_")[2] for n in ports if n.startswith("m_axi_")} == {"gmem", "gmem1"}
    assert "module sum3_gmem_m_axi_mux" in d.deliverable
    assert "gmem1_m_axi_mux" not in d.deliverable


def _wide_case(rng, k, bases, lat, names):
    a = rng.integers(-2**15, 2**15, 203).astype(np.int16)
    words = {"a": a, **{n: _words(rng, 150) for n in names}}
    out = {n: words[n].copy() for n in names}
    k(a, *out.values())
    return {"args": dict(bases), "latency": lat, "pause": True, "guard": 32,
            "arrays": {n: {"base": bases[n], "words": [int(v) for v in w]}
                       for n, w in words.items()},
            "expect": None, "expect_arrays": {n: [int(v) for v in w] for n, w in out.items()}}


def test_a_bundle_on_a_128_bit_bus_packs_each_array(kernels, tmp_path):
    """data_width=128 for both arrays of gmem: a (int16, eight a beat) read, b (int32, four
    a beat) written in a sequence then at random, through the interconnect; base addresses
    not aligned to a beat, random pauses and memory latency, the bytes around each array
    unchanged, b bit-exact against the Python call; a read in whole beats."""
    k = kernels["widen"]
    design = _gmem(k, ["a", "b"], pipeline="i", data_width=128).build("fpga")
    assert lint_verilog(design.deliverable, "widen") == []
    ports = _ports(design)
    assert ports["m_axi_gmem_RDATA"] == ports["m_axi_gmem_WDATA"] == 128
    assert ports["m_axi_gmem_WSTRB"] == 16
    assert "module widen_gmem_m_axi_mux" in design.deliverable
    assert "gtake" not in design.deliverable  # one writer: bursts sent with their first word
    rng = np.random.default_rng(128)
    cases = [_wide_case(rng, k, bases, lat, "b")
             for bases, lat in [({"a": 0x106, "b": 0x0FF4}, 0), ({"a": 0x2010, "b": 0x3008}, 13)]]
    spec = {"bundles": {"a": "gmem", "b": "gmem"}, "bytes": {"a": 2, "b": 4}, "cases": cases}
    counts = _bench(tmp_path, design, "widen", spec)
    # a read in beats of eight int16 (its 26 beats at most, a stream a loop), not one a beat
    assert counts["gmem"]["r"] <= 2 * 2 * 26, counts["gmem"]


def test_two_writers_on_a_128_bit_bus_gather_bursts_of_beats(kernels, tmp_path):
    """b and c (int32, four a beat) written in the same loop, c backwards, then at random,
    a (int16) read, all in gmem on a 128-bit bus: the writers gather each burst (beats of
    several lanes, its length in beats) before its address, so the shared W channel never
    waits; partial first and last beats (bases not aligned to a beat) write only their
    lanes (guard bytes kept); random pauses and latency; bit-exact."""
    k = kernels["wide_split"]
    design = _gmem(k, ["a", "b", "c"], pipeline="i", data_width=128).build("fpga")
    assert lint_verilog(design.deliverable, "wide_split") == []
    assert design.deliverable.count("gtake;  //") == 2  # b and c gather
    rng = np.random.default_rng(129)
    cases = [_wide_case(rng, k, bases, lat, "bc")
             for bases, lat in [({"a": 0x46, "b": 0x1004, "c": 0x2008}, 5),
                                ({"a": 0x3102, "b": 0x0FE8, "c": 0x400C}, 17)]]
    spec = {"bundles": {n: "gmem" for n in "abc"}, "bytes": {"a": 2, "b": 4, "c": 4},
            "cases": cases}
    counts = _bench(tmp_path, design, "wide_split", spec)
    # gathered bursts have no beat of WSTRB 0: the sequential writes take 38 beats an array
    # and a call (150 int32 from an unaligned base), a random write one each at most
    assert counts["gmem"]["w"] <= 2 * 2 * (38 + 20), counts["gmem"]
