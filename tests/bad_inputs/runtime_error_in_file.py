# expect: 5:5: importing the kernel file failed: ZeroDivisionError: integer division
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
X = 1 // 0
@kernel
def f(a: int32):
    pass
