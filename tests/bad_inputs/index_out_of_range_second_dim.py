# expect: 7:10: index 4 is out of range for dimension of size 4 of 'A'
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[4, 4]):
    A[1, 4] = 0
