# expect: 7:5: only single assignments are supported (no a = b = c, no tuple
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(a: int32, b: int32):
    a = b = 1
