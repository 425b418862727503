"""ONNX float models compiled by vichls.onnx: the generated kernel's Python call against
onnxruntime (within the precision's error; float32 within rounding, since onnxruntime sums
in another order), the CPU build and the simulated RTL bit for bit against that call, the
command line, and the errors for models vichls does not support."""

from __future__ import annotations

import numpy as np
import pytest

import onnx_models as om
import vichls.onnx as vo
from e2e import Scheduled, assert_outcome, run_batch
from vichls.errors import VichlsError


def _random_inputs(model, n, seed=0):
    m = vo.read_model(model)
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(t.shape) for t in m.inputs] for _ in range(n)]


def _python_vs_onnxruntime(model, n=20, **options):
    kern, _ = vo.load(model, **options)
    worst = 0.0
    for inputs in _random_inputs(model, n):
        got = vo.run(kern, kern.signature, inputs)[0]
        ref = om.onnxruntime_outputs(model, inputs)[0]
        worst = max(worst, float(np.max(np.abs(got.reshape(-1) - ref.reshape(-1)))))
    return worst


# -- the Python call (the golden reference) against onnxruntime -------------------------------


@pytest.mark.parametrize("precision,bound", [("fixed(16, 6)", 0.06), ("fixed(24, 10)", 0.004),
                                             ("fixed(16, 6, quant='rnd', overflow='sat')", 0.02)])
def test_jet_mlp_within_the_fixed_point_error(precision, bound):
    worst = _python_vs_onnxruntime(om.mlp(), precision=precision)
    assert 0 < worst < bound


def test_more_fractional_bits_give_a_smaller_error():
    m = om.mlp(seed=3)
    assert _python_vs_onnxruntime(m, precision="fixed(24, 10)") < \
        _python_vs_onnxruntime(m, precision="fixed(16, 6)") / 4


def test_float32_within_rounding():
    # onnxruntime's Gemm sums in its own order (and may fuse multiply-adds): not bit-exact
    assert _python_vs_onnxruntime(om.mlp(), precision="float32") < 1e-5


def test_matmul_then_add_is_the_gemm():
    gemm, _ = vo.load(om.mlp(seed=2))
    matmul, _ = vo.load(om.mlp(seed=2, matmul=True))
    x = np.random.default_rng(0).standard_normal(16)
    assert np.array_equal(vo.run(gemm, gemm.signature, [x])[0],
                          vo.run(matmul, matmul.signature, [x])[0])
    assert "add0" in vo.source(om.mlp(seed=2, matmul=True)).source  # folded into matmul0


def test_flatten_clip_skip_add_reshape_in_both_io_modes():
    m = om.branches()
    for io in ("memory", "stream"):
        assert _python_vs_onnxruntime(m, precision="fixed(24, 10)", io=io) < 0.004


@pytest.mark.parametrize("io", ["memory", "stream"])
def test_cnn_within_the_fixed_point_error(io):
    # Conv (padded) + BatchNormalization + Relu, MaxPool, Conv + Relu, GlobalAveragePool,
    # Flatten, Gemm, ArgMax (the error measured on the logits)
    m = om.cnn()
    r = vo.accuracy(m, np.random.default_rng(0).standard_normal((10, 64)), io=io)
    assert r["argmax_agreement"] == 1.0 and 0 < r["max_abs_error"] < 0.1
    r = vo.accuracy(m, np.random.default_rng(0).standard_normal((5, 64)), io=io,
                    precision="float32")
    assert r["argmax_agreement"] == 1.0 and r["max_abs_error"] < 1e-5


@pytest.mark.parametrize("io", ["memory", "stream"])
def test_depthwise_separable_block_within_the_fixed_point_error(io):
    # a 3x3 depthwise Conv (group = channels) and a 1x1 pointwise Conv, each with its
    # BatchNormalization and Clip(0, 6) folded in
    worst = _python_vs_onnxruntime(om.separable(), n=8, precision="fixed(24, 10)", io=io)
    assert 0 < worst < 0.004
    assert "depthwise (Conv+bn1+relu6_1)" in vo.source(om.separable()).source


@pytest.mark.parametrize("io", ["memory", "stream"])
def test_residual_block_within_the_fixed_point_error(io):
    worst = _python_vs_onnxruntime(om.residual(), n=8, precision="fixed(24, 10)", io=io)
    assert 0 < worst < 0.004


