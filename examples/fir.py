"""A 16-tap FIR filter, pipelined: one output per cycle.

    vichls compile examples/fir.py        # prints the II and depth of the pipelined loop
    vichls sim examples/fir.py --runs 3   # and checks it against Python in simulation

The shift register and the coefficient copy are completely partitioned into registers, so
every tap is read in the same cycle; pipelining the n loop unrolls the two k loops inside it.
"""

import vichls
from vichls import int32, kernel

N = 256
TAPS = 16


@kernel
def fir(x: int32[N], c: int32[TAPS], y: int32[N]):
    shift: int32[TAPS] = 0
    taps: int32[TAPS] = 0
    for t in range(TAPS):
        taps[t] = c[t]
    for n in range(N):
        for k in range(TAPS - 1, 0, -1):
            shift[k] = shift[k - 1]
        shift[0] = x[n]
        acc: int32 = 0
        for k in range(TAPS):
            acc += shift[k] * taps[k]
        y[n] = acc


s = vichls.customize(fir)
s.pipeline("n", ii=1)
s.partition("shift", kind="complete")
s.partition("taps", kind="complete")
