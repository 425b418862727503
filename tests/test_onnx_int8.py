"""Integer-quantized ONNX models (onnxruntime's quantize_static, QDQ and operator forms)
compiled by vichls.onnx: the generated kernel's Python call against onnxruntime's CPU
provider bit for bit on many inputs (both boundaries), the CPU build and the simulated RTL
against the Python call, the command line, and the errors for quantized graphs that
onnxruntime computes partly in float."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
pytest.importorskip("sklearn")

import onnx_qmodels as qm  # noqa: E402
import vichls.onnx as vo  # noqa: E402
from e2e import Scheduled, assert_outcome, run_batch  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from vichls.errors import VichlsError  # noqa: E402


def _bits(a) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def _mismatches(model, n: int = 60, boundary=None, seed: int = 0, io: str = "memory") -> int:
    """Samples whose design output (Python call) differs from onnxruntime's in any bit."""
    m = vo.read_model(model)
    kern, _ = vo.load(m, boundary=boundary, io=io)
    sess = qm.session(model)
    bad = 0
    in_name = model.graph.input[0].name
    for x in qm.samples(model, n, seed):
        ref = sess.run(None, {in_name: x[None]})[0].reshape(-1)
        got = vo.model_outputs(m, vo.run(kern, kern.signature,
                                         vo.design_inputs(m, [x], boundary)), boundary)[0]
        bad += _bits(np.asarray(got, ref.dtype).reshape(-1)) != _bits(ref)
    return bad


@pytest.fixture(scope="module")
def mlp():
    return qm.quantize(qm.digits_mlp(), "QDQ", "QUInt8", "QInt8", per_channel=True)


@pytest.fixture(scope="module")
def residual():
    return {fmt: qm.quantize(qm.residual_cnn(), fmt, act, "QInt8", per_channel=pc)
            for fmt, act, pc in (("QDQ", "QUInt8", True), ("QOperator", "QInt8", False))}


# -- the Python call against onnxruntime, bit for bit ---------------------------------------


@pytest.mark.parametrize("boundary", [None, "float"])
def test_mlp_qdq_per_channel_is_bit_exact(mlp, boundary):
    assert _mismatches(mlp, 150, boundary) == 0


def test_mlp_kernel_is_integer_with_the_multiply_shift_plan(mlp):
    gen = vo.source(mlp)
    assert "def mlp(x: uint8[64], y: uint8[10])" in gen.source
    assert "vichls.const(WEIGHTS['dense0_w'], int8)" in gen.source
    assert "float32" not in gen.source.split("@kernel", 1)[1]
    assert [p["kind"] for p in gen.plans] == ["int", "int"]
    fl = vo.source(mlp, boundary="float").source
    assert "def mlp(x: float32[64], y: float32[10])" in fl
    assert "ql_v: float32 = v0 / float32(" in fl  # the QuantizeLinear's division


def test_float_requantization_plan_is_bit_exact(mlp, monkeypatch):
    """Without corrections allowed, the layers whose integer plan needs some take the
    float32 mirror of onnxruntime's requantization: still bit for bit."""
    from vichls.onnx import qcodegen

    monkeypatch.setattr(qcodegen, "MAX_EXCEPTIONS", 0)
    assert "float" in [p["kind"] for p in vo.source(mlp).plans]
    assert _mismatches(mlp, 60) == 0


def test_accuracy_reports_bit_exactness(mlp):
    x, labels = qm.digits()
    r = vo.accuracy(mlp, x[1500:1560])
    assert r["samples"] == 60 and r["mismatches"] == 0 and r["agree"] == 60
    assert r["max_abs_error"] == 0.0


CNN_CASES = [("QDQ", "QUInt8", "QInt8", True), ("QDQ", "QUInt8", "QUInt8", False),
             ("QOperator", "QUInt8", "QInt8", True), ("QOperator", "QInt8", "QInt8", False),
             # int8 activations where onnxruntime runs the whole graph in integers
             ("QDQ", "QInt8", "QInt8", False)]


