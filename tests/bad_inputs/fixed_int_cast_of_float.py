# expect: 7:18: a float literal becomes only a fixed-point or float32 value, not int32
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: int32[4]):
    a[0] = int32(2.5)
