# expect: 7:9: 'set' is not supported in a kernel expression
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    x = {1, 2}
