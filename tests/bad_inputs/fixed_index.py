# expect: 7:14: an array index must be an integer, not fixed(8, 3)
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4], x: fixed(8, 3)):
    a[0] = a[x]
