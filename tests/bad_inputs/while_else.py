# expect: 7:5: 'while ... else' is not supported
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32):
    while a > 0:
        a -= 1
    else:
        a = 3
