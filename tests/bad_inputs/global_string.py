# expect: 8:12: 'G' is a str; kernels may only use module-level int constants
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
G = 'x'
@kernel
def f(A: int32[N]):
    A[0] = G
