# expect: 6:2: importing the kernel file failed: TypeError: @kernel decorates a
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
import functools
@kernel
@functools.lru_cache
def f(a: int32):
    pass
