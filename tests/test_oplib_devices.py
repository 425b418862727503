"""Device tables of the operator library (vichls.targets.oplib): xc7 stays the default and unchanged,
``use_device("ecp5")`` changes what the scheduler, the structural builder and the report
read, and designs scheduled for the ECP5 at 150 MHz still compute exactly what Python does
(one simulator build). The CLI's ``--device`` / ``--target-mhz`` options reach the build."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from vichls import customize, int16, int32, int64, kernel
from vichls.targets import oplib
from vichls.cli import main
from vichls.driver.fpga import compile_fpga
from vichls.inputs import copy_args
from vichls.results import differences, results_of
from vichls.signature import check_call_args

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import ALL_CASES  # noqa: E402

ECP5_150MHZ_NS = 1000.0 / 150


# -- the tables --------------------------------------------------------------------------------------


def test_xc7_is_the_default_with_its_published_figures():
    assert oplib.current_device().name == "xc7" == oplib.DEFAULT_DEVICE
    # the figures the module docstring states for the 7-series
    assert oplib.cost("add", 32).delay_ns == pytest.approx(0.8 + 0.03 * 32)
    assert oplib.cost("mul", 18) == oplib.OpCost(0, 3.5, dsp=1)
    assert oplib.mul_latency(32) == 1 and oplib.mul_latency(64) == 2
    assert oplib.cost("mem_read", 32) == oplib.OpCost(1, 0.3, out_delay_ns=1.0)
    assert oplib.register_reserve_ns() == oplib.REGISTER_RESERVE_NS


def test_use_device_switches_every_reader_and_restores_the_default():
    xc7_add = oplib.cost("add", 32)
    with oplib.use_device("ecp5") as dev:
        assert dev.name == "ecp5" and oplib.current_device() is oplib.ECP5
        ecp5_add = oplib.cost("add", 32)
        # the multiplier block cannot chain on the ECP5: pipelined at every width
        assert oplib.mul_latency(8) == 1 and oplib.mul_latency(32) == 2
        assert oplib.cost("mul", 32).latency == 2
    assert oplib.current_device().name == "xc7"
    assert ecp5_add.delay_ns > xc7_add.delay_ns  # routing dominates the LUT4 fabric
    assert ecp5_add.lut == xc7_add.lut  # areas are the 7-series estimate on every device
    # an explicit device argument wins over the active one
    assert oplib.cost("add", 32, oplib.ECP5) == ecp5_add


def test_unknown_device_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown device 'virtex2'.*xc7.*ecp5"):
        with oplib.use_device("virtex2"):
            pass


# -- scheduling for the device -----------------------------------------------------------------------


@kernel
def adder_chain(A: int32[8], B: int32[8], C: int32[8], D: int32[8]):
    for i in range(8):
        A[i] = A[i] + B[i] + C[i] + D[i] + i


@kernel
def mixed_products(A: int32[8], S: int16[8], x: int32, y: int16) -> int32:
    acc: int32 = 0
    for i in range(8):
        S[i] = S[i] * y + int16(i)
        A[i] = A[i] * x + A[i] * 7 - S[i]
        acc += A[i]
    return acc


@kernel
def triangular_sum(A: int32[8, 8], v: int32[8]) -> int32:
    total: int32 = 0
    for i in range(8):
        for j in range(i + 1):
            if A[i, j] > v[j]:
                total += A[i, j] * v[j]
            else:
                total -= A[i, j] // 3
    return total


@kernel
def local_ram_traffic(a: int32[64], out: int32[64]):
    # 64 x 32 bits: distributed RAM on the ECP5; 160 x 32 bits: the block-RAM template.
    # Data-dependent indices keep every access a real RAM access (no store forwarding), and
    # a read right after a write of the same word checks the write that lands a cycle late.
    small: int32[64] = 0
    big: int32[160] = 0
    for i in range(64):
        small[a[i] & 63] = a[i] + i
        out[i] = small[(a[i] >> 6) & 63] + small[a[i] & 63]
        big[i + (a[i] & 31)] = small[i]
    for j in range(63):  # pipelined: two reads of small per cycle need both ports
        out[j] += (small[j] ^ small[j + 1]) + big[j + (a[j] & 63)]


@kernel
def constant_products(a: int16[8], c: int32[8], e: int64[8]):
    for i in range(8):
        a[i] = a[i] * 7 - a[i] * -3 + a[i] * 45
        c[i] = c[i] * 10 + c[i] * -9 + c[i] * 1000003
        e[i] = e[i] * 3 + e[i] * -7


def _latency(k, device, period):
    with oplib.use_device(device):
        return compile_fpga(k.module(), clock_period_ns=period).report["latency"]["max"]


def test_ecp5_at_150mhz_chains_fewer_adders_per_cycle():
    # four 32-bit adds in a row fit one 10 ns xc7 cycle but not one ECP5 cycle at 150 MHz
    assert _latency(adder_chain, "ecp5", ECP5_150MHZ_NS) > _latency(adder_chain, "xc7", 10.0)


def test_a_register_with_many_writers_pays_its_input_multiplexer_on_ecp5():
    ecp5 = oplib.device("ecp5")
    level = ecp5.lut_ns + ecp5.net_ns
    assert [oplib.register_input_ns(n, ecp5) for n in (1, 2, 3, 4, 5, 8, 9)] == \
        [0.0, 0.0, level, level, 2 * level, 2 * level, 3 * level]
    assert oplib.register_input_ns(9, oplib.device("xc7")) == 0.0


@kernel
def five_writers(a: int32[8], out: int32[2]):
    best: int32 = 0
    for i in range(8):
        x = a[i] * 3 + a[(i + 1) % 8]
        if x > best:
            best = x
        elif x < -best:
            best = -x
        elif x == 7:
            best = 7
        elif x == 9:
            best = 1
    out[0] = best


def test_writes_to_a_register_with_five_writers_are_charged_on_ecp5_only():
    """The scheduler reads the charge per write from the count of the register's writers
    (``best``: the initial zero and four branches)."""
    from vichls.driver.fpga import prepare
    from vichls.scheduling.list_schedule import op_cost

    for device, levels in (("ecp5", 2), ("xc7", 0)):
        with oplib.use_device(device):
            module = five_writers.module()
            prepare(module, 1000 / 150)
            writes: dict = {}
            for op in module.walk():
                if op.name == "memref.store" and not op.memref.type.get_shape():
                    writes.setdefault(op.memref, []).append(op)
            busiest = max(writes.values(), key=len)
            assert len(busiest) == 5
            dev = oplib.device(device)
            assert {op_cost(op).delay_ns for op in busiest} == {levels * (dev.lut_ns + dev.net_ns)}


def test_default_build_is_the_xc7_build():
    plain = compile_fpga(mixed_products.module())
    with oplib.use_device("xc7"):
        explicit = compile_fpga(mixed_products.module())
    assert plain.verilog == explicit.verilog and plain.report == explicit.report


def _multipliers(verilog):
    return {(name, int(w), int(lat)) for name, w, lat in re.findall(
        r"(vichls_mul\w*) #\(\s*\.WIDTH\((\d+)\),\s*\.LATENCY\((\d+)\)", verilog)}


def test_ecp5_multipliers_are_pipelined_in_the_verilog():
    with oplib.use_device("ecp5"):
        design = compile_fpga(mixed_products.module(), clock_period_ns=ECP5_150MHZ_NS)
    found = _multipliers(design.verilog)
    assert ("vichls_mul_ecp5", 32, 2) in found and ("vichls_mul_ecp5", 16, 1) in found, found
    assert all(name == "vichls_mul_ecp5" for name, _, _ in found)
    assert "module vichls_mul_ecp5" in design.verilog and "module vichls_mul " not in design.verilog


def test_ecp5_control_fsm_is_one_hot_and_xc7_stays_binary():
    with oplib.use_device("ecp5"):
        design = compile_fpga(adder_chain.module(), clock_period_ns=ECP5_150MHZ_NS)
    states = int(re.search(r"reg \[(\d+):0\] fsm_state;", design.verilog).group(1)) + 1
    assert f"fsm_state <= {states}'d1;" in design.verilog  # idle is bit 0
    assert "fsm_state ==" not in design.verilog and "= fsm_state[" in design.verilog
    # every state bit has its next-state equation
    assert len(re.findall(r"assign fsm_state_next\[\d+\] =", design.verilog)) == states
    plain = compile_fpga(adder_chain.module())
    assert "fsm_state ==" in plain.verilog and "fsm_state_next" not in plain.verilog


def test_ecp5_loop_entry_reads_the_bound_register_not_its_next_value():
    """The bound i + 1 of the triangular j loop is written in one state; the decision to
    enter the loop is taken in another, so it reads the register's output: static timing
    then has no path from i through the bound's adder into the j counter."""
    with oplib.use_device("ecp5"):
        text = compile_fpga(triangular_sum.module(), clock_period_ns=ECP5_150MHZ_NS).verilog
    defs = dict(re.findall(r"wire (?:\[\d+:0\] )?(\w+) = (.*);", text))
    entries = [t for t in re.findall(r"wire path\w* = in_state\w* & (loop_test\w*);", text)]
    assert entries
    for test in entries:
        operands = re.findall(r"[A-Za-z_]\w*", defs[test])
        feeding = [defs.get(o, "") for o in operands]
        assert not any(re.search(r"\w+_next\b", f) and "loop_next" not in f
                       for f in feeding), (test, defs[test], feeding)


