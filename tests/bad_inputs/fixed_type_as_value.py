# expect: 7:12: fixed(W, I) is a type; cast with fixed(W, I)(x)
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    a[0] = fixed(8, 3)
