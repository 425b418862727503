# expect: 7:12: only < <= > >= == != comparisons are supported (no 'is', 'in')
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32) -> bool_:
    return a is 1
