# expect: 11:12: call to kernel 'g' is recursive: recursion is not supported
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def g(A: int32[N]) -> int32:
    return f(A)

@kernel
def f(A: int32[N]) -> int32:
    return g(A)
