# expect: 8:9: index 4 is out of range for dimension of size 4 of 'buf'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32):
    buf: int32[4] = 0
    buf[4] = a
