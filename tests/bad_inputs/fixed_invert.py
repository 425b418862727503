# expect: 7:12: '~' is not defined for fixed(8, 3) values
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    a[0] = ~a[1]