@pytest.mark.parametrize("io", ["memory", "stream"])
def test_softmax_within_its_tables_error(io):
    # the exponential and the reciprocal from tables (hls4ml's way): within 0.01 of
    # onnxruntime, and the probabilities sum to about 1
    m = om.with_softmax()
    assert _python_vs_onnxruntime(m, n=30, io=io) < 0.01
    kern, _ = vo.load(m, io=io)
    p = vo.run(kern, kern.signature, [np.linspace(-2, 2, 8)])[0]
    assert abs(float(np.sum(p)) - 1) < 0.02 and np.all(p >= 0)


def test_softmax_in_float32_is_refused():
    with pytest.raises(VichlsError) as e:
        vo.load(om.with_softmax(), precision="float32")
    assert "node 'softmax' (Softmax): a Softmax in float32 is not supported" in e.value.message


@pytest.mark.parametrize("model", [om.inception, om.concat_last])
@pytest.mark.parametrize("io", ["memory", "stream"])
def test_concat_within_the_fixed_point_error(model, io):
    assert _python_vs_onnxruntime(model(), n=6, precision="fixed(24, 10)", io=io) < 0.004


def test_grouped_convolution_reads_its_group():
    # group=2 of 4 input and 6 output channels: output channel co reads input channels
    # 2 * (co // 3) and the next one
    m = om.grouped()
    assert _python_vs_onnxruntime(m, n=6, precision="fixed(24, 10)") < 0.004
    assert "x[co // 3 * 2 + ci" in vo.source(m).source


def test_residual_skip_connection_is_deep_enough():
    # regression: in stream io the skip connection's copy of the block's input was a FIFO
    # of 2, and the graph deadlocked (the first convolution takes its whole input first)
    src = vo.source(om.residual(size=4), io="stream").source
    assert "x_1 = stream[fixed(16, 6), 48]()" in src


def test_convolution_parallelism_points():
    layers = {i["node"]: i["parallelism"] for i in vo.source(
        om.separable(), parallelism={"depthwise": 5, "pointwise": 3}).layers}
    assert layers["depthwise"] == 3 and layers["pointwise"] == 2  # a window row; 2 of 4 channels
    src = vo.source(om.residual(channels=4), parallelism={"conv1": 20, "conv2": 3}).source
    assert 'customize(conv1).unroll("ci", 2).pipeline("ci")' in src   # 2 channels' windows
    assert 'customize(conv2).pipeline("kh")' in src                    # one window row


def test_batch_normalization_is_folded():
    gen = vo.source(om.cnn())
    assert "conv1 (Conv+bn1+relu1)" in gen.source and "bn1" not in gen.source.split('"""')[2]


def test_per_node_precision():
    m = om.mlp(sizes=(8, 6, 3))
    gen = vo.source(m, precision={"default": "fixed(16, 6)", "dense1": "fixed(12, 4)", "x":
                                  "fixed(10, 3)"})
    assert "def dense1(x: fixed(16, 6)[6], y: fixed(12, 4)[3])" in gen.source
    assert "def dense0(x: fixed(10, 3)[8], y: fixed(16, 6)[6])" in gen.source
    # the accumulator holds every partial sum: 10 + 16 bits of product, 4 more for 9 terms
    assert "acc: fixed(30, 13)" in gen.source


def test_digits_classifier_agrees_with_onnxruntime():
    model, x, labels = om.digits_mlp()
    r = vo.accuracy(model, x[:150])
    assert r["samples"] == 150 and r["argmax_agreement"] >= 0.97
    assert 0 < r["max_abs_error"] < 0.2
    kern, _ = vo.load(model)
    predicted = [int(vo.run(kern, kern.signature, [xi])[0][0]) for xi in x[:150]]
    assert np.mean(np.array(predicted) == labels[:150]) > 0.85


# -- the generated source --------------------------------------------------------------------


def test_parameters_are_the_inputs_then_outputs_sanitised():
    kern, _ = vo.load(om.branches())
    params = kern.signature.params
    assert [p.name for p in params] == ["in_0", "out"]
    assert [p.type.shape for p in params] == [(2, 3), (2, 2)]


