# expect: 6:10: the width of ufixed(W, I) must be an integer, got int32
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: ufixed(int32, 3)[4]):
    a[0] = a[1]
