# expect: 6:26: importing the kernel file failed: NameError: name 'n' is not defined
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(n: int32, A: int32[n]):
    pass
