# expect: 6:10: importing the kernel file failed: ValueError: arrays have 1 to 4
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[2, 2, 2, 2, 2]):
    pass
