# expect: 6:17: streams of float32 values are not supported yet
from vichls import kernel, float32, int32, stream, sqrt, fixed


@kernel
def f(s: stream[float32], a: float32[4]):
    a[0] = s.get()
