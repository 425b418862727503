# expect: 7:9: str constants are not supported (integers and float literals only)
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N]):
    x = 'abc'
