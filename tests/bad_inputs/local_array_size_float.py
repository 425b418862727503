# expect: 7:16: array dimensions must be constant integers (literals or module-level
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(n: int32):
    buf: int32[2.5] = 0
