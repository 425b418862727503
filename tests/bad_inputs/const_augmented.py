# expect: 10:5: 'T' is a constant array (vichls.const): it cannot be written
import vichls
from vichls import kernel, int32, int8

T = vichls.const([1, 2, 3, 4], int8)


@kernel
def f(a: int32[4]):
    T[1] += 1