def test_parallelism_sets_the_directives():
    m = om.mlp()  # 16-64-32-32-5
    full = vo.source(m, parallelism="full")
    assert full.source.count('.unroll("o").unroll("i")') == 4
    reuse4 = vo.source(m, parallelism={"dense0": 256, "dense1": 512, "dense2": 256,
                                       "dense3": 40})
    assert 'customize(dense0).unroll("o", 16).pipeline("o")' in reuse4.source
    # dense0 writes 16 outputs per cycle (16 banks); dense1 reads all 64 at once: it copies
    # them into registers of its own first
    assert "schedule.partition('r0', dim=1, factor=16, kind=\"cyclic\")" in reuse4.source
    assert 'customize(dense1).unroll("j").unroll("o", 8).pipeline("o")' in reuse4.source
    assert "schedule.partition('dense1_x', kind=\"complete\")" in reuse4.source
    assert 'customize(dense3).unroll("j").pipeline("o")' in reuse4.source  # one of 32 MACs
    low = vo.source(m, parallelism=4)
    assert 'customize(dense1).unroll("i", 4).pipeline("i")' in low.source
    assert "schedule.partition('dense1_w', dim=2, factor=4, kind=\"cyclic\")" in low.source
    assert [info["parallelism"] for info in reuse4.layers] == [256, 512, 256, 32]


def test_written_file_loads_on_its_own(tmp_path):
    from vichls.frontend.design_file import load_design

    py, npz = vo.write(om.mlp(sizes=(8, 6, 3)), tmp_path / "net.py")
    assert npz.exists()
    loaded = load_design(str(py), None)
    kern, _ = vo.load(om.mlp(sizes=(8, 6, 3)))
    x = np.random.default_rng(2).standard_normal(8)
    assert np.array_equal(vo.run(loaded.kernel, loaded.kernel.signature, [x])[0],
                          vo.run(kern, kern.signature, [x])[0])


def test_fully_parallel_dense_layers_take_narrow_products_and_sign_tests():
    """hls4ml's jet-tagging MLP at reuse 1, in small (benchmarks/onnx_mlp.py has the real
    one): the layers inline into one straight-line block; a fixed(16, 6) activation times a
    fixed(16, 6) weight is one 16 x 16-bit product (a DSP block, combinational), not a
    21- to 27-bit multiplier with a pipeline stage whose halves are summed after it; each
    ReLU reads its sum's sign bit, no compare. 16-8-8-5 at 200 MHz: a cycle for the input
    ports, then per layer one of products and the adder tree's levels, two a cycle, the
    ReLU's select beside the last (16 cycles before, 12 now)."""
    from vichls.driver.fpga import compile_fpga, prepare
    from vichls.scheduling.list_schedule import mul_operand_width, op_kind

    _, sched = vo.load(om.mlp(sizes=(16, 8, 8, 5)), parallelism="full")
    top, _ = prepare(sched.module(), 5.0)
    products = [op for op in top.walk() if op.name == "arith.muli"]
    assert len(products) == 16 * 8 + 8 * 8 + 8 * 5
    assert all(op_kind(op) == "mul" and mul_operand_width(op) == 16 for op in products)
    assert not [op for op in top.walk() if op.name == "arith.cmpi"]
    design = compile_fpga(sched.module(), clock_period_ns=5.0)
    assert design.report["latency"]["max"] == 12
    assert "$signed(" in design.verilog


# -- CPU and RTL against the Python call, bit for bit ----------------------------------------


def _calls(kern, model, n, seed):
    return [vo.arguments(kern.signature, ins) for ins in _random_inputs(model, n, seed)]


def test_cpu_build_equals_the_python_call():
    for model, options in ((om.mlp(sizes=(8, 6, 3), argmax=True), {}),
                           (om.mlp(sizes=(8, 6, 3)), {"precision": "float32", "io": "stream"}),
                           (om.branches(), {"io": "stream", "parallelism": 2}),
                           (om.cnn(size=6), {}), (om.cnn(size=6), {"io": "stream"})):
        kern, sched = vo.load(model, **options)
        cpu = sched.build("cpu")
        for inputs in _random_inputs(model, 3):
            assert all(np.array_equal(a, b) for a, b in zip(
                vo.run(kern, kern.signature, inputs), vo.run(cpu, kern.signature, inputs)))