@kernel
def wide_and_narrow_products(A: int32[4], B: int32[4], S: int16[4], T: int16[4], x: int64,
                             y: int64) -> int64:
    for i in range(4):
        A[i] = A[i] * B[i]
        S[i] = S[i] * T[i]
    return x * y


def test_only_ecp5_multipliers_up_to_36_bits_use_the_dsp_registers():
    assert oplib.mul_primitive(32) == "vichls_mul"  # xc7: the portable one
    assert oplib.mul_primitive(36, oplib.ECP5) == "vichls_mul_ecp5"
    assert oplib.mul_primitive(37, oplib.ECP5) == "vichls_mul"
    with oplib.use_device("ecp5"):
        design = compile_fpga(wide_and_narrow_products.module(),
                              clock_period_ns=ECP5_150MHZ_NS)
    found = _multipliers(design.verilog)
    assert {(n, w) for n, w, _ in found} == {("vichls_mul_ecp5", 32), ("vichls_mul_ecp5", 16),
                                             ("vichls_mul", 64)}, found
    plain = compile_fpga(wide_and_narrow_products.module())
    assert "ecp5" not in plain.verilog and "MULT18X18D" not in plain.verilog


def _ecp5_multiplier_blocks(design, tmp_path) -> list[dict]:
    """The MULT18X18D cells of ``design`` under Yosys synth_ecp5 (their JSON records)."""
    import json

    from vichls.flows.tools import run_yosys

    top = design.signature.name
    (tmp_path / f"{top}.v").write_text(design.verilog)
    proc = run_yosys(["-q", "-p", f"read_verilog {top}.v; synth_ecp5 -top {top} -json "
                      f"{top}.json"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return [c for m in json.loads((tmp_path / f"{top}.json").read_text())["modules"].values()
            for c in m["cells"].values() if c["type"] == "MULT18X18D"]


def test_ecp5_multipliers_register_inside_the_mult18x18d_blocks(tmp_path):
    """Yosys synth_ecp5 of a design for the ECP5 gets multiplier blocks with their output
    register in use (the first stage of every variable product), while the generic and
    Xilinx flows read the portable form of the same text."""
    from vichls.flows.synth import synth_check, synth_xilinx_resources

    with oplib.use_device("ecp5"):
        design = compile_fpga(wide_and_narrow_products.module(),
                              clock_period_ns=ECP5_150MHZ_NS)
    top = design.signature.name
    cells = _ecp5_multiplier_blocks(design, tmp_path)
    registered = [c for c in cells if c["parameters"].get("REG_OUTPUT_CLK") == "CLK0"]
    # 32-bit: three partial products; 16-bit: one (the 64-bit product is vichls_mul's)
    assert len(registered) == 4, [c["parameters"] for c in cells]
    assert synth_check(design.verilog, top).ok
    assert synth_xilinx_resources(design.verilog, top)["dsp"] > 0


@kernel
def thirds(A: int32[6], B: int32[6]):
    for i in range(1, 5):
        B[i] = (A[i - 1] + A[i] + A[i + 1]) // 3


def test_limb_products_take_one_block_each(tmp_path):
    """The magic product of a division by a constant is a sum of products of 16-bit limbs
    computed in 32 bits: on the ECP5 each is one MULT18X18D (``OPERAND_WIDTH``), not the
    three of a 32 x 32 product; on the xc7 each is one combinational DSP product."""
    with oplib.use_device("ecp5"):
        design = compile_fpga(thirds.module(), clock_period_ns=ECP5_150MHZ_NS)
    narrow = re.findall(r"vichls_mul_ecp5 #\(\.WIDTH\(32\), \.LATENCY\(1\), "
                        r"\.OPERAND_WIDTH\(16\)\)", design.verilog)
    assert narrow, design.verilog
    assert len(_ecp5_multiplier_blocks(design, tmp_path)) == len(narrow)
    xc7 = compile_fpga(thirds.module())
    assert "vichls_mul" not in xc7.verilog and "vichls_div" not in xc7.verilog


def test_small_local_arrays_become_distributed_ram_on_ecp5_only():
    assert oplib.local_ram_primitive(64, 32, False, oplib.ECP5) == "vichls_ram_lut"
    assert oplib.local_ram_primitive(64, 32, True, oplib.ECP5) == "vichls_ram_dp_lut"
    assert oplib.local_ram_primitive(160, 32, False, oplib.ECP5) == "vichls_ram"
    assert oplib.local_ram_primitive(64, 32, False, oplib.XC7) == "vichls_ram"
    pipelined = customize(local_ram_traffic)
    pipelined.pipeline("j")
    with oplib.use_device("ecp5"):
        design = compile_fpga(pipelined.module(), clock_period_ns=ECP5_150MHZ_NS)
    cells = re.findall(r"^\s*(vichls_ram\w*) #\(\.WIDTH\(32\), \.WORDS\((\d+)\)",
                       design.verilog, re.M)
    assert sorted(cells) == [("vichls_ram", "160"), ("vichls_ram_dp_lut", "64")], cells
    plain = compile_fpga(pipelined.module())
    assert "_lut" not in plain.verilog


def test_ecp5_distributed_ram_is_lint_clean_and_maps_to_lut_ram(tmp_path):
    """The single-port form becomes TRELLIS_DPR16X4 LUT RAM under synth_ecp5 (the block
    RAM's read takes most of a 150 MHz cycle to leave it); both forms lint clean and
    synthesize without latches."""
    import json

    from vichls.flows.lint import lint_verilog
    from vichls.flows.synth import synth_check
    from vichls.flows.tools import run_yosys

    pipelined = customize(local_ram_traffic)
    pipelined.pipeline("j")
    with oplib.use_device("ecp5"):
        plain = compile_fpga(local_ram_traffic.module(), clock_period_ns=ECP5_150MHZ_NS)
        dual = compile_fpga(pipelined.module(), clock_period_ns=ECP5_150MHZ_NS)
    top = plain.signature.name
    assert "vichls_ram_lut #" in plain.verilog
    for design in (plain, dual):
        assert lint_verilog(design.verilog, top) == []
        report = synth_check(design.verilog, top)
        assert report.ok and report.latches == 0 and report.comb_loops == 0
    (tmp_path / f"{top}.v").write_text(plain.verilog)
    proc = run_yosys(["-q", "-p", f"read_verilog {top}.v; synth_ecp5 -top {top} -json "
                      f"{top}.json"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    kinds = [c["type"] for m in json.loads((tmp_path / f"{top}.json").read_text())["modules"].values()
             for c in m["cells"].values()]
    # 64 words x 32 bits: 4 x 8 blocks of 16 words x 4 bits; the 160-word array: block RAM
    assert kinds.count("TRELLIS_DPR16X4") == 32 and kinds.count("DP16KD") >= 1, set(kinds)


#: Corpus kernels simulated with the ECP5 schedule: every operator at narrow, word and
#: double-word widths, and every kind of control (the whole corpus runs on xc7 elsewhere).
ECP5_CORPUS = {"ops_int8", "ops_int32", "ops_int64", "ops_i33", "augassign_all", "ranges_all",
               "triangular", "data_bounds", "while_loops", "break_continue",
               "nested_early_return", "local_arrays", "calls_twice", "fir", "matvec",
               "bubble_sort", "popcount", "dot"}


def test_ecp5_designs_are_bit_exact_in_simulation():
    """Python = RTL for a cross-section of the regression corpus and the kernels above, all
    scheduled with the ECP5 table at 150 MHz (pipelined multipliers of every width, shorter
    chains, registered loop tests, control values computed a cycle early), in one simulator
    build."""
    from vichls.flows.sim import SimDesign, build_simulation

    rng = np.random.default_rng(5)
    pipelined = customize(mixed_products)
    pipelined.pipeline("i")
    ram_pipelined = customize(local_ram_traffic)
    ram_pipelined.pipeline("j")

    def args_for(k):
        out = []
        for p in k.signature.params:
            dtype = p.scalar.dtype
            info = np.iinfo(dtype)
            if p.is_array:
                out.append(rng.integers(info.min, info.max, size=p.type.shape, dtype=dtype))
            else:
                out.append(int(rng.integers(info.min, info.max)))
        return tuple(out)

    cases = {
        "adder_chain": (adder_chain, adder_chain.module(), args_for),
        "mixed_products": (mixed_products, mixed_products.module(), args_for),
        "mixed_products_pipelined": (mixed_products, pipelined.module(), args_for),
        "triangular_sum": (triangular_sum, triangular_sum.module(), args_for),
        # shifts and adders instead of the multiplier blocks (transforms/fpga/shift_add_products.py)
        "constant_products": (constant_products, constant_products.module(), args_for),
        # distributed RAM (registered read address, writes landing a cycle late), single-
        # and dual-ported, beside a block-RAM array
        "local_ram_traffic": (local_ram_traffic, local_ram_traffic.module(), args_for),
        "local_ram_traffic_pipelined": (local_ram_traffic, ram_pipelined.module(), args_for),
        # one multiplier block per 16-bit limb product of a division's magic number
        "thirds": (thirds, thirds.module(), args_for),
    }
    for case in ALL_CASES:
        if case.name not in ECP5_CORPUS:
            continue
        cases[f"corpus_{case.name}"] = (case.kernel, case.kernel.module(),
                                        lambda k, case=case: case.make_inputs(rng))
    designs, calls, expected = [], {}, {}
    for name, (k, module, make) in cases.items():
        with oplib.use_device("ecp5"):
            design = compile_fpga(module, clock_period_ns=ECP5_150MHZ_NS)
        designs.append(SimDesign(design.verilog, design.signature, name=name,
                                 partitions=design.partitions))
        arg_sets = [tuple(check_call_args(k.signature, make(k))) for _ in range(2)]
        calls[name] = [copy_args(a) for a in arg_sets]
        expected[name] = []
        for a in arg_sets:
            work = copy_args(a)
            expected[name].append(results_of(k.signature, work, k(*work)))
    results = build_simulation(designs).run_many(calls, max_cycles=2_000_000)
    problems = []
    for name, res in results.items():
        for n, (want, got) in enumerate(zip(expected[name], res)):
            problems += [f"{name} call {n}: {d}" for d in differences(want, (got.ret, got.arrays))]
    assert not problems, "\n".join(problems)


# -- the command line ----------------------------------------------------------------------------------


def test_compile_device_and_target_mhz_options(tmp_path, capsys):
    src = tmp_path / "chain.py"
    src.write_text(
        "from vichls import kernel, int32\n\n"
        "@kernel\n"
        "def chain(A: int32[8], B: int32[8], C: int32[8], D: int32[8]):\n"
        "    for i in range(8):\n"
        "        A[i] = A[i] + B[i] + C[i] + D[i] + i\n")
    assert main(["compile", str(src), "-o", str(tmp_path / "x")]) == 0
    default_out = capsys.readouterr().out
    assert "(clock period 10 ns)" in default_out
    assert main(["compile", str(src), "-o", str(tmp_path / "e"), "--device", "ecp5",
                 "--target-mhz", "150"]) == 0
    ecp5_out = capsys.readouterr().out
    assert "device ecp5" in ecp5_out and "6.66667 ns" in ecp5_out

    def latency(text):
        return int(re.search(r"latency:\s+(\d+)", text).group(1))

    assert latency(ecp5_out) > latency(default_out)
    with pytest.raises(SystemExit):
        main(["compile", str(src), "--device", "nope"])
