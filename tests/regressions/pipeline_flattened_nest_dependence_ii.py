# Found by the manual directive sets of the benchmark suite (gemm's C *= beta, fdtd-2d,
# floyd-warshall, mvt, gemver: every in-place update of a 2-d array in a pipelined nest);
# shrunk by hand.
# Suspicious II, results correct: C[i, j] *= b, each element read and written once.
# Pipelined alone (1-d, `scale`) it reaches II=1; pipelined as the j loop of a square nest,
# the nest is flattened to one loop over t with C[t floordiv 4, t mod 4], and the
# dependence analysis no longer sees that iteration t touches only element t: it assumes
# a recurrence at distance 1 ("'C' written at line 16, read ... one iteration later"), and
# the II is 3 (48 cycles instead of about 18).
# Fixed: identical indices that are the quotient and remainder of the flattened variable
# are known to meet only in the same iteration.
from vichls import int32, kernel
import vichls


@kernel
def top(C: int32[4, 4], b: int32):
    for i in range(4):
        for j in range(4):
            C[i, j] *= b


s = vichls.customize(top)
s.pipeline('j')

EXPECTED_II = 1
ARGS_SEED = 5
