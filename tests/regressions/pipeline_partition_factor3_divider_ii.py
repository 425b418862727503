# Found by the manual directive sets of atax and gesummv at the MINI size (N = 42 and 30,
# unrolled and partitioned by 3); shrunk by hand.
# Suspicious II, results correct: y[i] = x[i] + 1 unrolled by 3 with x and y partitioned
# cyclically by 3. Every access is x[3i' + c] with c constant, so its bank (c) and its
# address in the bank (i') are known without dividing; the design computes the address
# with floordivsi by 3 (the 33-cycle non-pipelined divider, reported without a line), so
# the pipeline runs at II=33 (134 cycles); by 4 it reaches II=1 (4 cycles). Without the
# pipeline directive the same partition makes the design 175 cycles instead of 26.
# Since e92e82b (a fully pipelined divider in pipelined loops) the II is 1, with a depth of
# 35 (38 cycles); without the pipeline directive it is still 175 cycles.
from vichls import int32, kernel
import vichls


@kernel
def top(x: int32[12], y: int32[12]):
    for i in range(12):
        y[i] = x[i] + 1


s = vichls.customize(top)
s.pipeline('i')
s.unroll('i', 3)
s.partition('x', factor=3)
s.partition('y', factor=3)

EXPECTED_II = 1
ARGS_SEED = 7
