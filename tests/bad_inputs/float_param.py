# expect: 6:10: not a kernel type (expected int8..int64, uint8..uint64, bool_,
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: float) -> int32:
    return 1
