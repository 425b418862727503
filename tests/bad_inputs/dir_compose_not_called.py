# expect: 18:1: does not call 'other'
import vichls
from vichls import kernel, int32


@kernel
def other(a: int32[8]):
    for i in range(8):
        a[i] += 1


@kernel
def top(a: int32[8]):
    for i in range(8):
        a[i] *= 2


vichls.customize(top).compose(vichls.customize(other).pipeline("i"))
