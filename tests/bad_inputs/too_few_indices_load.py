# expect: 7:12: 'A' has 2 dimensions, indexed with 1
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N, N]) -> int32:
    return A[1]
