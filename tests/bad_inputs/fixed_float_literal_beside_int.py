# expect: 7:12: a float literal is a fixed-point or float32 value: the other operand must be one too
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: int32[4]):
    a[0] = a[1] * 0.5
