# expect: 6:10: the width of fixed(W, I) must be 1 to 64, got 65
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(65, 3)[4]):
    a[0] = a[1]
