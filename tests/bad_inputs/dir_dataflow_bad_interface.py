# expect: 11:1: s.dataflow(interface='ap_hs'): interface must be 'ap_ctrl_hs' or 'ap_ctrl_chain'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N, N], b: int32):
    for i in range(N):
        for j in range(N):
            A[i, j] = b
s = vichls.customize(f)
s.dataflow(interface="ap_hs")
