# expect: 7:9: a float literal needs a fixed-point type: declare 'y' with one
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    y = 0.5
    a[0] = a[1]
