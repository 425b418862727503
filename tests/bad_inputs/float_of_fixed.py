# expect: 7:20: cannot convert between float32 and fixed(8, -130): fixed(8, -130) has 138 fractional bits
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(a: float32[4], b: fixed(8, -130)[4]):
    a[0] = float32(b[0])
