# expect: 5:5: vichls.const: int8 holds integers; the values have fractions
import vichls
from vichls import kernel, int32, int8

T = vichls.const([1.5, 2], int8)


@kernel
def f(a: int32[4]):
    a[0] = T[0]
