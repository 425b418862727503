# expect: 8:14: the width of fixed(W, I) must be a constant from 1 to 64
from __future__ import annotations
from vichls import kernel, fixed


@kernel
def f(a: fixed(8, 3)[4]):
    x: fixed(0, 3) = a[0]
    a[1] = x
