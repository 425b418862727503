# expect: 7:5: importing the kernel file failed: TypeError: customize() takes a
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
def g(a):
    return a
s = vichls.customize(g)
@kernel
def f(a: int32):
    pass