@pytest.mark.parametrize("fmt,act,wt,per_channel", CNN_CASES)
def test_cnn_is_bit_exact(fmt, act, wt, per_channel):
    q = qm.quantize(qm.digits_cnn(), fmt, act, wt, per_channel)
    m = vo.read_model(q)
    assert [lay.kind for lay in m.layers] == ["quantize", "conv", "pool", "copy", "dense",
                                             "dequantize"]
    assert _mismatches(q, 40) == 0
    assert _mismatches(q, 10, "float", seed=1) == 0


@pytest.mark.parametrize("fmt,act", [("QDQ", "QUInt8"), ("QOperator", "QInt8")])
def test_average_pool_is_bit_exact(fmt, act):
    """QLinearAveragePool (and its QDQ form): onnxruntime's float32 arithmetic mirrored."""
    q = qm.quantize(qm.digits_cnn_average(), fmt, act, "QInt8", True)
    assert "qavgpool" in [lay.kind for lay in vo.read_model(q).layers]
    assert _mismatches(q, 40) == 0
    assert _mismatches(q, 10, "float", io="stream") == 0


def test_int8_activations_are_int8_parameters():
    q = qm.quantize(qm.digits_cnn(), "QOperator", "QInt8", "QInt8", False)
    assert "def cnn(x: int8[1, 8, 8], y: int8[10])" in vo.source(q).source


@pytest.mark.parametrize("fmt", ["QDQ", "QOperator"])
def test_residual_add_is_bit_exact(residual, fmt):
    q = residual[fmt]
    m = vo.read_model(q)
    assert "qadd" in [lay.kind for lay in m.layers]
    assert _mismatches(q, 40) == 0


@pytest.mark.parametrize("fmt,act", [("QDQ", "QUInt8"), ("QOperator", "QInt8")])
def test_matmul_then_bias_add_is_bit_exact(fmt, act):
    """MatMul then Add of the bias: QLinearMatMul then QLinearAdd of a constant (onnxruntime
    requantizes between the two)."""
    import onnx_models as om

    model = om.mlp(sizes=(64, 12, 10), matmul=True)
    model.opset_import[0].version, model.ir_version = 17, 9
    q = qm.quantize(model, fmt, act, "QInt8", True)
    kinds = [lay.kind for lay in vo.read_model(q).layers]
    assert kinds.count("qadd") == 2 and kinds.count("dense") == 2
    assert _mismatches(q, 40) == 0
    assert _mismatches(q, 20, "float", io="stream") == 0


def test_residual_stream_float_boundary_is_bit_exact(residual):
    assert _mismatches(residual["QOperator"], 20, "float", io="stream") == 0


@pytest.fixture(scope="module")
def separable():
    import onnx_models as om

    return qm.preprocessed(om.separable())


@pytest.mark.parametrize("fmt,act,per_channel", [("QDQ", "QUInt8", True),
                                                 ("QOperator", "QInt8", False)])
def test_depthwise_separable_block_is_bit_exact(separable, fmt, act, per_channel):
    """MobileNet-style: depthwise and pointwise convolutions (BatchNormalization folded by
    quant_pre_process, Clip(0, 6) into the zero points), QLinearGlobalAveragePool, QGemm."""
    q = qm.quantize(separable, fmt, act, "QInt8", per_channel)
    kinds = [lay.kind for lay in vo.read_model(q).layers]
    assert "qgap" in kinds and kinds.count("conv") == 2
    assert _mismatches(q, 40) == 0
    assert _mismatches(q, 10, "float", io="stream") == 0


@pytest.mark.parametrize("fmt", ["QDQ", "QOperator"])
def test_resnet_style_block_is_bit_exact(fmt):
    """The block's quantized input read by its first convolution and by the skip add."""
    import onnx_models as om

    q = qm.quantize(om.residual(), fmt, "QUInt8", "QInt8", True)
    assert _mismatches(q, 40) == 0
    assert _mismatches(q, 10, io="stream") == 0


