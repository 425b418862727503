# expect: 7:14: slices are not supported; index one element
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N], B: int32[N]):
    B[0] = A[1:3]
