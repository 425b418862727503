# expect: 7:8: integer width must be a constant from 1 to 64
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32) -> int32:
    x: int_(a) = 0
    return x
