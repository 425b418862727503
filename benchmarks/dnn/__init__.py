"""The operator kernels of a quantized CNN, written plainly (the "dnn" group of the suite):
a 3×3 convolution and a depthwise one with int8 activations, int8 constant weights and
int32 accumulation with requantization, a dense layer, a 2×2 max-pool. Each file holds its
kernel at two sizes, its own ``make_inputs(rng=None)`` and the directives an FPGA engineer
would write (``directives(s)``: the pixel loop pipelined, the input's rows and columns
banked, the weights partitioned).

``KERNELS``: benchmark name → (file, input options), as the other families; the group is
not part of the default suite (``benchmarks.suite.benchmarks(size, group="dnn")``, or its
names given explicitly).
"""

KERNELS: dict[str, tuple[str, dict]] = {
    "conv2d": ("conv2d", {}),
    "depthwise": ("depthwise", {}),
    "dense": ("dense", {}),
    "maxpool": ("maxpool", {}),
}
