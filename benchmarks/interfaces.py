"""What the interface adapters cost: Yosys synth_xilinx of a design with s_axilite (and of
one with m_axi) against the same kernel with the default ap_ctrl_hs / ap_none / ap_memory
ports; and how fast m_axi streams (cocotb, Verilator, cocotbext-axi's AxiRam).

For each kernel: LUT, FF, DSP and BRAM_18K of the core alone and of the delivered module
(the core inside the adapters, interface/wrapper.py), and their difference; the issue asks
for at most 300 LUTs for the s_axilite register file and adapters. Then one m_axi adapter
synthesized alone (reading, writing, both; bursts of 16 and 256; and reading or writing on
a 128-bit bus, 4 elements a beat). The latency column is
the core's (the adapters add no cycle to a call: the register file raises ap_start the
cycle after the write that sets it, and latches ap_return in the done cycle).

m_axi streaming: ``copy(a, b)`` of N = 4096 int32 words pipelined at II=1, a and b each
behind its own m_axi bundle and AxiRam (and both in one bundle, ``gmem``, one AxiRam: the
bundle's interconnect, interface/interconnect.py, also synthesized alone for a few shapes
of bundle), the call made through the s_axilite driver; bursts of 16 and 256 beats on a
32-bit bus, and of 16 on a 64- and a 128-bit bus (data_width: 2 and 4 elements a beat),
the memory's latency 1 and 20 cycles (tests/fixtures/axi/maxi_bench.py:
the first R beat of a burst no earlier than that after its AR handshake, a B response no
earlier than that after the burst's last W beat, pipelined). Printed: the call's cycles,
each direction's span (first AR to last R beat; first AW to last B) against the issue's
target N + 2 x latency + 16, the R and W beats of a call, and the beats per burst.

    python benchmarks/interfaces.py [--markdown FILE] [--no-stream] [--no-synth]
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402

import vichls  # noqa: E402
from vichls.interface.drivers import camel, python_driver  # noqa: E402
from vichls.interface.interconnect import bundle_mux  # noqa: E402
from vichls.interface.maxi import maxi_adapter  # noqa: E402
from vichls.flows.synth import synth_xilinx_resources  # noqa: E402
from vichls.frontend.kernel import load_file  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "interfaces.py"
SAXPY = '''
from vichls import int32, kernel


@kernel
def saxpy(x: int32[64], y: int32[64], a: int32, b: int32, c: int32, d: int32):
    for i in range(64):
        y[i] = a * x[i] + y[i] + b - c * d
'''

COPY = '''
from vichls import int32, kernel


@kernel
def copy(a: int32[4096], b: int32[4096]):
    for i in range(4096):
        b[i] = a[i]
'''
COPY_N = 4096
VADD = '''
from vichls import int32, kernel


@kernel
def vadd(a: int32[4096], b: int32[4096], c: int32[4096]):
    for i in range(4096):
        c[i] = a[i] + b[i]
'''
BURSTS = (16, 256)
#: (max_burst, data_width, shared) of the streaming runs: both burst lengths on a bus as wide
#: as an element, then 2 and 4 elements a beat, a bundle each; then a and b in gmem
STREAMS = ((16, 32, False), (256, 32, False), (16, 64, False), (16, 128, False),
           (16, 32, True), (256, 32, True), (16, 128, True))
LATENCIES = (1, 20)
BENCHES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "axi"

#: kernel: the arguments put in the s_axilite bundle (with the block control)
CASES = {"gcd": ["a", "b"], "scaled_sum": ["scale", "n"], "saxpy": ["a", "b", "c", "d"]}
KEYS = ("lut", "ff", "dsp", "bram18")


def measure(kernels) -> list[dict]:
    rows = []
    for name, args in CASES.items():
        k = kernels[name]
        core = vichls.customize(k).build("fpga")
        s = vichls.customize(k)
        for a in [*args, "return"]:
            s.interface(a, "s_axilite")
        wrapped = s.build("fpga")
        t0 = time.perf_counter()
        base = synth_xilinx_resources(core.deliverable, name)
        full = synth_xilinx_resources(wrapped.deliverable, name)
        rows.append({"kernel": name, "registers": len(args) + (k.signature.ret is not None),
                     "latency": core.report["latency"], "core": base, "axi": full,
                     "seconds": time.perf_counter() - t0})
    return rows


def maxi_design(kernel, burst: int, data_width: int = 0, shared: bool = False):
    """copy() with a and b behind m_axi: bundles gmem0 and gmem1, or both in gmem
    (``shared``: one port, interface/interconnect.py), on a ``data_width`` bus."""
    s = vichls.customize(kernel)
    s.interface("a", "m_axi", bundle="gmem" if shared else "gmem0", max_burst=burst,
                data_width=data_width)
    s.interface("b", "m_axi", bundle="gmem" if shared else "gmem1", max_burst=burst,
                data_width=data_width)
    s.interface("return", "s_axilite")
    s.pipeline("i")
    return s.build("fpga")


def measure_lut_maxi(kernel) -> dict:
    """LUT/FF of the copy kernel's core and of the module with a and b behind m_axi (16-beat
    bursts, the default) and the block control in s_axilite."""
    core = vichls.customize(kernel).build("fpga")
    out = {"core": synth_xilinx_resources(core.deliverable, "copy")}
    for burst in BURSTS:
        out[burst] = synth_xilinx_resources(maxi_design(kernel, burst).deliverable, "copy")
        out[("gmem", burst)] = synth_xilinx_resources(
            maxi_design(kernel, burst, shared=True).deliverable, "copy")
    # one bundle on a 128-bit bus: four elements a beat
    out[("gmem", 16, 128)] = synth_xilinx_resources(
        maxi_design(kernel, 16, 128, shared=True).deliverable, "copy")
    return out


#: shapes of a bundle's interconnect synthesized alone: (what, [(array, reads, writes)])
BUNDLES = [("a read, b written (copy)", [("a", True, False), ("b", False, True)]),
           ("a, b read", [("a", True, False), ("b", True, False)]),
           ("a, b read, c written", [("a", True, False), ("b", True, False),
                                     ("c", False, True)]),
           ("b, c written", [("b", False, True), ("c", False, True)]),
           ("a, b, c read and written", [(n, True, True) for n in "abc"])]


def measure_interconnects() -> list[dict]:
    """LUT/FF of a bundle's interconnect alone (interface/interconnect.py), 32-bit bus."""
    return [{"what": what, **synth_xilinx_resources(bundle_mux("copy", "gmem", arrays, 32),
                                                    "copy_gmem_m_axi_mux")}
            for what, arrays in BUNDLES]


