"""Each layer's parallelism chosen for a model, balancing the layers under a budget.

``balance(model, precision, io, dataflow, budget)`` returns ``{node: parallelism}`` for the
layers with multiply-accumulates (dense and convolution layers; the others have one
speed). Why: a dataflow design takes a new sample as often as its slowest layer finishes
one (the interval is the bottleneck's), and a layer-by-layer design takes the sum of the
layers' latencies; either way multipliers given to a layer that is not the slowest buy
nothing until the slowest has more. hls4ml leaves the reuse factor per layer to the user;
ScaleHLS balances the stages of its dataflow designs the same way.

How: every layer starts at its smallest point (one multiply-accumulate per cycle) and moves
up its points (``_Gen.points``: what code generation can build) one at a time, as long as
the model's multipliers (a point's multiply-accumulates per cycle, times the DSP blocks of
one product at the layer's precision, vichls.targets.oplib) and the weight tables' block
RAMs (one bank per parallel product; on streams, also a convolution's ping-pong input
buffer, two copies in as many banks as products read at once) stay within the budget. A
layer's cycles are its multiply-accumulates over its parallelism; on streams, a dense
layer (and a padded convolution) first reads its input (one element per cycle) and then
computes, while an unpadded convolution's reader task fills one bank of its ping-pong
buffer as the layer computes from the other, so the layer takes the longer of the two (in
a dataflow design; code generation gives the reader task only to those slower than the
rest of the design, the others are below the interval either way). In a dataflow design the layer with the most
cycles moves, until it cannot (the interval is the bottleneck's); layer by layer, the move
that saves the most cycles per DSP block added, until none fits (the latency is the sum). The cycle counts are the multiplier bound of each layer, not a schedule: the
report and the simulation give the figures.

Assumes the layers of vichls/onnx/model.py and the points of vichls/onnx/codegen.py.
"""

from __future__ import annotations

import math

import numpy as np

from vichls.onnx.codegen import _Gen
from vichls.onnx.model import Layer, Model
from vichls.targets import oplib
from vichls.types import FloatType


#: the share of the device's DSP blocks and block RAMs the default budget gives the layers
DEVICE_SHARE = 0.9


def _dsp_per_mac(gen: _Gen, lay: Layer) -> float:
    t = gen.prec_of(lay)
    if isinstance(t, FloatType):
        return (oplib.cost("fmul", 32).dsp + oplib.cost("fadd", 32).dsp)
    width = max(t.width, gen.default.width if not isinstance(gen.default, FloatType) else 32)
    return oplib.cost("mul", width).dsp


def _macs(lay: Layer, model: Model) -> int:
    out = model.tensors[lay.output].shape
    return int(np.prod(out)) * int(np.prod(lay.weight.shape[1:]))


def _bram(lay: Layer, gen: _Gen, par: int) -> int:
    t = gen.prec_of(lay)
    width = 32 if isinstance(t, FloatType) else t.width
    words = math.ceil(lay.weight.size / par)
    return par * oplib.ram_cost(words, width)["bram18"]


def _read(lay: Layer, model: Model) -> int:
    """Cycles a layer on streams spends taking its input into its buffer: one element per
    cycle."""
    return int(np.prod(model.tensors[lay.inputs[0]].shape))


def _split(lay: Layer, io: str, dataflow: bool) -> bool:
    """Does the layer have a reader task of its own (codegen.layer_conv: an unpadded
    convolution on streams, in a dataflow design)?"""
    return io == "stream" and dataflow and lay.kind == "conv" and not any(lay.attrs["pads"])


def layer_cycles(lay: Layer, model: Model, io: str, par: int, dataflow: bool = True) -> int:
    compute = math.ceil(_macs(lay, model) / par)
    if io != "stream":
        return compute
    if _split(lay, io, dataflow):
        # a reader task fills a ping-pong buffer while the layer computes the call before
        return max(_read(lay, model), compute)
    return _read(lay, model) + compute  # (the input read first, then the products)


def _buffer_bram(lay: Layer, gen: _Gen, model: Model, par: int) -> int:
    """Block RAMs of a convolution's input buffer on streams: a ping-pong buffer (two
    copies), in as many banks as the products read at once (``min(par, terms)``)."""
    if not _split(lay, gen.io, gen.dataflow):
        return 0
    t = gen.prec_of(lay)
    width = 32 if isinstance(t, FloatType) else t.width
    banks = max(1, min(par, int(np.prod(lay.weight.shape[1:]))))
    return banks * oplib.ram_cost(2 * math.ceil(_read(lay, model) / banks), width)["bram18"]


def balance(model: Model, precision, io: str = "memory", dataflow: bool | None = None,
            budget: dict | None = None) -> dict[str, int]:
    """``{node: parallelism}`` for the layers with multiply-accumulates; ``budget``:
    {"dsp": n, "bram18": n} (default: DEVICE_SHARE of the active device's part,
    vichls.targets.oplib)."""
    gen = _Gen(model, precision, io, None, dataflow)
    capacity = dict(oplib.current_device().capacity)
    # (a tenth kept back for what is not a multiply-accumulate: requantizations, index
    # arithmetic, the adapters around the design)
    limit = {k: int(DEVICE_SHARE * capacity.get(k, default))
             for k, default in (("dsp", 220), ("bram18", 280))}
    limit.update(budget or {})
    layers = [lay for lay in model.layers if gen.points(lay)]
    points = {lay.node: gen.points(lay) for lay in layers}
    at = {lay.node: 0 for lay in layers}

    def use(lay: Layer, k: int) -> tuple[float, int]:
        p = points[lay.node][k]
        return p * _dsp_per_mac(gen, lay), _bram(lay, gen, p) + _buffer_bram(lay, gen, model, p)

    def total(kind: int) -> float:
        return sum(use(lay, at[lay.node])[kind] for lay in layers)

    def fits(lay: Layer, k: int) -> bool:
        (d0, b0), (d1, b1) = use(lay, at[lay.node]), use(lay, k)
        return total(0) - d0 + d1 <= limit["dsp"] and total(1) - b0 + b1 <= limit["bram18"]

    def cycles(lay: Layer, k: int) -> int:
        return layer_cycles(lay, model, io, points[lay.node][k], gen.dataflow)

    if gen.dataflow:  # the interval is the slowest layer's: raise it while it fits
        while True:
            slow = max(layers, key=lambda lay: (cycles(lay, at[lay.node]),
                                                -model.layers.index(lay)))
            k = at[slow.node] + 1
            if k == len(points[slow.node]) or not fits(slow, k) \
                    or cycles(slow, k) >= cycles(slow, k - 1):  # (bound by its input)
                break
            at[slow.node] = k
    else:  # the latency is the sum: the move saving the most cycles per DSP block
        while True:
            best, gain = None, 0.0
            for lay in layers:
                k = at[lay.node] + 1
                if k == len(points[lay.node]) or not fits(lay, k):
                    continue
                saved = cycles(lay, k - 1) - cycles(lay, k)
                cost = max(use(lay, k)[0] - use(lay, k - 1)[0], 1e-9)
                if saved / cost > gain:
                    best, gain = lay, saved / cost
            if best is None:
                break
            at[best.node] += 1
    return {lay.node: points[lay.node][at[lay.node]] for lay in layers}
