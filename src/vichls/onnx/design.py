"""An ONNX model as the command line's FILE: ``load_onnx_design(path, top, options)`` gives
the ``Loaded`` design (vichls/frontend/design_file.py) of the model's generated kernels,
with their schedule applied and random inputs of the model's shapes."""

from __future__ import annotations

import numpy as np

from vichls.errors import VichlsError
from vichls.frontend.design_file import Loaded


def load_onnx_design(path: str, top: str | None, options: dict) -> Loaded:
    """An ONNX model compiled to kernels (vichls.onnx), with its schedule applied; random
    inputs are normal samples of the model's input shapes (quantized as the model's
    QuantizeLinear does for a quantized model's default boundary)."""
    from vichls.onnx import arguments, design_inputs, load, read_model, run

    model = read_model(path)
    kernel, schedule = load(model, **options)
    if top is not None and top != kernel.name:
        raise VichlsError(f"--top {top}: the model's top kernel is '{kernel.name}'", path)
    shapes = [t.shape for t in model.inputs]
    sig = kernel.signature

    def make_inputs(rng):
        floats = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        return arguments(sig, design_inputs(model, floats, options.get("boundary")))

    loaded = Loaded(schedule.module(), kernel, schedule, make_inputs)
    loaded.onnx_model = model
    loaded.onnx_run = lambda fn, inputs: run(fn, sig, inputs)
    return loaded
