# expect: 7:12: a float literal is a fixed-point value: the other operand must be fixed-point too
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: int32[4]):
    a[0] = a[1] * 0.5
