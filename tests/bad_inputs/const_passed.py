# expect: 15:7: constant array 'T' cannot be passed to a kernel; 'g' can read it by name
import vichls
from vichls import kernel, int32, int8

T = vichls.const([1, 2, 3, 4], int8)


@kernel
def g(b: int8[4]):
    b[0] = 1


@kernel
def f(a: int32[4]):
    g(T)
