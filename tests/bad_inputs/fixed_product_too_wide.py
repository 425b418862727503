# expect: 7:12: needs fixed(80, 40), wider than 64 bits
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(40, 20)[4]):
    a[0] = a[1] * a[2]
