# expect: 6:10: quant must be one of trn, trn_zero, rnd
from vichls import kernel, fixed, ufixed, int32, int8


@kernel
def f(a: fixed(8, 3, quant="round")[4]):
    a[0] = a[1]
