# expect: 7:5: 't' is a FIFO between tasks
from vichls import kernel, int32
import vichls
N = 8
@kernel
def f(A: int32[N], B: int32[N]):
    t: int32[N] = 0
    for i in range(N):
        t[i] = A[i] + 1
    for j in range(N):
        B[j] = t[j]
s = vichls.customize(f)
s.dataflow()
s.partition("t", dim=1, factor=2)
