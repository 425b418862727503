# expect: 7:14: range takes 1 to 3 positional arguments
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    for i in range(0, N, 1, 2):
        pass