@pytest.fixture(scope="module")
def simulated():
    designs = {
        "mlp_memory": (om.mlp(sizes=(8, 6, 3), argmax=True),
                       {"parallelism": {"dense0": 4, "dense1": "full"}}),
        "mlp_full": (om.mlp(sizes=(6, 5, 4)), {"parallelism": "full"}),
        # three layers chained in one block: narrow signed products, ReLUs on sign bits
        "mlp_deep_full": (om.mlp(sizes=(8, 6, 5, 3), seed=4), {"parallelism": "full"}),
        "mlp_stream": (om.mlp(sizes=(8, 6, 4), argmax=True), {"io": "stream", "parallelism": 4}),
        "branches": (om.branches(), {"precision": "fixed(20, 8)"}),
        "cnn": (om.cnn(size=6), {}),
        # dense0 writes 3 outputs per cycle, dense1 reads all 6 at once (a register copy)
        "mlp_reuse": (om.mlp(sizes=(8, 6, 4)), {"parallelism": {"dense0": 24, "dense1": 12}}),
        # depthwise (a window row per cycle) and pointwise (2 input channels per cycle)
        "separable_low": (om.separable(size=5), {"parallelism": {"depthwise": 3,
                                                                 "pointwise": 2}}),
        # two output channels per cycle in both convolutions
        "separable_wide": (om.separable(size=5), {"parallelism": {"depthwise": 18,
                                                                  "pointwise": 8}}),
        "residual_stream": (om.residual(size=4), {"io": "stream"}),
        # every output channel a cycle (conv1, padded), two of four (conv2): oh, ow and co
        # in one flattened pipeline
        "cnn_channels": (om.cnn(size=6), {"parallelism": {"conv1": 27, "conv2": 54}}),
        "residual_ci": (om.residual(size=4), {"parallelism": {"conv1": 9, "conv2": 1}}),
        # the global average summed as the stream comes; parallelism balanced per layer
        "cnn_stream_auto": (om.cnn(size=6), {"io": "stream", "parallelism": "auto"}),
        "separable_auto": (om.separable(size=5), {"parallelism": "auto"}),
        "softmax": (om.with_softmax(), {}),
        "softmax_stream": (om.with_softmax(), {"io": "stream"}),
        "inception_stream": (om.inception(size=4), {"io": "stream"}),
        "concat_memory": (om.concat_last(), {}),
    }
    items = []
    for k, (name, (model, options)) in enumerate(designs.items()):
        kern, sched = vo.load(model, **options)
        items.append((name, Scheduled(sched), _calls(kern, model, 2, k)))
    return run_batch(items)


@pytest.mark.parametrize("name", ["mlp_memory", "mlp_full", "mlp_deep_full", "mlp_stream", "branches", "cnn",
                                  "mlp_reuse", "separable_low", "separable_wide",
                                  "residual_stream", "cnn_channels", "residual_ci", "cnn_stream_auto",
                                  "separable_auto", "softmax", "softmax_stream",
                                  "inception_stream", "concat_memory"])
def test_rtl_equals_the_python_call(simulated, name):
    assert_outcome(simulated[name])


# -- the command line ------------------------------------------------------------------------


def test_cli_compile_check_inputs_and_emit(tmp_path, capsys):
    from vichls.cli import main
    import onnx

    path = tmp_path / "net.onnx"
    onnx.save(om.mlp(sizes=(8, 6, 3), argmax=True), str(path))
    np.save(tmp_path / "x.npy", np.random.default_rng(0).standard_normal((20, 1, 8)))
    assert main(["compile", str(path), "-o", str(tmp_path / "out"), "--check-inputs",
                 str(tmp_path / "x.npy")]) == 0
    out = capsys.readouterr().out
    assert "argmax agrees with onnxruntime on" in out and "latency:" in out
    assert main(["compile", str(path), "--emit", "python", "--precision", "float32"]) == 0
    assert "@kernel" in capsys.readouterr().out
    assert main(["compile", str(path), "--parallelism", "lots"]) == 2
    assert "--parallelism" in capsys.readouterr().err


# -- errors ------------------------------------------------------------------------------------


def test_group_that_does_not_divide_the_channels_is_refused():
    with pytest.raises(VichlsError) as e:
        vo.load(om.grouped(groups=3))
    assert "node 'gconv' (Conv): group=3 does not divide the 4 input channels" in e.value.message


