# expect: 8:9: cannot assign to loop variable 'i'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    for i in range(N):
        i += 1
