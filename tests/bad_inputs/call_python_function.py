# expect: 9:12: call to 'g' is not supported: kernels may call other @kernel
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
def g(v):
    return v
@kernel
def f(a: int32) -> int32:
    return g(a)
