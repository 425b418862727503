# expect: 11:7: argument 'A' of 'g' must be an array variable
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def g(A: int32[N]):
    A[0] = 1

@kernel
def f(A: int32[N]):
    g(A[0])