@pytest.mark.parametrize("op,attrs,why", [
    ("Softmax", {"axis": 0}, "only a Softmax over the last axis of a vector"),
    ("Sigmoid", {}, "this operator is not supported"),
    ("BatchNormalization", {}, "only a BatchNormalization right after"),
])
def test_unsupported_nodes_are_named(op, attrs, why):
    with pytest.raises(VichlsError) as e:
        vo.load(om.with_op(op, **attrs))
    assert f"node 'the_node' ({op}): {why}" in e.value.message


def test_cli_unsupported_model_exits_2(tmp_path, capsys):
    from vichls.cli import main
    import onnx

    path = tmp_path / "sigmoid.onnx"
    onnx.save(om.with_op("Sigmoid"), str(path))
    assert main(["compile", str(path)]) == 2
    err = capsys.readouterr().err
    assert "node 'the_node' (Sigmoid)" in err and "Traceback" not in err


@pytest.mark.parametrize("options,message", [
    ({"precision": "fixed(16)"}, "cannot read 'fixed(16)'"),
    ({"precision": "int8"}, "cannot read 'int8'"),
    ({"precision": {"nope": "fixed(8, 4)"}}, "precision given for 'nope'"),
    ({"io": "axi"}, "io must be 'memory' or 'stream'"),
    ({"parallelism": 0}, "expected a positive integer"),
    ({"parallelism": {"dense9": 2}}, "parallelism given for 'dense9'"),
])
def test_bad_options(options, message):
    with pytest.raises(VichlsError) as e:
        vo.load(om.mlp(sizes=(4, 3)), **options)
    assert message in e.value.message


