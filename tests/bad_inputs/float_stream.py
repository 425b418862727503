# expect: 12:7: argument 's' of 'g' must be a stream of int32, got stream[float32, 2]
from vichls import kernel, float32, int32, stream


@kernel
def g(s: stream[int32], a: int32[4]):
    a[0] = s.get()


@kernel
def f(s: stream[float32], a: int32[4]):
    g(s, a)
