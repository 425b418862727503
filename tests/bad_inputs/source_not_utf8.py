# expect: 2:6: not valid utf-8 text
# café (a Latin-1 byte in a file without an encoding declaration)
from vichls import kernel, int32


@kernel
def k(a: int32) -> int32:
    return a
