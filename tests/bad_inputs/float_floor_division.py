# expect: 7:12: '//' is not defined for float32 values
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4]):
    a[0] = a[1] // a[2]
