# Found by the manual directive sets of the benchmark suite (atax, gesummv, 2mm, 3mm: the
# PolyBench reductions into an array element); shrunk by hand.
# Suspicious II, results correct: y[i] += A[i, j] * x[j] with j unrolled by 4 (A and x
# partitioned to match) and pipelined: scalar replacement keeps y[i] in `sr_y`, but each of
# the four copies loads and stores it in turn, so the recurrence is 4 cycles and the II 4:
# unrolling gains nothing (48 cycles unrolled by 4, by 2, or not at all). The same kernel
# with a local scalar accumulator (acc += ...; y[i] = acc) reaches II=1: the add chain is
# rebalanced so that the carried sum adds last; the scalar-replaced one should be too.
# Fixed: store forwarding runs again after scalar replacement (II=1, 28 cycles).
from vichls import int32, kernel
import vichls


@kernel
def top(A: int32[4, 8], x: int32[8], y: int32[4]):
    for i in range(4):
        y[i] = 0
        for j in range(8):
            y[i] += A[i, j] * x[j]


s = vichls.customize(top)
s.pipeline('j')
s.unroll('j', 4)
s.partition('A', dim=2, factor=4)
s.partition('x', factor=4)

EXPECTED_II = 1
ARGS_SEED = 3