def test_unfolded_batch_normalization_is_refused():
    import onnx_models as om

    q = qm.quantize(om.separable(), "QDQ", "QUInt8", "QInt8", False)
    with pytest.raises(VichlsError, match=r"node 'bn1' \(BatchNormalization\): onnxruntime "
                                          "computes it in float.*quant_pre_process"):
        vo.load(q)


# -- CPU build and RTL against the Python call ----------------------------------------------


def _designs(mlp, residual, separable):
    sep8 = qm.quantize(separable, "QOperator", "QInt8", "QInt8", True)
    avg = qm.quantize(qm.digits_cnn_average(), "QOperator", "QUInt8", "QInt8", False)
    return {"residual_qdq": (residual["QDQ"], {}),
            "average_pool": (avg, {}),
            # 2 and 10 outputs per cycle: the requantization tables partitioned to match
            "mlp_float_boundary": (mlp, {"boundary": "float",
                                         "parallelism": {"dense0": 128, "dense1": "full"}}),
            "separable_int8_stream": (sep8, {"io": "stream"})}


def _calls(model, m, kern, options, n, seed):
    b = options.get("boundary")
    return [vo.arguments(kern.signature, vo.design_inputs(m, [x], b))
            for x in qm.samples(model, n, seed)]


def test_cpu_build_equals_the_python_call(mlp, residual, separable):
    for name, (model, options) in _designs(mlp, residual, separable).items():
        m = vo.read_model(model)
        kern, sched = vo.load(m, **options)
        cpu = sched.build("cpu")
        for x in qm.samples(model, 3, 7):
            inputs = vo.design_inputs(m, [x], options.get("boundary"))
            want = vo.run(kern, kern.signature, inputs)
            got = vo.run(cpu, kern.signature, inputs)
            assert all(_bits(a) == _bits(b) for a, b in zip(want, got)), name


def test_rtl_equals_the_python_call(mlp, residual, separable):
    items = []
    for name, (model, options) in _designs(mlp, residual, separable).items():
        m = vo.read_model(model)
        kern, sched = vo.load(m, **options)
        items.append((name, Scheduled(sched), _calls(model, m, kern, options, 2, 11)))
    for out in run_batch(items).values():
        assert_outcome(out)


# -- the command line -----------------------------------------------------------------------


def test_cli_compile_boundary_and_check_inputs(mlp, tmp_path, capsys):
    from vichls.cli import main

    path = tmp_path / "q.onnx"
    onnx.save(mlp, str(path))
    x, _ = qm.digits()
    np.save(tmp_path / "x.npy", x[:20].reshape(20, 1, 64))
    assert main(["compile", str(path), "--boundary", "float", "--check-inputs",
                 str(tmp_path / "x.npy"), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "bit-exact: 20 of 20 outputs equal onnxruntime's bit for bit" in out
    assert main(["compile", str(path), "--emit", "python"]) == 0
    assert "def mlp(x: uint8[64], y: uint8[10])" in capsys.readouterr().out
    assert main(["compile", str(path), "--precision", "fixed(8, 4)"]) == 2
    assert "precision does not apply to a quantized model" in capsys.readouterr().err


def test_random_inputs_of_the_quantized_boundary_are_quantized(mlp, tmp_path):
    from vichls.onnx.design import load_onnx_design

    path = tmp_path / "q.onnx"
    onnx.save(mlp, str(path))
    loaded = load_onnx_design(str(path), None, {"precision": "fixed(16, 6)", "io": "memory",
                                                "parallelism": None, "boundary": None})
    x = loaded.make_inputs(np.random.default_rng(0))[0]
    assert x.dtype == np.uint8 and len(np.unique(x)) > 10


# -- errors ---------------------------------------------------------------------------------


def test_int8_qdq_left_in_float_by_onnxruntime_is_refused():
    """With int8 activations in QDQ form, onnxruntime leaves the convolutions and the add
    of the residual block in float32 (a quantized tensor read by two operators defeats its
    int8-to-uint8 rewrite): refused, naming the node."""
    q = qm.quantize(qm.residual_cnn(), "QDQ", "QInt8", "QInt8", False)
    with pytest.raises(VichlsError) as e:
        vo.load(q)
    assert "node 'conv1' (Conv): onnxruntime computes it in float32" in e.value.message


def _qdq_around(op, **attrs):
    """x -> QuantizeLinear -> DequantizeLinear -> op -> QuantizeLinear -> DequantizeLinear."""
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
             numpy_helper.from_array(np.array(10, np.uint8), "z"),
             numpy_helper.from_array(np.array(0.04, np.float32), "s2")]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="q_in"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"], name="dq_in"),
             helper.make_node(op, ["xd"], ["f"], name="the_node", **attrs),
             helper.make_node("QuantizeLinear", ["f", "s2", "z"], ["fq"], name="q_out"),
             helper.make_node("DequantizeLinear", ["fq", "s2", "z"], ["y"], name="dq_out")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                      [1, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])],
                          initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 9
    return m


