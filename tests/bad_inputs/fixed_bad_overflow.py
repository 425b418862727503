# expect: 6:10: overflow must be one of wrap, sat, sat_zero, sat_sym; got 'clip'
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: ufixed(8, 3, overflow="clip")[4]):
    a[0] = a[1]
