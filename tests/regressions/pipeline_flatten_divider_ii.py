# Found by the manual directive sets of the benchmark suite (jacobi-2d, heat-3d, fdtd-2d,
# stencil2d, floyd-warshall, and every nest at MINI sizes); shrunk by hand.
# Suspicious II, results correct: pipelining the inner loop flattens the nest, and the
# flattened loop recovers i and j with `t floordiv 6` and `t mod 6`; a trip count that is
# not a power of two makes them the 33-cycle non-pipelined divider, so the pipeline runs at
# II=33 and the design takes 794 cycles where no directive takes 62 (II=1 expected: counters,
# or a division by a constant as a multiplication, would do).
# Fixed: e92e82b (a fully pipelined divider) brought the II to 1 at a depth of 35, and
# 0448a92 (guarded flattening only for power-of-two inner trip counts) leaves this nest
# unflattened: j at II=1, depth 2, 28 cycles. Kept as a guard.
from vichls import int32, kernel
import vichls


@kernel
def top(A: int32[4, 6], B: int32[4, 6]):
    for i in range(4):
        for j in range(6):
            B[i, j] = A[i, j] + 1


s = vichls.customize(top)
s.pipeline('j')

EXPECTED_II = 1
ARGS_SEED = 1
