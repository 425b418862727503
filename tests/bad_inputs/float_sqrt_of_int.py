# expect: 7:17: 'sqrt' of float32 and int32: convert the other operand
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4], b: int32[4]):
    a[0] = sqrt(b[0])
