# expect: 7:14: index -1 is out of range for dimension of size 8 of 'A'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]) -> int32:
    return A[-1]
