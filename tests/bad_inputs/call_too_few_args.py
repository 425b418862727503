# expect: 11:5: kernel 'g' takes 2 arguments, got 1
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def g(A: int32[N], b: int32):
    A[0] = b

@kernel
def f(A: int32[N]):
    g(A)