def interconnects_markdown(rows: list[dict]) -> str:
    out = ["| m_axi bundle interconnect alone (32-bit bus) | LUT | FF |", "|---|---:|---:|"]
    out += [f"| {r['what']} | {r['lut']} | {r['ff']} |" for r in rows]
    return "\n".join(out) + "\n"


def measure_adapters() -> list[dict]:
    """LUT/FF/BRAM of one m_axi adapter synthesized alone (interface/maxi.py), for an array
    of COPY_N 32-bit words: reading, writing, or both, with each burst length."""
    rows = []
    for reads, writes in ((True, False), (False, True), (True, True)):
        for burst in BURSTS:
            text = maxi_adapter("copy", "a", COPY_N, 32, burst, reads, writes)
            rows.append({"reads": reads, "writes": writes, "burst": burst, "data_width": 32,
                         **synth_xilinx_resources(text, "copy_a_m_axi")})
    for reads, writes in ((True, False), (False, True)):  # 4 elements a beat
        text = maxi_adapter("copy", "a", COPY_N, 32, 16, reads, writes, data_width=128)
        rows.append({"reads": reads, "writes": writes, "burst": 16, "data_width": 128,
                     **synth_xilinx_resources(text, "copy_a_m_axi")})
    # a writer beside other writers in its bundle gathers each burst before its address
    for burst, width in [(b, 32) for b in BURSTS] + [(16, 128)]:
        text = maxi_adapter("copy", "a", COPY_N, 32, burst, False, True, data_width=width,
                            gather=True)
        rows.append({"reads": False, "writes": True, "burst": burst, "gather": True,
                     "data_width": width,
                     **synth_xilinx_resources(text, "copy_a_m_axi")})
    return rows


