# expect: 12:1: s.partition('A', dim=1, factor=4, kind='cyclic'): 'A' is already partitioned on every dimension by
from vichls import kernel, bool_, int8, int16, int32, int64, int_, uint8, uint16, uint32, uint64, uint_
import vichls
N = 8
@kernel
def f(A: int32[N, N], b: int32):
    for i in range(N):
        for j in range(N):
            A[i, j] = b
s = vichls.customize(f)
s.partition("A", dim=0, factor=2)
s.partition("A", dim=1, factor=4)
