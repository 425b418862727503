# expect: 7:9: 'walrus assignment' is not supported in a kernel expression
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32) -> int32:
    if (b := a) > 0:
        return b
    return 0
