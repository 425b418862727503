# expect: 9:16: unknown name 'k'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
def make():
    k = 3
    @kernel
    def f(A: int32[N]):
        A[0] = k
    return f
f = make()
