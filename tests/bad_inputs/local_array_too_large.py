# expect: 7:10: an array holds at most
from vichls import kernel, int32


@kernel
def big(a: int32[8]) -> int32:
    buf: int32[1048576, 1048576] = 0
    return buf[1, 2] + a[0]
