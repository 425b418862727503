# expect: 7:12: division of fixed-point values is not supported yet
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    a[0] = a[1] / a[2]
