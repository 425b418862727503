# expect: 13:1: s.pipeline('i', ii=1): it contains a loop with break, continue or return
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N, N], b: int32):
    for i in range(N):
        for j in range(N):
            if A[i, j] == b:
                break
            A[i, j] = b
s = vichls.customize(f)
s.pipeline("i", ii=1)
