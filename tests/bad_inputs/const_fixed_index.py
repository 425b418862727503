# expect: 10:14: an array index must be an integer, not fixed(8, 3)
import vichls
from vichls import kernel, int32, int8, fixed

T = vichls.const([1, 2], int8)


@kernel
def f(a: int32[4], x: fixed(8, 3)):
    a[0] = T[x]
