# expect: 13:6: schedules of kernel 'k'
import vichls
from vichls import kernel, int32


@kernel
def k(a: int32[8]):
    for i in range(8):
        a[i] += 1


s1 = vichls.customize(k).unroll("i", factor=2)
s2 = vichls.customize(k).pipeline("i")
