# expect: 11:1: s.pipeline('i', ii=1): the inner loop 'j' has bounds that are not constants
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N, N], b: int32):
    for i in range(N):
        for j in range(i):
            A[i, j] = b
s = vichls.customize(f)
s.pipeline("i", ii=1)
