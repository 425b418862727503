# expect: 7:20: a range bound must be an integer, not fixed(8, 3)
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4], x: fixed(8, 3)):
    for i in range(x):
        a[0] = a[1]
