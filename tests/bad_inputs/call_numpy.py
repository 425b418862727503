# expect: 8:12: call to 'np.int32' is not supported: kernels may call other @kernel
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
import numpy as np
@kernel
def f(a: int32) -> int32:
    return np.int32(a)
