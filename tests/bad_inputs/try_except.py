# expect: 7:5: 'try statement' is not supported in a kernel
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    try:
        A[0] = 1
    except IndexError:
        A[1] = 1