def test_not_a_model(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(VichlsError, match="cannot read the ONNX model"):
        vo.load(str(bad))


def test_cli_sim_of_a_model(tmp_path, capsys):
    from vichls.cli import main
    import onnx

    path = tmp_path / "tiny.onnx"
    onnx.save(om.mlp(sizes=(4, 3, 2), argmax=True), str(path))
    assert main(["sim", str(path), "--runs", "2"]) == 0
    assert "2 runs, 0 mismatches" in capsys.readouterr().out


def test_default_parallelism_keeps_the_loops_rolled():
    # regression: completely partitioned activations unrolled the producer's output loop
    # (every weight a constant, a multiplier per product: 177 multipliers for 24 per cycle)
    _, sched = vo.load(om.mlp(sizes=(8, 16, 3)))
    assert "kind=\"complete\"" not in vo.source(om.mlp(sizes=(8, 16, 3))).source
    assert sched.build("fpga").report["resources"]["dsp"] == 8 + 16


@pytest.mark.parametrize("model,options", [
    (lambda: om.mlp(sizes=(8, 6, 4), argmax=True), {"parallelism": {"dense0": 24, "dense1": 12}}),
    (lambda: om.cnn(size=6), {}),
    (lambda: om.mlp(sizes=(8, 6, 4)), {"io": "stream", "parallelism": 4}),
    # a reader task, a partitioned ping-pong buffer, poolings on lines of registers
    (lambda: om.conv_pool(), {"io": "stream"}),
])
def test_generated_verilog_is_lint_clean(model, options):
    from vichls.flows.lint import lint_verilog

    _, sched = vo.load(model(), **options)
    design = sched.build("fpga")
    assert lint_verilog(design.deliverable, design.signature.name) == []


# -- parallelism balanced per layer (vichls.onnx.balance) --------------------------------------


def test_auto_parallelism_balances_a_dataflow_design():
    from vichls.onnx.balance import balance

    m = vo.read_model(om.cnn())
    chosen = balance(m, "fixed(16, 6)", io="stream")
    assert set(chosen) == {"conv1", "conv2", "fc"}
    # the interval is the slowest layer's: conv1 (3 x 64 outputs of a 9-product window)
    # gets its whole window; the others only what keeps them below it
    assert chosen["conv1"] == 9 and chosen["conv2"] < 36 and chosen["fc"] < 4
    tight = balance(m, "fixed(16, 6)", io="stream", budget={"dsp": 4})
    assert sum(tight.values()) <= 4


def test_auto_parallelism_within_the_budget_layer_by_layer():
    from vichls.onnx.balance import balance

    m = vo.read_model(om.mlp())  # 16-64-32-32-5: 3,232 MACs, one layer after another
    for dsp in (16, 64, 220):
        chosen = balance(m, "fixed(16, 6)", budget={"dsp": dsp})
        assert sum(chosen.values()) <= dsp
    assert sum(balance(m, "fixed(16, 6)", budget={"dsp": 64}).values()) > 32
    gen = vo.source(om.mlp(), parallelism={"default": "auto", "dense3": 1})
    assert [i["parallelism"] for i in gen.layers][3] == 1  # a layer's own request wins


def test_auto_parallelism_layer_by_layer_takes_several_output_channels():
    from vichls.onnx.balance import balance

    m = vo.read_model(om.cnn())
    # conv1 has one input channel: past its 9-product window only more output channels
    # per cycle go faster (the flattened oh, ow, co pipeline)
    chosen = balance(m, "fixed(16, 6)")
    assert chosen["conv1"] == 27 and chosen["conv2"] > 27
    src = vo.source(om.cnn(), parallelism={"conv1": 27, "conv2": 54}).source
    assert 'customize(conv2).unroll("co", 2).pipeline("co")' in src
    # the pooling after conv1 takes its three channels a cycle too
    assert "    for oh in range(4):\n        for ow in range(4):\n            for c in range(3):" \
        in src.split("def pool1")[1]
    assert "schedule.partition('r1', dim=1, factor=3" in src


def test_cli_parallelism_auto(tmp_path, capsys):
    from vichls.cli import main
    import onnx

    path = tmp_path / "cnn.onnx"
    onnx.save(om.cnn(size=6), str(path))
    assert main(["compile", str(path), "--io", "stream", "--parallelism", "auto", "--emit",
                 "python"]) == 0
    assert 'customize(conv1).pipeline("ow")' in capsys.readouterr().out


def test_flattened_producers_do_not_serialise_the_calls():
    # regression: a layer whose pipeline flattened its nest puts its outputs under a guard
    # (t mod N == N - 1); the stream count gave up on it, the FIFO was emptied between
    # calls, and a call started only when the one before had ended (interval = latency)
    _, sched = vo.load(om.cnn(size=6), io="stream", parallelism="auto")
    df = sched.build("fpga").report["dataflow"]
    assert not any(ch.get("emptied_between_calls") for ch in df["channels"])
    bottleneck = next(t for t in df["tasks"] if t["name"] == df["bottleneck"])
    assert df["interval"] == bottleneck["interval"]


def test_back_to_back_interval_equals_the_report():
    from vichls.driver.fpga import compile_fpga
    from vichls.flows.sim import SimDesign, build_simulation
    from vichls.results import differences

    from e2e import SIMULATOR

    model = om.cnn(size=6)
    kern, sched = vo.load(model, io="stream", parallelism="auto")
    design = compile_fpga(sched.module())
    sig = kern.signature
    x = np.random.default_rng(5).standard_normal((1, 6, 6))
    calls = 4
    want = vo.arguments(sig, [x])
    kern(*want)
    sim = build_simulation([SimDesign(design.verilog, design.signature, name="cnn6",
                                      partitions=design.partitions)], simulator=SIMULATOR)
    rep = sim.run_repeated("cnn6", vo.arguments(sig, [np.concatenate([x.reshape(-1)] * calls)]),
                           calls, max_cycles=2_000_000)
    assert not differences((None, {"cls": list(want[1]) * calls}),
                           (None, {"cls": list(rep.streams["cls"])}))
    gaps = [b - a for a, b in zip(rep.done_edges, rep.done_edges[1:])]
    assert gaps[-1] == design.report["dataflow"]["interval"]
    assert gaps[-1] < design.report["latency"]["min"]  # the calls overlap



# -- layers that stream: pooling on a line of registers, reader tasks and ping-pong buffers -----


def test_stream_layers_take_their_input_as_it_comes():
    src = vo.source(om.conv_pool(), io="stream").source
    # poolings whose windows tile the input keep a row of partial results, not the input
    assert "maxpool_in" not in src and "avgpool_in" not in src
    assert "lb0 = lb1" in src and "y.put(s)" in src
    # an unpadded convolution: a reader task fills a ping-pong buffer, a local of the top
    assert "def conv1_read(x: stream[" in src and "conv1_read(x, conv1_in)" in src
    assert "conv1(conv1_in, " in src
    assert "schedule.partition('conv1_in', dim=2, factor=3" in src
    # ... where it would take longer than the interval otherwise: conv2 reads 48 elements
    # and computes 64 cycles, below conv1's reader (200) and the max pooling (192)
    assert "def conv2_read(" not in src and "conv2_in: " in src
    # a padded one keeps its buffer in its own task (cnn's first convolution)
    src = vo.source(om.cnn(size=6), io="stream").source
    assert "_read(" not in src
    # without dataflow, no reader task
    assert "_read(" not in vo.source(om.conv_pool(), io="stream", dataflow=False).source


def test_stream_layers_compute_what_the_memory_layers_compute():
    model = om.conv_pool()
    mem, _ = vo.load(model)
    st, _ = vo.load(model, io="stream")
    for inputs in _random_inputs(model, 4, seed=3):
        a = vo.run(mem, mem.signature, inputs)[0]
        b = vo.run(st, st.signature, inputs)[0]
        assert np.array_equal(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1))


