# expect: 7:20: conversions between float32 and fixed-point values are not supported yet
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4], b: fixed(8, 3)[4]):
    a[0] = float32(b[0])
