# expect: 9:12: unknown name 'i'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]) -> int32:
    for i in range(N):
        A[i] = 0
    return i
