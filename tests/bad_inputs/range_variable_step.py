# expect: 7:26: the step of a range must be a constant
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N], s: int32):
    for i in range(0, N, s):
        pass
