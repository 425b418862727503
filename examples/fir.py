"""A 16-tap FIR filter over a block of 64 samples, with a shift register as a local array.

    vichls compile examples/fir.py --target fpga

y[n] = sum over k of h[k] * x[n - k], with x taken as 0 before the block. Samples are int16,
products and the accumulator int32 (the cast keeps int16 * int16 from wrapping at 16 bits).
The shift register ``taps`` is a local array (zero-initialised on entry), so each input
sample is read once; it is a natural candidate for ``s.partition("taps", kind="complete")``
and ``s.pipeline("n")``.
"""

from vichls import int16, int32, kernel

TAPS = 16
SAMPLES = 64


@kernel
def fir(x: int16[SAMPLES], h: int16[TAPS], y: int32[SAMPLES]):
    taps: int16[TAPS] = 0
    for n in range(SAMPLES):
        for k in range(TAPS - 1, 0, -1):
            taps[k] = taps[k - 1]
        taps[0] = x[n]
        acc: int32 = 0
        for k in range(TAPS):
            acc += int32(taps[k]) * h[k]
        y[n] = acc
