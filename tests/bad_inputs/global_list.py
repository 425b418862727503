# expect: 8:12: 'G' is not a kernel array: globals other than int constants are not
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
G = [1, 2, 3]
@kernel
def f(A: int32[N]):
    A[0] = G[0]
