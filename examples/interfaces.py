"""Kernels with interface directives (docs/interfaces.md): a block a processor drives through
AXI4-Lite registers, and a stream filter behind AXI4-Stream ports.

    vichls compile examples/interfaces.py --top gcd -o out/gcd --package all

writes gcd.v (the AXI4-Lite register file around the kernel), xgcd_hw.h, gcd_driver.py,
xgcd.c/.h, and the Vivado, FuseSoC and Quartus packages.
"""

import vichls
from vichls import int8, int32, int64, kernel, stream, uint8


@kernel
def gcd(a: int32, b: int32) -> int32:
    while b != 0:
        t = b
        b = a % b
        a = t
    return a


@kernel
def scaled_sum(x: int8[16], y: int32[16], scale: int64, n: uint8) -> int64:
    total: int64 = 0
    for i in range(16):
        if i < n:
            total += int64(x[i]) * scale
            y[i] = int32(x[i]) * 3
    return total


@kernel
def add_held(a: int32, b: int32) -> int32:
    return a + b


@kernel
def scale(x: stream[int32], y: stream[int32, 4], n: int32):
    for i in range(n):
        y.put(x.get() * 3)


s = vichls.customize(gcd)  # the arguments, the result and the start/done in registers
s.interface("a", "s_axilite")
s.interface("b", "s_axilite")
s.interface("return", "s_axilite")

f = vichls.customize(scale)  # one element a cycle through AXI4-Stream, TLAST on the last
f.interface("x", "axis")
f.interface("y", "axis", last=True)
f.pipeline("i")
