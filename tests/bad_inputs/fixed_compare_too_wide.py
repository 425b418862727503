# expect: 7:8: a value of both fixed(64, 0) and fixed(64, 63) needs fixed(127, 63), wider than 64 bits
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(64, 0)[4], b: fixed(64, 63)[4]):
    if a[0] < b[0]:
        a[1] = a[2]
