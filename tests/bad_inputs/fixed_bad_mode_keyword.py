# expect: 6:10: fixed() got an unexpected keyword argument 'mode'
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3, mode="rnd")[4]):
    a[0] = a[1]
