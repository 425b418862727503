# expect: 8:26: quant must be one of
from __future__ import annotations
from vichls import kernel, fixed


@kernel
def f(a: fixed(8, 3)[4]):
    x: fixed(8, 3, quant="round") = a[0]
    a[1] = x