@pytest.mark.parametrize("op,why", [
    ("Relu", "onnxruntime computes this operator in float"),
    ("Sigmoid", "onnxruntime computes this operator in float"),
    ("Flatten", "the QuantizeLinear after it has another scale or zero point"),
    ("AveragePool", "2-D pooling of one sample (N=1, C, H, W) is supported"),
])
def test_unsupported_quantized_patterns_are_named(op, why):
    with pytest.raises(VichlsError) as e:
        vo.load(_qdq_around(op))
    assert f"node 'the_node' ({op}): {why}" in e.value.message


def test_dynamic_quantization_is_refused(tmp_path):
    from onnxruntime.quantization import quantize_dynamic

    src, dst = tmp_path / "f.onnx", tmp_path / "d.onnx"
    onnx.save(qm.digits_mlp(), str(src))
    quantize_dynamic(str(src), str(dst))
    with pytest.raises(VichlsError, match=r"\((DynamicQuantizeLinear|MatMulInteger)\): the "
                                          "dynamic-quantization operators"):
        vo.load(str(dst))


def test_boundary_and_precision_options(mlp):
    import onnx_models as om

    with pytest.raises(VichlsError, match="boundary applies to quantized models only"):
        vo.load(om.mlp(sizes=(4, 3)), boundary="float")
    with pytest.raises(VichlsError, match="boundary must be 'quantized' or 'float'"):
        vo.load(mlp, boundary="int")
    with pytest.raises(VichlsError, match="precision does not apply"):
        vo.load(mlp, precision="float32")


def test_generated_verilog_is_lint_clean(mlp, residual):
    from vichls.flows.lint import lint_verilog

    for model, options in ((residual["QOperator"], {"parallelism": 4}),
                           (mlp, {"boundary": "float"})):
        _, sched = vo.load(model, **options)
        design = sched.build("fpga")
        assert lint_verilog(design.deliverable, design.signature.name) == []


def test_auto_parallelism_on_a_quantized_model(residual):
    """parallelism="auto" (vichls.onnx.balance) chooses the quantized layers' points as
    the float ones'; the result stays bit-exact."""
    q = residual["QOperator"]
    def chosen(**options):
        return [info["parallelism"] for info in vo.source(q, **options).layers if info["macs"]]
    assert chosen(parallelism="auto") != chosen()
    m = vo.read_model(q)
    kern, _ = vo.load(m, parallelism="auto")
    sess = qm.session(q)
    for x in qm.samples(q, 10, 3):
        ref = sess.run(None, {"x": x[None]})[0].reshape(-1)
        got = vo.model_outputs(m, vo.run(kern, kern.signature, vo.design_inputs(m, [x])))[0]
        assert _bits(np.asarray(got, ref.dtype).reshape(-1)) == _bits(ref)
