# expect: 6:10: importing the kernel file failed: TypeError: 'ArrayType' object is
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: bool_[N][N]):
    pass
