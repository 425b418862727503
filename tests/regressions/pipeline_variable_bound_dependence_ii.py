# Found by the manual directive sets of syrk and syr2k (C[i][j] *= beta for j <= i); shrunk
# by hand.
# Suspicious II, results correct: the j loop's bound depends on i, so it stays an scf.for,
# and the dependence analysis treats its accesses as non-affine: C[i, j] written in
# iteration j is assumed read in iteration j + 1, a recurrence of 3 cycles, II=3, where
# each iteration touches its own element (II=1, as for constant bounds).
# Fixed: the dependence analysis reads through the truncation of the front end's i64
# loop counter (II=1).
from vichls import int32, kernel
import vichls


@kernel
def top(C: int32[4, 4], b: int32):
    for i in range(4):
        for j in range(i + 1):
            C[i, j] *= b


s = vichls.customize(top)
s.pipeline('j')

EXPECTED_II = 1
ARGS_SEED = 6
