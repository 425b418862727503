# Found by the manual directive set of doitgen (sum[p] = 0, then sum[p] += ... for the NP
# unrolled values of s); shrunk by hand.
# Suspicious II, results correct: after the inner k loop is unrolled into the pipelined i
# loop, s[i] is stored and loaded five times in one iteration at the same address; nothing
# forwards the stored value, so the five accesses need three cycles of s's two ports and
# the II is 3 where 1 is possible (one store of the final sum).
# Fixed: transforms/fpga/forward_array_stores forwards and removes them (II=1).
from vichls import int32, kernel
import vichls


@kernel
def top(y: int32[4]):
    s: int32[4] = 0
    for i in range(4):
        s[i] = 0
        for k in range(4):
            s[i] += y[k]
    for i in range(4):
        y[i] = s[i]


s = vichls.customize(top)
s.pipeline('i')

EXPECTED_II = 1
ARGS_SEED = 4
