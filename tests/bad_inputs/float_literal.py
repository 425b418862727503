# expect: 7:12: a float literal becomes only a fixed-point or float32 value, not int32
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    A[0] = 1.5
