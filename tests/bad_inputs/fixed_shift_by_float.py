# expect: 7:12: the amount of a shift must be an integer
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    a[0] = a[1] >> 0.5
