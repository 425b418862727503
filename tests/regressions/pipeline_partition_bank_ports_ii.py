# Found by the manual directive sets of the benchmark suite (gemm, atax, bicg, mvt, gemver:
# every read-modify-write of a cyclically partitioned array); shrunk by hand.
# Suspicious II, results correct: y[i] = y[i] + x[i] unrolled by 2 with y and x partitioned
# cyclically by 2 runs at II=2, where the same loop without partitioning or unrolling runs
# at II=1 (y gets its second port). The banks y_0 and y_1 (a) never get their second port
# ("memory 'y_0' has 1 port and 2 accesses") and (b) their accesses are assumed dependent
# at distance 1 ("a recurrence of 2 cycles: 'y_1' read, written ... one iteration later"),
# although iteration i touches only y[2i] and y[2i+1].
# Fixed: the dependence analysis keeps exact divisions (i // 2 of an i stepping by 2) linear.
from vichls import int32, kernel
import vichls


@kernel
def top(x: int32[8], y: int32[8]):
    for i in range(8):
        y[i] = y[i] + x[i]


s = vichls.customize(top)
s.pipeline('i')
s.unroll('i', 2)
s.partition('y', factor=2)
s.partition('x', factor=2)

EXPECTED_II = 1
ARGS_SEED = 2
