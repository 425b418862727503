# expect: 6:1: kernel parameters must be plain positional parameters without defaults
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(*a: int32):
    pass
