# expect: 7:12: call to 'sum' is not supported: kernels may call other @kernel
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]) -> int32:
    return sum(A[i] for i in range(N))
