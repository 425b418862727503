# expect: 7:12: the literal 340282366920938463463374607431768211456 needs fixed(130, 130), wider than 64 bits
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3)[4]):
    a[0] = a[1] + 340282366920938463463374607431768211456
