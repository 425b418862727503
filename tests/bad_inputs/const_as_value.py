# expect: 10:12: constant array 'T' used as a value; index it
import vichls
from vichls import kernel, int32, int8

T = vichls.const([1, 2, 3, 4], int8)


@kernel
def f(a: int32[4]):
    a[0] = T
