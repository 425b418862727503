# expect: 7:14: an array index must be an integer, not float32
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4], x: float32):
    a[0] = a[x]
