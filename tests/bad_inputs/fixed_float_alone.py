# expect: 7:8: a float literal needs a fixed-point or float32 type beside it
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    if 0.75:
        a[1] = a[2]