def test_balance_weighs_a_reader_task_as_overlapped():
    from vichls.onnx.balance import layer_cycles

    m = vo.read_model(om.conv_pool())
    conv1 = next(lay for lay in m.layers if lay.node == "conv1")
    # 2 x 10 x 10 inputs; 3 x 8 x 8 outputs of 18 products: 192 cycles at 18 per cycle
    assert layer_cycles(conv1, m, "stream", 18) == 200  # the reader, overlapped
    assert layer_cycles(conv1, m, "stream", 18, dataflow=False) == 200 + 192
    assert layer_cycles(conv1, m, "stream", 2) == 1728
    assert layer_cycles(conv1, m, "memory", 18) == 192
    c = vo.read_model(om.cnn(size=6))
    padded = next(lay for lay in c.layers if lay.node == "conv1")  # reads, then computes
    assert layer_cycles(padded, c, "stream", 9) == 36 + 3 * 36


@pytest.fixture(scope="module")
def streamed_back_to_back():
    """Designs on streams simulated with calls back to back, each call its own input."""
    from vichls.driver.fpga import compile_fpga
    from vichls.flows.sim import SimDesign, build_simulation

    from e2e import SIMULATOR

    cases = {"conv_pool": om.conv_pool(),
             # 1x1 convolutions (reader tasks) on one branch, the skip FIFO on the other
             "residual_1x1": om.residual(channels=2, size=4, kernel=1)}
    built = {}
    for name, model in cases.items():
        kern, sched = vo.load(model, io="stream")
        built[name] = (model, kern, compile_fpga(sched.module()))
    sim = build_simulation([SimDesign(d.verilog, d.signature, name=name, partitions=d.partitions)
                            for name, (_, _, d) in built.items()], simulator=SIMULATOR)
    return sim, built


@pytest.mark.parametrize("name", ["conv_pool", "residual_1x1"])
def test_streamed_calls_back_to_back_equal_the_python_calls(streamed_back_to_back, name):
    from vichls.results import differences

    sim, built = streamed_back_to_back
    model, kern, design = built[name]
    sig = kern.signature
    inputs = [ins[0] for ins in _random_inputs(model, 3, seed=11)]
    want = []
    for x in inputs:
        args = vo.arguments(sig, [x])
        kern(*args)
        want += list(args[1])
    rep = sim.run_repeated(name, vo.arguments(sig, [np.concatenate([x.reshape(-1)
                                                                    for x in inputs])]),
                           len(inputs), max_cycles=2_000_000)
    out = sig.params[1].name
    assert not differences((None, {out: want}), (None, {out: list(rep.streams[out])}))
    df = design.report["dataflow"]
    assert rep.done_edges[-1] - rep.done_edges[-2] == df["interval"]
    assert df["interval"] < design.report["latency"]["min"]  # the calls overlap
    # the readers' buffers: ping-pong channels, one per bank of their partition
    pingpongs = [ch for ch in df["channels"] if ch["kind"] == "pingpong"]
    assert {ch["name"] for ch in pingpongs} == (
        {"conv1_in"} if name == "conv_pool" else {"conv1_in", "conv2_in"})
    if name == "conv_pool":
        assert next(ch for ch in pingpongs if ch["name"] == "conv1_in")["partition_banks"] > 1