def adapters_markdown(rows: list[dict]) -> str:
    out = ["| m_axi adapter alone (4096 x 32 bits) | max_burst | data_width | LUT | FF | BRAM_18K |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        what = " and ".join(n for n, on in (("reads", r["reads"]), ("writes", r["writes"])) if on)
        what += " (gathering its bursts: a bundle of several writers)" if r.get("gather") else ""
        out.append(f"| {what} | {r['burst']} | {r['data_width']} | {r['lut']} | {r['ff']} | "
                   f"{r['bram']} |")
    return "\n".join(out) + "\n"


def measure_stream(kernel, work: Path) -> list[dict]:
    """Cycles of copy() through m_axi for each burst length and latency (module doc)."""
    from cocotb_bench import simulate  # noqa: PLC0415  (tests/: the shared cocotb runner)

    rows = []
    rng = np.random.default_rng(4)
    for burst, width, shared in STREAMS:
        design = maxi_design(kernel, burst, width, shared)
        rd, wr = ("gmem", "gmem") if shared else ("gmem0", "gmem1")
        d = work / f"copy_{burst}_{width}{'_gmem' if shared else ''}"
        d.mkdir()
        (d / "copy.v").write_text(design.deliverable)
        driver = d / "copy_driver.py"
        driver.write_text(python_driver("copy", design.signature, design.register_maps))
        cases = []
        for lat in LATENCIES:
            a = rng.integers(-2**31, 2**31, COPY_N).astype(np.int32)
            b = np.zeros(COPY_N, np.int32)
            kernel(a, b)  # the Python call: the expected b
            cases.append({"args": {"a": 0x1000, "b": 0x8000}, "latency": lat,
                          "arrays": {"a": {"base": 0x1000, "words": [int(v) for v in a]},
                                     "b": {"base": 0x8000, "words": [0] * COPY_N}},
                          "expect": None, "expect_arrays": {"b": [int(v) for v in b]}})
        spec = {"bundles": {"a": rd, "b": wr}, "bytes": {"a": 4, "b": 4}, "cases": cases}
        result = d / "result.json"
        (d / "spec.json").write_text(json.dumps(spec))
        simulate(d, [d / "copy.v"], "copy", "maxi_bench", benches=BENCHES,
                 env={"MAXI_FILE": str(d / "spec.json"), "MAXI_PAUSE": "0", "AXI_DRIVER": str(driver),
                      "AXI_CLASS": f"{camel('copy')}Driver", "MAXI_RESULT": str(result)})
        got = json.loads(result.read_text())
        for k, lat in enumerate(LATENCIES):
            # the transfers of this call alone are not kept apart: both calls move as many
            rows.append({"burst": burst, "data_width": width, "latency": lat,
                         "cycles": got["cycles"][k],
                         "bundles": "gmem" if shared else "gmem0, gmem1",
                         # (every call moves as many beats)
                         "r": got[rd]["r"] // len(LATENCIES),
                         "w": got[wr]["w"] // len(LATENCIES),
                         "read": got["spans"][k][rd]["read"],
                         "write": got["spans"][k][wr]["write"],
                         "first_beat": got["spans"][k][rd]["first_beat"],
                         "read_beats": got[rd]["r"] / max(1, got[rd]["ar"]),
                         "write_beats": got[wr]["w"] / max(1, got[wr]["aw"]),
                         "target": COPY_N + 2 * lat + 16})
    return rows


def measure_vadd(kernel, work: Path, burst: int = 16, latency: int = 20) -> list[dict]:
    """Cycles of vadd() (c = a + b, 4096 words, II=1) with a, b, c in a bundle each, all
    three in gmem (its 32-bit R channel then carries two words an iteration), and all three
    in gmem on a 128-bit bus (four words a beat: the one R channel keeps up again)."""
    from cocotb_bench import simulate  # noqa: PLC0415

    rows = []
    rng = np.random.default_rng(5)
    for shared, width in ((False, 0), (True, 0), (True, 128)):
        s = vichls.customize(kernel)
        for k, n in enumerate("abc"):
            s.interface(n, "m_axi", bundle="gmem" if shared else f"gmem{k}", max_burst=burst,
                        data_width=width)
        s.interface("return", "s_axilite")
        s.pipeline("i")
        design = s.build("fpga")
        d = work / f"vadd_{'gmem' if shared else 'apart'}_{width}"
        d.mkdir()
        (d / "vadd.v").write_text(design.deliverable)
        driver = d / "vadd_driver.py"
        driver.write_text(python_driver("vadd", design.signature, design.register_maps))
        a, b = (rng.integers(-2**31, 2**31, COPY_N).astype(np.int32) for _ in range(2))
        c = np.zeros(COPY_N, np.int32)
        kernel(a, b, c)
        bases = {"a": 0x1000, "b": 0x5400, "c": 0xA000}  # (a 64 KiB AxiRam)
        spec = {"bundles": {n: "gmem" if shared else f"gmem{k}" for k, n in enumerate("abc")},
                "bytes": {n: 4 for n in "abc"},
                "cases": [{"args": bases, "latency": latency,
                           "arrays": {"a": {"base": bases["a"], "words": [int(v) for v in a]},
                                      "b": {"base": bases["b"], "words": [int(v) for v in b]},
                                      "c": {"base": bases["c"], "words": [0] * COPY_N}},
                           "expect": None, "expect_arrays": {"c": [int(v) for v in c]}}]}
        result = d / "result.json"
        (d / "spec.json").write_text(json.dumps(spec))
        simulate(d, [d / "vadd.v"], "vadd", "maxi_bench", benches=BENCHES,
                 env={"MAXI_FILE": str(d / "spec.json"), "MAXI_PAUSE": "0",
                      "AXI_DRIVER": str(driver), "AXI_CLASS": f"{camel('vadd')}Driver",
                      "MAXI_RESULT": str(result)})
        got = json.loads(result.read_text())
        rows.append({"bundles": "gmem" if shared else "gmem0, gmem1, gmem2", "burst": burst,
                     "data_width": width or 32, "latency": latency,
                     "cycles": got["cycles"][0]})
    return rows


def vadd_markdown(rows: list[dict]) -> str:
    out = ["| vadd (4096 words) bundles | max_burst | data_width | latency | call cycles |",
           "|---|---:|---:|---:|---:|"]
    out += [f"| {r['bundles']} | {r['burst']} | {r['data_width']} | {r['latency']} | "
            f"{r['cycles']} |" for r in rows]
    return "\n".join(out) + "\n"


def stream_markdown(rows: list[dict]) -> str:
    out = ["| bundles | max_burst | data_width | latency | call cycles | read span | "
           "write span | target per direction | met | R beats | W beats | read beats/burst | "
           "write beats/burst | AR to first R |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        met = "yes" if max(r["read"], r["write"]) <= r["target"] else "no"
        out.append(f"| {r['bundles']} | {r['burst']} | {r['data_width']} | {r['latency']} | "
                   f"{r['cycles']} | {r['read']} | {r['write']} | {r['target']} | {met} | "
                   f"{r['r']} | {r['w']} | {r['read_beats']:.1f} | {r['write_beats']:.1f} | "
                   f"{r['first_beat']} |")
    return "\n".join(out) + "\n"


def lut_maxi_markdown(m: dict) -> str:
    c = m["core"]
    out = ["| design | LUT | FF | BRAM_18K | added LUT | added FF |", "|---|---:|---:|---:|---:|---:|",
           f"| copy core (ap_memory, ap_ctrl_hs) | {c['lut']} | {c['ff']} | {c['bram']} | | |"]
    for burst in BURSTS:
        r = m[burst]
        out.append(f"| a, b m_axi (max_burst={burst}), control s_axilite | {r['lut']} | "
                   f"{r['ff']} | {r['bram']} | {r['lut'] - c['lut']} | {r['ff'] - c['ff']} |")
    for burst in BURSTS:
        r = m[("gmem", burst)]
        out.append(f"| a, b m_axi in one bundle (max_burst={burst}), control s_axilite | "
                   f"{r['lut']} | {r['ff']} | {r['bram']} | {r['lut'] - c['lut']} | "
                   f"{r['ff'] - c['ff']} |")
    r = m[("gmem", 16, 128)]
    out.append(f"| a, b m_axi in one bundle, data_width=128 (max_burst=16), control s_axilite | "
               f"{r['lut']} | {r['ff']} | {r['bram']} | {r['lut'] - c['lut']} | "
               f"{r['ff'] - c['ff']} |")
    return "\n".join(out) + "\n"


def markdown(rows: list[dict]) -> str:
    out = ["| kernel | s_axilite registers | latency (cycles) | core LUT/FF/DSP | "
           "with s_axilite LUT/FF/DSP | added LUT | added FF |", "|---|---:|---|---|---|---:|---:|"]
    for r in rows:
        lat = r["latency"]
        latency = str(lat["min"]) if lat["min"] == lat["max"] else f"{lat['min']}..{lat['max'] or '?'}"
        c, a = r["core"], r["axi"]
        out.append(f"| {r['kernel']} | {r['registers']} | {latency} | "
                   f"{c['lut']}/{c['ff']}/{c['dsp']} | {a['lut']}/{a['ff']}/{a['dsp']} | "
                   f"{a['lut'] - c['lut']} | {a['ff'] - c['ff']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables into FILE")
    ap.add_argument("--no-stream", action="store_true", help="skip the m_axi simulations")
    ap.add_argument("--no-synth", action="store_true", help="skip the Yosys measurements")
    args = ap.parse_args()
    import tempfile

    tables = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "saxpy.py"
        path.write_text(textwrap.dedent(SAXPY))
        copy_path = Path(tmp) / "copy.py"
        copy_path.write_text(textwrap.dedent(COPY))
        copy = load_file(copy_path)["copy"]
        if not args.no_synth:
            rows = measure({**load_file(EXAMPLE), **load_file(path)})
            table = markdown(rows)
            print(table)
            worst = max(r["axi"]["lut"] - r["core"]["lut"] for r in rows)
            print(f"largest LUT cost of the s_axilite adapters: {worst} (target <= 300)\n")
            lut = lut_maxi_markdown(measure_lut_maxi(copy))
            print(lut)
            alone = adapters_markdown(measure_adapters())
            print(alone)
            mux = interconnects_markdown(measure_interconnects())
            print(mux)
            tables += [table, lut, alone, mux]
        if not args.no_stream:
            work = Path(tmp) / "stream"
            work.mkdir()
            stream = stream_markdown(measure_stream(copy, work))
            print(stream)
            vadd_path = Path(tmp) / "vadd.py"
            vadd_path.write_text(textwrap.dedent(VADD))
            vadd = vadd_markdown(measure_vadd(load_file(vadd_path)["vadd"], work))
            print(vadd)
            tables += [stream, vadd]
    if args.markdown:
        Path(args.markdown).write_text("\n".join(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
