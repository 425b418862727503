# expect: 7:12: '+' of float32 and int32: convert the other operand, as in float32(x)
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4], b: int32[4]):
    a[0] = a[1] + b[0]
